#pragma once

#include "sandbox/dockercli.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <QCoroTask>

namespace Sandpiper {

// What the engine behind the docker CLI is and what it holds a container to: Docker or podman
// (podman itself, or Debian's podman-docker, whose `docker` is podman), rootful or rootless, and
// which of the sandbox's resource limits its cgroups enforce for this user. Asked of the engine
// (`info` as JSON, whose shape tells the two apart) once per engine, keyed as EngineLocality
// keys its answers; not remembered when the engine does not answer.
struct EngineFeatures {
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::EngineFeatures)

public:
    enum class Engine { Unknown, Docker, Podman };

    Engine engine = Engine::Unknown;
    QString version;
    bool rootless = false;
    QString cgroupVersion; // "1" or "2"; empty when not known
    // Whether --memory, --cpus and --pids-limit take effect: a rootless engine gets only the
    // cgroup controllers delegated to the user (none on cgroup v1).
    bool memoryLimit = true;
    bool cpuLimit = true;
    bool pidsLimit = true;

    // Rootless podman maps this user to root in the container and other ids to subordinate ones
    // (/etc/subuid), so the sandbox user could not write the bind-mounted folder and its files
    // would belong to a stranger here: --userns=keep-id keeps the user's own id inside.
    bool keepsUserId() const { return engine == Engine::Podman && rootless; }
    // "podman 5.4.2, rootless", "Docker 26.1.5", with the limits it does not enforce; empty when
    // not known.
    QString summary() const;
    // Which of the limits do not hold and why, a sentence for the user; empty when all hold.
    QString limitsWarning() const;

    // Reads `docker info --format '{{json .}}'` or `podman info --format json`.
    static EngineFeatures fromInfo(const QByteArray &json);
    // ENGINE (by default the one the CLI's settings choose now); Unknown when it does not answer.
    static QCoro::Task<EngineFeatures> of(DockerCli::Engine engine = DockerCli::Engine::chosen());
    // Forgets every answer (tests, or the user changed the engine).
    static void forget();

private:
    QStringList missingLimits() const;
    QString limitsCause() const;
};

} // namespace Sandpiper
