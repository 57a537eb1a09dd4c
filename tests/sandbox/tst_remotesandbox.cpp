// The sandbox on a Docker engine that does not share this machine's filesystem: a second dockerd
// in its own mount and network namespaces, which scripts/test starts (scripts/lib/remote-engine.sh)
// and names in SANDPIPER_REMOTE_DOCKER_HOST. Uploads reach the code, figures and files come back
// into the conversation's folder and pass the same checks as local ones, a restart keeps the
// files, the disk limit holds, and what a hostile sandbox sends is refused; the image is sent to
// the engine when it lacks it, and the agent runs code there end to end.
#include "agentrecorder.h"
#include "dockertest.h"
#include "executioncheck.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "sandboxfiles.h"
#include "sandboxfixture.h"

#include <agent/agentloop.h>
#include <sandbox/containerfiles.h>
#include <sandbox/dockercli.h>
#include <sandbox/enginefiles.h>
#include <sandbox/enginelocality.h>
#include <sandbox/enginestatus.h>
#include <sandbox/imagemanager.h>
#include <sandbox/sandboxfolder.h>
#include <sandbox/sandboxsession.h>
#include <sandbox/tarwriter.h>
#include <tools/pythontool.h>

#include <QCoroTask>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;
using Sandpiper::ContainerFiles;
using Sandpiper::DockerCli;
using Sandpiper::EngineFiles;
using Sandpiper::EngineLocality;
using Sandpiper::ExecuteOptions;
using Sandpiper::ExecutionResult;
using Sandpiper::SandboxConfig;
using Sandpiper::SandboxFolder;
using Sandpiper::SandboxSession;
using Sandpiper::Test::describeExecution;
using Sandpiper::Test::readFile;
using Sandpiper::Test::run;
using Sandpiper::Test::writeFile;
using Status = Sandpiper::ExecutionResult::Status;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

// 20 MiB that are not all alike, as the code below writes them.
QByteArray largeContent()
{
    QByteArray block;
    for (int b = 0; b < 256; ++b)
        block += char(b);
    QByteArray content;
    for (int i = 0; i < 20 * 4096; ++i)
        content += block.left(255) + char(i % 251);
    return content;
}
const QString writeLarge = QStringLiteral("block = bytes(range(255))\n"
                                          "with open('big.bin', 'wb') as f:\n"
                                          "    for i in range(20 * 4096):\n"
                                          "        f.write(block + bytes([i % 251]))\n");

QStringList entriesIn(const QString &folder)
{
    QStringList entries;
    QDirIterator it(folder, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        entries << QDir(folder).relativeFilePath(it.next());
    entries.sort();
    return entries;
}

} // namespace

class TestRemoteSandbox : public QObject
{
    Q_OBJECT

    Sandpiper::Test::SandboxFixture m_sandbox;

    SandboxSession &shared() { return m_sandbox.shared(); }
    QString sharedPath(const QString &name) { return m_sandbox.sharedPath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        if (!Sandpiper::Test::remoteDockerHost().isEmpty())
            qputenv("DOCKER_HOST", Sandpiper::Test::remoteDockerHost().toUtf8());
    }
    void init() { SANDPIPER_REQUIRE_AVAILABLE(Sandpiper::Test::remoteEngineUnavailableReason()); }
    void cleanupTestCase() { m_sandbox.reset(); }

    void theEngineIsFoundRemoteAndTheMainOneLocal()
    {
        const QString image = Sandpiper::Test::sandboxImage();
        QCOMPARE(QCoro::waitFor(EngineLocality::of(image)), EngineLocality::Kind::Remote);
        const QString remoteKey = EngineLocality::engineKey();
        qunsetenv("DOCKER_HOST");
        const QString localKey = EngineLocality::engineKey();
        const auto local = QCoro::waitFor(EngineLocality::of(image));
        qputenv("DOCKER_HOST", Sandpiper::Test::remoteDockerHost().toUtf8());
        QCOMPARE(local, EngineLocality::Kind::Local);
        QVERIFY(remoteKey != localKey);
        // Asked again, the answer is remembered: no probe, so even a missing image gets it.
        QCOMPARE(QCoro::waitFor(EngineLocality::of(QStringLiteral("sandpiper-no-such-image:0"))),
                 EngineLocality::Kind::Remote);
        // Forgotten, a missing image cannot be probed: unknown, and not remembered.
        EngineLocality::forget();
        QCOMPARE(QCoro::waitFor(EngineLocality::of(QStringLiteral("sandpiper-no-such-image:0"))),
                 EngineLocality::Kind::Unknown);
        QCOMPARE(QCoro::waitFor(EngineLocality::of(image)), EngineLocality::Kind::Remote);
    }

