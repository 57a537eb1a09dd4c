#pragma once

#include "sandbox/dockercli.h"

#include <QString>

#include <QCoroTask>

namespace Sandpiper {

// Whether the engine the docker CLI talks to shares this machine's filesystem. Found out, not
// configured: a fresh marker file is bind-mounted into a throwaway container and read back. A
// remote engine (DOCKER_HOST=ssh://…, tcp://…, a context on another machine, a VM) makes an empty
// folder of its own for the mount instead, so the marker does not come back. The answer is
// cached per engine (client program, DOCKER_HOST and the context) for the life of the process.
class EngineLocality
{
public:
    enum class Kind { Unknown, Local, Remote };

    // ENGINE (by default the one the CLI's settings choose now), using IMAGE for the probe (it
    // must be there). Unknown (not cached) when the probe could not run, e.g. no engine or no image.
    static QCoro::Task<Kind> of(QString image, DockerCli::Engine engine = DockerCli::Engine::chosen());
    // What identifies ENGINE in the caches.
    static QString engineKey(const DockerCli::Engine &engine = DockerCli::Engine::chosen());
    // Forgets every answer (tests, or the user changed the engine in Settings).
    static void forget();
};

} // namespace Sandpiper
