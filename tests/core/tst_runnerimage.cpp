// The runner's image, got by the app (issue 26): pulled by the real docker from a registry on
// 127.0.0.1 that speaks the registry's real API (tests/support/fake-registry.py) and serves an
// image laid out as llama.cpp's published server image, holding Debian's llama-server of
// tests/llama/setup.sh's root; tagged into sandpiper-llama, found by the runner, and answering a
// chat from a container of it. A registry that cannot be reached is said in one sentence, fast,
// and the next way is tried; a build from Debian's packages that fails says how it ended.
#include "dockertest.h"
#include "llamaserver.h"

#include <localmodels/localrunner.h>
#include <localmodels/runnercontainer.h>
#include <localmodels/runnerimage.h>

#include <QCoroTask>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using namespace std::chrono_literals;

namespace {

// PATH is FOLDERS for the life of this object.
class PathOverride
{
public:
    explicit PathOverride(const QString &folders)
        : m_path(qgetenv("PATH"))
    {
        qputenv("PATH", folders.toLocal8Bit());
    }
    ~PathOverride() { qputenv("PATH", m_path); }

private:
    QByteArray m_path;
};

} // namespace

class TestRunnerImage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!LlamaServer::docker(
                {QStringLiteral("version"), QStringLiteral("--format"), QStringLiteral("{{.Server.Version}}")}))
            QSKIP("Docker does not answer on this machine");
    }

    void referencesAreReadAsDockerReadsThem_data()
    {
        QTest::addColumn<QString>("reference");
        QTest::newRow("published") << RunnerImage::defaultReference();
        QTest::newRow("a variant") << QStringLiteral("ghcr.io/ggml-org/llama.cpp:server-vulkan");
    }
    void referencesAreReadAsDockerReadsThem()
    {
        QFETCH(QString, reference);
        QCOMPARE(RunnerImage::registry(reference), QStringLiteral("ghcr.io"));
        QVERIFY(RunnerImage::localTag(reference).startsWith(RunnerContainer::repository() + QLatin1Char(':') +
                                                            reference.section(QLatin1Char(':'), -1) +
                                                            QLatin1Char('-')));
        QCOMPARE(RunnerImage::registry(QStringLiteral("ggml/llama:server")), QStringLiteral("docker.io"));
        QCOMPARE(RunnerImage::registry(QStringLiteral("127.0.0.1:5000/a/b:c")), QStringLiteral("127.0.0.1:5000"));
    }

    // Pulled from the registry, checked, tagged sandpiper-llama:…; the runner finds it at once
    // (not what it found a moment before) and a container of it answers a chat.
    void pullsThePublishedImageAndRunsIt()
    {
        SANDPIPER_REQUIRE_LLAMA();
        QTemporaryDir work(QDir::tempPath() + QStringLiteral("/sandpiper-registry-XXXXXX"));
        QProcess registry;
        registry.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        const QString repository = QStringLiteral("sandpiper-test/llama.cpp");
        const QString tag = QStringLiteral("server-%1").arg(QCoreApplication::applicationPid());
        registry.start(QStringLiteral("python3"), {QStringLiteral(SANDPIPER_TEST_SUPPORT_DIR "/fake-registry.py"),
                                                   LlamaServer::rootPath(), repository, tag, work.path()});
        QVERIFY(registry.waitForStarted());
        const auto stopRegistry = qScopeGuard([&] {
            registry.kill();
            registry.waitForFinished();
        });
        QTRY_VERIFY_WITH_TIMEOUT(registry.canReadLine() || registry.state() == QProcess::NotRunning, 120000);
        const int port = registry.readLine().trimmed().toInt();
        QVERIFY2(port > 0, "the registry listens");
        const QString reference = QStringLiteral("127.0.0.1:%1/%2:%3").arg(port).arg(repository, tag);
        const QString local = RunnerImage::localTag(reference);
        const auto removeImages = qScopeGuard([&] {
            LlamaServer::docker({QStringLiteral("image"), QStringLiteral("rm"), local, reference});
            RunnerContainer::forgetImage();
        });

        const QString before = RunnerContainer::findImage(); // remembered for ten seconds
        RunnerImage image;
        QSignalSpy steps(&image, &RunnerImage::step);
        QSignalSpy lines(&image, &RunnerImage::output);
        QElapsedTimer took;
        took.start();
        const RunnerImage::Outcome outcome = QCoro::waitFor(image.provide(reference));
        qInfo("pulled, checked and tagged in %lld ms", took.elapsed());
        QVERIFY2(outcome.ready, qPrintable(outcome.message));
        QCOMPARE(outcome.image, local);
        QVERIFY2(outcome.message.contains(local), qPrintable(outcome.message));
        QVERIFY(steps.size() >= 2);
        QVERIFY2(steps.first().first().toString().contains(QStringLiteral("127.0.0.1:%1").arg(port)),
                 qPrintable(steps.first().first().toString()));
        QVERIFY2(!lines.isEmpty(), "docker pull's lines are passed on");
        const auto entrypoint =
            LlamaServer::docker({QStringLiteral("image"), QStringLiteral("inspect"), QStringLiteral("--format"),
                                 QStringLiteral("{{json .Config.Entrypoint}}"), local});
        QVERIFY(entrypoint);
        QCOMPARE(entrypoint->trimmed(), QByteArray(R"(["/app/llama-server"])"));
        QVERIFY2(before != local, "it was not there before");
        QCOMPARE(RunnerContainer::findImage(), local);

        RunnerPlan plan = RunnerPlan::forModel(LlamaServer::modelPath(), GgufInfo{}, 0, 1);
        plan.alias = QStringLiteral("tiny");
        QTemporaryDir logs;
        LocalRunner runner(RunnerProgram::container(local), plan, logs.filePath(QStringLiteral("llama-server.log")));
        const Result<QUrl> url = QCoro::waitFor(runner.ready());
        QVERIFY2(url.ok(), qPrintable(url.error()));
        const QJsonObject answer = LlamaServer::chat(*url);
        QCOMPARE(answer[QLatin1String("choices")].toArray().size(), 1);
        QCOMPARE(answer[QLatin1String("model")].toString(), QStringLiteral("tiny"));
        runner.stop();
    }

    // Nothing listens where the registry should be: one sentence that names it, within seconds,
    // then the next way; without mmdebstrap, what to do.
    void anUnreachableRegistryIsSaidFastAndTheNextWayTried()
    {
        QTemporaryDir emptyBin;
        PathOverride path(emptyBin.path()); // no mmdebstrap (docker is found where it usually is)
        RunnerImage image;
        QSignalSpy lines(&image, &RunnerImage::output);
        QElapsedTimer took;
        took.start();
        const RunnerImage::Outcome outcome =
            QCoro::waitFor(image.provide(QStringLiteral("127.0.0.1:1/sandpiper-test/llama.cpp:server")));
        qInfo("said in %lld ms", took.elapsed());
        QVERIFY(!outcome.ready);
        QVERIFY2(outcome.message.startsWith(
                     QLatin1String("The registry 127.0.0.1:1 cannot be reached from this computer. To build the "
                                   "image from Debian's llama.cpp-tools instead, install mmdebstrap")),
                 qPrintable(outcome.message));
        QVERIFY2(outcome.message.contains(QLatin1String("llama.cpp-tools")), qPrintable(outcome.message));
        QVERIFY2(took.elapsed() < 15000, "no long wait");
        QVERIFY(!image.isRunning());
    }

    // The build from Debian's packages (the installed recipe) fails: its last lines say why, and
    // no image is left half-made. mmdebstrap here is a stand-in that fails as the real one does
    // when the archive cannot be reached (the build root has no mmdebstrap).
    void aFailingBuildReportsItsLastLines()
    {
        QTemporaryDir bin;
        QFile mmdebstrap(bin.filePath(QStringLiteral("mmdebstrap")));
        QVERIFY(mmdebstrap.open(QIODevice::WriteOnly));
        mmdebstrap.write("#!/bin/sh\n"
                         "echo \"$@\" > \"$(dirname \"$0\")/arguments\"\n"
                         "echo 'I: automatically chosen mode: unshare'\n"
                         "echo 'I: running apt-get update...'\n"
                         "echo 'E: Failed to fetch http://127.0.0.1:1/debian/dists/sid/InRelease' >&2\n"
                         "echo 'E: apt-get update -oAPT::Status-Fd=<$fd> -oDpkg::Use-Pty=false failed' >&2\n"
                         "exit 1\n");
        mmdebstrap.close();
        mmdebstrap.setPermissions(mmdebstrap.permissions() | QFile::ExeOwner);
        PathOverride path(bin.path() + QLatin1Char(':') + qEnvironmentVariable("PATH"));
        qputenv("SANDPIPER_DEBIAN_MIRROR", "http://127.0.0.1:1/debian");
        const auto unsetMirror = qScopeGuard([] { qunsetenv("SANDPIPER_DEBIAN_MIRROR"); });

        RunnerImage image;
        QSignalSpy steps(&image, &RunnerImage::step);
        const RunnerImage::Outcome outcome =
            QCoro::waitFor(image.provide(QStringLiteral("127.0.0.1:1/sandpiper-test/llama.cpp:server")));
        QVERIFY(!outcome.ready);
        QVERIFY2(outcome.message.startsWith(QLatin1String("The registry 127.0.0.1:1 cannot be reached from this "
                                                          "computer. Building the image from Debian's packages failed "
                                                          "too: ")),
                 qPrintable(outcome.message));
        QVERIFY2(outcome.message.endsWith(
                     QLatin1String("E: Failed to fetch http://127.0.0.1:1/debian/dists/sid/InRelease E: apt-get update "
                                   "-oAPT::Status-Fd=<$fd> -oDpkg::Use-Pty=false failed")),
                 qPrintable(outcome.message));
        QCOMPARE(steps.size(), 2);
        QFile arguments(bin.filePath(QStringLiteral("arguments")));
        QVERIFY(arguments.open(QIODevice::ReadOnly));
        const QByteArray given = arguments.readAll();
        QVERIFY2(given.contains("--include=llama.cpp-tools") && given.contains(" sid ") &&
                     given.contains("deb http://127.0.0.1:1/debian sid main"),
                 given.constData());
    }
};

QTEST_GUILESS_MAIN(TestRunnerImage)
#include "tst_runnerimage.moc"
