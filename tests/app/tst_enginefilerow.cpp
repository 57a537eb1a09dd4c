// A file that a remote engine's container kept (too large to copy back after the execution), as
// the chat's file row shows it: its size and where it is, and Open copies it here, whole, through
// the checks of every file from the sandbox, then hands the desktop its private copy. Against the
// second, "remote" Docker engine that scripts/test starts (SANDPIPER_REMOTE_DOCKER_HOST).
#include "desktoprecorder.h"
#include "dockertest.h"
#include "executioncheck.h"

#include <chat/sandboxfilerow.h>
#include <sandbox/sandboxfolder.h>
#include <sandbox/sandboxsession.h>

#include <QDesktopServices>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <QCoroTask>

using namespace std::chrono_literals;
using namespace Sandpiper;
using Status = ExecutionResult::Status;
using Sandpiper::Test::describeExecution;

class TestEngineFileRow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Sandpiper::Test::DesktopRecorder m_desktop;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &m_desktop, "open");
        if (!Sandpiper::Test::remoteDockerHost().isEmpty())
            qputenv("DOCKER_HOST", Sandpiper::Test::remoteDockerHost().toUtf8());
    }
    void cleanupTestCase() { QDesktopServices::unsetUrlHandler(QStringLiteral("file")); }
    void init() { SANDPIPER_REQUIRE_AVAILABLE(Sandpiper::Test::remoteEngineUnavailableReason()); }

    void openFetchesTheFileWholeAndHandsOnItsCopy()
    {
        SandboxConfig config;
        config.image = Sandpiper::Test::sandboxImage();
        config.conversationId = QStringLiteral("row");
        config.dataDirectory = m_dir.filePath(QStringLiteral("row"));
        config.memory = QStringLiteral("1g");
        SandboxSession session(config);
        const auto r = QCoro::waitFor(
            session.execute(QStringLiteral("open('big.csv', 'w').write('v\\n' + '1234567\\n' * (20 * 131072))")));
        CHECK_STATUS(r, Status::Ok);
        const QByteArray expected = QByteArray("v\n") + QByteArray("1234567\n").repeated(20 * 131072);
        QCOMPARE(r.onEngine.value(QStringLiteral("big.csv"), -1), expected.size());

        SandboxFileRow row(config.dataDirectory, QStringLiteral("big.csv"), expected.size());
        row.show();
        QVERIFY(QTest::qWaitForWindowExposed(&row));
        auto *label = row.findChild<QLabel *>();
        QCOMPARE(label->accessibleName(),
                 QStringLiteral("big.csv (%1, on the Docker engine)").arg(SandboxFolder::formatBytes(expected.size())));
        QPushButton *open = nullptr;
        for (QPushButton *button : row.findChildren<QPushButton *>())
            if (button->accessibleName() == QLatin1String("Open big.csv"))
                open = button;
        QVERIFY(open);
        open->click();
        QVERIFY(!open->isEnabled()); // while it is being copied
        QTRY_COMPARE_WITH_TIMEOUT(m_desktop.opened.size(), 1, 60000);
        QFile copy(m_desktop.opened.first().toLocalFile());
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QVERIFY(copy.readAll() == expected);
        QFile here(config.dataDirectory + QStringLiteral("/big.csv"));
        QVERIFY(here.open(QIODevice::ReadOnly));
        QVERIFY(here.readAll() == expected);
        QCOMPARE(label->accessibleName(), QStringLiteral("big.csv"));
        QVERIFY(open->isEnabled());
    }
};

QTEST_MAIN(TestEngineFileRow)
#include "tst_enginefilerow.moc"
