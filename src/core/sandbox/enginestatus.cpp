#include "sandbox/enginestatus.h"

#include "sandbox/containerlauncher.h"
#include "sandbox/dockercli.h"

#include <QCoroProcess>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <QDeadlineTimer>
#include <QElapsedTimer>

#include <algorithm>

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
    // What a run pays there is a round trip on its kernel's channel, not a docker command.
    if (status.locality == EngineLocality::Kind::Remote)
        status.channelRoundTripMs = co_await measureChannelRoundTrip(image, engine);
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

QCoro::Task<qint64> EngineStatus::measureChannelRoundTrip(QString image, DockerCli::Engine engine)
{
    constexpr int rounds = 5;
    const QString name = ContainerLauncher::containerName(QStringLiteral("check"));
    QProcess kernel;
    engine.applyTo(kernel);
    kernel.start(DockerCli::program(),
                 {QStringLiteral("run"), QStringLiteral("-i"), QStringLiteral("--rm"), QStringLiteral("--pull"),
                  QStringLiteral("never"), QStringLiteral("--network"), QStringLiteral("none"),
                  QStringLiteral("--name"), name, image, QStringLiteral("python3"), QStringLiteral("-u"),
                  QStringLiteral("-c"), ContainerLauncher::kernelSource(), QStringLiteral("--data"),
                  QStringLiteral("/tmp/data")});
    const QDeadlineTimer deadline(60s);
    QByteArray buffer;
    QList<qint64> times;
    QElapsedTimer timer;
    int sent = 0;
    while (times.size() < rounds && !deadline.hasExpired()) {
        const qsizetype end = buffer.indexOf('\n');
        if (end < 0) {
            if (kernel.state() == QProcess::NotRunning && kernel.bytesAvailable() == 0)
                break;
            co_await qCoro(kernel).waitForReadyRead(std::max(1ms, std::chrono::milliseconds(deadline.remainingTime())));
            buffer += kernel.readAllStandardOutput();
            continue;
        }
        const QJsonObject event = QJsonDocument::fromJson(buffer.left(end)).object();
        buffer.remove(0, end + 1);
        const QString kind = event.value(QLatin1String("event")).toString();
        if (kind == QLatin1String("result") && event.value(QLatin1String("id")).toString() == QString::number(sent))
            times << timer.elapsed();
        else if (kind != QLatin1String("ready"))
            continue;
        timer.start();
        const QJsonObject request{{QStringLiteral("id"), QString::number(++sent)},
                                  {QStringLiteral("op"), QStringLiteral("execute")},
                                  {QStringLiteral("code"), QStringLiteral("pass")}};
        kernel.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    }
    // Its input closed, the kernel ends and the container goes (--rm).
    kernel.closeWriteChannel();
    if (kernel.state() != QProcess::NotRunning && !co_await qCoro(kernel).waitForFinished(10s)) {
        ContainerLauncher::remove(name, engine);
        kernel.kill();
        co_await qCoro(kernel).waitForFinished(5s);
    }
    if (times.size() < rounds)
        co_return -1;
    std::sort(times.begin(), times.end());
    co_return times.at(rounds / 2);
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
    if (channelRoundTripMs >= 0)
        line = tr("%1; a run in a running sandbox there pays %2 ms on its kernel's channel")
                   .arg(line)
                   .arg(channelRoundTripMs);
    return line;
}

} // namespace Sandpiper
