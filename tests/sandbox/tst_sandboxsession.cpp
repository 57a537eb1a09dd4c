// The sandbox against a real Docker engine: semantics, bad input, limits and recovery.
#include "dockertest.h"

#include <sandbox/dockercli.h>
#include <sandbox/sandboxsession.h>

#include <QCoroTask>
#include <QFile>
#include <QHostInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using Sandpiper::DockerCli;
using Sandpiper::ExecuteOptions;
using Sandpiper::ExecutionResult;
using Sandpiper::SandboxConfig;
using Sandpiper::SandboxSession;
using Status = Sandpiper::ExecutionResult::Status;

namespace {

SandboxConfig configFor(const QTemporaryDir &dir, const QString &conversation = QStringLiteral("test"))
{
    SandboxConfig config;
    config.image = Sandpiper::Test::sandboxImage();
    config.conversationId = conversation;
    config.dataDirectory = dir.path() + QStringLiteral("/data");
    config.memory = QStringLiteral("1g");
    config.executionTimeout = 30s;
    config.interruptGrace = 3s;
    return config;
}

ExecutionResult run(SandboxSession &session, const QString &code, ExecuteOptions options = {})
{
    return QCoro::waitFor(session.execute(code, options));
}

QString describe(const ExecutionResult &r)
{
    return QStringLiteral("status=%1 value=%2 error=%3: %4\nstdout=%5\nstderr=%6\n%7")
        .arg(ExecutionResult::statusName(r.status), r.value, r.errorType, r.errorMessage, r.standardOutput.left(500),
             r.standardError.left(500), r.traceback);
}

// NAME is a container's name or id.
bool containerExists(const QString &name)
{
    return QCoro::waitFor(DockerCli::run({QStringLiteral("container"), QStringLiteral("inspect"), name})).ok();
}

} // namespace

#define CHECK_STATUS(expression, expected)                                                                             \
    do {                                                                                                               \
        const ExecutionResult checked_ = (expression);                                                                 \
        QVERIFY2(checked_.status == (expected), qPrintable(describe(checked_)));                                       \
    } while (false)

class TestSandboxSession : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<SandboxSession> m_shared; // for tests that do not break their kernel

    SandboxSession &shared()
    {
        if (!m_shared)
            m_shared = std::make_unique<SandboxSession>(configFor(m_dir, QStringLiteral("shared")));
        return *m_shared;
    }

