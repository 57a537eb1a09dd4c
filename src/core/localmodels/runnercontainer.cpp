#include "localmodels/runnercontainer.h"

#include "localmodels/localrunner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMutex>
#include <QProcess>
#include <QStandardPaths>

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace Sandpiper::RunnerContainer {

namespace {

const QString network = QStringLiteral("sandpiper-llama");
const QString ownerLabel = QStringLiteral("sandpiper.llama.owner");
constexpr int dockerTimeout = 5000;
constexpr qint64 memoryMargin = qint64(1) << 30;

// Runs docker with ARGUMENTS; its output, or nothing when it failed or took too long.
std::optional<QByteArray> runDocker(const QStringList &arguments, int timeout = dockerTimeout)
{
    const QString program = docker();
    if (program.isEmpty())
        return std::nullopt;
    QProcess process;
    process.setProcessEnvironment(environment());
    process.start(program, arguments);
    if (!process.waitForFinished(timeout)) {
        process.kill();
        process.waitForFinished(2000);
        return std::nullopt;
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return std::nullopt;
    return process.readAllStandardOutput();
}

// The user the server runs as: the app's own, who can read the model. A rootless engine maps
// the container's root to the app's user (and the app's uid to another one): root there.
QString user()
{
    static const bool rootless = [] {
        const auto options = runDocker(
            {QStringLiteral("info"), QStringLiteral("--format"), QStringLiteral("{{json .SecurityOptions}}")});
        return options && options->contains("rootless");
    }();
    return rootless ? QStringLiteral("0:0") : QStringLiteral("%1:%2").arg(::getuid()).arg(::getgid());
}

} // namespace

QString repository()
{
    return QStringLiteral("sandpiper-llama");
}

QProcessEnvironment environment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const QString host = environment.value(QStringLiteral("DOCKER_HOST"));
    if (!host.isEmpty() && !host.startsWith(QLatin1String("unix://")))
        environment.remove(QStringLiteral("DOCKER_HOST"));
    environment.remove(QStringLiteral("DOCKER_CONTEXT"));
    return environment;
}

QString docker()
{
    // An app started from the desktop may have a short PATH: the usual places too.
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("docker"));
    return onPath.isEmpty()
               ? QStandardPaths::findExecutable(
                     QStringLiteral("docker"),
                     {QStringLiteral("/usr/bin"), QStringLiteral("/usr/local/bin"), QStringLiteral("/snap/bin")})
               : onPath;
}

namespace {

// What findImage() last found: settings and the window ask often, Docker at most every ten seconds.
struct FoundImage {
    QMutex mutex;
    QElapsedTimer asked;
    QString image;
};

FoundImage &found()
{
    static FoundImage found;
    return found;
}

} // namespace

void forgetImage()
{
    QMutexLocker lock(&found().mutex);
    found().asked.invalidate();
}

QString findImage()
{
    FoundImage &last = found();
    QMutexLocker lock(&last.mutex);
    QElapsedTimer &asked = last.asked;
    QString &image = last.image;
    if (asked.isValid() && asked.elapsed() < 10000)
        return image;
    image.clear();
    // Newest first; an image without a tag (<none>) is one a newer build replaced.
    if (const auto listed = runDocker({QStringLiteral("image"), QStringLiteral("ls"), QStringLiteral("--format"),
                                       QStringLiteral("{{.Repository}}:{{.Tag}}"), repository()})) {
        for (const QByteArray &line : listed->split('\n')) {
            if (!line.trimmed().isEmpty() && !line.endsWith(":<none>")) {
                image = QString::fromUtf8(line.trimmed());
                break;
            }
        }
    }
    asked.start();
    return image;
}

bool ensureNetwork()
{
    if (runDocker({QStringLiteral("network"), QStringLiteral("inspect"), network}))
        return true;
    // Two runners may make it at once: the one that loses finds it made.
    runDocker({QStringLiteral("network"), QStringLiteral("create"), QStringLiteral("--driver"),
               QStringLiteral("bridge"), QStringLiteral("-o"),
               QStringLiteral("com.docker.network.bridge.enable_ip_masquerade=false"), QStringLiteral("-o"),
               QStringLiteral("com.docker.network.bridge.enable_icc=false"), QStringLiteral("--label"),
               QStringLiteral("sandpiper.llama=1"), network});
    return runDocker({QStringLiteral("network"), QStringLiteral("inspect"), network}).has_value();
}

