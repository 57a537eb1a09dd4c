#pragma once

#include "sandbox/containerfiles.h"
#include "sandbox/containerlauncher.h"
#include "sandbox/diskwatch.h"
#include "sandbox/enginefeatures.h"
#include "sandbox/executionresult.h"
#include "sandbox/kernelprotocol.h"
#include "sandbox/remotefilesync.h"
#include "sandbox/sandboxconfig.h"
#include "sandbox/sandboxfolder.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <QCoroTask>

class QJsonArray;
class QJsonObject;
class QProcess;

namespace Sandpiper {

// One conversation's Python kernel in its own hardened container (`docker run -i`), spoken
// to with JSON lines (see sandbox/kernel/kernel.py). State persists between executions until
// the kernel dies, is replaced after an interrupt that did not work, or stops when idle.
//
// The session queues the requests, keeps the kernel's state and watches it: the timeout's
// watchdog, the interrupt's grace period, the idle stop, and a DiskWatch that stops code filling
// the folder past its limit. Its parts do the rest: ContainerLauncher starts and removes the
// container, KernelProtocol reads what the kernel says (nothing of it is trusted) and
// RemoteFileSync carries the files of a remote engine's container.
//
// Lives on the thread that uses it (the agent's worker thread); not thread-safe.
class SandboxSession : public QObject
{
    Q_OBJECT

public:
    enum class State { Stopped, Starting, Idle, Busy, Interrupting };
    Q_ENUM(State)

    explicit SandboxSession(SandboxConfig config, QObject *parent = nullptr);
    ~SandboxSession() override;

    const SandboxConfig &config() const { return m_config; }
    State state() const { return m_state; }
    QString containerName() const { return m_containerName; }
    // Whether the engine has a filesystem of its own (files travel through ContainerFiles then);
    // known once the container started.
    bool isRemote() const { return m_remote; }
    // Why the last start failed, for the user.
    QString lastError() const { return m_lastError; }
    // Why the next execution starts in a fresh kernel (the idle stop, a crash, a replacement);
    // empty when it will not, or for the first kernel.
    QString resetReason() const { return m_resetReason; }

    // Starts the container unless it runs; true once the kernel answers.
    QCoro::Task<bool> start();
    // Starts the container ahead of the first execution and imports the heavy libraries,
    // so that the first real execution is fast.
    void prewarm(QStringList modules = defaultPreloadModules());
    // Runs CODE; executions are served one after another.
    QCoro::Task<ExecutionResult> execute(QString code, ExecuteOptions options = {});
    // Writes the whole frame behind table TABLEID (shown by an earlier execution) into the data
    // folder as FILENAME, "csv" or "xlsx"; the result names the file, or says why not.
    QCoro::Task<ExecutionResult> exportTable(QString tableId, QString format, QString fileName);
    // What each of FILENAMES (in the data folder) is, with a short preview: the result's value.
    QCoro::Task<ExecutionResult> describeFiles(QStringList fileNames);
    static constexpr std::chrono::milliseconds describeTimeout{20000};
    // Interrupts the running execution (KeyboardInterrupt); if the kernel does not come back
    // within the grace period, its container is replaced and the state is lost.
    void interrupt();
    // A fresh kernel: the old container goes, the next execution starts a new one.
    void restart();
    // Shuts the kernel down (the container removes itself).
    void stop();
    // Lets the kernel go at once, without waiting for anything (the conversation is closed): a
    // running execution ends as interrupted, the container is removed in the background.
    void abandon();
    // Network access takes effect in a fresh container: a running one is replaced.
    void setNetwork(bool enabled);

    static QStringList defaultPreloadModules();

Q_SIGNALS:
    void stateChanged(Sandpiper::SandboxSession::State state);
    // Live output of the running execution; stream is "stdout" or "stderr".
    void output(const QString &stream, const QString &text);
    // The libraries asked for by prewarm() are imported.
    void prewarmed();
    // Something the user should know that happened while no execution ran, such as code left
    // running in the background filling the folder past its limit.
    void notice(const QString &text);

    // Internal: the coroutines wait on these.
    void startFinished(bool ok);
    void executionFinished(const QString &requestId);

private:
    // The idle stop, after copying here what a remote engine's container kept.
    QCoro::Task<> stopWhenIdle();
    ContainerFiles::Container runningContainer() const
    {
        return {m_containerName, ContainerLauncher::sandboxUser(), m_engine};
    }
    // The watch of the folder the container writes into: none for a remote engine's.
    DiskWatch *localDiskWatch() const { return m_remote ? nullptr : m_diskWatch; }
    void kernelReady();
    // The kernel reported the result of run ID: a local run ends, a remote one once its files came.
    void resultReported(const QString &id, const QJsonArray &files, const QJsonArray &removed,
                        const QJsonObject &sizes);
    // Accepts the result's files, ends the execution and makes the kernel idle.
    void completeExecution(const QJsonArray &files);
    QCoro::Task<> fetchFromContainer(QString id, QJsonArray files, QJsonObject sizes);
    void setState(State state);
    void writeRequest(const QJsonObject &request);
    void handleDiskBreach(DiskWatch::Breach breach);
    void processEnded(int exitCode);
    void finishPending();
    // Lets go of the current container at once (it is removed in the background); a running
    // execution ends as interrupted with its state lost, and REASON is told to the next one.
    void discardKernel(const QString &reason);
    void interruptFor(bool timeout);

    SandboxConfig m_config;
    SandboxFolder m_folder;
    State m_state = State::Stopped;
    QPointer<QProcess> m_process;
    QString m_containerName;
    // The engine the container was started on: its commands go there, whatever context the
    // user chooses meanwhile.
    DockerCli::Engine m_engine;
    QByteArray m_dockerErrors;
    QString m_lastError;
    int m_nextRequest = 0;
    // Why the next execution starts in a fresh kernel (empty for the first one).
    QString m_resetReason;
    // Children, so that they follow the session to the agent's thread.
    KernelProtocol m_protocol;
    RemoteFileSync m_sync;
    QTimer m_watchdog;
    QTimer m_interruptGrace;
    QTimer m_idleTimer;
    DiskWatch *m_diskWatch = nullptr; // none when neither the folder nor the disk is limited
    bool m_remote = false;
    // A remote engine keeps the running execution's large files until they are asked for: those
    // of code, not a file the user asked for (an exported table).
    bool m_fetchLater = false;
    // What the engine is (podman's user namespace) and which limits it enforces; known once started.
    EngineFeatures m_features;
    // Whether an execution told already that the engine does not enforce some limits.
    bool m_limitsTold = false;
};

} // namespace Sandpiper
