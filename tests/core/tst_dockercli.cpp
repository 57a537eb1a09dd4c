#include "dockertest.h"

#include <sandbox/dockercli.h>

#include <QCoroTask>
#include <QTest>

using namespace std::chrono_literals;
using Sandpiper::DockerCli;

class TestDockerCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsPythonInTheSandboxImage()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const auto result = QCoro::waitFor(
            DockerCli::run({QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--network"),
                            QStringLiteral("none"), Sandpiper::Test::sandboxImage(), QStringLiteral("python3"),
                            QStringLiteral("-c"), QStringLiteral("print(2+2)")}));
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QCOMPARE(result.standardOutput, QByteArray("4\n"));
    }

    void passesStandardInput()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const auto result = QCoro::waitFor(
            DockerCli::run({QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("-i"),
                            Sandpiper::Test::sandboxImage(), QStringLiteral("python3"), QStringLiteral("-")},
                           QByteArray("print('it\\'s \"quoted\"', 'π')\n")));
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QCOMPARE(QString::fromUtf8(result.standardOutput), QStringLiteral("it's \"quoted\" π\n"));
    }

    void reportsAMissingClient()
    {
        qputenv("SANDPIPER_DOCKER", "/nonexistent/docker");
        const auto result = QCoro::waitFor(DockerCli::run({QStringLiteral("version")}));
        qunsetenv("SANDPIPER_DOCKER");
        QVERIFY(!result.started);
        QVERIFY(!result.ok());
        QVERIFY(result.errorMessage().contains(QLatin1String("could not be started")));
    }

    void killsACommandThatTakesTooLong()
    {
        qputenv("SANDPIPER_DOCKER", "sleep");
        const auto result = QCoro::waitFor(DockerCli::run({QStringLiteral("30")}, {}, 200ms));
        qunsetenv("SANDPIPER_DOCKER");
        QVERIFY(result.started);
        QVERIFY(result.timedOut);
        QVERIFY(!result.ok());
    }
};

QTEST_GUILESS_MAIN(TestDockerCli)
#include "tst_dockercli.moc"
