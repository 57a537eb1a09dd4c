#pragma once

#include <QString>

#include <QCoroTask>

namespace Sandpiper {

// Whether Python can run, and if not, what the user should do about it, with the exact command
// for their situation (install Docker, start it, join the docker group, build the image).
struct SandboxHealth {
    enum class Problem { None, NoDockerClient, EngineNotRunning, PermissionDenied, ImageMissing };
    Problem problem = Problem::None;
    QString message; // for the user
    QString command; // what to run to fix it, if a command does

    bool ok() const { return problem == Problem::None; }
    static QCoro::Task<SandboxHealth> check(QString image);
    // The install command for this distribution (from /etc/os-release).
    static QString installCommand();
};

} // namespace Sandpiper
