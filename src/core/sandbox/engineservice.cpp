#include "sandbox/engineservice.h"

#include "sandbox/containerlauncher.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPointer>

using namespace std::chrono_literals;

namespace Sandpiper {

EngineService::EngineService(QObject *parent)
    : QObject(parent)
{
    connect(&m_images, &ImageManager::progress, this, &EngineService::imageOutput);
}

QString EngineService::Check::summary() const
{
    const QString line = status.summary();
    if (!status.answers)
        return line;
    if (trivialExecutionMs < 0)
        return EngineService::tr("%1; no trivial execution ran (is the image there?).").arg(line);
    return EngineService::tr("%1; a trivial execution in a fresh sandbox takes %2 ms.")
        .arg(line)
        .arg(trivialExecutionMs);
}

QCoro::Task<QList<EngineService::Context>> EngineService::contexts()
{
    const auto listing =
        co_await DockerCli::run({QStringLiteral("context"), QStringLiteral("ls"), QStringLiteral("--format"),
                                 QStringLiteral("{{.Name}}\t{{.DockerEndpoint}}")},
                                {}, 10s);
    QList<Context> found;
    // podman has no contexts.
    if (!listing.ok())
        co_return found;
    for (const QString &line : QString::fromUtf8(listing.standardOutput).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        Context context{line.section(QLatin1Char('\t'), 0, 0).trimmed(), line.section(QLatin1Char('\t'), 1).trimmed()};
        if (!context.name.isEmpty() && DockerCli::Engine::settingProblem(context.name).isEmpty())
            found << context;
    }
    co_return found;
}

QCoro::Task<EngineService::Check> EngineService::checkEngine(QString image, DockerCli::Engine engine)
{
    QPointer<EngineService> self(this);
    Check check;
    Q_EMIT checking(tr("Checking %1…").arg(EngineStatus::describeEngine(engine)));
    check.status = co_await EngineStatus::check(image, engine);
    if (!self || !check.status.answers)
        co_return check;
    Q_EMIT checking(check.status.summary() + QLatin1Char('.'));
    check.trivialExecutionMs = co_await EngineStatus::trivialExecutionMs(image, engine);
    co_return check;
}

QCoro::Task<EngineService::ImageOutcome> EngineService::provideImage(QString image, DockerCli::Engine engine,
                                                                     QString context)
{
    QPointer<EngineService> self(this);
    // Sent from this machine's engine rather than built there: faster, and the same image
    // (ImageManager::send says when this machine does not have it).
    const QString where = EngineStatus::describeEngine(engine);
    if (!EngineStatus::isDefaultEngine(engine)) {
        Q_EMIT imageStep(tr("Sending %1 from this machine to %2 (docker save | docker load)…").arg(image, where));
        const bool sent = co_await m_images.send(image, engine);
        if (!self)
            co_return {};
        if (sent)
            co_return {true, tr("The image %1 was sent to %2 and is ready.").arg(image, where)};
        Q_EMIT imageOutput(tr("Not sent: %1 Building it there instead.").arg(m_images.lastError()));
        if (!self)
            co_return {};
    }
    if (context.isEmpty()) {
        co_return {false, tr("No sandbox folder with a Dockerfile was found next to Sandpiper "
                             "(../share/sandpiper/sandbox). Reinstall Sandpiper or build the image by hand.")};
    }
    Q_EMIT imageStep(tr("Building %1 from %2 on %3…").arg(image, QDir::toNativeSeparators(context), where));
    const bool built = co_await m_images.build(image, context, engine);
    if (!self)
        co_return {};
    if (built)
        co_return {true, tr("The image %1 is ready.").arg(image)};
    co_return {false, tr("The build failed: %1").arg(m_images.lastError()), true};
}

QString EngineService::sandboxBuildContext()
{
    const QStringList folders = {
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/sandpiper/sandbox"),
        QStringLiteral(SANDPIPER_SOURCE_DIR "/sandbox"),
    };
    for (const QString &folder : folders) {
        if (QFileInfo::exists(folder + QStringLiteral("/Dockerfile")))
            return QDir::cleanPath(folder);
    }
    return {};
}

QCoro::Task<int> EngineService::removeAllContainers()
{
    return ContainerLauncher::removeAllContainers();
}

QCoro::Task<int> EngineService::removeLeftoverContainers()
{
    return ContainerLauncher::removeLeftoverContainers();
}

} // namespace Sandpiper
