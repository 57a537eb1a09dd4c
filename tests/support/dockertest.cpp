#include "dockertest.h"

#include <sandbox/dockercli.h>

#include <QCoroTask>
#include <QHostInfo>
#include <QTcpServer>

namespace Sandpiper::Test {

QString sandboxImage()
{
    return qEnvironmentVariable("SANDPIPER_TEST_IMAGE");
}

QString dockerUnavailableReason()
{
    static const QString reason = [] {
        const auto version = QCoro::waitFor(DockerCli::run({QStringLiteral("version")}));
        if (!version.ok())
            return QStringLiteral("Docker is not available: %1").arg(version.errorMessage());
        const auto image =
            QCoro::waitFor(DockerCli::run({QStringLiteral("image"), QStringLiteral("inspect"), sandboxImage()}));
        if (!image.ok())
            return QStringLiteral("the sandbox image %1 is missing (scripts/test builds it)").arg(sandboxImage());
        return QString();
    }();
    return reason;
}

QString remoteDockerHost()
{
    return qEnvironmentVariable("SANDPIPER_REMOTE_DOCKER_HOST");
}

QString remoteEngineUnavailableReason()
{
    if (remoteDockerHost().isEmpty())
        return QStringLiteral("no remote engine: SANDPIPER_REMOTE_DOCKER_HOST is not set (scripts/test starts one)");
    return dockerUnavailableReason();
}

QString silentEngineAddress()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost);
    return QStringLiteral("tcp://127.0.0.1:%1").arg(server.serverPort());
}

QString startOwnedContainer(qint64 ownerPid)
{
    const auto started = QCoro::waitFor(DockerCli::run(
        {QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--network"), QStringLiteral("none"),
         QStringLiteral("--label"),
         QStringLiteral("sandpiper.owner=%1:%2").arg(QHostInfo::localHostName()).arg(ownerPid), sandboxImage(),
         QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral("import time; time.sleep(300)")}));
    return started.ok() ? QString::fromUtf8(started.standardOutput).trimmed() : QString();
}

bool containerExists(const QString &id)
{
    return QCoro::waitFor(DockerCli::run({QStringLiteral("container"), QStringLiteral("inspect"), id})).ok();
}

} // namespace Sandpiper::Test
