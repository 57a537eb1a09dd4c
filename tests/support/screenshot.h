#pragma once

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

} // namespace Sandpiper::Test
