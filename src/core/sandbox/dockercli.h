#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <QCoroTask>

#include <chrono>

class QProcess;

namespace Sandpiper {

// The docker command-line client. Sandpiper talks to the engine only through it, so
// DOCKER_HOST, docker contexts and podman's docker-compatible CLI all work unchanged.
class DockerCli
{
public:
    struct Result {
        int exitCode = -1;
        QByteArray standardOutput;
        QByteArray standardError;
        bool started = false;
        bool timedOut = false;

        bool ok() const { return started && !timedOut && exitCode == 0; }
        // A one-line explanation for the user when the command did not succeed.
        QString errorMessage() const;
    };

    // The engine a command goes to: the one chosen in the settings (setChosen), else the CLI's
    // own choice, which it makes each time it runs: DOCKER_HOST, else DOCKER_CONTEXT, else the
    // context `docker context use` chose last. Every command about a container must reach the
    // engine it was started on, so its owner takes the choice once (chosen()) and hands it to
    // each of them; an empty Engine stands for the choice at the time the command runs.
    struct Engine {
        QString host;    // a DOCKER_HOST URL (ssh://…, tcp://…, unix://…), which outranks a context
        QString context; // a docker context's name

        bool isEmpty() const { return host.isEmpty() && context.isEmpty(); }
        // A setting's text: a URL is a host, another word a context's name, nothing the CLI's
        // own choice.
        static Engine fromSetting(const QString &text);
        // Why TEXT names no engine, for the user; empty when it does.
        static QString settingProblem(const QString &text);

        // The engine the next command goes to.
        static Engine chosen();
        // The CLI's own choice, whatever the settings choose.
        static Engine cliChoice();
        // This machine's own engine: the default context, without DOCKER_HOST.
        static Engine thisMachine() { return {{}, QStringLiteral("default")}; }
        // The engine of the settings, for every command from now on; empty: the CLI's own choice.
        static void setChosen(const Engine &engine);
        // Sets PROCESS up to talk to this engine.
        void applyTo(QProcess &process) const;
    };

    // The client program: SANDPIPER_DOCKER if set (e.g. "podman"), else "docker".
    static QString program();

    // Runs `docker ARGS` against ENGINE, writing STANDARDINPUT to it; kills it after TIMEOUT.
    static QCoro::Task<Result> run(QStringList arguments, QByteArray standardInput = {},
                                   std::chrono::milliseconds timeout = std::chrono::seconds(60), Engine engine = {});

    // Starts `docker ARGS` without waiting for it or reading its output (clean-up commands).
    static void runDetached(const QStringList &arguments, const Engine &engine = {});

    // Whether an engine answers `docker version` within a few seconds.
    static QCoro::Task<bool> engineAnswers();
};

} // namespace Sandpiper
