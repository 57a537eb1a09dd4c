#pragma once

#include "sandbox/dockercli.h"
#include "sandbox/enginefeatures.h"
#include "sandbox/sandboxconfig.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <QCoroTask>

namespace Sandpiper {

// How a conversation's kernel container is run on the engine (docker or podman, local or remote)
// and how it goes again: the `run` arguments with their hardening, the folder made ready for the
// sandbox user, the interrupt, the removal, and what an early end of the container means.
class ContainerLauncher
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::ContainerLauncher)

public:
    // A new container's name for CONVERSATIONID: what the engine accepts of it, and a random part.
    static QString containerName(const QString &conversationId);
    // The kernel's source (sandbox/kernel/kernel.py), which the container runs with `python3 -c`.
    static QString kernelSource();
    // The uid:gid the kernel runs as: the desktop user's, or an unprivileged one for root.
    static QString sandboxUser();
    // The flags every Sandpiper container gets, whatever runs in it: the label of this process
    // (which clean-up goes by), CONFIG's network, a read-only root with CONFIG's tmpfs /tmp, no
    // capabilities, no new privileges, CONFIG's limits where FEATURES says the engine enforces
    // them, and the sandbox user.
    static QStringList hardeningArguments(const SandboxConfig &config, const EngineFeatures &features);
    // The arguments of `docker run` for the kernel of CONFIG in container NAME on an engine with
    // FEATURES: the hardening, the data folder (mounted, or a tmpfs of the container's own on a
    // REMOTE engine) and the kernel handed to the image's python3.
    static QStringList runArguments(const SandboxConfig &config, const QString &name, const EngineFeatures &features,
                                    bool remote);
    // Makes the data folder of CONFIG ready: a local engine's container writes into it as the
    // sandbox user, so it has to be that user's.
    static void prepareDataDirectory(const SandboxConfig &config, bool remote);
    // Interrupts the code in container NAME on ENGINE (a KeyboardInterrupt), without waiting.
    static void interrupt(const QString &name, const DockerCli::Engine &engine);
    // Removes container NAME on ENGINE in the background.
    static void remove(const QString &name, const DockerCli::Engine &engine);
    // Why a container ended with EXITCODE (-2: the client did not start), for the user; ENGINEERRORS
    // is what the client wrote to its standard error, MEMORY the container's limit.
    static QString endCause(int exitCode, const QByteArray &engineErrors, const QString &memory);
    // Removes containers that Sandpiper processes on this machine left behind (crashes).
    static QCoro::Task<int> removeLeftoverContainers();
    // Removes every Sandpiper sandbox container (the settings' clean-up button).
    static QCoro::Task<int> removeAllContainers();
};

} // namespace Sandpiper
