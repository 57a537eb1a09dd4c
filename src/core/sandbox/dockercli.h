#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <QCoroTask>

#include <chrono>

namespace Sandpiper {

// The docker command-line client. Sandpiper talks to the engine only through it, so
// DOCKER_HOST, docker contexts and podman's docker-compatible CLI all work unchanged.
class DockerCli
{
public:
    struct Result {
        int exitCode = -1;
        QByteArray standardOutput;
        QByteArray standardError;
        bool started = false;
        bool timedOut = false;

        bool ok() const { return started && !timedOut && exitCode == 0; }
        // A one-line explanation for the user when the command did not succeed.
        QString errorMessage() const;
    };

    // The client program: SANDPIPER_DOCKER if set (e.g. "podman"), else "docker".
    static QString program();

    // Runs `docker ARGS`, writing STANDARDINPUT to it; kills it after TIMEOUT.
    static QCoro::Task<Result> run(QStringList arguments, QByteArray standardInput = {},
                                   std::chrono::milliseconds timeout = std::chrono::seconds(60));

    // Starts `docker ARGS` without waiting for it or reading its output (clean-up commands).
    static void runDetached(const QStringList &arguments);

    // Whether an engine answers `docker version` within a few seconds.
    static QCoro::Task<bool> engineAnswers();
};

} // namespace Sandpiper
