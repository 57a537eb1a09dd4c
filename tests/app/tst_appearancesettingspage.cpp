// The settings' Appearance tab on its own: set as a user would, saved, read back from the file.
#include "settingsprofile.h"
#include "widgetlookup.h"

#include <settingspages/appearancesettingspage.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QPalette>
#include <QSpinBox>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestAppearanceSettingsPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void savesWhatIsChosenAndAppliesTheTheme()
    {
        SettingsProfile profile;
        {
            AppearanceSettingsPage page(profile.settings());
            auto *notifications = findNamed<QCheckBox>(&page, QStringLiteral("Desktop notifications"));
            QVERIFY(notifications->isChecked()); // on unless turned off
            notifications->setChecked(false);
            auto *theme = findNamed<QComboBox>(&page, QStringLiteral("Theme"));
            theme->setCurrentIndex(theme->findData(QStringLiteral("dark")));
            auto *language = findNamed<QComboBox>(&page, QStringLiteral("Language"));
            language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
            findNamed<QSpinBox>(&page, QStringLiteral("Chat font size"))->setValue(15);
            page.save();
            // The theme and the size change at once, not at the next start.
            QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(0x2b, 0x2d, 0x31));
            QCOMPARE(QApplication::font().pointSize(), 15);
        }
        const auto reopened = profile.reopened();
        QCOMPARE(reopened->string(QStringLiteral("appearance/theme")), QStringLiteral("dark"));
        QCOMPARE(reopened->string(QStringLiteral("appearance/language")), QStringLiteral("zh_CN"));
        QCOMPARE(reopened->integer(QStringLiteral("appearance/chat_font_size")), 15);
        QCOMPARE(reopened->boolean(QStringLiteral("notifications/enabled")), false);

        AppearanceSettingsPage again(reopened.get());
        QCOMPARE(findNamed<QComboBox>(&again, QStringLiteral("Theme"))->currentData(), QStringLiteral("dark"));
        QCOMPARE(findNamed<QComboBox>(&again, QStringLiteral("Language"))->currentData(), QStringLiteral("zh_CN"));
        QCOMPARE(findNamed<QSpinBox>(&again, QStringLiteral("Chat font size"))->value(), 15);
        QVERIFY(!findNamed<QCheckBox>(&again, QStringLiteral("Desktop notifications"))->isChecked());
    }
};

QTEST_MAIN(TestAppearanceSettingsPage)
#include "tst_appearancesettingspage.moc"
