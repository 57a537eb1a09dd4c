#pragma once

#include "localmodels/ggufheader.h"
#include "result.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QTimer>
#include <QUrl>

#include <QCoroTask>

#include <chrono>

namespace Sandpiper {

// How llama-server is started: PROGRAM with LEADING arguments before the runner's own, in
// ENVIRONMENT (a wrapper, a loader or a container command may come first).
struct RunnerProgram {
    QString program;
    QStringList leading;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();

    // CONFIGURED (a path from the settings) when set, else llama-server on PATH; an empty
    // program when there is neither.
    static RunnerProgram find(const QString &configured);
};

// What the model runs with, chosen for this machine and shown to the user.
struct RunnerPlan {
    QString modelPath;
    QString alias = QStringLiteral("local"); // the model's name in the API
    int contextSize = 4096;
    int threads = 1;
    int parallel = 1; // conversations that may be answered at once

    // The context from the memory left after the weights (AVAILABLEBYTES, with a margin; 0 when
    // unknown), never
    // more than the model was trained for; threads from CORES.
    static RunnerPlan forModel(const QString &modelPath, const GgufInfo &info, qint64 availableBytes, int cores,
                               int parallel = 1);
    // The memory this computer has free for a model now (MemAvailable), or 0 when unknown.
    static qint64 availableMemory();
    // All of this computer's memory (MemTotal), or 0 when unknown.
    static qint64 totalMemory();
    // llama-server's arguments for PORT on 127.0.0.1 alone: --jinja for tool calls, the context
    // shared by the parallel answers, no web UI.
    QStringList arguments(quint16 port) const;
};

// llama-server as a child process, never inside the app: started when an answer is first asked
// for, known to be loading while /health answers 503, stopped after an idle time, started again
// once if it dies. Its output goes to a log file.
class LocalRunner : public QObject
{
    Q_OBJECT

public:
    enum class State { Stopped, Loading, Ready, Failed };

    LocalRunner(RunnerProgram program, RunnerPlan plan, QString logFile, QObject *parent = nullptr);
    ~LocalRunner() override;

    // The server's /v1 address once it answers, started first when it does not run; or why not
    // (with the end of its log).
    QCoro::Task<Result<QUrl>> ready();
    void stop();
    // Ends the server for good (another model takes its place): those waiting for it are told WHY.
    void retire(const QString &why);
    // An answer is streaming: the idle stop waits again.
    void keepAlive();

    void setIdleStop(std::chrono::milliseconds after); // zero: never
    void setLoadTimeout(std::chrono::milliseconds timeout) { m_loadTimeout = timeout; }

    State state() const { return m_state; }
    QString message() const { return m_message; }
    const RunnerPlan &plan() const { return m_plan; }
    QString logFile() const { return m_logFile; }
    // The server's process id while it runs, else 0.
    qint64 processId() const;

Q_SIGNALS:
    // MESSAGE says what happens, for the status bar and the chat ("Loading …, 12 s").
    void stateChanged(Sandpiper::LocalRunner::State state, const QString &message);

private:
    // SAMEPORT: a server started again listens where the last one did.
    bool launch(bool samePort = false);
    // The server's process ends (asked to, then made to); the state is the caller's to say.
    void endProcess();
    QCoro::Task<Result<QUrl>> waitUntilAnswering();
    void exited(int exitCode, QProcess::ExitStatus status);
    void setState(State state, const QString &message);
    QString failure(const QString &what) const;
    QString logTail() const;

    RunnerProgram m_program;
    RunnerPlan m_plan;
    QString m_logFile;
    QPointer<QProcess> m_process;
    quint16 m_port = 0;
    State m_state = State::Stopped;
    QString m_message;
    int m_restartsLeft = 0;
    QElapsedTimer m_loading;
    QTimer m_idle;
    std::chrono::milliseconds m_loadTimeout = std::chrono::minutes(5);
};

} // namespace Sandpiper
