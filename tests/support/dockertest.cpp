#include "dockertest.h"

#include <sandbox/dockercli.h>

#include <QCoroTask>

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

} // namespace Sandpiper::Test
