#include "sandbox/dockercli.h"

#include "logging.h"

#include <QCoreApplication>
#include <QCoroProcess>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QUrl>

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

QMutex chosenMutex;
DockerCli::Engine &chosenInSettings()
{
    static DockerCli::Engine engine;
    return engine;
}

} // namespace

DockerCli::Engine DockerCli::Engine::fromSetting(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.contains(QLatin1String("://")))
        return {trimmed, {}};
    return {{}, trimmed};
}

QString DockerCli::Engine::settingProblem(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return {};
    if (!trimmed.contains(QLatin1String("://"))) {
        // Docker's own rule for the names of contexts.
        static const QRegularExpression contextName(QStringLiteral("^[a-zA-Z0-9][a-zA-Z0-9_.+-]*$"));
        return contextName.match(trimmed).hasMatch()
                   ? QString()
                   : QCoreApplication::translate("Sandpiper::DockerCli",
                                                 "“%1” is neither a docker context's name nor an engine's address "
                                                 "(ssh://user@host, tcp://host:2376, unix:///path/to/docker.sock).")
                         .arg(trimmed);
    }
    const QUrl url(trimmed, QUrl::StrictMode);
    const QString scheme = url.scheme();
    const bool withHost = scheme == QLatin1String("ssh") || scheme == QLatin1String("tcp");
    const bool withPath = scheme == QLatin1String("unix") || scheme == QLatin1String("npipe");
    if (url.isValid() && ((withHost && !url.host().isEmpty()) || (withPath && !url.path().isEmpty())))
        return {};
    return QCoreApplication::translate("Sandpiper::DockerCli",
                                       "“%1” is not an engine's address: Docker takes ssh://user@host, "
                                       "tcp://host:2376 or unix:///path/to/docker.sock.")
        .arg(trimmed);
}

DockerCli::Engine DockerCli::Engine::chosen()
{
    {
        const QMutexLocker lock(&chosenMutex);
        if (!chosenInSettings().isEmpty())
            return chosenInSettings();
    }
    return cliChoice();
}

DockerCli::Engine DockerCli::Engine::cliChoice()
{
    if (const QString host = qEnvironmentVariable("DOCKER_HOST"); !host.isEmpty())
        return {host, {}};
    if (const QString context = qEnvironmentVariable("DOCKER_CONTEXT"); !context.isEmpty())
        return {{}, context};
    const QString context = currentContext();
    return {{}, context.isEmpty() ? QStringLiteral("default") : context};
}

void DockerCli::Engine::setChosen(const Engine &engine)
{
    const QMutexLocker lock(&chosenMutex);
    chosenInSettings() = engine;
}

void DockerCli::Engine::applyTo(QProcess &process) const
{
    const Engine engine = isEmpty() ? chosen() : *this;
    // The variables outrank the configuration file's choice; podman ignores them.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (!engine.host.isEmpty()) {
        environment.insert(QStringLiteral("DOCKER_HOST"), engine.host);
        environment.remove(QStringLiteral("DOCKER_CONTEXT"));
    } else {
        environment.insert(QStringLiteral("DOCKER_CONTEXT"), engine.context);
        environment.remove(QStringLiteral("DOCKER_HOST"));
    }
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
