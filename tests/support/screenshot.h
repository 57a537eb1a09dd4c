#pragma once

#include "settingsoverrides.h"

#include <appearance.h>
#include <settings/settings.h>

#include <QApplication>
#include <QDir>
#include <QTest>
#include <QWidget>

namespace Sandpiper::Test {

// Saves what WIDGET shows as NAME in SANDPIPER_SCREENSHOT_DIR, when it is set. Tests never write
// into the source tree: SANDPIPER_SCREENSHOT_DIR=docs/screenshots refreshes the documentation's
// pictures. For the app's tests (they link the widgets).
inline void saveScreenshot(QWidget *widget, const QString &name)
{
    const QImage image = widget->grab().toImage();
    QVERIFY(!image.isNull());
    const QString folder = qEnvironmentVariable("SANDPIPER_SCREENSHOT_DIR");
    if (folder.isEmpty())
        return;
    QDir().mkpath(folder);
    QVERIFY(image.save(folder + QLatin1Char('/') + name));
}

// The rows of a screenshot test that is taken in each theme: a column "theme", light and dark.
inline void addThemeRows()
{
    QTest::addColumn<QString>("theme");
    QTest::newRow("light") << QStringLiteral("light");
    QTest::newRow("dark") << QStringLiteral("dark");
}

// Gives the app THEME's look (appearance/theme in SETTINGS) as it does when it starts: widgets
// made afterwards have it.
inline void applyTheme(Settings &settings, const QString &theme)
{
    QVERIFY(applySettings(settings, {QStringLiteral("appearance/theme=") + theme}).isEmpty());
    applyAppearance(*qApp, settings);
}

} // namespace Sandpiper::Test
