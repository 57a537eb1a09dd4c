// The engine's chores of the settings and sandpiper-cli against the real engine: its check, the
// docker command's contexts, the image put on an engine, the removal of containers left behind.
#include "dockertest.h"

#include <sandbox/engineservice.h>

#include <QCoreApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using Sandpiper::DockerCli;
using Sandpiper::EngineService;
using namespace Sandpiper::Test;

namespace {

DockerCli::Engine silentEngine()
{
    return DockerCli::Engine::fromSetting(silentEngineAddress());
}

} // namespace

class TestEngineService : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { SANDPIPER_REQUIRE_DOCKER(); }

    void checksTheEngineAndATrivialExecution()
    {
        EngineService engines;
        QSignalSpy checking(&engines, &EngineService::checking);
        const EngineService::Check check =
            QCoro::waitFor(engines.checkEngine(sandboxImage(), DockerCli::Engine::thisMachine()));
        QVERIFY2(check.ok(), qPrintable(check.summary()));
        QVERIFY(check.trivialExecutionMs >= 0);
        QVERIFY2(check.summary().startsWith(QLatin1String("the default engine: on this machine, answers in ")),
                 qPrintable(check.summary()));
        QVERIFY2(check.summary().contains(QLatin1String("; a trivial execution in a fresh sandbox takes ")),
                 qPrintable(check.summary()));
        // First what is asked, then what the engine said before the trivial execution ran.
        QCOMPARE(checking.size(), 2);
        QCOMPARE(checking.at(0).at(0).toString(), QStringLiteral("Checking the default engine…"));
        QCOMPARE(checking.at(1).at(0).toString(), check.status.summary() + QLatin1Char('.'));
    }

    void anEngineThatDoesNotAnswerIsSaidSo()
    {
        EngineService engines;
        QSignalSpy checking(&engines, &EngineService::checking);
        const EngineService::Check check = QCoro::waitFor(engines.checkEngine(sandboxImage(), silentEngine()));
        QVERIFY(!check.ok());
        QVERIFY2(check.summary().contains(QLatin1String(": does not answer (")), qPrintable(check.summary()));
        QVERIFY(!check.summary().contains(QLatin1String("trivial")));
        QCOMPARE(checking.size(), 1);
    }

    void listsTheContextsOfTheDockerCommand()
    {
        const QList<EngineService::Context> contexts = QCoro::waitFor(EngineService::contexts());
        const auto found = std::find_if(contexts.cbegin(), contexts.cend(), [](const EngineService::Context &context) {
            return context.name == QLatin1String("default");
        });
        QVERIFY(found != contexts.cend());
        QVERIFY2(!found->endpoint.isEmpty(), "the default context has an address");
    }

    void buildsTheImageFromAFolder()
    {
        // On top of the sandbox image, so no registry is needed.
        QTemporaryDir dir;
        QFile dockerfile(dir.filePath(QStringLiteral("Dockerfile")));
        QVERIFY(dockerfile.open(QIODevice::WriteOnly));
        dockerfile.write("FROM " + sandboxImage().toUtf8() + "\nRUN python3 -c \"print('built' + 'ok')\"\n");
        dockerfile.close();
        const QString tag = QStringLiteral("sandpiper-test-service:%1").arg(QCoreApplication::applicationPid());
        EngineService engines;
        QSignalSpy steps(&engines, &EngineService::imageStep);
        QSignalSpy output(&engines, &EngineService::imageOutput);
        const EngineService::ImageOutcome outcome =
            QCoro::waitFor(engines.provideImage(tag, DockerCli::Engine::thisMachine(), dir.path()));
        QCoro::waitFor(DockerCli::run({QStringLiteral("rmi"), QStringLiteral("-f"), tag}));
        QVERIFY2(outcome.ready, qPrintable(outcome.message));
        QCOMPARE(outcome.message, QStringLiteral("The image %1 is ready.").arg(tag));
        // This machine's own engine builds at once: nothing is sent.
        QCOMPARE(steps.size(), 1);
        QVERIFY2(steps.at(0).at(0).toString().startsWith(QStringLiteral("Building %1 from ").arg(tag)),
                 qPrintable(steps.at(0).at(0).toString()));
        QVERIFY(output.size() > 0);
    }

    void withoutTheSandboxFolderNothingIsBuilt()
    {
        EngineService engines;
        QSignalSpy steps(&engines, &EngineService::imageStep);
        const EngineService::ImageOutcome outcome = QCoro::waitFor(
            engines.provideImage(QStringLiteral("sandpiper-test-service:none"), DockerCli::Engine::thisMachine(), {}));
        QVERIFY(!outcome.ready);
        QVERIFY(!outcome.buildFailed);
        QVERIFY2(outcome.message.startsWith(QLatin1String("No sandbox folder with a Dockerfile was found")),
                 qPrintable(outcome.message));
        QCOMPARE(steps.size(), 0);
    }

    // Another engine gets the image sent; an image this machine lacks is built there instead.
    void anotherEngineIsSentTheImageOrBuildsIt()
    {
        EngineService engines;
        QSignalSpy steps(&engines, &EngineService::imageStep);
        QSignalSpy output(&engines, &EngineService::imageOutput);
        const EngineService::ImageOutcome outcome = QCoro::waitFor(engines.provideImage(
            QStringLiteral("sandpiper-test-service:absent"), silentEngine(), EngineService::sandboxBuildContext()));
        QVERIFY(!outcome.ready);
        QVERIFY(outcome.buildFailed);
        QVERIFY2(outcome.message.startsWith(QLatin1String("The build failed: ")), qPrintable(outcome.message));
        QCOMPARE(steps.size(), 2);
        QVERIFY(steps.at(0).at(0).toString().startsWith(QLatin1String("Sending sandpiper-test-service:absent from")));
        QVERIFY(steps.at(1).at(0).toString().startsWith(QLatin1String("Building sandpiper-test-service:absent from")));
        QVERIFY(!output.isEmpty());
        QVERIFY2(output.at(0).at(0).toString().startsWith(QLatin1String("Not sent: ")),
                 qPrintable(output.at(0).at(0).toString()));
    }

    // Only the containers whose process is gone: those of running programs (this test) stay.
    void removesTheContainersLeftBehind()
    {
        const QString live = startOwnedContainer(QCoreApplication::applicationPid());
        const QString left = startOwnedContainer(deadPid);
        QVERIFY(!live.isEmpty() && !left.isEmpty());
        QCoro::waitFor(EngineService::removeLeftoverContainers());
        const bool liveStayed = containerExists(live);
        QCoro::waitFor(DockerCli::run({QStringLiteral("rm"), QStringLiteral("-f"), live}));
        QVERIFY(liveStayed);
        QVERIFY(!containerExists(left));
    }
};

QTEST_GUILESS_MAIN(TestEngineService)
#include "tst_engineservice.moc"