private Q_SLOTS:
    void init() { SANDPIPER_REQUIRE_DOCKER(); }
    void cleanupTestCase() { m_shared.reset(); }

    void showsTheLastExpressionAndPrints()
    {
        auto r = run(shared(), QStringLiteral("2 + 2"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QStringLiteral("4"));
        r = run(shared(), QStringLiteral("print(2 + 2)"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.standardOutput, QStringLiteral("4\n"));
        QVERIFY(r.value.isEmpty());
    }

    void keepsStateBetweenExecutions()
    {
        CHECK_STATUS(run(shared(), QStringLiteral("import math\nx = 41\ndef f(v):\n    return v + 1")), Status::Ok);
        const auto r = run(shared(), QStringLiteral("f(x), math.floor(2.5)"));
        QCOMPARE(r.value, QStringLiteral("(42, 2)"));
    }

    void codeSurvivesQuotingIntact_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("expectedOutput");
        QTest::newRow("single and double quotes")
            << QStringLiteral("print('it\\'s \"quoted\"')") << QStringLiteral("it's \"quoted\"\n");
        QTest::newRow("triple quotes") << QStringLiteral("print('''a \"\"\" b''' + \"\"\"c ''' d\"\"\")")
                                       << QStringLiteral("a \"\"\" bc ''' d\n");
        QTest::newRow("backslashes") << QStringLiteral("print(r'C:\\new\\table', '\\\\')")
                                     << QStringLiteral("C:\\new\\table \\\n");
        QTest::newRow("crlf line endings")
            << QStringLiteral("a = 1\r\nb = 2\r\nprint(a + b)\r\n") << QStringLiteral("3\n");
        QTest::newRow("tabs") << QStringLiteral("if True:\n\tprint('tab\\tbed')") << QStringLiteral("tab\tbed\n");
        QTest::newRow("unicode and emoji")
            << QStringLiteral("print('π ≈ 3.14, 你好, 🐦')") << QStringLiteral("π ≈ 3.14, 你好, 🐦\n");
        QTest::newRow("shell metacharacters")
            << QStringLiteral("print('$HOME `id` $(ls) && ; |')") << QStringLiteral("$HOME `id` $(ls) && ; |\n");
        QTest::newRow("json-looking text") << QStringLiteral("print('{\"id\": \"1\", \"event\": \"result\"}')")
                                           << QStringLiteral("{\"id\": \"1\", \"event\": \"result\"}\n");
    }

    void codeSurvivesQuotingIntact()
    {
        QFETCH(QString, code);
        QFETCH(QString, expectedOutput);
        const auto r = run(shared(), code);
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.standardOutput, expectedOutput);
    }

    void aNulCharacterIsAnErrorNotACrash()
    {
        const auto r = run(shared(), QString::fromUtf8("x = 1\0\n", 7));
        CHECK_STATUS(r, Status::Error);
        QVERIFY2(r.errorType.contains(QLatin1String("Error")), qPrintable(describe(r)));
        CHECK_STATUS(run(shared(), QStringLiteral("1")), Status::Ok);
    }

    void runsAMegabyteOfCode()
    {
        QString code = QStringLiteral("total = 0\n");
        while (code.size() < 1024 * 1024)
            code += QStringLiteral("total += 1  # padding padding padding padding\n");
        code += QStringLiteral("total");
        const auto r = run(shared(), code);
        CHECK_STATUS(r, Status::Ok);
        QVERIFY(r.value.toInt() > 20000);
    }

    void invalidUtf8BecomesReplacementCharacters()
    {
        const auto r =
            run(shared(),
                QStringLiteral("import sys\nsys.stdout.buffer.write(b'bad \\xff\\xfe end\\n')\nsys.stdout.flush()"));
        CHECK_STATUS(r, Status::Ok);
        QVERIFY2(r.standardOutput.contains(QChar(0xFFFD)), qPrintable(r.standardOutput));
        QVERIFY(r.standardOutput.contains(QLatin1String("end")));
    }

    void aHundredMegabyteFloodIsCapped()
    {
        QSignalSpy live(&shared(), &SandboxSession::output);
        const auto r =
            run(shared(),
                QStringLiteral(
                    "import sys\nchunk = 'x' * (1 << 20)\nfor _ in range(100):\n    sys.stdout.write(chunk)\n'done'"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QStringLiteral("'done'"));
        QVERIFY(r.standardOutput.size() <= 1024 * 1024);
        QVERIFY(r.standardOutput.size() > 0);
        QVERIFY2(r.droppedStdoutBytes >= 99LL * 1024 * 1024, qPrintable(QString::number(r.droppedStdoutBytes)));
        QVERIFY(live.count() > 0);
    }

    void showsFiguresFromSubplots()
    {
        const auto r = run(shared(), QStringLiteral("import matplotlib.pyplot as plt\nimport numpy as np\n"
                                                    "fig, ax = plt.subplots()\nx = np.linspace(0, 6.3, 100)\n"
                                                    "ax.plot(x, np.sin(x))\nax.set_title('sine');"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.figures.size(), 1);
        QFile png(shared().config().dataDirectory + QLatin1Char('/') + r.figures.first());
        QVERIFY2(png.open(QIODevice::ReadOnly), qPrintable(png.fileName()));
        QCOMPARE(png.read(8), QByteArray("\x89PNG\r\n\x1a\n"));
        QVERIFY(png.size() > 5000);
    }

    void reportsFilesWrittenToTheDataFolder()
    {
        const auto r = run(shared(), QStringLiteral("open('/mnt/data/report.csv', 'w').write('a,b\\n1,2\\n')"));
        CHECK_STATUS(r, Status::Ok);
        QVERIFY2(r.files.contains(QStringLiteral("report.csv")), qPrintable(r.files.join(u',')));
        QVERIFY(QFile::exists(shared().config().dataDirectory + QStringLiteral("/report.csv")));
    }

    void theRootFileSystemIsReadOnly()
    {
        const auto r = run(shared(), QStringLiteral("open('/usr/evil.txt', 'w')"));
        CHECK_STATUS(r, Status::Error);
        QVERIFY2(r.errorMessage.contains(QLatin1String("Read-only")), qPrintable(describe(r)));
    }

    void fillingTmpFailsCleanly()
    {
        const auto r = run(shared(), QStringLiteral("with open('/tmp/fill', 'wb') as f:\n"
                                                    "    for _ in range(400):\n        f.write(b'0' * (1 << 20))"));
        CHECK_STATUS(r, Status::Error);
        QVERIFY2(r.errorMessage.contains(QLatin1String("No space")), qPrintable(describe(r)));
        run(shared(), QStringLiteral("import os\nos.remove('/tmp/fill')"));
        CHECK_STATUS(run(shared(), QStringLiteral("1")), Status::Ok);
    }

    void theNetworkIsOffByDefault()
    {
        const auto r = run(shared(), QStringLiteral("import socket\nsocket.getaddrinfo('example.com', 80)"));
        CHECK_STATUS(r, Status::Error);
        QVERIFY2(r.errorType.contains(QLatin1String("gaierror")) || r.errorType.contains(QLatin1String("OSError")),
                 qPrintable(describe(r)));
        const auto interfaces = run(shared(), QStringLiteral("import os\nsorted(os.listdir('/sys/class/net'))"));
        QCOMPARE(interfaces.value, QStringLiteral("['lo']"));
    }

    void inputFailsAtOnce()
    {
        const auto r = run(shared(), QStringLiteral("input('name? ')"), ExecuteOptions{.timeout = 10s});
        CHECK_STATUS(r, Status::Error);
        QVERIFY(!r.timedOut);
        QVERIFY2(r.errorMessage.contains(QLatin1String("input()")), qPrintable(describe(r)));
    }

    void sysExitEndsTheCellNotTheKernel()
    {
        run(shared(), QStringLiteral("survivor = 'still here'"));
        const auto r = run(shared(), QStringLiteral("import sys\nsys.exit(3)"));
        CHECK_STATUS(r, Status::Error);
        QCOMPARE(r.errorType, QStringLiteral("SystemExit"));
        QCOMPARE(run(shared(), QStringLiteral("survivor")).value, QStringLiteral("'still here'"));
    }

    void closingStdoutDoesNotBreakTheKernel()
    {
        run(shared(), QStringLiteral("import sys, os\nsys.stdout.close()\nos.close(1)"));
        const auto r = run(shared(), QStringLiteral("print('back')"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.standardOutput, QStringLiteral("back\n"));
    }

    void aTimeoutInterruptsAndKeepsState()
    {
        run(shared(), QStringLiteral("kept = 7"));
        const auto r = run(shared(), QStringLiteral("while True:\n    pass"), ExecuteOptions{.timeout = 1500ms});
        CHECK_STATUS(r, Status::Interrupted);
        QVERIFY(r.timedOut);
        QVERIFY(!r.stateLost);
        QCOMPARE(run(shared(), QStringLiteral("kept")).value, QStringLiteral("7"));
    }

    void stopInterruptsAndKeepsState()
    {
        run(shared(), QStringLiteral("kept = 8"));
        QTimer::singleShot(1500ms, &shared(), [this] { shared().interrupt(); });
        const auto r = run(shared(), QStringLiteral("import time\ntime.sleep(60)"));
        CHECK_STATUS(r, Status::Interrupted);
        QVERIFY(!r.timedOut);
        QVERIFY(!r.stateLost);
        QCOMPARE(run(shared(), QStringLiteral("kept")).value, QStringLiteral("8"));
    }

    void codeThatSwallowsInterruptsGetsItsContainerReplaced()
    {
        QTemporaryDir dir;
        SandboxSession session(configFor(dir));
        run(session, QStringLiteral("doomed = 1"));
        const QString firstContainer = session.containerName();
        const auto r = run(session,
                           QStringLiteral("while True:\n    try:\n        while True:\n            pass\n"
                                          "    except KeyboardInterrupt:\n        pass"),
                           ExecuteOptions{.timeout = 1s});
        CHECK_STATUS(r, Status::Interrupted);
        QVERIFY(r.timedOut);
        QVERIFY(r.stateLost);
        const auto next = run(session, QStringLiteral("doomed"));
        CHECK_STATUS(next, Status::Error);
        QCOMPARE(next.errorType, QStringLiteral("NameError"));
        QVERIFY(next.stateReset);
        QVERIFY(session.containerName() != firstContainer);
        QTRY_VERIFY_WITH_TIMEOUT(!containerExists(firstContainer), 10000);
    }

    void runningOutOfMemoryIsReportedAndRecovered()
    {
        QTemporaryDir dir;
        auto config = configFor(dir);
        config.memory = QStringLiteral("256m");
        SandboxSession session(config);
        run(session, QStringLiteral("before = 1"));
        const auto r = run(session, QStringLiteral("hog = b'x' * (10 * 1024 ** 3)"));
        if (r.status == Status::Error) {
            QCOMPARE(r.errorType, QStringLiteral("MemoryError")); // the allocation was refused outright
        } else {
            CHECK_STATUS(r, Status::Crashed);
            QVERIFY2(r.errorMessage.contains(QLatin1String("memory")), qPrintable(describe(r)));
            const auto next = run(session, QStringLiteral("1 + 1"));
            CHECK_STATUS(next, Status::Ok);
            QVERIFY(next.stateReset);
            QVERIFY(!next.errorMessage.isEmpty());
        }
    }

    void kernelDeathIsCrashedThenRecovered_data()
    {
        QTest::addColumn<QString>("code");
        QTest::newRow("os._exit") << QStringLiteral("import os\nos._exit(3)");
        QTest::newRow("segfault") << QStringLiteral("import ctypes\nctypes.string_at(0)");
        QTest::newRow("kill own process") << QStringLiteral("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)");
    }

    void kernelDeathIsCrashedThenRecovered()
    {
        QFETCH(QString, code);
        QTemporaryDir dir;
        SandboxSession session(configFor(dir));
        run(session, QStringLiteral("lost = 1"));
        const auto r = run(session, code);
        CHECK_STATUS(r, Status::Crashed);
        QVERIFY(!r.errorMessage.isEmpty());
        const auto next = run(session, QStringLiteral("lost"));
        QCOMPARE(next.errorType, QStringLiteral("NameError"));
        QVERIFY(next.stateReset);
    }

    void killingPidOneDoesNotHurtTheApp()
    {
        QTemporaryDir dir;
        SandboxSession session(configFor(dir));
        run(session, QStringLiteral("import os, signal\nos.kill(1, signal.SIGKILL)"));
        // The container's init ignores it, or the kernel dies and is replaced: either way the
        // next execution works.
        CHECK_STATUS(run(session, QStringLiteral("'alive'")), Status::Ok);
    }

    void aForkBombIsContainedByThePidsLimit()
    {
        QTemporaryDir dir;
        SandboxSession bombed(configFor(dir, QStringLiteral("bomb")));
        SandboxSession bystander(configFor(dir, QStringLiteral("bystander")));
        CHECK_STATUS(run(bystander, QStringLiteral("calm = True")), Status::Ok);
        auto bomb =
            bombed.execute(QStringLiteral("import os\nwhile True:\n    os.fork()"), ExecuteOptions{.timeout = 5s});
        const auto r = run(bystander, QStringLiteral("calm"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QStringLiteral("True"));
        const auto bombResult = QCoro::waitFor(std::move(bomb));
        QVERIFY2(bombResult.status != Status::Ok, qPrintable(describe(bombResult)));
        // The bombed conversation is usable again, in its old kernel or in a fresh one.
        bombed.restart();
        CHECK_STATUS(run(bombed, QStringLiteral("'recovered'")), Status::Ok);
    }

    void twoConversationsAreIsolated()
    {
        QTemporaryDir dirA, dirB;
        SandboxSession a(configFor(dirA, QStringLiteral("a")));
        SandboxSession b(configFor(dirB, QStringLiteral("b")));
        auto ta = a.execute(
            QStringLiteral("import time\nsecret = 'A'\nopen('/mnt/data/mine.txt', 'w').write('A')\ntime.sleep(1)"));
        auto tb = b.execute(QStringLiteral("import time\nsecret = 'B'\ntime.sleep(1)"));
        CHECK_STATUS(QCoro::waitFor(std::move(ta)), Status::Ok);
        CHECK_STATUS(QCoro::waitFor(std::move(tb)), Status::Ok);
        QCOMPARE(run(a, QStringLiteral("secret")).value, QStringLiteral("'A'"));
        QCOMPARE(run(b, QStringLiteral("secret")).value, QStringLiteral("'B'"));
        QCOMPARE(run(b, QStringLiteral("import os\nos.path.exists('/mnt/data/mine.txt')")).value,
                 QStringLiteral("False"));
    }

    void restartGivesAFreshKernel()
    {
        QTemporaryDir dir;
        SandboxSession session(configFor(dir));
        run(session, QStringLiteral("old = 1"));
        session.restart();
        const auto r = run(session, QStringLiteral("old"));
        QCOMPARE(r.errorType, QStringLiteral("NameError"));
        QVERIFY(r.stateReset);
    }

    void anIdleSandboxStopsAndSaysSoLater()
    {
        QTemporaryDir dir;
        auto config = configFor(dir);
        config.idleStop = 1s;
        SandboxSession session(config);
        run(session, QStringLiteral("x = 1"));
        const QString container = session.containerName();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SandboxSession::State::Stopped, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!containerExists(container), 10000);
        const auto r = run(session, QStringLiteral("1"));
        CHECK_STATUS(r, Status::Ok);
        QVERIFY(r.stateReset);
        QVERIFY2(r.errorMessage.contains(QLatin1String("without use")), qPrintable(r.errorMessage));
    }

    void aMissingImageIsReportedClearly()
    {
        QTemporaryDir dir;
        auto config = configFor(dir);
        config.image = QStringLiteral("sandpiper-sandbox:does-not-exist");
        SandboxSession session(config);
        const auto r = run(session, QStringLiteral("1"));
        CHECK_STATUS(r, Status::Unavailable);
        QVERIFY2(r.errorMessage.contains(QLatin1String("does-not-exist")) ||
                     r.errorMessage.contains(QLatin1String("No such image")),
                 qPrintable(r.errorMessage));
        QCOMPARE(session.state(), SandboxSession::State::Stopped);
    }

    void destroyingTheSessionRemovesItsContainer()
    {
        QTemporaryDir dir;
        QString container;
        {
            SandboxSession session(configFor(dir));
            CHECK_STATUS(run(session, QStringLiteral("1")), Status::Ok);
            container = session.containerName();
            QVERIFY(containerExists(container));
        }
        QTRY_VERIFY_WITH_TIMEOUT(!containerExists(container), 10000);
    }

    void leftoverContainersOfDeadProcessesAreRemoved()
    {
        const QString host = QHostInfo::localHostName();
        auto start = [](const QString &owner) {
            const auto r = QCoro::waitFor(
                DockerCli::run({QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--rm"),
                                QStringLiteral("--label"), QStringLiteral("sandpiper.owner=") + owner,
                                Sandpiper::Test::sandboxImage(), QStringLiteral("sleep"), QStringLiteral("120")}));
            return QString::fromUtf8(r.standardOutput.trimmed()).left(12);
        };
        // A pid above the kernel's limit never runs; our own pid is alive.
        const QString orphan = start(host + QStringLiteral(":4194999"));
        const QString alive = start(host + QLatin1Char(':') + QString::number(QCoreApplication::applicationPid()));
        QVERIFY(!orphan.isEmpty() && !alive.isEmpty());
        QVERIFY(QCoro::waitFor(SandboxSession::removeLeftoverContainers()) >= 1);
        QTRY_VERIFY_WITH_TIMEOUT(!containerExists(orphan), 10000);
        QVERIFY(containerExists(alive));
        QCoro::waitFor(DockerCli::run({QStringLiteral("rm"), QStringLiteral("-f"), alive}));
    }

    void prewarmingMakesTheFirstExecutionWork()
    {
        QTemporaryDir dir;
        SandboxSession session(configFor(dir));
        session.prewarm();
        const auto r = run(session, QStringLiteral("import numpy, matplotlib.pyplot\nprint(1)"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.standardOutput, QStringLiteral("1\n"));
    }
};

QTEST_GUILESS_MAIN(TestSandboxSession)
#include "tst_sandboxsession.moc"
