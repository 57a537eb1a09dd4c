// A remote engine's file channel (issue 29): uploads reach the code and what it writes comes back on
// the kernel's own channel, with no `docker exec` per run, and what the code writes into that
// channel itself is forged input: a frame outside the folder, a frame of 10 GB, frames that are not
// frames, a flood, silence. The remote engine is the second dockerd scripts/test starts
// (SANDPIPER_REMOTE_DOCKER_HOST).
#include "dockertest.h"
#include "executioncheck.h"
#include "sandboxfiles.h"
#include "sandboxfixture.h"

#include <sandbox/dockercli.h>
#include <sandbox/enginestatus.h>
#include <sandbox/sandboxfolder.h>
#include <sandbox/sandboxsession.h>

#include <QCoroTask>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using Sandpiper::ExecutionResult;
using Sandpiper::SandboxConfig;
using Sandpiper::SandboxFolder;
using Sandpiper::SandboxSession;
using Sandpiper::Test::describeExecution;
using Sandpiper::Test::readFile;
using Sandpiper::Test::run;
using Sandpiper::Test::writeFile;
using Status = Sandpiper::ExecutionResult::Status;

namespace {

// Code that writes real.txt, then puts BODY in the kernel's place for the fetch that follows:
// forged(rid, request) runs instead of the kernel's send_files, and counts its calls.
QString forgingSend(const QString &body)
{
    return Sandpiper::Test::forgeKernel +
           QStringLiteral(
               "import base64, io, tarfile\n"
               "open('real.txt', 'w').write('genuine')\n"
               "def frame(rid, data):\n"
               "    kernel.emit({'event': 'file_data', 'id': rid, 'data': base64.b64encode(data).decode()})\n"
               "def entry(name, data=b'', size=None):\n"
               "    info = tarfile.TarInfo(name)\n"
               "    info.size = len(data) if size is None else size\n"
               "    head = info.tobuf(tarfile.PAX_FORMAT, 'utf-8', 'surrogateescape')\n"
               "    return head if size is not None else head + data + bytes(-len(data) % 512)\n"
               "def forged(rid, request):\n"
               "    kernel.forged_calls = getattr(kernel, 'forged_calls', 0) + 1\n") +
           body + QStringLiteral("\nkernel._send_files = forged\n");
}

// How often the forged send_files ran in SESSION's kernel.
QString forgedCalls(SandboxSession &session)
{
    return run(session, Sandpiper::Test::forgeKernel + QStringLiteral("getattr(kernel, 'forged_calls', 0)")).value;
}

// Runs the forged send BODY in SESSION; the run ends well and the forged send ran, once (a failure
// is the running test's: check QTest::currentTestFailed()).
ExecutionResult runForged(SandboxSession &session, const QString &body)
{
    const auto r = run(session, forgingSend(body));
    [&] {
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(forgedCalls(session), QStringLiteral("1"));
    }();
    return r;
}

} // namespace

class TestRemoteChannel : public QObject
{
    Q_OBJECT

    Sandpiper::Test::SandboxFixture m_sandbox;
    QTemporaryDir m_tools;

