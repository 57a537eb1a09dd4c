#include "sandbox/sandboxsession.h"

#include "logging.h"
#include "sandbox/dockercli.h"
#include "sandbox/enginefeatures.h"
#include "sandbox/enginefiles.h"
#include "sandbox/enginelocality.h"

#include <QCoroSignal>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

using namespace std::chrono_literals;

namespace Sandpiper {

SandboxSession::SandboxSession(SandboxConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_folder(m_config.dataDirectory)
    , m_protocol(m_folder, this)
    , m_sync(m_config, m_folder, this)
    , m_watchdog(this)
    , m_interruptGrace(this)
    , m_idleTimer(this)
{
    m_watchdog.setSingleShot(true);
    m_interruptGrace.setSingleShot(true);
    m_idleTimer.setSingleShot(true);
    connect(&m_watchdog, &QTimer::timeout, this, [this] { interruptFor(true); });
    connect(&m_interruptGrace, &QTimer::timeout, this, [this] {
        qCWarning(lcSandbox) << m_containerName << "ignored the interrupt; replacing its container";
        discardKernel(tr("The code did not stop when interrupted, so its sandbox was replaced: "
                         "variables and imports from earlier were lost."));
    });
    connect(&m_idleTimer, &QTimer::timeout, this, [this] { QCoro::connect(stopWhenIdle(), this, [] {}); });
    connect(&m_protocol, &KernelProtocol::ready, this, &SandboxSession::kernelReady);
    connect(&m_protocol, &KernelProtocol::preloaded, this, &SandboxSession::prewarmed);
    connect(&m_protocol, &KernelProtocol::output, this, &SandboxSession::output);
    connect(&m_protocol, &KernelProtocol::resultReported, this, &SandboxSession::resultReported);
    // A remote engine's files travel on the kernel's channel (RemoteFileSync says how).
    connect(&m_protocol, &KernelProtocol::fileData, &m_sync, &RemoteFileSync::fileData);
    connect(&m_protocol, &KernelProtocol::filesSent, &m_sync, &RemoteFileSync::filesSent);
    connect(&m_protocol, &KernelProtocol::filesReceived, this,
            [this](const QJsonArray &failed, const QJsonArray &errors) {
                const QStringList notes = m_sync.filesReceived(failed, errors);
                if (m_protocol.hasRun())
                    m_protocol.result().notes += notes;
            });
    connect(&m_sync, &RemoteFileSync::channelBroken, this, [this](const QString &reason) { discardKernel(reason); });
    if (m_config.diskLimitBytes > 0 || m_config.minFreeDiskBytes > 0) {
        m_diskWatch = new DiskWatch(m_folder, {m_config.diskLimitBytes, m_config.minFreeDiskBytes},
                                    DiskWatch::Method::Inotify, this);
        connect(m_diskWatch, &DiskWatch::breached, this,
                [this](DiskWatch::Breach breach) { handleDiskBreach(breach); });
    }
}

SandboxSession::~SandboxSession()
{
    if (!m_process)
        return;
    EngineFiles::release(m_containerName);
    // Closing the kernel's input ends it and with it the container (--rm); a container that
    // does not end in time is removed without waiting for it.
    m_process->closeWriteChannel();
    if (!m_process->waitForFinished(2000)) {
        ContainerLauncher::remove(m_containerName, m_engine);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

QStringList SandboxSession::defaultPreloadModules()
{
    return {QStringLiteral("numpy"), QStringLiteral("pandas"), QStringLiteral("matplotlib"),
            QStringLiteral("matplotlib.pyplot")};
}

void SandboxSession::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

QCoro::Task<bool> SandboxSession::start()
{
    QPointer<SandboxSession> self(this);
    if (m_state == State::Starting) {
        const auto ok = co_await qCoro(this, &SandboxSession::startFinished, m_config.startTimeout);
        co_return self &&ok.value_or(false);
    }
    if (m_state != State::Stopped)
        co_return true;

    setState(State::Starting);
    m_lastError.clear();
    m_dockerErrors.clear();
    m_protocol.reset();
    m_containerName = ContainerLauncher::containerName(m_config.conversationId);
    m_engine = DockerCli::Engine::chosen();
    // Where the engine runs decides how the folder reaches the container (asked once per engine).
    const auto locality = co_await EngineLocality::of(m_config.image, m_engine);
    if (!self)
        co_return false;
    m_remote = locality == EngineLocality::Kind::Remote;
    // What the engine is decides the user namespace and which limits can be asked for.
    m_features = co_await EngineFeatures::of(m_engine);
    if (!self)
        co_return false;
    ContainerLauncher::prepareDataDirectory(m_config, m_remote);

    auto *process = new QProcess(this);
    m_process = process;
    m_sync.reset(runningContainer(), process);
    connect(process, &QProcess::readyReadStandardOutput, this, [this, process] {
        if (process == m_process)
            m_protocol.read(process->readAllStandardOutput());
    });
    connect(process, &QProcess::readyReadStandardError, this, [this, process] {
        m_dockerErrors += process->readAllStandardError();
        m_dockerErrors = m_dockerErrors.right(16 * 1024);
    });
    connect(process, &QProcess::finished, this, [this, process](int exitCode, QProcess::ExitStatus status) {
        if (process == m_process)
            processEnded(status == QProcess::NormalExit ? exitCode : -1);
        process->deleteLater();
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && process == m_process)
            processEnded(-2);
    });
    qCDebug(lcSandbox) << "starting" << m_containerName << "from" << m_config.image;
    m_engine.applyTo(*process);
    process->start(DockerCli::program(),
                   ContainerLauncher::runArguments(m_config, m_containerName, m_features, m_remote));
    if (DiskWatch *watch = localDiskWatch())
        watch->start();

    const auto ok = co_await qCoro(this, &SandboxSession::startFinished, m_config.startTimeout);
    if (!self)
        co_return false;
    if (!ok.has_value()) {
        m_lastError = tr("The sandbox did not start within %1 s.")
                          .arg(std::chrono::duration_cast<std::chrono::seconds>(m_config.startTimeout).count());
        discardKernel(m_lastError);
        co_return false;
    }
    co_return *ok;
}

QCoro::Task<> SandboxSession::stopWhenIdle()
{
    QPointer<SandboxSession> self(this);
    const QStringList lost = co_await m_sync.fetchKept();
    if (!self || m_state != State::Idle || m_idleTimer.isActive())
        co_return; // used again meanwhile
    const auto minutes = std::chrono::duration_cast<std::chrono::minutes>(m_config.idleStop).count();
    stop();
    m_resetReason = tr("The sandbox had stopped after %1 min without use.").arg(minutes);
    if (!lost.isEmpty())
        Q_EMIT notice(tr("The sandbox stopped after %1 min without use; files it kept could not be copied here "
                         "first and are gone: %2")
                          .arg(minutes)
                          .arg(lost.join(QLatin1Char(' '))));
}

void SandboxSession::prewarm(QStringList modules)
{
    QCoro::connect(start(), this, [this, modules](bool ok) {
        if (!ok || !m_process)
            return;
        QJsonObject request{{QStringLiteral("id"), QStringLiteral("preload")},
                            {QStringLiteral("op"), QStringLiteral("preload")},
                            {QStringLiteral("modules"), QJsonArray::fromStringList(modules)}};
        writeRequest(request);
    });
}

QCoro::Task<ExecutionResult> SandboxSession::execute(QString code, ExecuteOptions options)
{
    QPointer<SandboxSession> self(this);
    // One execution at a time: later ones wait for the kernel to be free.
    while (m_state == State::Busy || m_state == State::Interrupting || m_state == State::Starting) {
        co_await qCoro(this, &SandboxSession::stateChanged, 1s);
        if (!self)
            co_return {};
    }

    const QString resetReason = options.request.isEmpty() ? std::exchange(m_resetReason, QString()) : QString();
    if (m_state == State::Stopped) {
        const bool started = co_await start();
        if (!self)
            co_return {};
        if (!started) {
            ExecutionResult unavailable;
            unavailable.status = ExecutionResult::Status::Unavailable;
            unavailable.errorMessage = m_lastError;
            co_return unavailable;
        }
    }

    const QString id = QString::number(++m_nextRequest);
    m_protocol.begin(id, {.outputLimitBytes = m_config.outputLimitBytes,
                          .maxFigures = m_config.maxFigures,
                          .network = m_config.network,
                          .remote = m_remote});
    m_fetchLater = options.request.isEmpty();
    ExecutionResult &result = m_protocol.result();
    result.stateReset = !resetReason.isEmpty();
    if (result.stateReset)
        result.errorMessage = resetReason;
    if (!m_limitsTold && !m_features.limitsWarning().isEmpty()) {
        result.notes << m_features.limitsWarning();
        m_limitsTold = true;
    }
    m_idleTimer.stop();
    setState(State::Busy);

    const auto timeout = options.timeout > 0ms ? options.timeout : m_config.executionTimeout;
    if (DiskWatch *watch = localDiskWatch())
        watch->rebase(true);
    if (m_remote) {
        const QStringList errors = co_await m_sync.sendChanges(id);
        if (!self)
            co_return {};
        if (m_protocol.hasRun())
            m_protocol.result().notes += errors;
    }
    if (m_protocol.runningId() != id || !m_process)
        co_return m_protocol.take(); // the kernel went while the files were sent; that is the result
    QJsonObject request = options.request.isEmpty() ? QJsonObject{{QStringLiteral("op"), QStringLiteral("execute")},
                                                                  {QStringLiteral("code"), code}}
                                                    : options.request;
    request.insert(QStringLiteral("id"), id);
    request.insert(QStringLiteral("timeout"), double(timeout.count()) / 1000.0);
    request.insert(QStringLiteral("output_limit"), double(m_config.outputLimitBytes));
    request.insert(QStringLiteral("max_figures"), options.maxFigures.value_or(m_config.maxFigures));
    if (!options.tableIds.isEmpty())
        request.insert(QStringLiteral("table_ids"), QJsonArray::fromStringList(options.tableIds));
    writeRequest(request);
    // The kernel enforces the timeout itself; the watchdog steps in only when it cannot.
    m_watchdog.start(timeout + 2s);

    // Every path (result, crash, replacement) ends in executionFinished; the bound is a backstop.
    const auto backstop = timeout + 4 * m_config.interruptGrace + 30s;
    while (true) {
        const auto finished = co_await qCoro(this, &SandboxSession::executionFinished, backstop);
        if (!self)
            co_return {};
        if (!finished.has_value()) {
            discardKernel(tr("The sandbox stopped answering and was replaced."));
            continue;
        }
        if (*finished == id)
            break;
    }
    co_return m_protocol.take();
}

void SandboxSession::interrupt()
{
    interruptFor(false);
}

void SandboxSession::interruptFor(bool timeout)
{
    if (m_state != State::Busy || !m_protocol.hasRun())
        return;
    m_protocol.setInterruptedByTimeout(timeout);
    setState(State::Interrupting);
    ContainerLauncher::interrupt(m_containerName, m_engine);
    m_interruptGrace.start(m_config.interruptGrace);
}

void SandboxSession::restart()
{
    discardKernel(tr("The kernel was restarted: variables and imports from earlier were lost."));
}

void SandboxSession::stop()
{
    if (!m_process)
        return;
    writeRequest({{QStringLiteral("op"), QStringLiteral("shutdown")}});
    m_process->closeWriteChannel();
    // A kernel busy in a loop never reads the shutdown; it is removed after a moment.
    QTimer::singleShot(3s, m_process, [process = m_process.data(), name = m_containerName, engine = m_engine] {
        ContainerLauncher::remove(name, engine);
        process->kill();
    });
}

void SandboxSession::abandon()
{
    const QPointer<QProcess> client = m_process;
    discardKernel(tr("The conversation was closed while the code ran."));
    // The killed client ends at once; reaping it here keeps its QProcess from being destroyed
    // while it still runs.
    if (client)
        client->waitForFinished(1000);
}

void SandboxSession::setNetwork(bool enabled)
{
    if (m_config.network == enabled)
        return;
    m_config.network = enabled;
    discardKernel(enabled
                      ? tr("The sandbox was restarted with network access: earlier variables and imports were lost.")
                      : tr("The sandbox was restarted without network access: earlier variables and imports were "
                           "lost."));
}

void SandboxSession::discardKernel(const QString &reason)
{
    if (!m_process)
        return;
    // The old process is no longer ours: its end is not reported as a crash.
    QProcess *old = m_process;
    m_process = nullptr;
    EngineFiles::release(m_containerName);
    ContainerLauncher::remove(m_containerName, m_engine);
    old->kill();
    if (DiskWatch *watch = localDiskWatch())
        watch->stop();
    m_watchdog.stop();
    m_interruptGrace.stop();
    m_idleTimer.stop();
    if (m_protocol.isRunning()) {
        ExecutionResult &result = m_protocol.result();
        result.status = ExecutionResult::Status::Interrupted;
        result.timedOut = m_protocol.interruptedByTimeout();
        result.stateLost = true;
        result.errorType = QStringLiteral("KeyboardInterrupt");
        result.errorMessage = reason;
        finishPending();
    }
    const bool wasStarting = m_state == State::Starting;
    setState(State::Stopped);
    m_resetReason = reason;
    if (wasStarting) {
        if (m_lastError.isEmpty())
            m_lastError = reason;
        Q_EMIT startFinished(false);
    }
}

void SandboxSession::writeRequest(const QJsonObject &request)
{
    if (m_process)
        m_process->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
}

void SandboxSession::handleDiskBreach(DiskWatch::Breach breach)
{
    const bool running = m_protocol.isRunning();
    const QString message =
        breach == DiskWatch::Breach::DiskAlmostFull
            ? tr("The disk holding the conversation's files has less than %1 free; the execution was stopped.")
                  .arg(SandboxFolder::formatBytes(m_config.minFreeDiskBytes))
        : running ? tr("The conversation's files reached the %1 limit; the execution was stopped. The files are "
                       "kept for you to look at or delete.")
                        .arg(SandboxFolder::formatBytes(m_config.diskLimitBytes))
                  : tr("The conversation's files reached the %1 limit while no code was running (code left "
                       "running in the background kept writing), so the sandbox was restarted. The files are kept "
                       "for you to look at or delete.")
                        .arg(SandboxFolder::formatBytes(m_config.diskLimitBytes));
    if (m_state == State::Starting || m_state == State::Stopped) {
        // A replaced container may write for a moment while it is being removed: its last
        // writes count as the new starting point, not against the next kernel.
        m_diskWatch->rebase(false);
        return;
    }
    qCWarning(lcSandbox) << m_containerName << message;
    if (!running) {
        discardKernel(message);
        Q_EMIT notice(message);
        return;
    }
    if (m_protocol.result().stopReason.isEmpty())
        m_protocol.result().stopReason = message;
    if (m_state == State::Busy) {
        interruptFor(false);
        return;
    }
    // Interrupted already, and still writing: no grace period for that.
    discardKernel(tr("The code kept writing after it was stopped, so its sandbox was replaced: variables and "
                     "imports from earlier were lost."));
}

void SandboxSession::kernelReady()
{
    if (m_state != State::Starting)
        return;
    if (DiskWatch *watch = localDiskWatch())
        watch->rebase(false);
    setState(State::Idle);
    m_idleTimer.start(m_config.idleStop);
    Q_EMIT startFinished(true);
}

void SandboxSession::resultReported(const QString &id, const QJsonArray &files, const QJsonArray &removed,
                                    const QJsonObject &sizes)
{
    if (!m_remote) {
        completeExecution(files);
        return;
    }
    m_watchdog.stop(); // the kernel answered; the copy has its own timeout
    m_sync.removeHostCopies(removed);
    QCoro::connect(fetchFromContainer(id, files, sizes), this, [] {});
}

void SandboxSession::completeExecution(const QJsonArray &files)
{
    m_protocol.acceptFiles(files);
    // Before the waiting coroutine resumes: it may start the next execution at once.
    if (DiskWatch *watch = localDiskWatch())
        watch->rebase(false);
    finishPending();
    setState(State::Idle);
    m_idleTimer.start(m_config.idleStop);
}

QCoro::Task<> SandboxSession::fetchFromContainer(QString id, QJsonArray files, QJsonObject sizes)
{
    QPointer<SandboxSession> self(this);
    KernelProtocol::RemoteNames reported = m_protocol.remoteNames(files);
    // Large files stay there, listed with their size, until the user opens one.
    if (m_fetchLater) {
        const QMap<QString, qint64> large = co_await m_sync.largeFiles(reported.files, sizes);
        if (!self || m_protocol.runningId() != id)
            co_return; // the kernel went meanwhile: that was the result
        for (auto file = large.cbegin(); file != large.cend(); ++file) {
            m_protocol.result().onEngine.insert(file.key(), file.value());
            m_sync.leaveOnEngine(file.key(), file.value());
        }
        reported.files.removeIf([&large](const QString &name) { return large.contains(name); });
    }
    QStringList names = reported.figures + reported.files;
    names.removeDuplicates();
    const ContainerFiles::Fetched fetched = co_await m_sync.fetch(names, id, sizes);
    if (!self || m_protocol.runningId() != id)
        co_return; // the kernel went meanwhile: that was the result
    for (const QString &sentence : fetched.refused)
        m_protocol.refuse(sentence);
    if (!fetched.error.isEmpty())
        m_protocol.refuse(fetched.error);
    // The usual checks, on what arrived; what the copy refused is said once, by the copy.
    for (const QString &figure : m_protocol.takeRemoteFigures())
        if (!fetched.refusedNames.contains(figure))
            m_protocol.acceptFigure(figure);
    QJsonArray checked;
    for (const QJsonValue &file : std::as_const(files))
        if (!fetched.refusedNames.contains(file.toString()))
            checked.append(file);
    ExecutionResult &result = m_protocol.result();
    if (m_config.diskLimitBytes > 0 && result.stopReason.isEmpty() &&
        QString(result.errorMessage + result.standardError).contains(QLatin1String("No space left on device")))
        result.stopReason = tr("The conversation's files reached the %1 limit; the code could not write more. The "
                               "files are kept for you to look at or delete.")
                                .arg(SandboxFolder::formatBytes(m_config.diskLimitBytes));
    completeExecution(checked);
}

void SandboxSession::finishPending()
{
    m_watchdog.stop();
    m_interruptGrace.stop();
    Q_EMIT executionFinished(m_protocol.finish());
}

QCoro::Task<ExecutionResult> SandboxSession::exportTable(QString tableId, QString format, QString fileName)
{
    return execute({}, ExecuteOptions{.timeout = {},
                                      .request = {{QStringLiteral("op"), QStringLiteral("export_table")},
                                                  {QStringLiteral("table"), tableId},
                                                  {QStringLiteral("format"), format},
                                                  {QStringLiteral("path"), fileName}}});
}

QCoro::Task<ExecutionResult> SandboxSession::describeFiles(QStringList fileNames)
{
    return execute({}, ExecuteOptions{.timeout = describeTimeout,
                                      .request = {{QStringLiteral("op"), QStringLiteral("describe")},
                                                  {QStringLiteral("files"), QJsonArray::fromStringList(fileNames)}}});
}

void SandboxSession::processEnded(int exitCode)
{
    const bool wasStarting = m_state == State::Starting;
    m_process = nullptr;
    EngineFiles::release(m_containerName);
    if (DiskWatch *watch = localDiskWatch())
        watch->stop();
    m_watchdog.stop();
    m_interruptGrace.stop();
    m_idleTimer.stop();
    const QString cause = ContainerLauncher::endCause(exitCode, m_dockerErrors, m_config.memory);
    setState(State::Stopped);

    if (wasStarting) {
        m_lastError = cause;
        qCWarning(lcSandbox) << "sandbox did not start:" << cause;
        Q_EMIT startFinished(false);
        return;
    }
    if (m_protocol.isRunning()) {
        m_protocol.result().status = ExecutionResult::Status::Crashed;
        m_protocol.result().errorMessage = cause;
        finishPending();
    }
    // A kernel stopped on purpose (idle, shutdown) has its reason set already.
    if (m_resetReason.isEmpty())
        m_resetReason =
            tr("The previous kernel stopped (%1); variables and imports from earlier were lost.").arg(cause);
    if (exitCode != 0)
        qCWarning(lcSandbox) << m_containerName << "ended:" << cause;
}

} // namespace Sandpiper
