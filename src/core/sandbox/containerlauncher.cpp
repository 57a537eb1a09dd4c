#include "sandbox/containerlauncher.h"

#include "logging.h"

#include <QDir>
#include <QFile>
#include <QHostInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QThread>

#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

constexpr auto ownerLabelKey = "sandpiper.owner";
constexpr auto conversationLabel = "sandpiper.conversation";
// The uid:gid a root desktop user's kernel runs as: root stays outside the sandbox.
constexpr uid_t unprivilegedId = 65534;

QString ownerId()
{
    return QHostInfo::localHostName() + QLatin1Char(':') + QString::number(QCoreApplication::applicationPid());
}

QStringList dataMountArguments(const SandboxConfig &config, bool remote)
{
    if (!remote)
        return {QStringLiteral("-v"), QStringLiteral("%1:/mnt/data").arg(QDir(config.dataDirectory).absolutePath())};
    // The engine has no folder of ours: the container's own, in memory, sized to the disk limit
    // (which the kernel then enforces for us), owned by the sandbox user, with exec for the
    // packages pip installs there.
    const QString user = ContainerLauncher::sandboxUser();
    QString options = QStringLiteral("/mnt/data:exec,uid=%1,gid=%2")
                          .arg(user.section(QLatin1Char(':'), 0, 0), user.section(QLatin1Char(':'), 1));
    if (config.diskLimitBytes > 0)
        options += QStringLiteral(",size=%1").arg(config.diskLimitBytes);
    return {QStringLiteral("--tmpfs"), options};
}

QCoro::Task<int> removeContainers(bool onlyLeftovers)
{
    const auto listing = co_await DockerCli::run(
        {QStringLiteral("ps"), QStringLiteral("-a"), QStringLiteral("--filter"),
         QStringLiteral("label=%1").arg(QLatin1String(ownerLabelKey)), QStringLiteral("--format"),
         QStringLiteral("{{.ID}} {{.Label \"%1\"}}").arg(QLatin1String(ownerLabelKey))},
        {}, 20s);
    if (!listing.ok())
        co_return 0;
    const QString host = QHostInfo::localHostName();
    QStringList doomed;
    for (const QString &line : QString::fromUtf8(listing.standardOutput).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString id = line.section(QLatin1Char(' '), 0, 0);
        const QString owner = line.section(QLatin1Char(' '), 1);
        if (onlyLeftovers) {
            // A container belongs to a live process when that process still runs on this host.
            const qint64 pid = owner.section(QLatin1Char(':'), -1).toLongLong();
            const bool mine = owner.section(QLatin1Char(':'), 0, -2) == host;
            if (!mine || pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)
                continue;
        }
        doomed << id;
    }
    if (doomed.isEmpty())
        co_return 0;
    const auto removal =
        co_await DockerCli::run(QStringList{QStringLiteral("rm"), QStringLiteral("-f")} + doomed, {}, 60s);
    if (!removal.ok())
        qCWarning(lcSandbox) << "cannot remove old containers:" << removal.errorMessage();
    co_return removal.ok() ? int(doomed.size()) : 0;
}

} // namespace