QStringList runArguments(const QString &image, const RunnerPlan &plan, quint16 port, const QString &name)
{
    const QString model = QStringLiteral("/models/") + QFileInfo(plan.modelPath).fileName();
    const QString published = QString::number(port);
    QStringList arguments{QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--name"), name,
                          QStringLiteral("--label"), QStringLiteral("sandpiper.llama=1"),
                          // The network: `--network none` would leave no way in, and a published port needs a
                          // bridge. The app's own bridge network has no masquerading (the container's packets
                          // are not translated to the host's address, so nothing outside this machine answers
                          // them) and no traffic between its containers; the port is published on 127.0.0.1
                          // alone, so only this machine reaches the server, as with the child process.
                          QStringLiteral("--network"), network, QStringLiteral("--publish"),
                          QStringLiteral("127.0.0.1:%1:%1").arg(published),
                          // Nothing to change inside: a read-only root, a small /tmp, no capabilities, no new
                          // privileges, the app's own user (who can read the model), the model file read-only.
                          QStringLiteral("--read-only"), QStringLiteral("--tmpfs"), QStringLiteral("/tmp:size=64m"),
                          QStringLiteral("--cap-drop"), QStringLiteral("ALL"), QStringLiteral("--security-opt"),
                          QStringLiteral("no-new-privileges"), QStringLiteral("--user"), user(),
                          QStringLiteral("--volume"),
                          QStringLiteral("%1:%2:ro").arg(QFileInfo(plan.modelPath).absoluteFilePath(), model),
                          // Limits: the threads the plan gives it, a bounded number of processes, and the
                          // memory this computer has less a margin for the rest (no swap beyond it).
                          QStringLiteral("--cpus"), QString::number(std::max(1, plan.threads)),
                          QStringLiteral("--pids-limit"), QStringLiteral("512")};
    if (const qint64 total = RunnerPlan::totalMemory(); total > 2 * memoryMargin) {
        const QString memory = QString::number((total - memoryMargin) / (1024 * 1024)) + QLatin1Char('m');
        arguments << QStringLiteral("--memory") << memory << QStringLiteral("--memory-swap") << memory;
    }
    arguments << image;
    // The server listens on all of the container's addresses (the published port reaches it on
    // its bridge address); the host side is 127.0.0.1 alone.
    QStringList server = plan.arguments(port);
    server[server.indexOf(QLatin1String("-m")) + 1] = model;
    server[server.indexOf(QLatin1String("--host")) + 1] = QStringLiteral("0.0.0.0");
    return arguments + server;
}

QStringList versionArguments(const QString &image)
{
    return QStringLiteral("run --rm --pull never --network none --read-only --tmpfs /tmp:size=64m --cap-drop ALL "
                          "--security-opt no-new-privileges --user")
               .split(QLatin1Char(' ')) +
           QStringList{user(), image, QStringLiteral("--version")};
}

void remove(const QString &name)
{
    if (!name.isEmpty())
        runDocker({QStringLiteral("rm"), QStringLiteral("--force"), name}, 20000);
}

void removeOrphans()
{
    const auto listed = runDocker({QStringLiteral("ps"), QStringLiteral("--all"), QStringLiteral("--filter"),
                                   QStringLiteral("label=") + ownerLabel, QStringLiteral("--format"),
                                   QStringLiteral("{{.Names}}\t{{.Label \"%1\"}}").arg(ownerLabel)});
    if (!listed)
        return;
    for (const QByteArray &line : listed->split('\n')) {
        const QList<QByteArray> fields = line.trimmed().split('\t');
        bool number = false;
        const qint64 owner = fields.value(1).toLongLong(&number);
        if (fields.size() == 2 && number && owner > 0 && ::kill(pid_t(owner), 0) != 0 && errno == ESRCH)
            remove(QString::fromUtf8(fields.at(0)));
    }
}

} // namespace Sandpiper::RunnerContainer