    // A small image of this machine's own (made here, removed after), which the remote engine
    // lacks, goes there with docker save | docker load, with progress.
    void theImageIsSentWhenTheEngineLacksIt()
    {
        const QString image = QStringLiteral("sandpiper-send-test:%1").arg(QCoreApplication::applicationPid());
        QByteArray root = Sandpiper::TarWriter::fileHeader(QStringLiteral("hello.txt"), 5, 1700000000) + "hello" +
                          Sandpiper::TarWriter::padding(5) + Sandpiper::TarWriter::end();
        QProcess import;
        DockerCli::Engine::thisMachine().applyTo(import);
        import.start(DockerCli::program(), {QStringLiteral("import"), QStringLiteral("-"), image});
        import.write(root);
        import.closeWriteChannel();
        QVERIFY(import.waitForFinished(60000));
        QCOMPARE(import.exitCode(), 0);
        const auto removeEverywhere = qScopeGuard([&] {
            QCoro::waitFor(DockerCli::run({QStringLiteral("rmi"), image}));
            QProcess local;
            DockerCli::Engine::thisMachine().applyTo(local);
            local.start(DockerCli::program(), {QStringLiteral("rmi"), image});
            local.waitForFinished(60000);
        });
        QVERIFY(!QCoro::waitFor(Sandpiper::ImageManager::isPresent(image)));

        Sandpiper::ImageManager images;
        QStringList progress;
        connect(&images, &Sandpiper::ImageManager::progress, this, [&](const QString &line) { progress << line; });
        QVERIFY2(QCoro::waitFor(images.send(image)), qPrintable(images.lastError()));
        QVERIFY(QCoro::waitFor(Sandpiper::ImageManager::isPresent(image)));
        QVERIFY2(progress.size() >= 2, qPrintable(progress.join(u'\n')));
        QVERIFY(progress.constFirst().startsWith(QLatin1String("Sending the image: ")));
        QVERIFY(progress.constLast().startsWith(QLatin1String("The image was sent")));
        // An image this machine does not have either cannot be sent, and says so.
        QVERIFY(!QCoro::waitFor(images.send(QStringLiteral("sandpiper-no-such-image:0"))));
        QVERIFY2(images.lastError().contains(QLatin1String("not on this machine")), qPrintable(images.lastError()));
    }

    void theEngineStatusSaysRemoteWithItsRoundTrip()
    {
        QVERIFY(!Sandpiper::EngineStatus::isDefaultEngine());
        QCOMPARE(Sandpiper::EngineStatus::describeEngine(), Sandpiper::Test::remoteDockerHost());
        const auto status = QCoro::waitFor(Sandpiper::EngineStatus::check(Sandpiper::Test::sandboxImage()));
        QVERIFY2(status.answers, qPrintable(status.error));
        QCOMPARE(status.locality, EngineLocality::Kind::Remote);
        QVERIFY(status.roundTripMs >= 0);
        QVERIFY2(
            status.summary().startsWith(Sandpiper::Test::remoteDockerHost() + QStringLiteral(": remote, answers in ")),
            qPrintable(status.summary()));
        QVERIFY(QCoro::waitFor(Sandpiper::EngineStatus::trivialExecutionMs(Sandpiper::Test::sandboxImage())) > 0);
        // An engine that is not there says so.
        qputenv("DOCKER_HOST", "unix:///nonexistent/docker.sock");
        const auto missing = QCoro::waitFor(Sandpiper::EngineStatus::check(Sandpiper::Test::sandboxImage()));
        qputenv("DOCKER_HOST", Sandpiper::Test::remoteDockerHost().toUtf8());
        QVERIFY(!missing.answers);
        QVERIFY2(missing.summary().contains(QLatin1String("does not answer")), qPrintable(missing.summary()));
    }

