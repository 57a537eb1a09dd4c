#include "sandbox/enginestatus.h"

#include "sandbox/dockercli.h"

#include <QElapsedTimer>

using namespace std::chrono_literals;

namespace Sandpiper {

bool EngineStatus::isDefaultEngine(const DockerCli::Engine &engine)
{
    return engine.host.isEmpty() &&
           (engine.context.isEmpty() || engine.context == DockerCli::Engine::thisMachine().context);
}

QString EngineStatus::describeEngine(const DockerCli::Engine &engine)
{
    if (!engine.host.isEmpty())
        return engine.host;
    if (!isDefaultEngine(engine))
        return tr("context %1").arg(engine.context);
    return tr("the default engine");
}

QCoro::Task<EngineStatus> EngineStatus::check(QString image, DockerCli::Engine engine)
{
    EngineStatus status;
    status.engine = describeEngine(engine);
    QElapsedTimer timer;
    timer.start();
    const auto version = co_await DockerCli::run(
        {QStringLiteral("version"), QStringLiteral("--format"), QStringLiteral("{{.Server.Version}}")}, {}, 15s,
        engine);
    if (!version.ok()) {
        status.error = version.errorMessage();
        co_return status;
    }
    status.roundTripMs = timer.elapsed();
    status.answers = true;
    status.locality = co_await EngineLocality::of(image, engine);
    status.features = co_await EngineFeatures::of(engine);
    co_return status;
}

QCoro::Task<qint64> EngineStatus::trivialExecutionMs(QString image, DockerCli::Engine engine)
{
    QElapsedTimer timer;
    timer.start();
    const auto result =
        co_await DockerCli::run({QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--pull"),
                                 QStringLiteral("never"), QStringLiteral("--network"), QStringLiteral("none"), image,
                                 QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral("pass")},
                                {}, 60s, engine);
    co_return result.ok() ? timer.elapsed() : -1;
}

QString EngineStatus::summary() const
{
    if (!answers)
        return tr("%1: does not answer (%2)").arg(engine, error);
    const QString where = locality == EngineLocality::Kind::Remote  ? tr("remote")
                          : locality == EngineLocality::Kind::Local ? tr("on this machine")
                                                                    : tr("local or remote: not known yet");
    QString line = tr("%1: %2, answers in %3 ms").arg(engine, where).arg(roundTripMs);
    if (const QString what = features.summary(); !what.isEmpty())
        line = tr("%1 (%2)").arg(line, what);
    return line;
}

} // namespace Sandpiper
