// Desktop notifications over the real D-Bus protocol: a peer connection to a stand-in for the
// freedesktop notification service (no session bus needed), and when a turn deserves one.
#include "fakenotifications.h"
#include "peerbus.h"

#include <desktopnotifier.h>

#include <QDBusConnection>
#include <QGuiApplication>
#include <QTest>
#include <QVariantMap>

using namespace Sandpiper;
using Sandpiper::Test::FakeNotifications;
using Sandpiper::Test::PeerBus;

class TestDesktopNotifier : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void notifiesThroughTheNotificationService()
    {
        QGuiApplication::setApplicationDisplayName(QStringLiteral("Sandpiper"));
        QGuiApplication::setDesktopFileName(QStringLiteral("io.github.sandpiper.Sandpiper"));
        FakeNotifications service;
        PeerBus bus(&service, QStringLiteral("/org/freedesktop/Notifications"), QStringLiteral("notifier"));
        QVERIFY2(bus.connect(), qPrintable(bus.error()));

        DesktopNotifier notifier(bus.client());
        QVERIFY(notifier.notify(QStringLiteral("Sales analysis"), QStringLiteral("Revenue grew 33%.")));
        QTRY_COMPARE(service.calls.size(), 1);
        const FakeNotifications::Call &first = service.calls.constFirst();
        QCOMPARE(first.app, QStringLiteral("Sandpiper"));
        QCOMPARE(first.summary, QStringLiteral("Sales analysis"));
        QCOMPARE(first.body, QStringLiteral("Revenue grew 33%."));
        QCOMPARE(first.replaces, 0u);
        QCOMPARE(first.hints.value(QStringLiteral("desktop-entry")).toString(),
                 QStringLiteral("io.github.sandpiper.Sandpiper"));
        // The next notice replaces the first instead of piling up.
        QTest::qWait(200);
        QVERIFY(notifier.notify(QStringLiteral("Sales analysis"), QStringLiteral("Done again.")));
        QTRY_COMPARE(service.calls.size(), 2);
        QCOMPARE(service.calls.at(1).replaces, 41u);
    }

    void withoutABusNothingIsSent()
    {
        DesktopNotifier notifier(QDBusConnection(QStringLiteral("no-such-connection")));
        QVERIFY(!notifier.notify(QStringLiteral("t"), QStringLiteral("b")));
    }

    void onlyLongTurnsInTheBackgroundAreWorthIt_data()
    {
        QTest::addColumn<qint64>("durationMs");
        QTest::addColumn<bool>("active");
        QTest::addColumn<bool>("enabled");
        QTest::addColumn<bool>("expected");
        QTest::newRow("long, in the background") << qint64(12000) << false << true << true;
        QTest::newRow("long, watched") << qint64(12000) << true << true << false;
        QTest::newRow("quick") << qint64(4000) << false << true << false;
        QTest::newRow("turned off") << qint64(60000) << false << false << false;
    }

    void onlyLongTurnsInTheBackgroundAreWorthIt()
    {
        QFETCH(qint64, durationMs);
        QFETCH(bool, active);
        QFETCH(bool, enabled);
        QFETCH(bool, expected);
        QCOMPARE(DesktopNotifier::worthNotifying(durationMs, active, enabled), expected);
    }
};

QTEST_MAIN(TestDesktopNotifier)
#include "tst_desktopnotifier.moc"
