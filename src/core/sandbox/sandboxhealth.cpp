#include "sandbox/sandboxhealth.h"

#include "sandbox/dockercli.h"
#include "sandbox/imagemanager.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

using namespace std::chrono_literals;

namespace Sandpiper {

QString SandboxHealth::installCommand()
{
    QFile release(QStringLiteral("/etc/os-release"));
    const QString text = release.open(QIODevice::ReadOnly) ? QString::fromUtf8(release.readAll()) : QString();
    if (text.contains(QLatin1String("fedora")) || text.contains(QLatin1String("rhel")))
        return QStringLiteral("sudo dnf install moby-engine && sudo systemctl enable --now docker");
    if (text.contains(QLatin1String("arch")))
        return QStringLiteral("sudo pacman -S docker && sudo systemctl enable --now docker");
    return QStringLiteral("sudo apt install docker.io && sudo systemctl enable --now docker");
}

QCoro::Task<SandboxHealth> SandboxHealth::check(QString image)
{
    SandboxHealth health;
    if (QStandardPaths::findExecutable(DockerCli::program()).isEmpty()) {
        health.problem = Problem::NoDockerClient;
        health.message = QCoreApplication::translate(
            "SandboxHealth",
            "Docker is not installed, so the model cannot run Python. Install it, then restart Sandpiper.");
        health.command = installCommand();
        co_return health;
    }
    const auto info = co_await DockerCli::run(
        {QStringLiteral("version"), QStringLiteral("--format"), QStringLiteral("{{.Server.Version}}")}, {}, 15s);
    if (!info.ok()) {
        const QString said = QString::fromUtf8(info.standardError).toLower();
        if (said.contains(QLatin1String("permission denied"))) {
            health.problem = Problem::PermissionDenied;
            health.message = QCoreApplication::translate(
                "SandboxHealth", "You may not use Docker yet, so the model cannot run Python. Join the docker group, "
                                 "then log out and back in.");
            health.command = QStringLiteral("sudo usermod -aG docker $USER");
        } else {
            health.problem = Problem::EngineNotRunning;
            health.message = QCoreApplication::translate(
                "SandboxHealth", "Docker is not running, so the model cannot run Python. Start it:");
            health.command = QStringLiteral("sudo systemctl start docker");
        }
        co_return health;
    }
    if (!co_await ImageManager::isPresent(image)) {
        health.problem = Problem::ImageMissing;
        health.message =
            QCoreApplication::translate(
                "SandboxHealth", "The sandbox image %1 is missing, so the model cannot run Python yet. Build it:")
                .arg(image);
        // An installed Sandpiper ships its image definition; a source checkout has it in sandbox/.
        const QString installed =
            QDir(QCoreApplication::applicationDirPath() + QStringLiteral("/../share/sandpiper/sandbox")).absolutePath();
        const QString context =
            QFileInfo::exists(installed + QStringLiteral("/Dockerfile")) ? installed : QStringLiteral("sandbox/");
        health.command = QStringLiteral("docker build -t %1 %2").arg(image, context);
    }
    co_return health;
}

} // namespace Sandpiper
