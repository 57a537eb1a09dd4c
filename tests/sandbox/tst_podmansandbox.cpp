// The sandbox on rootless podman as the docker client (issue 18): scripts/test runs this test as
// a user of rootless podman of its own (scripts/lib/podman-engine.sh, run-as-podman-user.sh) with
// SANDPIPER_DOCKER=podman. The engine is found to be podman, rootless, on this machine; the
// user's id is kept inside (--userns=keep-id), so what the code writes belongs to the user and
// can be deleted; the hardening holds, the limits the engine cannot enforce are said, not asked
// for; uploads, figures, a restart, a timeout, an interrupt, the disk limit and hostile files work
// as with Docker; and Debian's podman-docker (`docker` is podman) is recognised as podman.
#include "dockertest.h"
#include "executioncheck.h"
#include "sandboxfiles.h"
#include "sandboxfixture.h"

#include <sandbox/dockercli.h>
#include <sandbox/enginefeatures.h>
#include <sandbox/enginelocality.h>
#include <sandbox/enginestatus.h>
#include <sandbox/sandboxfolder.h>
#include <sandbox/sandboxsession.h>

#include <QCoroTask>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <unistd.h>

using namespace std::chrono_literals;
using Sandpiper::DockerCli;
using Sandpiper::EngineFeatures;
using Sandpiper::EngineLocality;
using Sandpiper::ExecuteOptions;
using Sandpiper::ExecutionResult;
using Sandpiper::SandboxConfig;
using Sandpiper::SandboxSession;
using Sandpiper::Test::describeExecution;
using Sandpiper::Test::readFile;
using Sandpiper::Test::run;
using Sandpiper::Test::writeFile;
using Status = Sandpiper::ExecutionResult::Status;

namespace {

QString podmanUnavailableReason()
{
    if (QStandardPaths::findExecutable(QStringLiteral("podman")).isEmpty())
        return QStringLiteral("podman is not installed (scripts/test installs it in the build environment)");
    if (QFileInfo(DockerCli::program()).fileName() != QLatin1String("podman"))
        return QStringLiteral("podman is not set up: scripts/test runs this test as the user of a rootless podman");
    if (::getuid() == 0)
        return QStringLiteral("this test runs as root, so podman is not rootless (scripts/test runs it as a user)");
    return Sandpiper::Test::dockerUnavailableReason();
}

bool ownedByTheUser(const QString &path)
{
    const QFileInfo info(path);
    return info.exists() && info.ownerId() == ::getuid() && info.groupId() == ::getgid();
}

} // namespace

class TestPodmanSandbox : public QObject
{
    Q_OBJECT

    Sandpiper::Test::SandboxFixture m_sandbox;

    SandboxSession &shared() { return m_sandbox.shared(); }
    QString sharedPath(const QString &name) { return m_sandbox.sharedPath(name); }

private Q_SLOTS:
    void init() { SANDPIPER_REQUIRE_AVAILABLE(podmanUnavailableReason()); }
    void cleanupTestCase() { m_sandbox.reset(); }

    void theEngineIsRootlessPodmanOnThisMachine()
    {
        const EngineFeatures features = QCoro::waitFor(EngineFeatures::of());
        QCOMPARE(features.engine, EngineFeatures::Engine::Podman);
        QVERIFY(features.rootless);
        QVERIFY(features.keepsUserId());
        QVERIFY2(features.summary().startsWith(QLatin1String("podman 5.")), qPrintable(features.summary()));
        QCOMPARE(QCoro::waitFor(EngineLocality::of(Sandpiper::Test::sandboxImage())), EngineLocality::Kind::Local);
        const auto status = QCoro::waitFor(Sandpiper::EngineStatus::check(Sandpiper::Test::sandboxImage()));
        QVERIFY2(status.summary().startsWith(QLatin1String("the default engine: on this machine, answers in ")),
                 qPrintable(status.summary()));
        QVERIFY2(status.summary().contains(QLatin1String("(podman 5.")), qPrintable(status.summary()));
    }

    void printsAndReadsAnUpload()
    {
        QVERIFY(writeFile(sharedPath(QStringLiteral("sales.csv")), "month,revenue\n1,10\n2,32\n"));
        const auto r = run(shared(), QStringLiteral("import pandas as pd\nprint(2 + 2)\n"
                                                    "int(pd.read_csv('sales.csv').revenue.sum())"));
        CHECK_STATUS(r, Status::Ok);
        QVERIFY(!shared().isRemote());
        QCOMPARE(r.standardOutput, QStringLiteral("4\n"));
        QCOMPARE(r.value, QStringLiteral("42"));
    }

