#pragma once

#include "localmodels/deviceprobe.h"
#include "localmodels/ggufheader.h"
#include "result.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QTimer>
#include <QUrl>

#include <QCoroTask>

#include <chrono>

namespace Sandpiper {

// How llama-server is started: PROGRAM with LEADING arguments before the runner's own, in
// ENVIRONMENT (a wrapper or a loader may come first); or, with an IMAGE, in a container of that
// image on this machine's Docker engine (PROGRAM is docker, see RunnerContainer).
struct RunnerProgram {
    QString program;
    QStringList leading;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    QString image;

    // In this order: CONFIGURED (a path from the settings) when set, llama-server on PATH, a
    // container of the newest sandpiper-llama image when Docker has one; an empty program when
    // there is none of them.
    static RunnerProgram find(const QString &configured);
    // llama-server in a container of IMAGE.
    static RunnerProgram container(const QString &image);
    bool isContainer() const { return !image.isEmpty(); }
    // Which llama-server runs, for the user: its path, or the container's image.
    QString describe() const;
};

// What runs a model here: the program (RunnerProgram::find, which may ask Docker for its images)
// and what it can offload to (DeviceProbe::cached, which may ask llama-server for its devices).
struct RunnerDiscovery {
    RunnerProgram program;
    DeviceProbe devices;

    // Looks, off the GUI thread (runnerThreads()), for the program CONFIGURED in the settings or
    // found, its devices remembered in CACHEFILE.
    static QFuture<RunnerDiscovery> start(const QString &configured, const QString &cacheFile);
};

// What the model runs with, chosen for this machine and shown to the user.
struct RunnerPlan {
    QString modelPath;
    QString alias = QStringLiteral("local"); // the model's name in the API
    int contextSize = 4096;
    int threads = 1;
    int parallel = 1;  // conversations that may be answered at once
    int gpuLayers = 0; // layers offloaded (-ngl): only to a device llama-server listed
    QString offload;   // the device and the decision, for the user (offloadTo())

    // The context from the memory left after the weights (AVAILABLEBYTES, with a margin; 0 when
    // unknown), never
    // more than the model was trained for; threads from CORES.
    static RunnerPlan forModel(const QString &modelPath, const GgufInfo &info, qint64 availableBytes, int cores,
                               int parallel = 1);
    // The memory this computer has free for a model now (MemAvailable), or 0 when unknown.
    static qint64 availableMemory();
    // All of this computer's memory (MemTotal), or 0 when unknown.
    static qint64 totalMemory();
    // Offloads every layer to the first device PROBE lists, none when it lists none; OFFLOAD
    // says which and why.
    void offloadTo(const DeviceProbe &probe);
    // llama-server's arguments for PORT on 127.0.0.1 alone: --jinja for tool calls, the context
    // shared by the parallel answers, no web UI.
    QStringList arguments(quint16 port) const;
};

// llama-server as a child process (in a container: its docker client is), never inside the app:
// started when an answer is first asked for, known to be loading while /health answers 503,
// stopped after an idle time, started again once if it dies. Its output goes to a log file.
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
    // While a conversation answers with the model (it may wait long between two requests: for a
    // tool, or for the user's approval), the idle stop waits; it counts from when none does.
    void setInUse(bool inUse);

    void setIdleStop(std::chrono::milliseconds after); // zero: never
    void setLoadTimeout(std::chrono::milliseconds timeout) { m_loadTimeout = timeout; }

    State state() const { return m_state; }
    QString message() const { return m_message; }
    const RunnerPlan &plan() const { return m_plan; }
    const RunnerProgram &program() const { return m_program; }
    QString logFile() const { return m_logFile; }
    // The server's process id while it runs, else 0 (in a container: the docker client's).
    qint64 processId() const;
    // The name of the server's container while it runs in one, else empty.
    QString container() const { return m_process ? m_container : QString(); }

Q_SIGNALS:
    // MESSAGE says what happens, for the status bar and the chat ("Loading …, 12 s").
    void stateChanged(Sandpiper::LocalRunner::State state, const QString &message);

private:
    // SAMEPORT: a server started again listens where the last one did. In a container, Docker's
    // chores before it (the last container removed, the network made) are done off the GUI thread.
    QCoro::Task<bool> launch(bool samePort = false);
    // After a crash: the same server again, on the same port.
    QCoro::Task<> restart();
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
    QString m_container;     // the last container started (it may have stopped)
    QFuture<void> m_removal; // of the last container, after its server was stopped
    int m_launches = 0;
    quint16 m_port = 0;
    State m_state = State::Stopped;
    QString m_message;
    int m_restartsLeft = 0;
    QElapsedTimer m_loading;
    QTimer m_idle;
    bool m_inUse = false;
    std::chrono::milliseconds m_loadTimeout = std::chrono::minutes(5);
};

} // namespace Sandpiper
