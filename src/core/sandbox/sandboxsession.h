#pragma once

#include "sandbox/containerfiles.h"
#include "sandbox/diskwatch.h"
#include "sandbox/enginefeatures.h"
#include "sandbox/executionresult.h"
#include "sandbox/sandboxconfig.h"
#include "sandbox/sandboxfolder.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <QCoroTask>

#include <array>

class QJsonArray;
class QProcess;

namespace Sandpiper {

// One conversation's Python kernel in its own hardened container (`docker run -i`), spoken
// to with JSON lines (see sandbox/kernel/kernel.py). State persists between executions until
// the kernel dies, is replaced after an interrupt that did not work, or stops when idle.
//
// Nothing the kernel says is trusted: the model's code runs in the kernel's interpreter and can
// write any protocol line and any file. Lines are size-capped and parsed defensively, every
// figure and file name is checked beneath the conversation's folder (SandboxFolder), figures are
// capped per execution, and a DiskWatch stops code that fills the folder past its limit.
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
    // The uid:gid the kernel runs as: the desktop user's, or an unprivileged one for root.
    static QString sandboxUser();
    // The flags every Sandpiper container gets, whatever runs in it: the label of this process
    // (which clean-up goes by), CONFIG's network, a read-only root with CONFIG's tmpfs /tmp, no
    // capabilities, no new privileges, CONFIG's limits where FEATURES says the engine enforces
    // them, and the sandbox user.
    static QStringList hardeningArguments(const SandboxConfig &config, const EngineFeatures &features);
    // Removes containers that Sandpiper processes on this machine left behind (crashes).
    static QCoro::Task<int> removeLeftoverContainers();
    // Removes every Sandpiper sandbox container (the settings' clean-up button).
    static QCoro::Task<int> removeAllContainers();

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
    struct Pending {
        QString id;
        ExecutionResult result;
        QElapsedTimer elapsed; // since the request was sent
        qint64 stdoutBytes = 0;
        qint64 stderrBytes = 0;
        bool interruptedByTimeout = false;
        bool durationReported = false;
        // What went wrong on the protocol, told once at the end.
        int invalidLines = 0;
        int strayEvents = 0;
        int refusedFigures = 0;
        int unlistedFiles = 0;
        int unlistedRefusals = 0;
        qint64 richChars = 0; // Markdown and SVG kept so far
        int tablesDropped = 0;
        QStringList remoteFigures; // reported by a remote engine's kernel, checked once copied
        // A remote engine keeps the large files until they are asked for: those of code, not a
        // file the user asked for (an exported table).
        bool fetchLater = false;
    };

    // The idle stop, after copying here what a remote engine's container kept.
    QCoro::Task<> stopWhenIdle();
    QStringList dockerArguments() const;
    QStringList dataMountArguments() const;
    ContainerFiles::Container runningContainer() const { return {m_containerName, sandboxUser(), m_engine}; }
    // The watch of the folder the container writes into: none for a remote engine's.
    DiskWatch *localDiskWatch() const { return m_remote ? nullptr : m_diskWatch; }
    // Accepts the result's files, ends the execution and makes the kernel idle.
    void completeExecution(const QJsonArray &files);
    // A remote engine: figures are kept until copied, files are copied out and in.
    void keepRemoteFigure(const QString &path);
    QCoro::Task<> fetchFromContainer(QString id, QJsonArray files);
    // Removes the copies here of files the code removed in a remote engine's container.
    void removeHostCopies(const QJsonArray &removed);
    void removeHostCopy(const QString &name);
    // NAME (SIZE bytes) stays in the container until the user asks for it.
    void leaveOnEngine(const QString &name, qint64 size);
    // Removes from the container the files it has from here that are no longer here.
    QCoro::Task<QString> removeDeletedFiles();
    QCoro::Task<QString> sendNewFiles();
    void setState(State state);
    void writeRequest(const QJsonObject &request);
    void readKernelOutput();
    void handleLine(QByteArrayView line);
    void lineTooLong(qint64 bytes);
    void handleEvent(const QJsonObject &event);
    void acceptFigure(const QString &path);
    void acceptFiles(const QJsonArray &files);
    // Adds SENTENCE to what the host refused in the running execution.
    void refuse(const QString &sentence);
    void handleDiskBreach(DiskWatch::Breach breach);
    void appendStream(const QString &name, const QString &text);
    void acceptRichDisplay(const QString &mime, const QJsonObject &event);
    // How many tables, Markdown, SVG and figures RESULT holds, in that order.
    using DisplayCounts = std::array<qsizetype, 4>;
    static DisplayCounts displayCounts(const ExecutionResult &result);
    // A display of the cell's last value ("of_value") added what RESULT holds beyond BEFORE.
    static void noteValueDisplay(const DisplayCounts &before, ExecutionResult &result);
    // Whether pip failed for want of the network (it was called some other way than %pip).
    static bool pipWantedNetwork(const ExecutionResult &result);
    void processEnded(int exitCode);
    void finishPending();
    // Lets go of the current container at once (it is removed in the background); a running
    // execution ends as interrupted with its state lost, and REASON is told to the next one.
    void discardKernel(const QString &reason);
    void interruptFor(bool timeout);
    QString crashCause(int exitCode) const;

    SandboxConfig m_config;
    SandboxFolder m_folder;
    State m_state = State::Stopped;
    QPointer<QProcess> m_process;
    QString m_containerName;
    // The engine the container was started on: its commands go there, whatever context the
    // user chooses meanwhile.
    DockerCli::Engine m_engine;
    QByteArray m_lineBuffer;
    qint64 m_skippedLineBytes = 0; // inside a line too long to keep: what was skipped so far
    QByteArray m_dockerErrors;
    QString m_lastError;
    std::optional<Pending> m_pending;
    int m_nextRequest = 0;
    // Why the next execution starts in a fresh kernel (empty for the first one).
    QString m_resetReason;
    // Children, so that they follow the session to the agent's thread.
    QTimer m_watchdog;
    QTimer m_interruptGrace;
    QTimer m_idleTimer;
    DiskWatch *m_diskWatch = nullptr; // none when neither the folder nor the disk is limited
    bool m_remote = false;
    // What the engine is (podman's user namespace) and which limits it enforces; known once started.
    EngineFeatures m_features;
    // Whether an execution told already that the engine does not enforce some limits.
    bool m_limitsTold = false;
    // The host's files as the container has them (name: size, modification time in ms).
    QHash<QString, QPair<qint64, qint64>> m_inContainer;
};

} // namespace Sandpiper