    // keep-id: the kernel runs as this user, as the same id; nothing privileged is left to it.
    void theHardeningHoldsAndTheUserIsTheSame()
    {
        const auto r = run(
            shared(),
            QStringLiteral("import os\nstatus = open('/proc/self/status').read()\n"
                           "caps = [l.split()[1] for l in status.splitlines() if l.startswith('CapEff')]\n"
                           "nnp = [l.split()[1] for l in status.splitlines() if l.startswith('NoNewPrivs')]\n"
                           "try:\n    open('/usr/evil', 'w')\n    root = 'writable'\n"
                           "except OSError as e:\n    root = 'read-only'\n"
                           "(os.getuid(), os.getgid(), caps[0], nnp[0], root, sorted(os.listdir('/sys/class/net')))"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(
            r.value,
            QStringLiteral("(%1, %2, '0000000000000000', '1', 'read-only', ['lo'])").arg(::getuid()).arg(::getgid()));
    }

    // Limits the engine cannot enforce (all of them, rootless on cgroup v1) are not asked for,
    // and the first execution says so; those it enforces hold in the container's cgroup.
    void theLimitsAreEnforcedOrSaidNotToBe()
    {
        const EngineFeatures features = QCoro::waitFor(EngineFeatures::of());
        SandboxSession session(m_sandbox.config(QStringLiteral("limits")));
        const auto first = run(session, QStringLiteral("import os\nopen('/sys/fs/cgroup/memory.max').read().strip() "
                                                       "if os.path.exists('/sys/fs/cgroup/memory.max') else None"));
        CHECK_STATUS(first, Status::Ok);
        if (features.memoryLimit && features.pidsLimit && features.cpuLimit) {
            QVERIFY2(first.notes.isEmpty(), qPrintable(describeExecution(first)));
            QCOMPARE(first.value, QStringLiteral("'%1'").arg(qint64(1) << 30));
            return;
        }
        QVERIFY2(
            first.notes.join(u'\n').contains(QLatin1String("This engine does not enforce the sandbox's limits on")),
            qPrintable(describeExecution(first)));
        QVERIFY(first.notes.join(u'\n').contains(features.limitsWarning()));
        const auto second = run(session, QStringLiteral("1"));
        CHECK_STATUS(second, Status::Ok);
        QVERIFY2(second.notes.isEmpty(), qPrintable(describeExecution(second)));
    }

    void aFigureComesBackIntoTheFolderAsTheUsers()
    {
        const auto r = run(shared(), QStringLiteral("import matplotlib.pyplot as plt\nimport numpy as np\n"
                                                    "x = np.linspace(0, 6.3, 100)\nplt.plot(x, np.sin(x));"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.figures.size(), 1);
        QVERIFY(readFile(sharedPath(r.figures.constFirst())).startsWith("\x89PNG\r\n\x1a\n"));
        QVERIFY(ownedByTheUser(sharedPath(r.figures.constFirst())));
        QVERIFY2(r.refused.isEmpty(), qPrintable(describeExecution(r)));
    }

    void savedFilesBelongToTheUserAndCanBeDeleted()
    {
        const auto r = run(shared(), QStringLiteral("import os\nos.makedirs('out/deep', exist_ok=True)\n"
                                                    "open('out/deep/report.csv', 'w').write('a,b\\n1,2\\n')\n"
                                                    "fd = os.open('private.txt', os.O_WRONLY | os.O_CREAT, 0o600)\n"
                                                    "os.write(fd, b'mine'); os.close(fd)"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(QSet<QString>(r.files.cbegin(), r.files.cend()),
                 (QSet<QString>{QStringLiteral("out/deep/report.csv"), QStringLiteral("private.txt")}));
        for (const QString &name : {QStringLiteral("out"), QStringLiteral("out/deep"),
                                    QStringLiteral("out/deep/report.csv"), QStringLiteral("private.txt")})
            QVERIFY2(ownedByTheUser(sharedPath(name)), qPrintable(name));
        QCOMPARE(readFile(sharedPath(QStringLiteral("private.txt"))), QByteArray("mine"));
        QVERIFY(QFile::remove(sharedPath(QStringLiteral("private.txt"))));
        QVERIFY(QDir(sharedPath(QStringLiteral("out"))).removeRecursively());
        QVERIFY(!QFileInfo::exists(sharedPath(QStringLiteral("out"))));
    }

    void aRestartKeepsTheFilesNotTheVariables()
    {
        CHECK_STATUS(run(shared(), QStringLiteral("kept = 1\nopen('notes.txt', 'w').write('written before')")),
                     Status::Ok);
        shared().restart();
        const auto r = run(shared(), QStringLiteral("open('notes.txt').read(), 'kept' in globals()"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QStringLiteral("('written before', False)"));
        QVERIFY(r.stateReset);
    }

    // podman kill --signal INT reaches the kernel through catatonit (--init), as through tini.
    void aTimeoutAndAnInterruptStopTheCodeAndKeepTheState()
    {
        run(shared(), QStringLiteral("kept = 7"));
        const auto timedOut = run(shared(), QStringLiteral("while True:\n    pass"), ExecuteOptions{.timeout = 1500ms});
        CHECK_STATUS(timedOut, Status::Interrupted);
        QVERIFY(timedOut.timedOut);
        QVERIFY(!timedOut.stateLost);
        QTimer::singleShot(1500ms, &shared(), [this] { shared().interrupt(); });
        const auto stopped = run(shared(), QStringLiteral("import time\ntime.sleep(60)"));
        CHECK_STATUS(stopped, Status::Interrupted);
        QVERIFY(!stopped.timedOut);
        QVERIFY(!stopped.stateLost);
        QCOMPARE(run(shared(), QStringLiteral("kept")).value, QStringLiteral("7"));
    }

    void theDiskLimitHolds()
    {
        SandboxConfig config = m_sandbox.config(QStringLiteral("disk"));
        config.diskLimitBytes = 32 << 20;
        SandboxSession session(config);
        const auto r = run(session, QStringLiteral("import time\nwith open('fill.bin', 'wb') as f:\n"
                                                   "    for _ in range(1000):\n"
                                                   "        f.write(b'0' * (1 << 20))\n        f.flush()\n"
                                                   "        time.sleep(0.01)"));
        CHECK_STATUS(r, Status::Interrupted);
        QVERIFY2(r.stopReason.contains(QLatin1String("reached the 32 MiB limit")), qPrintable(r.stopReason));
        const QString fill = config.dataDirectory + QStringLiteral("/fill.bin");
        QVERIFY(QFileInfo(fill).size() < 1000 << 20);
        QVERIFY(ownedByTheUser(fill));
        QVERIFY(QFile::remove(fill));
    }

    void hostileFilesAreRefused_data() { Sandpiper::Test::addHostileFileRows(); }
    void hostileFilesAreRefused()
    {
        QFETCH(QString, code);
        QFETCH(QString, name);
        QFETCH(QString, reason);
        Sandpiper::Test::checkHostileFileRefused(m_sandbox, code, name, reason);
    }

    // Debian's podman-docker: `docker` is a script that runs podman. Found to be podman all the
    // same, and the sandbox runs through it.
    void podmanDockerIsRecognisedAsPodman()
    {
        QTemporaryDir bin;
        QVERIFY(writeFile(bin.path() + QStringLiteral("/docker"), "#!/bin/sh\nexec podman \"$@\"\n"));
        QVERIFY(QFile::setPermissions(bin.path() + QStringLiteral("/docker"),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QByteArray path = qgetenv("PATH");
        const QByteArray program = qgetenv("SANDPIPER_DOCKER");
        qputenv("PATH", QByteArray(QFile::encodeName(bin.path()) + ':' + path));
        qunsetenv("SANDPIPER_DOCKER");
        const auto restore = qScopeGuard([&] {
            qputenv("PATH", path);
            qputenv("SANDPIPER_DOCKER", program);
        });
        QCOMPARE(DockerCli::program(), QStringLiteral("docker"));
        const EngineFeatures features = QCoro::waitFor(EngineFeatures::of());
        QCOMPARE(features.engine, EngineFeatures::Engine::Podman);
        QVERIFY(features.keepsUserId());
        SandboxSession session(m_sandbox.config(QStringLiteral("podman-docker")));
        const auto r = run(session, QStringLiteral("import os\nopen('x.txt', 'w').write('x')\nos.getuid()"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QString::number(::getuid()));
        QVERIFY(ownedByTheUser(session.config().dataDirectory + QStringLiteral("/x.txt")));
    }

    void theContainerGoesWithTheSession()
    {
        QString name;
        {
            SandboxSession session(m_sandbox.config(QStringLiteral("goes")));
            CHECK_STATUS(run(session, QStringLiteral("1")), Status::Ok);
            name = session.containerName();
            QVERIFY(
                QCoro::waitFor(DockerCli::run({QStringLiteral("container"), QStringLiteral("inspect"), name})).ok());
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            !QCoro::waitFor(DockerCli::run({QStringLiteral("container"), QStringLiteral("inspect"), name})).ok(),
            10000);
    }
};

QTEST_GUILESS_MAIN(TestPodmanSandbox)
#include "tst_podmansandbox.moc"
