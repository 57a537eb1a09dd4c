// The Docker health check tells the user what is wrong and the command that fixes it.
#include "dockertest.h"

#include <sandbox/sandboxhealth.h>

#include <QCoroTask>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using Sandpiper::SandboxHealth;
using Problem = Sandpiper::SandboxHealth::Problem;

class TestSandboxHealth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup()
    {
        qunsetenv("SANDPIPER_DOCKER");
        qunsetenv("DOCKER_HOST");
    }

    void aMissingClientSaysHowToInstall()
    {
        qputenv("SANDPIPER_DOCKER", "/nonexistent/docker");
        const auto health = QCoro::waitFor(SandboxHealth::check(QStringLiteral("any")));
        QCOMPARE(health.problem, Problem::NoDockerClient);
        QVERIFY(health.command.contains(QLatin1String("install")));
    }

    void aStoppedEngineSaysHowToStartIt()
    {
        // The real client, pointed at an engine that is not there.
        QTemporaryDir dir;
        qputenv("DOCKER_HOST",
                QByteArray(QByteArray("unix://") + dir.filePath(QStringLiteral("no-engine.sock")).toUtf8()));
        const auto health = QCoro::waitFor(SandboxHealth::check(QStringLiteral("any")));
        QCOMPARE(health.problem, Problem::EngineNotRunning);
        QCOMPARE(health.command, QStringLiteral("sudo systemctl start docker"));
        QVERIFY(!health.message.isEmpty());
    }

    void aUserOutsideTheDockerGroupIsToldToJoinIt()
    {
        QTemporaryDir dir;
        const QString fake = dir.filePath(QStringLiteral("docker"));
        QFile script(fake);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\necho 'permission denied while trying to connect to the Docker daemon socket at "
                     "unix:///var/run/docker.sock' >&2\nexit 1\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("SANDPIPER_DOCKER", fake.toUtf8());
        const auto health = QCoro::waitFor(SandboxHealth::check(QStringLiteral("any")));
        QCOMPARE(health.problem, Problem::PermissionDenied);
        QCOMPARE(health.command, QStringLiteral("sudo usermod -aG docker $USER"));
    }

    void aRunningEngineWithTheImageIsHealthy()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const auto health = QCoro::waitFor(SandboxHealth::check(Sandpiper::Test::sandboxImage()));
        QVERIFY2(health.ok(), qPrintable(health.message));
    }

    void aMissingImageSaysHowToBuildIt()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const auto health = QCoro::waitFor(SandboxHealth::check(QStringLiteral("sandpiper-sandbox:not-built")));
        QCOMPARE(health.problem, Problem::ImageMissing);
        QVERIFY(health.command.startsWith(QLatin1String("docker build -t sandpiper-sandbox:not-built ")));
    }
};

QTEST_GUILESS_MAIN(TestSandboxHealth)
#include "tst_sandboxhealth.moc"