    void anUploadReachesTheCodeAndAChangedOneToo()
    {
        QVERIFY(writeFile(sharedPath(QStringLiteral("sales.csv")), "month,revenue\n1,10\n2,32\n"));
        auto r = run(shared(), QStringLiteral("import pandas as pd\nint(pd.read_csv('sales.csv').revenue.sum())"));
        CHECK_STATUS(r, Status::Ok);
        QVERIFY(shared().isRemote());
        QCOMPARE(r.value, QStringLiteral("42"));
        QVERIFY(r.files.isEmpty()); // the upload is not news to the user
        QVERIFY(writeFile(sharedPath(QStringLiteral("sales.csv")), "month,revenue\n1,10\n2,32\n3,58\n"));
        r = run(shared(), QStringLiteral("int(pd.read_csv('sales.csv').revenue.sum())"));
        QCOMPARE(r.value, QStringLiteral("100"));
    }

    void aFigureComesBackIntoTheFolder()
    {
        const auto r = run(shared(), QStringLiteral("import matplotlib.pyplot as plt\nimport numpy as np\n"
                                                    "x = np.linspace(0, 6.3, 100)\nplt.plot(x, np.sin(x));"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.figures.size(), 1);
        const QByteArray png = readFile(sharedPath(r.figures.constFirst()));
        QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
        QVERIFY(png.size() > 5000);
        QVERIFY2(r.refused.isEmpty(), qPrintable(describeExecution(r)));
    }

    void savedFilesComeBackNestedAndWhole()
    {
        const auto r = run(shared(), QStringLiteral("import os\nos.makedirs('out/deep', exist_ok=True)\n"
                                                    "open('report.csv', 'w').write('a,b\\n1,2\\n')\n"
                                                    "open('out/deep/big.bin', 'wb').write(bytes(range(256)) * 8192)"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(QSet<QString>(r.files.cbegin(), r.files.cend()),
                 (QSet<QString>{QStringLiteral("report.csv"), QStringLiteral("out/deep/big.bin")}));
        QCOMPARE(readFile(sharedPath(QStringLiteral("report.csv"))), QByteArray("a,b\n1,2\n"));
        QByteArray expected;
        for (int i = 0; i < 8192; ++i)
            for (int b = 0; b < 256; ++b)
                expected += char(b);
        QCOMPARE(readFile(sharedPath(QStringLiteral("out/deep/big.bin"))), expected);
        // Copied back, not sent in again before the next execution.
        CHECK_STATUS(run(shared(), QStringLiteral("open('report.csv').read()")), Status::Ok);
    }

    void aRestartKeepsTheFilesNotTheVariables()
    {
        SandboxSession session(m_sandbox.config(QStringLiteral("restart")));
        CHECK_STATUS(run(session, QStringLiteral("kept = 1\nopen('notes.txt', 'w').write('written before')")),
                     Status::Ok);
        QVERIFY(QFile::exists(session.config().dataDirectory + QStringLiteral("/notes.txt")));
        session.restart();
        const auto r = run(session, QStringLiteral("open('notes.txt').read(), 'kept' in globals()"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QStringLiteral("('written before', False)"));
        QVERIFY(r.stateReset);
    }

    void theDiskLimitHolds()
    {
        SandboxConfig config = m_sandbox.config(QStringLiteral("limit"));
        config.diskLimitBytes = 8 * 1024 * 1024;
        SandboxSession session(config);
        const auto r = run(session, QStringLiteral("with open('fill.bin', 'wb') as f:\n"
                                                   "    for _ in range(40):\n        f.write(b'x' * (1 << 20))"));
        CHECK_STATUS(r, Status::Error);
        QVERIFY2(r.stopReason.contains(QLatin1String("8 MiB")), qPrintable(describeExecution(r) + r.stopReason));
        QVERIFY(SandboxFolder(config.dataDirectory).usage().bytes <= config.diskLimitBytes);
        // What was written is kept here, as it is with a local engine; deleted there, it goes here
        // too, and the space comes back.
        QVERIFY(QFile::exists(config.dataDirectory + QStringLiteral("/fill.bin")));
        const auto after = run(session, QStringLiteral("import os\nos.remove('fill.bin')\n"
                                                       "open('small.txt', 'w').write('fits')"));
        CHECK_STATUS(after, Status::Ok);
        QVERIFY2(after.refused.isEmpty(), qPrintable(describeExecution(after)));
        QVERIFY(!QFile::exists(config.dataDirectory + QStringLiteral("/fill.bin")));
        QCOMPARE(readFile(config.dataDirectory + QStringLiteral("/small.txt")), QByteArray("fits"));
    }

    void hostileFilesAreRefused_data() { Sandpiper::Test::addHostileFileRows(); }
    void hostileFilesAreRefused()
    {
        QFETCH(QString, code);
        QFETCH(QString, name);
        QFETCH(QString, reason);
        Sandpiper::Test::checkHostileFileRefused(m_sandbox, code, name, reason);
        // Nothing of it came here (but the fake PNG, a regular file).
        if (SandboxFolder::nameProblem(name).isEmpty()) {
            const QFileInfo here(sharedPath(name));
            QVERIFY2(!here.exists() || (name == QLatin1String("figures/fake.png") && here.isFile()),
                     qPrintable(here.filePath()));
            QVERIFY(!here.isSymLink());
        }
    }

    // The agent with the fake model: the code reads the upload, plots it and saves a file; the
    // model is told of the figure, and both are here afterwards.
    void theAgentRunsCodeOnTheRemoteEngine()
    {
        Sandpiper::Test::FakeLlmServer server;
        QVERIFY(server.listen());
        const QString code = QStringLiteral("import pandas as pd, matplotlib.pyplot as plt\n"
                                            "df = pd.read_csv('upload.csv')\n"
                                            "df.to_csv('doubled.csv', index=False)\n"
                                            "plt.plot(df.x, df.y)\nint(df.y.sum())");
        server.enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_py"), QStringLiteral("execute_python_code"), Sandpiper::Test::jsonCode(code)}}, 6));
        server.enqueue(FS::openAiText(QStringLiteral("Done.")));
        Sandpiper::AgentConfig c;
        c.provider.id = QStringLiteral("custom");
        c.provider.baseUrl = server.baseUrl().toString();
        c.provider.model = QStringLiteral("test-model");
        c.approval.insert(QStringLiteral("execute_python_code"), Sandpiper::ApprovalPolicy::Auto);
        c.pythonEnabled = true;
        c.chartsEnabled = false;
        c.webEnabled = false;
        c.sandbox = m_sandbox.config(QStringLiteral("agent"));
        QVERIFY(writeFile(c.sandbox.dataDirectory + QStringLiteral("/upload.csv"), "x,y\n1,2\n2,5\n"));
        Sandpiper::AgentLoop loop(c);
        Sandpiper::Test::AgentRecorder recorder(&loop);
        loop.send(QStringLiteral("plot upload.csv"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), Sandpiper::AgentEvent::End::Completed);
        const QString toolText = Sandpiper::Test::toolMessageIn(server.requests().at(1), QStringLiteral("call_py"));
        QVERIFY2(toolText.contains(QLatin1String("Value of the last expression:\n7")), qPrintable(toolText));
        QVERIFY2(toolText.contains(QLatin1String("Figure shown to the user: figures/")), qPrintable(toolText));
        const auto finished = recorder.ofKind(Sandpiper::AgentEvent::Kind::ToolFinished);
        QCOMPARE(finished.size(), 1);
        const ExecutionResult execution = *finished.first().execution();
        QCOMPARE(execution.figures.size(), 1);
        QVERIFY(readFile(c.sandbox.dataDirectory + QLatin1Char('/') + execution.figures.first()).startsWith("\x89PNG"));
        QCOMPARE(readFile(c.sandbox.dataDirectory + QStringLiteral("/doubled.csv")), QByteArray("x,y\n1,2\n2,5\n"));
    }

    // A file past the fetch limit stays in the container: listed with its size, told to the
    // model, and here, whole, once asked for; a link beside it is refused as ever.
    void largeFilesStayOnTheEngineUntilAsked()
    {
        SandboxSession session(m_sandbox.config(QStringLiteral("large")));
        const QString folder = session.config().dataDirectory;
        auto r = run(session, writeLarge + QStringLiteral("import os\nopen('small.txt', 'w').write('small')\n"
                                                          "os.symlink('big.bin', 'link.bin')"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(QSet<QString>(r.files.cbegin(), r.files.cend()),
                 (QSet<QString>{QStringLiteral("big.bin"), QStringLiteral("small.txt")}));
        QCOMPARE(r.onEngine, (QMap<QString, qint64>{{QStringLiteral("big.bin"), 20 << 20}}));
        QVERIFY2(r.refused.join(u' ').contains(QLatin1String("link.bin is a symbolic link")),
                 qPrintable(describeExecution(r)));
        QCOMPARE(readFile(folder + QStringLiteral("/small.txt")), QByteArray("small"));
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/big.bin")));
        const QString told = Sandpiper::PythonTool::reportForModel(r, {});
        QVERIFY2(told.contains(QLatin1String("big.bin (20 MiB, in the sandbox only until the user opens it)")),
                 qPrintable(told));
        // Stored and loaded again, the result still says so.
        ExecutionResult stored;
        stored.setRichOutput(r.richOutputJson());
        QCOMPARE(stored.onEngine, r.onEngine);

        QCOMPARE(QCoro::waitFor(EngineFiles::fetch(folder, QStringLiteral("big.bin"))), QString());
        QVERIFY(readFile(folder + QStringLiteral("/big.bin")) == largeContent());
        // The container has that version: it is not sent back, and the code still reads it.
        r = run(session, QStringLiteral("import hashlib\nhashlib.sha256(open('big.bin', 'rb').read()).hexdigest()"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QStringLiteral("'%1'").arg(QString::fromLatin1(
                              QCryptographicHash::hash(largeContent(), QCryptographicHash::Sha256).toHex())));
        QVERIFY(r.files.isEmpty());

        // Changed there, the copy here is of an older version: it goes, the new one is listed.
        r = run(session, QStringLiteral("open('big.bin', 'ab').write(b'more')"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.onEngine.value(QStringLiteral("big.bin")), (20 << 20) + 4);
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/big.bin")));
        // Removed there, it is no longer to be had.
        CHECK_STATUS(run(session, QStringLiteral("os.remove('big.bin')")), Status::Ok);
        QVERIFY(!EngineFiles::find(folder, QStringLiteral("big.bin")));
        const QString gone = QCoro::waitFor(EngineFiles::fetch(folder, QStringLiteral("big.bin")));
        QVERIFY2(gone.contains(QLatin1String("is gone")), qPrintable(gone));
    }

    // Stopped when idle, the container would take what it kept with it: it comes here first.
    void filesKeptThereComeHereBeforeTheIdleStop()
    {
        SandboxConfig config = m_sandbox.config(QStringLiteral("idle"));
        config.idleStop = 1s;
        SandboxSession session(config);
        const auto r = run(session, writeLarge);
        CHECK_STATUS(r, Status::Ok);
        QVERIFY(r.onEngine.contains(QStringLiteral("big.bin")));
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), SandboxSession::State::Stopped, 30000);
        QVERIFY(readFile(config.dataDirectory + QStringLiteral("/big.bin")) == largeContent());
    }

    // With the limit at 0 every file comes back; an exported table, which the user asked for,
    // comes back whatever its size.
    void aFileAskedForOrNoLimitComesBack()
    {
        SandboxConfig config = m_sandbox.config(QStringLiteral("nolimit"));
        config.remoteFetchLimitBytes = 0;
        SandboxSession unlimited(config);
        auto r = run(unlimited, writeLarge);
        CHECK_STATUS(r, Status::Ok);
        QVERIFY(r.onEngine.isEmpty());
        QVERIFY(readFile(config.dataDirectory + QStringLiteral("/big.bin")) == largeContent());

        config = m_sandbox.config(QStringLiteral("export"));
        config.remoteFetchLimitBytes = 1 << 20;
        SandboxSession session(config);
        r = run(session, QStringLiteral("import pandas as pd\npd.DataFrame({'x': range(300000)})"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.tables.size(), 1);
        r = QCoro::waitFor(
            session.exportTable(r.tables.first().tableId, QStringLiteral("csv"), QStringLiteral("all.csv")));
        CHECK_STATUS(r, Status::Ok);
        QVERIFY(r.onEngine.isEmpty());
        QVERIFY(QFileInfo(config.dataDirectory + QStringLiteral("/all.csv")).size() > (1 << 20));
    }

    // The listing is the sandbox's word like any other: only regular files under the names asked
    // for, with a size that parses, are believed.
    void aForgedListingIsRefused()
    {
        const QStringList asked{QStringLiteral("big.bin"), QStringLiteral("a b/c d.csv"), QStringLiteral("link.bin"),
                                QStringLiteral("dir"), QStringLiteral("../up.bin")};
        const QByteArray output = ("f 25 /mnt/data/big.bin\0"
                                   "f 7 /mnt/data/a b/c d.csv\0"
                                   "l 7 /mnt/data/link.bin\0"
                                   "d 4096 /mnt/data/dir\0"
                                   "f 99 /mnt/data/../up.bin\0"
                                   "f 99 /mnt/data/not-asked.bin\0"
                                   "f 99 /etc/passwd\0"
                                   "f -5 /mnt/data/big.bin\0"
                                   "f 1x /mnt/data/big.bin\0"
                                   "ff 9 /mnt/data/big.bin\0"
                                   "f /mnt/data/big.bin\0"
                                   "garbage\0\0"_ba);
        QCOMPARE(ContainerFiles::parseListing(output, asked),
                 (ContainerFiles::Sizes{{QStringLiteral("big.bin"), 25}, {QStringLiteral("a b/c d.csv"), 7}}));
    }

    // The container removed behind the app's back: the fetch says so and leaves nothing here.
    void aFetchAfterTheContainerWentSaysSoAndWritesNothing()
    {
        SandboxSession session(m_sandbox.config(QStringLiteral("went")));
        const QString folder = session.config().dataDirectory;
        CHECK_STATUS(run(session, writeLarge), Status::Ok);
        const QStringList before = entriesIn(folder);
        QVERIFY(
            QCoro::waitFor(DockerCli::run({QStringLiteral("rm"), QStringLiteral("-f"), session.containerName()})).ok());
        const QString error = QCoro::waitFor(EngineFiles::fetch(folder, QStringLiteral("big.bin")));
        QVERIFY2(error.contains(QLatin1String("big.bin")) && error.contains(QLatin1String("gone")), qPrintable(error));
        QCOMPARE(entriesIn(folder), before);
    }

    // Deleted here, a file is gone for the next execution too, whether it came from here or from
    // the code.
    void aDeletionHereReachesTheContainer()
    {
        SandboxSession session(m_sandbox.config(QStringLiteral("deleted")));
        const QString folder = session.config().dataDirectory;
        QVERIFY(writeFile(folder + QStringLiteral("/upload.txt"), "up"));
        const QString check = QStringLiteral("import os\nos.path.exists('upload.txt'), os.path.exists('made.txt')");
        auto r = run(session, QStringLiteral("open('made.txt', 'w').write('made')\n") + check);
        QCOMPARE(r.value, QStringLiteral("(True, True)"));
        QVERIFY(QFile::remove(folder + QStringLiteral("/upload.txt")));
        QVERIFY(QFile::remove(folder + QStringLiteral("/made.txt")));
        r = run(session, check);
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QStringLiteral("(False, False)"));
        QVERIFY2(r.notes.isEmpty(), qPrintable(r.notes.join(u'\n')));
        // A file the engine kept, fetched when the user opened it, then deleted.
        CHECK_STATUS(run(session, writeLarge), Status::Ok);
        QCOMPARE(QCoro::waitFor(EngineFiles::fetch(folder, QStringLiteral("big.bin"))), QString());
        QVERIFY(QFile::remove(folder + QStringLiteral("/big.bin")));
        QCOMPARE(run(session, QStringLiteral("os.path.exists('big.bin')")).value, QStringLiteral("False"));
    }

    // `docker context use` while the app runs: the next container start asks the engine that
    // context names, without being told to forget anything; a container that runs meanwhile
    // keeps its engine for its files, its interrupts and its removal.
    void aContextChosenWhileRunningIsNoticed()
    {
        QTemporaryDir dockerConfig;
        qputenv("DOCKER_CONFIG", dockerConfig.path().toUtf8());
        qunsetenv("DOCKER_HOST");
        const auto restore = qScopeGuard([] {
            qunsetenv("DOCKER_CONFIG");
            qputenv("DOCKER_HOST", Sandpiper::Test::remoteDockerHost().toUtf8());
        });
        const QString context = QStringLiteral("sandpiper-remote-test");
        const auto created = QCoro::waitFor(
            DockerCli::run({QStringLiteral("context"), QStringLiteral("create"), context, QStringLiteral("--docker"),
                            QStringLiteral("host=%1").arg(Sandpiper::Test::remoteDockerHost())}));
        QVERIFY2(created.ok(), qPrintable(created.errorMessage()));
        const QString image = Sandpiper::Test::sandboxImage();
        QCOMPARE(QCoro::waitFor(EngineLocality::of(image)), EngineLocality::Kind::Local);
        QVERIFY(QCoro::waitFor(DockerCli::run({QStringLiteral("context"), QStringLiteral("use"), context})).ok());
        QCOMPARE(QCoro::waitFor(EngineLocality::of(image)), EngineLocality::Kind::Remote);
        SandboxSession session(m_sandbox.config(QStringLiteral("context")));
        const QString folder = session.config().dataDirectory;
        CHECK_STATUS(run(session, QStringLiteral("x = 41")), Status::Ok);
        QVERIFY(session.isRemote());

        QVERIFY(QCoro::waitFor(
                    DockerCli::run({QStringLiteral("context"), QStringLiteral("use"), QStringLiteral("default")}))
                    .ok());
        QVERIFY(writeFile(folder + QStringLiteral("/upload.txt"), "up"));
        auto r = run(session, QStringLiteral("open('made.txt', 'w').write(open('upload.txt').read() * 2)\nx + 1"));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QStringLiteral("42"));
        QVERIFY2(r.notes.isEmpty(), qPrintable(r.notes.join(u'\n')));
        QCOMPARE(readFile(folder + QStringLiteral("/made.txt")), QByteArray("upup"));
        ExecuteOptions options;
        options.timeout = 1s;
        CHECK_STATUS(run(session, QStringLiteral("import time\ntime.sleep(60)"), options), Status::Interrupted);
        r = run(session, QStringLiteral("x")); // the interrupt reached the kernel, which kept its state
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(r.value, QStringLiteral("41"));

        const QString name = session.containerName();
        const DockerCli::Engine there{.context = context};
        const auto stillThere = [&] {
            return QCoro::waitFor(
                       DockerCli::run({QStringLiteral("container"), QStringLiteral("inspect"), name}, {}, 10s, there))
                .ok();
        };
        session.restart();
        for (int i = 0; i < 50 && stillThere(); ++i)
            QTest::qWait(100);
        QVERIFY2(!stillThere(), "the replaced container is still on the engine it ran on");
        CHECK_STATUS(run(session, QStringLiteral("1")), Status::Ok);
        QVERIFY(!session.isRemote());
    }

    // An engine chosen in the settings, here the remote one by its URL, outranks the CLI's own;
    // a container started there stays there when the choice changes.
    void anEngineChosenInTheSettingsIsUsed()
    {
        qunsetenv("DOCKER_HOST");
        const auto restore = qScopeGuard([] {
            DockerCli::Engine::setChosen({});
            qputenv("DOCKER_HOST", Sandpiper::Test::remoteDockerHost().toUtf8());
        });
        const QString image = Sandpiper::Test::sandboxImage();
        QCOMPARE(QCoro::waitFor(EngineLocality::of(image)), EngineLocality::Kind::Local);
        DockerCli::Engine::setChosen(DockerCli::Engine::fromSetting(Sandpiper::Test::remoteDockerHost()));
        QCOMPARE(DockerCli::Engine::chosen().host, Sandpiper::Test::remoteDockerHost());
        QCOMPARE(QCoro::waitFor(EngineLocality::of(image)), EngineLocality::Kind::Remote);
        SandboxSession session(m_sandbox.config(QStringLiteral("chosen")));
        CHECK_STATUS(run(session, QStringLiteral("1")), Status::Ok);
        QVERIFY(session.isRemote());

        DockerCli::Engine::setChosen({});
        QCOMPARE(QCoro::waitFor(EngineLocality::of(image)), EngineLocality::Kind::Local);
        CHECK_STATUS(run(session, QStringLiteral("open('made.txt', 'w').write('there')")), Status::Ok);
        QCOMPARE(readFile(session.config().dataDirectory + QStringLiteral("/made.txt")), QByteArray("there"));
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
        for (int i = 0; i < 50; ++i) {
            if (!QCoro::waitFor(DockerCli::run({QStringLiteral("container"), QStringLiteral("inspect"), name})).ok())
                return;
            QTest::qWait(100);
        }
        QFAIL("the container is still there");
    }
};

QTEST_GUILESS_MAIN(TestRemoteSandbox)
#include "tst_remotesandbox.moc"
