// The settings' Tools tab on its own: set as a user would, saved, read back from the file.
#include "settingsprofile.h"
#include "widgetlookup.h"

#include <settingspages/toolsettingspage.h>
#include <tools/charttool.h>
#include <tools/fetchtool.h>
#include <tools/pythontool.h>
#include <tools/searchtool.h>

#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;

namespace {

void choose(QComboBox *combo, const QString &data)
{
    QVERIFY(combo);
    combo->setCurrentIndex(combo->findData(data));
    QCOMPARE(combo->currentData().toString(), data);
}

} // namespace

class TestToolSettingsPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void savesWhatIsChosen()
    {
        SettingsProfile profile;
        {
            ToolSettingsPage page(profile.settings());
            choose(findNamed<QComboBox>(&page, QStringLiteral("Approval for ") + PythonTool::toolName()),
                   QStringLiteral("auto"));
            choose(findNamed<QComboBox>(&page, QStringLiteral("Approval for ") + SearchTool::toolName()),
                   QStringLiteral("never"));
            choose(findNamed<QComboBox>(&page, QStringLiteral("Approval for ") + FetchTool::toolName()),
                   QStringLiteral("ask"));
            choose(findNamed<QComboBox>(&page, QStringLiteral("Approval for ") + ChartTool::toolName()),
                   QStringLiteral("never"));
            findNamed<QSpinBox>(&page, QStringLiteral("Maximum tool rounds per answer"))->setValue(9);
            auto *result = findNamed<QSpinBox>(&page, QStringLiteral("Longest tool result for the model"));
            QCOMPARE(result->value(), 0); // automatic until the user chooses
            QCOMPARE(result->text(), result->specialValueText());
            result->setValue(12000);
            auto *url = findNamed<QLineEdit>(&page, QStringLiteral("SearXNG URL"));
            choose(findNamed<QComboBox>(&page, QStringLiteral("Web search backend")), QStringLiteral("duckduckgo"));
            QVERIFY(!url->isEnabled()); // only SearXNG needs an address
            choose(findNamed<QComboBox>(&page, QStringLiteral("Web search backend")), QStringLiteral("searxng"));
            QVERIFY(url->isEnabled());
            url->setText(QStringLiteral("  https://searx.example/  "));
            page.save();
        }
        const auto reopened = profile.reopened();
        QCOMPARE(reopened->string(QStringLiteral("approval/execute_python_code")), QStringLiteral("auto"));
        QCOMPARE(reopened->string(QStringLiteral("approval/search_web")), QStringLiteral("never"));
        QCOMPARE(reopened->string(QStringLiteral("approval/fetch_url")), QStringLiteral("ask"));
        QCOMPARE(reopened->string(QStringLiteral("approval/create_chart")), QStringLiteral("never"));
        QCOMPARE(reopened->integer(QStringLiteral("agent/max_tool_rounds")), 9);
        QCOMPARE(reopened->integer(QStringLiteral("agent/result_chars")), 12000);
        QCOMPARE(reopened->string(QStringLiteral("search/backend")), QStringLiteral("searxng"));
        QCOMPARE(reopened->string(QStringLiteral("search/searxng_url")), QStringLiteral("https://searx.example/"));

        // Shown as saved the next time.
        ToolSettingsPage again(reopened.get());
        QCOMPARE(findNamed<QComboBox>(&again, QStringLiteral("Approval for search_web"))->currentData(),
                 QStringLiteral("never"));
        QCOMPARE(findNamed<QSpinBox>(&again, QStringLiteral("Maximum tool rounds per answer"))->value(), 9);
        QCOMPARE(findNamed<QSpinBox>(&again, QStringLiteral("Longest tool result for the model"))->value(), 12000);
        QVERIFY(findNamed<QLineEdit>(&again, QStringLiteral("SearXNG URL"))->isEnabled());
    }
};

QTEST_MAIN(TestToolSettingsPage)
#include "tst_toolsettingspage.moc"
