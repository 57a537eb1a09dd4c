#pragma once

#include "dockertest.h"

#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <optional>

namespace Sandpiper::Test {

// Debian's real llama.cpp server with the tiny test model, as tests/llama/setup.sh prepared
// them under ~/.cache/sandpiper/llama: started on a free port of 127.0.0.1, stopped when this
// object goes. The sid binaries run through the sid root's own dynamic loader, so neither a
// chroot nor bubblewrap is needed (the tests may already run inside the build root's).
class LlamaServer
{
public:
    // How to start the sid root's llama-server from here: PROGRAM (the root's dynamic loader) with
    // LEADING arguments (its libraries and the server) before the server's own, in ENVIRONMENT.
    struct Command {
        QString program;
        QStringList leading;
        QProcessEnvironment environment;
    };
    // The command, or why there is none (in ERROR).
    static std::optional<Command> command(QString *error);
    // Writes an executable script at PATH that runs the command with the arguments it is given:
    // one program, as the setting local/server names it, after the shell lines BEFORE. Empty when
    // it was written, else why not.
    static QString writeLauncher(const QString &path, const QString &before = {});
    // A launcher (writeLauncher) whose `--list-devices` lists one GPU (Vulkan0, "Fake GPU", 8000
    // MiB free) after SECONDS, each time writing a line into the file ASKED.
    static QString writeListingLauncher(const QString &path, const QString &asked, int seconds);

    LlamaServer();
    ~LlamaServer();

    // Starts llama-server with EXTRAARGUMENTS (such as {"-c", "2048"}); waits until /health
    // answers. False, with error() saying why, when it does not come up.
    bool start(const QStringList &extraArguments = {});
    void stop();

    // http://127.0.0.1:PORT/v1; the model is called "tiny".
    QUrl baseUrl() const;
    QString error() const { return m_error; }
    // The end of the server's log, for failure messages.
    QString logTail() const;

    // Empty when the server and the model are set up, else why not.
    static QString unavailableReason();
    // The tiny model's GGUF file.
    static QString modelPath();
    // The processes whose command line names TEXT (a model's path: the llama-server running it).
    static QList<qint64> processesNaming(const QString &text);

    // The sid root that holds Debian's llama-server.
    static QString rootPath();

    // docker ARGUMENTS on this machine's engine, the one the runner's containers use: its output,
    // or nullopt when it failed.
    static std::optional<QByteArray> docker(const QStringList &arguments);
    // A short chat completion ("Hello") of the server at BASEURL (its /v1): the answer's JSON.
    static QJsonObject chat(const QUrl &baseUrl);

private:
    bool waitForHealth();

    QProcess m_process;
    QTemporaryDir m_logDir;
    quint16 m_port = 0;
    QString m_error;
};

} // namespace Sandpiper::Test

// Tests of the real server fail in CI (CI=true) when it is missing, and skip elsewhere.
#define SANDPIPER_REQUIRE_LLAMA() SANDPIPER_REQUIRE_AVAILABLE(Sandpiper::Test::LlamaServer::unavailableReason())
