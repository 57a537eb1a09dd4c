#include "sandbox/dockercli.h"

#include "logging.h"

#include <QCoroProcess>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// The context `docker context use` chose, from the CLI's configuration file.
QString currentContext()
{
    const QString configDir = qEnvironmentVariableIsSet("DOCKER_CONFIG")
                                  ? qEnvironmentVariable("DOCKER_CONFIG")
                                  : QDir::homePath() + QStringLiteral("/.docker");
    QFile config(configDir + QStringLiteral("/config.json"));
    if (!config.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(config.read(1024 * 1024)).object().value(QLatin1String("currentContext")).toString();
}

} // namespace

DockerCli::Engine DockerCli::Engine::chosen()
{
    if (!qEnvironmentVariable("DOCKER_HOST").isEmpty())
        return {};
    if (const QString context = qEnvironmentVariable("DOCKER_CONTEXT"); !context.isEmpty())
        return {context};
    const QString context = currentContext();
    return {context.isEmpty() ? QStringLiteral("default") : context};
}

void DockerCli::Engine::applyTo(QProcess &process) const
{
    if (context.isEmpty())
        return;
    // The variable outranks the configuration file's choice, and podman ignores it.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("DOCKER_CONTEXT"), context);
    process.setProcessEnvironment(environment);
}

QString DockerCli::program()
{
    const QString configured = qEnvironmentVariable("SANDPIPER_DOCKER");
    return configured.isEmpty() ? QStringLiteral("docker") : configured;
}

QString DockerCli::Result::errorMessage() const
{
    if (!started)
        return QStringLiteral("the Docker client (%1) could not be started: is Docker installed?").arg(program());
    if (timedOut)
        return QStringLiteral("the Docker client did not answer in time");
    if (exitCode != 0) {
        const QString detail = QString::fromUtf8(standardError).trimmed();
        return detail.isEmpty() ? QStringLiteral("docker exited with code %1").arg(exitCode) : detail;
    }
    return {};
}

QCoro::Task<DockerCli::Result> DockerCli::run(QStringList arguments, QByteArray standardInput,
                                              std::chrono::milliseconds timeout, Engine engine)
{
    Result result;
    // QProcess reports a missing program only through errorOccurred, which a start awaiter
    // would sit out until its timeout; look the program up first instead.
    const QString executable = QStandardPaths::findExecutable(program());
    if (executable.isEmpty()) {
        qCWarning(lcSandbox) << "no such program:" << program();
        co_return result;
    }
    QProcess process;
    engine.applyTo(process);
    result.started = co_await qCoro(process).start(executable, arguments);
    if (!result.started) {
        qCWarning(lcSandbox) << "cannot start" << program() << process.errorString();
        co_return result;
    }
    if (!standardInput.isEmpty())
        process.write(standardInput);
    process.closeWriteChannel();

    if (!co_await qCoro(process).waitForFinished(timeout)) {
        result.timedOut = true;
        process.kill();
        process.waitForFinished(1000);
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.standardOutput = process.readAllStandardOutput();
    result.standardError = process.readAllStandardError();
    co_return result;
}

void DockerCli::runDetached(const QStringList &arguments, const Engine &engine)
{
    QProcess process;
    engine.applyTo(process);
    process.setProgram(program());
    process.setArguments(arguments);
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    if (!process.startDetached())
        qCWarning(lcSandbox) << "cannot start" << program() << arguments;
}

QCoro::Task<bool> DockerCli::engineAnswers()
{
    const Result result = co_await run(
        {QStringLiteral("version"), QStringLiteral("--format"), QStringLiteral("{{.Server.Version}}")}, {}, 10s);
    co_return result.ok();
}

} // namespace Sandpiper
