// The settings' System prompt tab on its own: the default shown, an edit saved, the default kept
// as empty so that it follows later versions.
#include "settingsprofile.h"
#include "widgetlookup.h"

#include <settingspages/systempromptsettingspage.h>

#include <QPlainTextEdit>
#include <QPushButton>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestSystemPromptSettingsPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void anEditIsSavedAndResetBringsTheDefaultBack()
    {
        SettingsProfile profile;
        const QString defaultPrompt = profile.settings()->defaultSystemPrompt();
        QVERIFY(!defaultPrompt.isEmpty());
        {
            SystemPromptSettingsPage page(profile.settings());
            auto *prompt = findNamed<QPlainTextEdit>(&page, QStringLiteral("System prompt"));
            QCOMPARE(prompt->toPlainText(), defaultPrompt);
            prompt->setPlainText(QStringLiteral("  Be terse.\n"));
            page.save();
        }
        const auto reopened = profile.reopened();
        QCOMPARE(reopened->string(QStringLiteral("agent/system_prompt")), QStringLiteral("Be terse."));

        SystemPromptSettingsPage again(reopened.get());
        auto *prompt = findNamed<QPlainTextEdit>(&again, QStringLiteral("System prompt"));
        QCOMPARE(prompt->toPlainText(), QStringLiteral("Be terse."));
        findNamed<QPushButton>(&again, QStringLiteral("Reset the system prompt to the default"))->click();
        QCOMPARE(prompt->toPlainText(), defaultPrompt);
        again.save();
        QCOMPARE(profile.reopened()->string(QStringLiteral("agent/system_prompt")), QString());
    }
};

QTEST_MAIN(TestSystemPromptSettingsPage)
#include "tst_systempromptsettingspage.moc"