    SandboxConfig config(const QString &name)
    {
        SandboxConfig config = m_sandbox.config(name);
        config.remoteFetchLimitBytes = 0; // every file comes back
        return config;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!Sandpiper::Test::remoteDockerHost().isEmpty())
            qputenv("DOCKER_HOST", Sandpiper::Test::remoteDockerHost().toUtf8());
    }
    void init() { SANDPIPER_REQUIRE_AVAILABLE(Sandpiper::Test::remoteEngineUnavailableReason()); }

    // The docker command, wrapped to write down what it is asked: a run on the channel asks for no
    // exec (uploads, a deletion, a file and a figure back); without the channel, it does.
    void aRunStartsNoProcessOnTheEngine()
    {
        const QString log = m_tools.filePath(QStringLiteral("docker.log"));
        const QString wrapper = m_tools.filePath(QStringLiteral("docker"));
        writeFile(wrapper, QStringLiteral("#!/bin/sh\necho \"$1\" >> '%1'\nexec docker \"$@\"\n").arg(log).toUtf8());
        QFile(wrapper).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        qputenv("SANDPIPER_DOCKER", wrapper.toUtf8());
        const auto restore = qScopeGuard([channel = qgetenv("SANDPIPER_REMOTE_CHANNEL")] {
            qunsetenv("SANDPIPER_DOCKER");
            qputenv("SANDPIPER_REMOTE_CHANNEL", channel);
        });
        const auto execs = [&log] {
            return QString::fromUtf8(readFile(log)).split(QLatin1Char('\n')).count(QStringLiteral("exec"));
        };

        SandboxSession session(config(QStringLiteral("channel")));
        const QString folder = session.config().dataDirectory;
        QDir().mkpath(folder + QStringLiteral("/in"));
        writeFile(folder + QStringLiteral("/in/upload.csv"), "a,b\n1,2\n");
        auto r = run(session, QStringLiteral("import matplotlib.pyplot as plt\n"
                                             "open('out.txt', 'w').write(open('in/upload.csv').read().upper())\n"
                                             "plt.plot([1, 2, 3]);"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.figures.size(), 1);
        QVERIFY(QFileInfo(folder + QLatin1Char('/') + r.figures.first()).size() > 1000);
        QCOMPARE(readFile(folder + QStringLiteral("/out.txt")), QByteArray("A,B\n1,2\n"));
        // Changed and deleted here: so there too.
        writeFile(folder + QStringLiteral("/in/upload.csv"), "changed");
        QFile::remove(folder + QStringLiteral("/out.txt"));
        r = run(session, QStringLiteral("import os\n(open('in/upload.csv').read(), os.path.exists('out.txt'))"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QStringLiteral("('changed', False)"));
        QCOMPARE(execs(), 0);
        // More than a few MiB together come the faster way, by docker exec.
        r = run(session, QStringLiteral("open('big.bin', 'wb').write(os.urandom(5 << 20))"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(QFileInfo(folder + QStringLiteral("/big.bin")).size(), 5 << 20);
        QCOMPARE(execs(), 1);

        // The old way, for comparison: the same makes the wrapper see an exec.
        qputenv("SANDPIPER_REMOTE_CHANNEL", "0");
        SandboxSession old(config(QStringLiteral("nochannel")));
        CHECK_STATUS(run(old, QStringLiteral("open('out.txt', 'w').write('x')")), Status::Ok);
        QVERIFY(execs() > 0);
    }

    // What a run pays on the remote engine is a round trip on the kernel's channel: the engine's
    // status measures it, and says it.
    void theEngineStatusGivesTheChannelsRoundTrip()
    {
        const auto status = QCoro::waitFor(Sandpiper::EngineStatus::check(Sandpiper::Test::sandboxImage()));
        QVERIFY2(status.answers, qPrintable(status.error));
        QVERIFY2(status.channelRoundTripMs >= 0 && status.channelRoundTripMs < 5000,
                 qPrintable(QString::number(status.channelRoundTripMs)));
        QVERIFY2(status.summary().endsWith(
                     QStringLiteral("; a run in a running sandbox there pays %1 ms on its kernel's channel")
                         .arg(status.channelRoundTripMs)),
                 qPrintable(status.summary()));
        // No container of it is left.
        const auto left = QCoro::waitFor(
            Sandpiper::DockerCli::run({QStringLiteral("ps"), QStringLiteral("-aq"), QStringLiteral("--filter"),
                                       QStringLiteral("name=sandpiper-check")}));
        QCOMPARE(left.standardOutput.trimmed(), QByteArray());
    }

    // 20 MiB back whole, as written (by docker exec, past the channel's few MiB).
    void aLargeFileComesBackWhole()
    {
        SandboxSession session(config(QStringLiteral("large")));
        const auto r =
            run(session, QStringLiteral("import hashlib, os\ndata = os.urandom(20 << 20)\n"
                                        "open('big.bin', 'wb').write(data)\nhashlib.sha256(data).hexdigest()"));
        CHECK_STATUS(r, Status::Ok);
        const QByteArray here = readFile(session.config().dataDirectory + QStringLiteral("/big.bin"));
        QCOMPARE(here.size(), 20 << 20);
        QCOMPARE(r.value, QStringLiteral("'%1'").arg(
                              QString::fromLatin1(QCryptographicHash::hash(here, QCryptographicHash::Sha256).toHex())));
    }

    // Entries that leave the folder are refused and written nowhere; the file asked for may hold
    // what the code wants, as it may anyway.
    void aFrameOutsideTheFolderIsRefused()
    {
        SandboxSession session(config(QStringLiteral("outside")));
        const QString folder = session.config().dataDirectory;
        const auto r = runForged(
            session, QStringLiteral("    frame(rid, entry('../outside.txt', b'out') + entry('/abs.txt', b'abs') +\n"
                                    "          entry('sub/../../up.txt', b'up') + entry('real.txt', b'forged') +\n"
                                    "          bytes(1024))\n"
                                    "    kernel.emit({'id': rid, 'event': 'files_sent'})"));
        if (QTest::currentTestFailed())
            return;
        const QString refused = r.refused.join(u'\n');
        QVERIFY2(refused.contains(QLatin1String("goes up")) || refused.contains(QLatin1String("absolute")),
                 qPrintable(describeExecution(r)));
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/../outside.txt")));
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/../up.txt")));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/abs.txt")));
        QCOMPARE(readFile(folder + QStringLiteral("/real.txt")), QByteArray("forged"));
    }

    // A header that claims 10 GB: refused by the disk limit at once, nothing of it written, no wait
    // for bytes that never come.
    void aFrameOfTenGigabytesIsRefused()
    {
        SandboxSession session(config(QStringLiteral("huge")));
        QElapsedTimer timer;
        timer.start();
        const auto r = runForged(session, QStringLiteral("    frame(rid, entry('real.txt', size=10 << 30))\n"
                                                         "    kernel.emit({'id': rid, 'event': 'files_sent'})"));
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(timer.elapsed() < 15000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(r.refused.join(u'\n').contains(QLatin1String("10 GiB")), qPrintable(describeExecution(r)));
        QVERIFY(SandboxFolder(session.config().dataDirectory).usage().bytes < (1 << 20));
    }

    // Pieces that are not base64, lines that are not events: the fetch gives up the channel's
    // stream and the file comes the old way, as it was written.
    void malformedFramesFallBackToTheOldWay()
    {
        SandboxSession session(config(QStringLiteral("malformed")));
        const auto r = runForged(
            session,
            QStringLiteral("    os.write(kernel._proto_fd, b'{\"event\":\"file_data\",\"id\":\"' + rid.encode() +\n"
                           "             b'\",\"data\":\"!!not base64!!\"}\\n{not json\\n')\n"
                           "    kernel.emit({'id': rid, 'event': 'file_data', 'data': 12})\n"
                           "    kernel.emit({'id': rid, 'event': 'files_sent'})"));
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(readFile(session.config().dataDirectory + QStringLiteral("/real.txt")), QByteArray("genuine"));
        QCOMPARE(run(session, QStringLiteral("'still usable'")).value, QStringLiteral("'still usable'"));
    }

    // More than the files asked for can hold: the fetch stops reading at its bound, the folder stays
    // within its limit, the file comes the old way.
    void aFloodStopsAtItsBound()
    {
        SandboxConfig limited = config(QStringLiteral("flood"));
        limited.diskLimitBytes = 8 << 20;
        SandboxSession session(limited);
        const auto r = runForged(session, QStringLiteral("    head = entry('flood.bin', size=64 << 20)\n"
                                                         "    frame(rid, head)\n"
                                                         "    for _ in range(64):\n"
                                                         "        frame(rid, bytes(1 << 20))\n"
                                                         "    kernel.emit({'id': rid, 'event': 'files_sent'})"));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!QFileInfo::exists(limited.dataDirectory + QStringLiteral("/flood.bin")));
        QVERIFY(SandboxFolder(limited.dataDirectory).usage().bytes <= limited.diskLimitBytes);
        QCOMPARE(readFile(limited.dataDirectory + QStringLiteral("/real.txt")), QByteArray("genuine"));
        QCOMPARE(run(session, QStringLiteral("'still usable'")).value, QStringLiteral("'still usable'"));
    }

    // A kernel that never answers the fetch: given up after the stall, the file comes the old way,
    // and later runs take the old way from the start.
    void silenceFallsBackToTheOldWay()
    {
        SandboxSession session(config(QStringLiteral("silent")));
        runForged(session, QStringLiteral("    pass"));
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(readFile(session.config().dataDirectory + QStringLiteral("/real.txt")), QByteArray("genuine"));
        const auto after = run(session, QStringLiteral("open('later.txt', 'w').write('later')"));
        CHECK_STATUS(after, Status::Ok);
        QCOMPARE(readFile(session.config().dataDirectory + QStringLiteral("/later.txt")), QByteArray("later"));
    }

    // Frames while the code runs, when no fetch asked for them, are ignored.
    void framesNobodyAskedForAreIgnored()
    {
        SandboxSession session(config(QStringLiteral("unasked")));
        const auto r = run(session, forgingSend(QStringLiteral("    pass")) +
                                        QStringLiteral("frame(kernel.current_id, entry('sneaked.txt', b'x'))\n"
                                                       "kernel.emit({'id': kernel.current_id, 'event': 'files_sent'})\n"
                                                       "del kernel._send_files\n"));
        CHECK_STATUS(r, Status::Ok);
        QVERIFY(!QFileInfo::exists(session.config().dataDirectory + QStringLiteral("/sneaked.txt")));
        QCOMPARE(readFile(session.config().dataDirectory + QStringLiteral("/real.txt")), QByteArray("genuine"));
    }
};

QTEST_GUILESS_MAIN(TestRemoteChannel)
#include "tst_remotechannel.moc"