QString ContainerLauncher::kernelSource()
{
    QFile file(QStringLiteral(":/sandbox/kernel.py"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("the sandbox kernel is missing from the resources");
    return QString::fromUtf8(file.readAll());
}

QString ContainerLauncher::containerName(const QString &conversationId)
{
    static const QRegularExpression unsafe(QStringLiteral("[^a-zA-Z0-9_.-]"));
    QString safe = conversationId.left(40);
    safe.replace(unsafe, QStringLiteral("_"));
    return QStringLiteral("sandpiper-%1-%2")
        .arg(safe)
        .arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QLatin1Char('0'));
}

QString ContainerLauncher::sandboxUser()
{
    if (::getuid() == 0)
        return QStringLiteral("%1:%1").arg(unprivilegedId);
    return QStringLiteral("%1:%2").arg(::getuid()).arg(::getgid());
}

QStringList ContainerLauncher::hardeningArguments(const SandboxConfig &config, const EngineFeatures &features)
{
    QStringList arguments{QStringLiteral("--label"),
                          QStringLiteral("%1=%2").arg(QLatin1String(ownerLabelKey), ownerId()),
                          QStringLiteral("--network"),
                          config.network ? QStringLiteral("bridge") : QStringLiteral("none"),
                          QStringLiteral("--read-only"),
                          QStringLiteral("--tmpfs"),
                          QStringLiteral("/tmp:size=%1").arg(config.tmpSize),
                          QStringLiteral("--cap-drop"),
                          QStringLiteral("ALL"),
                          QStringLiteral("--security-opt"),
                          QStringLiteral("no-new-privileges")};
    // Limits the engine cannot enforce are left out rather than ignored by it with a warning
    // (or refused); the first execution says which (limitsWarning()).
    if (features.pidsLimit)
        arguments << QStringLiteral("--pids-limit") << QString::number(config.pidsLimit);
    if (features.memoryLimit)
        arguments << QStringLiteral("--memory") << config.memory << QStringLiteral("--memory-swap") << config.memory;
    if (features.cpuLimit) {
        const double cpus = std::clamp(config.cpus, 0.1, double(QThread::idealThreadCount()));
        arguments << QStringLiteral("--cpus") << QString::number(cpus, 'f', 2);
    }
    return arguments << QStringLiteral("--user") << sandboxUser();
}

QStringList ContainerLauncher::runArguments(const SandboxConfig &config, const QString &name,
                                            const EngineFeatures &features, bool remote)
{
    QStringList arguments{QStringLiteral("run"),
                          QStringLiteral("-i"),
                          QStringLiteral("--rm"),
                          QStringLiteral("--init"),
                          QStringLiteral("--pull"),
                          QStringLiteral("never"),
                          QStringLiteral("--name"),
                          name,
                          QStringLiteral("--label"),
                          QStringLiteral("%1=%2").arg(QLatin1String(conversationLabel), config.conversationId)};
    arguments += hardeningArguments(config, features);
    if (features.keepsUserId() && !remote)
        arguments << QStringLiteral("--userns=keep-id");
    arguments << QStringLiteral("-e") << QStringLiteral("HOME=/tmp")
              << QStringLiteral("-e")
              // The kernel tells the model at once that pip needs the network, instead of pip retrying.
              << QStringLiteral("SANDPIPER_NETWORK=%1").arg(config.network ? 1 : 0);
    // A remote engine's files come back on the kernel's output (RemoteFileSync): the engine's log
    // of it would hold a copy of each, for nobody.
    if (remote)
        arguments << QStringLiteral("--log-driver") << QStringLiteral("none");
    return arguments + dataMountArguments(config, remote) +
           QStringList{
               QStringLiteral("-w"),       QStringLiteral("/mnt/data"), config.image,   QStringLiteral("python3"),
               QStringLiteral("-u"),       QStringLiteral("-c"),        kernelSource(), QStringLiteral("--data"),
               QStringLiteral("/mnt/data")};
}

void ContainerLauncher::prepareDataDirectory(const SandboxConfig &config, bool remote)
{
    const QString &path = config.dataDirectory;
    if (remote) {
        QDir().mkpath(path);
        return;
    }
    // The kernel writes figures and files as the sandbox user; the folder has to be its own.
    QDir().mkpath(path + QStringLiteral("/figures"));
    if (::getuid() != 0)
        return;
    // Never through a link: the sandbox may have put one where "figures" was.
    const int folder = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0 || ::fchown(folder, unprivilegedId, unprivilegedId) != 0 ||
        ::fchownat(folder, "figures", unprivilegedId, unprivilegedId, AT_SYMLINK_NOFOLLOW) != 0)
        qCWarning(lcSandbox) << "cannot hand" << path << "to the sandbox user";
    if (folder >= 0)
        ::close(folder);
}

void ContainerLauncher::interrupt(const QString &name, const DockerCli::Engine &engine)
{
    // tini (--init) passes SIGINT on to the kernel, which raises KeyboardInterrupt.
    DockerCli::runDetached({QStringLiteral("kill"), QStringLiteral("--signal"), QStringLiteral("INT"), name}, engine);
}

void ContainerLauncher::remove(const QString &name, const DockerCli::Engine &engine)
{
    DockerCli::runDetached({QStringLiteral("rm"), QStringLiteral("-f"), name}, engine);
}

QString ContainerLauncher::endCause(int exitCode, const QByteArray &engineErrors, const QString &memory)
{
    // Docker's own complaint, without its "See 'docker run --help'" footer.
    QStringList dockerLines = QString::fromUtf8(engineErrors).trimmed().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    dockerLines.removeIf([](const QString &line) { return line.startsWith(QLatin1String("See '")); });
    const QString docker = dockerLines.mid(std::max<qsizetype>(0, dockerLines.size() - 3)).join(QLatin1Char(' '));
    switch (exitCode) {
    case -2:
        return tr("The Docker client (%1) could not be started: is Docker installed?").arg(DockerCli::program());
    case 137:
        return tr("The Python kernel was killed (exit code 137), most likely because it ran out of memory "
                  "(the limit is %1).")
            .arg(memory);
    case 139:
        return tr("The Python kernel crashed with a segmentation fault (exit code 139).");
    case 125:
    case 126:
    case 127:
        return tr("Docker could not start the sandbox: %1")
            .arg(docker.isEmpty() ? tr("exit code %1").arg(exitCode) : docker);
    default:
        return tr("The Python kernel exited unexpectedly (exit code %1).").arg(exitCode);
    }
}

QCoro::Task<int> ContainerLauncher::removeLeftoverContainers()
{
    return removeContainers(true);
}

QCoro::Task<int> ContainerLauncher::removeAllContainers()
{
    return removeContainers(false);
}

} // namespace Sandpiper
