// A download's progress on the app's icon: the Unity launcher API's Update signal, over the real
// D-Bus protocol on a peer connection (no session bus needed), as KDE Plasma and the GNOME docks
// receive it.
#include "peerbus.h"

#include <taskbarprogress.h>

#include <session/modeldownloads.h>
#include <settings/settings.h>

#include <QDBusConnection>
#include <QGuiApplication>
#include <QTemporaryDir>
#include <QTest>
#include <QVariantMap>

using namespace Sandpiper;
using Sandpiper::Test::PeerBus;

// The dock's end: every Update it hears.
class Dock : public QObject
{
    Q_OBJECT

public:
    struct Update {
        QString uri;
        QVariantMap properties;
    };
    QList<Update> updates;

public Q_SLOTS:
    void update(const QString &uri, const QVariantMap &properties) { updates.append({uri, properties}); }
};

class TestTaskbarProgress : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theDockHearsTheProgress()
    {
        QGuiApplication::setDesktopFileName(QStringLiteral("io.github.sandpiper.Sandpiper"));
        QObject nothing;
        PeerBus bus(&nothing, QStringLiteral("/"), QStringLiteral("taskbar"));
        QVERIFY2(bus.connect(), qPrintable(bus.error()));
        const QString uri = QStringLiteral("application://io.github.sandpiper.Sandpiper.desktop");
        QCOMPARE(TaskbarProgress::applicationUri(), uri);
        Dock dock;
        QVERIFY(bus.service().connect(QString(), TaskbarProgress::objectPath(uri),
                                      QStringLiteral("com.canonical.Unity.LauncherEntry"), QStringLiteral("Update"),
                                      &dock, SLOT(update(QString, QVariantMap))));

        TaskbarProgress progress(bus.client());
        QVERIFY(progress.show(0.42));
        QTRY_COMPARE(dock.updates.size(), 1);
        QCOMPARE(dock.updates.constFirst().uri, uri);
        QCOMPARE(dock.updates.constFirst().properties.value(QStringLiteral("progress")).toDouble(), 0.42);
        QCOMPARE(dock.updates.constFirst().properties.value(QStringLiteral("progress-visible")).toBool(), true);
        // The same percentage again is not sent again; the next one is.
        QVERIFY(progress.show(0.4204));
        QVERIFY(progress.show(0.43));
        QTRY_COMPARE(dock.updates.size(), 2);
        QCOMPARE(dock.updates.at(1).properties.value(QStringLiteral("progress")).toDouble(), 0.43);

        // A download that ends (or none at all) takes the progress off the icon.
        QTemporaryDir profile;
        Settings settings(profile.path());
        ModelDownloads downloads(&settings);
        progress.follow(&downloads);
        Q_EMIT downloads.changed();
        QTRY_COMPARE(dock.updates.size(), 3);
        QCOMPARE(dock.updates.at(2).properties.value(QStringLiteral("progress-visible")).toBool(), false);
    }

    void withoutABusNothingIsSent()
    {
        TaskbarProgress progress(QDBusConnection(QStringLiteral("no-such-connection")));
        QVERIFY(!progress.show(0.5));
    }
};

QTEST_MAIN(TestTaskbarProgress)
#include "tst_taskbarprogress.moc"
