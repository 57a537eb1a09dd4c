// The desktop's notice of a long answer that ended while the user worked elsewhere.
#include "fakenotifications.h"
#include "peerbus.h"
#include "testprofile.h"

#include <session/conversationsession.h>
#include <session/sessionmanager.h>
#include <turnnotifier.h>

#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestTurnNotifier : public QObject
{
    Q_OBJECT

    TestProfile m_profile;

    void open(bool enabled)
    {
        QCOMPARE(m_profile.open({QStringLiteral("sandbox/enabled=false"),
                                 QStringLiteral("notifications/enabled=") + QLatin1String(enabled ? "true" : "false")}),
                 QString());
    }

private Q_SLOTS:
    void cleanup() { QVERIFY(m_profile.close()); }

    void aLongAnswerInTheBackgroundIsAnnounced()
    {
        open(true);
        FakeNotifications service;
        PeerBus bus(&service, QStringLiteral("/org/freedesktop/Notifications"), QStringLiteral("turns"));
        QVERIFY2(bus.connect(), qPrintable(bus.error()));
        const auto session = m_profile.sessions()->create();
        QVERIFY(session);
        QVERIFY((*session)->rename(QStringLiteral("Penguins")));
        QWidget window; // never shown, so never the active window
        TurnNotifier notifier(m_profile.settings(), m_profile.sessions(), &window, bus.client());
        const qint64 id = (*session)->id();
        const qint64 longTurn = DesktopNotifier::minimumTurnMs + 1000;

        notifier.announce(id, AgentEvent::End::Completed, longTurn);
        QTRY_COMPARE(service.calls.size(), 1);
        QCOMPARE(service.calls.at(0).summary, QStringLiteral("Penguins"));
        QCOMPARE(service.calls.at(0).body, QStringLiteral("The answer is ready."));

        notifier.announce(id, AgentEvent::End::Failed, longTurn);
        QTRY_COMPARE(service.calls.size(), 2);
        QCOMPARE(service.calls.at(1).body, QStringLiteral("The answer failed."));

        // A conversation that is not open has no title to give.
        notifier.announce(id + 1000, AgentEvent::End::Completed, longTurn);
        QTRY_COMPARE(service.calls.size(), 3);
        QCOMPARE(service.calls.at(2).summary, QStringLiteral("Sandpiper"));

        // Neither a short answer nor a stopped one is worth a notice.
        notifier.announce(id, AgentEvent::End::Completed, DesktopNotifier::minimumTurnMs - 1000);
        notifier.announce(id, AgentEvent::End::Cancelled, longTurn);
        QTest::qWait(300);
        QCOMPARE(service.calls.size(), 3);
    }

    void notOnceTheUserTurnedNoticesOff()
    {
        open(false);
        FakeNotifications service;
        PeerBus bus(&service, QStringLiteral("/org/freedesktop/Notifications"), QStringLiteral("quiet"));
        QVERIFY2(bus.connect(), qPrintable(bus.error()));
        QWidget window;
        TurnNotifier notifier(m_profile.settings(), m_profile.sessions(), &window, bus.client());
        notifier.announce(1, AgentEvent::End::Completed, DesktopNotifier::minimumTurnMs + 1000);
        QTest::qWait(300);
        QCOMPARE(service.calls.size(), 0);
    }
};

QTEST_MAIN(TestTurnNotifier)
#include "tst_turnnotifier.moc"
