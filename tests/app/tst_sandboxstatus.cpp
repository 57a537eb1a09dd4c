// The sandbox's state in the status bar and the banner: off, checking, unavailable and why.
#include "testprofile.h"

#include <elidedlabel.h>
#include <sandboxstatus.h>
#include <session/sessionmanager.h>

#include <QLabel>
#include <QSignalSpy>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestSandboxStatus : public QObject
{
    Q_OBJECT

    TestProfile m_profile;

private Q_SLOTS:
    void cleanup() { QVERIFY(m_profile.close()); }

    void offIsSaidAtOnce()
    {
        QCOMPARE(m_profile.open({QStringLiteral("sandbox/enabled=false")}), QString());
        QWidget window;
        SandboxStatus status(m_profile.settings(), m_profile.sessions(), &window);
        QSignalSpy checked(&status, &SandboxStatus::checked);
        status.check();
        QCOMPARE(checked.count(), 1);
        QCOMPARE(status.label()->text(), QStringLiteral("Python: off"));
        QCOMPARE(status.label()->accessibleName(), QStringLiteral("Docker state"));
        QVERIFY(status.isPythonAvailable());
        QVERIFY(status.banner()->isHidden());
    }

    // Whether Docker is there or not, an image that does not exist leaves the sandbox unavailable.
    void anUnavailableSandboxShowsTheBannerAndStaysSo()
    {
        QCOMPARE(m_profile.open({QStringLiteral("sandbox/enabled=true"),
                                 QStringLiteral("sandbox/image=sandpiper-test-no-such-image"),
                                 QStringLiteral("sandbox/prewarm=false")}),
                 QString());
        QWidget window;
        SandboxStatus status(m_profile.settings(), m_profile.sessions(), &window);
        QSignalSpy changed(&status, &SandboxStatus::changed);
        QSignalSpy checked(&status, &SandboxStatus::checked);
        status.check();
        QCOMPARE(status.label()->text(), QStringLiteral("Docker: checking…"));
        QVERIFY(checked.wait(60000));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(status.label()->text(), QStringLiteral("Docker: unavailable"));
        QVERIFY(!status.isPythonAvailable());
        QVERIFY(!status.banner()->isHidden());
        QVERIFY2(status.banner()->text().contains(QLatin1String("<code>")), qPrintable(status.banner()->text()));
        QCOMPARE(status.banner()->accessibleName(), QStringLiteral("Sandbox status"));
        // A kernel's state does not cover the unavailable sandbox.
        status.showKernel(true);
        QCOMPARE(status.label()->text(), QStringLiteral("Docker: unavailable"));
    }
};

QTEST_MAIN(TestSandboxStatus)
#include "tst_sandboxstatus.moc"
