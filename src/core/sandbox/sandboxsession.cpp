#include "sandbox/sandboxsession.h"

#include "logging.h"
#include "sandbox/containerfiles.h"
#include "sandbox/dockercli.h"
#include "sandbox/enginefeatures.h"
#include "sandbox/enginefiles.h"
#include "sandbox/enginelocality.h"
#include "sandbox/sandboxfigure.h"
#include "sandbox/terminaltext.h"

#include <QCoreApplication>
#include <QCoroProcess>
#include <QCoroSignal>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QHostInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QThread>

#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

constexpr auto ownerLabelKey = "sandpiper.owner";
constexpr auto conversationLabel = "sandpiper.conversation";
// The uid:gid a root desktop user's kernel runs as: root stays outside the sandbox.
constexpr uid_t unprivilegedId = 65534;
// No honest line comes near this: output is sent in 64 KiB batches, values and HTML are capped
// at the output limit. A longer line is skipped without being kept.
constexpr qsizetype maxLineBytes = 16 * 1024 * 1024;
// Names of new files checked and listed per execution; the rest are only counted.
constexpr int maxListedFiles = 1000;
// Refusals kept per execution, a sentence each; the rest are only counted.
constexpr int maxRefusals = 20;
// Rich displays kept per execution; the rest are counted in a note.
constexpr int maxTables = 20;
const auto tableMime = QLatin1String("application/vnd.sandpiper.table+json");
// Files copied to and from a remote engine: per execution, whatever their size.
constexpr auto remoteCopyTimeout = std::chrono::minutes(5);
// Host files looked at for sending into a remote engine's container.
constexpr int maxSentFiles = 10000;

QString kernelSource()
{
    QFile file(QStringLiteral(":/sandbox/kernel.py"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("the sandbox kernel is missing from the resources");
    return QString::fromUtf8(file.readAll());
}

QString ownerId()
{
    return QHostInfo::localHostName() + QLatin1Char(':') + QString::number(QCoreApplication::applicationPid());
}

QString dockerSafe(const QString &text)
{
    static const QRegularExpression unsafe(QStringLiteral("[^a-zA-Z0-9_.-]"));
    QString safe = text.left(40);
    safe.replace(unsafe, QStringLiteral("_"));
    return safe;
}

// The kernel writes figures and files as the sandbox user; the folder has to be its own.
void prepareDataDirectory(const QString &path)
{
    QDir().mkpath(path + QStringLiteral("/figures"));
    if (::getuid() != 0)
        return;
    // Never through a link: the sandbox may have put one where "figures" was.
    const int folder = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0 || ::fchown(folder, unprivilegedId, unprivilegedId) != 0 ||
        ::fchownat(folder, "figures", unprivilegedId, unprivilegedId, AT_SYMLINK_NOFOLLOW) != 0)
        qCWarning(lcSandbox) << "cannot hand" << path << "to the sandbox user";
    if (folder >= 0)
        ::close(folder);
}

QCoro::Task<int> removeContainers(bool onlyLeftovers)
{
    const auto listing = co_await DockerCli::run(
        {QStringLiteral("ps"), QStringLiteral("-a"), QStringLiteral("--filter"),
         QStringLiteral("label=%1").arg(QLatin1String(ownerLabelKey)), QStringLiteral("--format"),
         QStringLiteral("{{.ID}} {{.Label \"%1\"}}").arg(QLatin1String(ownerLabelKey))},
        {}, 20s);
    if (!listing.ok())
        co_return 0;
    const QString host = QHostInfo::localHostName();
    QStringList doomed;
    for (const QString &line : QString::fromUtf8(listing.standardOutput).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString id = line.section(QLatin1Char(' '), 0, 0);
        const QString owner = line.section(QLatin1Char(' '), 1);
        if (onlyLeftovers) {
            // A container belongs to a live process when that process still runs on this host.
            const qint64 pid = owner.section(QLatin1Char(':'), -1).toLongLong();
            const bool mine = owner.section(QLatin1Char(':'), 0, -2) == host;
            if (!mine || pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)
                continue;
        }
        doomed << id;
    }
    if (doomed.isEmpty())
        co_return 0;
    const auto removal =
        co_await DockerCli::run(QStringList{QStringLiteral("rm"), QStringLiteral("-f")} + doomed, {}, 60s);
    if (!removal.ok())
        qCWarning(lcSandbox) << "cannot remove old containers:" << removal.errorMessage();
    co_return removal.ok() ? int(doomed.size()) : 0;
}

} // namespace

SandboxSession::SandboxSession(SandboxConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_folder(m_config.dataDirectory)
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
        DockerCli::runDetached({QStringLiteral("rm"), QStringLiteral("-f"), m_containerName}, m_engine);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

QStringList SandboxSession::defaultPreloadModules()
{
    return {QStringLiteral("numpy"), QStringLiteral("pandas"), QStringLiteral("matplotlib"),
            QStringLiteral("matplotlib.pyplot")};
}

QString SandboxSession::sandboxUser()
{
    if (::getuid() == 0)
        return QStringLiteral("%1:%1").arg(unprivilegedId);
    return QStringLiteral("%1:%2").arg(::getuid()).arg(::getgid());
}

QCoro::Task<int> SandboxSession::removeLeftoverContainers()
{
    return removeContainers(true);
}

QCoro::Task<int> SandboxSession::removeAllContainers()
{
    return removeContainers(false);
}

QStringList SandboxSession::hardeningArguments(const SandboxConfig &config, const EngineFeatures &features)
{
    QStringList arguments{QStringLiteral("--label"),
                          QStringLiteral("%1=%2").arg(QLatin1String(ownerLabelKey), ownerId()),
                          QStringLiteral("--network"),
                          config.network ? QStringLiteral("bridge") : QStringLiteral("none"),
                          QStringLiteral("--read-only"),
                          QStringLiteral("--tmpfs"),
                          QStringLiteral("/tmp:size=%1").arg(config.tmpSize),
                          QStringLiteral("--cap-drop"),
                          QStringLiteral("ALL"),
                          QStringLiteral("--security-opt"),
                          QStringLiteral("no-new-privileges")};
    // Limits the engine cannot enforce are left out rather than ignored by it with a warning
    // (or refused); the first execution says which (limitsWarning()).
    if (features.pidsLimit)
        arguments << QStringLiteral("--pids-limit") << QString::number(config.pidsLimit);
    if (features.memoryLimit)
        arguments << QStringLiteral("--memory") << config.memory << QStringLiteral("--memory-swap") << config.memory;
    if (features.cpuLimit) {
        const double cpus = std::clamp(config.cpus, 0.1, double(QThread::idealThreadCount()));
        arguments << QStringLiteral("--cpus") << QString::number(cpus, 'f', 2);
    }
    return arguments << QStringLiteral("--user") << sandboxUser();
}

QStringList SandboxSession::dockerArguments() const
{
    QStringList arguments{QStringLiteral("run"),
                          QStringLiteral("-i"),
                          QStringLiteral("--rm"),
                          QStringLiteral("--init"),
                          QStringLiteral("--pull"),
                          QStringLiteral("never"),
                          QStringLiteral("--name"),
                          m_containerName,
                          QStringLiteral("--label"),
                          QStringLiteral("%1=%2").arg(QLatin1String(conversationLabel), m_config.conversationId)};
    arguments += hardeningArguments(m_config, m_features);
    if (m_features.keepsUserId() && !m_remote)
        arguments << QStringLiteral("--userns=keep-id");
    arguments << QStringLiteral("-e") << QStringLiteral("HOME=/tmp")
              << QStringLiteral("-e")
              // The kernel tells the model at once that pip needs the network, instead of pip retrying.
              << QStringLiteral("SANDPIPER_NETWORK=%1").arg(m_config.network ? 1 : 0);
    return arguments + dataMountArguments() +
           QStringList{
               QStringLiteral("-w"),       QStringLiteral("/mnt/data"), m_config.image, QStringLiteral("python3"),
               QStringLiteral("-u"),       QStringLiteral("-c"),        kernelSource(), QStringLiteral("--data"),
               QStringLiteral("/mnt/data")};
}

QStringList SandboxSession::dataMountArguments() const
{
    if (!m_remote)
        return {QStringLiteral("-v"), QStringLiteral("%1:/mnt/data").arg(QDir(m_config.dataDirectory).absolutePath())};
    // The engine has no folder of ours: the container's own, in memory, sized to the disk limit
    // (which the kernel then enforces for us), owned by the sandbox user, with exec for the
    // packages pip installs there.
    const QString id = sandboxUser().section(QLatin1Char(':'), 0, 0);
    const QString group = sandboxUser().section(QLatin1Char(':'), 1);
    QString options = QStringLiteral("/mnt/data:exec,uid=%1,gid=%2").arg(id, group);
    if (m_config.diskLimitBytes > 0)
        options += QStringLiteral(",size=%1").arg(m_config.diskLimitBytes);
    return {QStringLiteral("--tmpfs"), options};
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
    m_lineBuffer.clear();
    m_skippedLineBytes = 0;
    m_containerName = QStringLiteral("sandpiper-%1-%2")
                          .arg(dockerSafe(m_config.conversationId))
                          .arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QLatin1Char('0'));
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
    m_inContainer.clear();
    if (m_remote)
        QDir().mkpath(m_config.dataDirectory);
    else
        prepareDataDirectory(m_config.dataDirectory);

    auto *process = new QProcess(this);
    m_process = process;
    connect(process, &QProcess::readyReadStandardOutput, this, &SandboxSession::readKernelOutput);
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
    process->start(DockerCli::program(), dockerArguments());
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
    // The files a remote engine kept would go with its container: they come here first.
    const QStringList kept = EngineFiles::keptIn(m_config.dataDirectory, m_containerName);
    QStringList lost;
    for (const QString &name : kept)
        if (const QString error = co_await EngineFiles::fetch(m_config.dataDirectory, name); !error.isEmpty())
            lost << error;
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
    m_pending = Pending{.id = id, .result = {}};
    m_pending->fetchLater = options.request.isEmpty();
    m_pending->elapsed.start();
    m_pending->result.stateReset = !resetReason.isEmpty();
    if (m_pending->result.stateReset)
        m_pending->result.errorMessage = resetReason;
    if (!m_limitsTold && !m_features.limitsWarning().isEmpty()) {
        m_pending->result.notes << m_features.limitsWarning();
        m_limitsTold = true;
    }
    m_idleTimer.stop();
    setState(State::Busy);

    const auto timeout = options.timeout > 0ms ? options.timeout : m_config.executionTimeout;
    if (DiskWatch *watch = localDiskWatch())
        watch->rebase(true);
    if (m_remote) {
        const QString removeError = co_await removeDeletedFiles();
        if (!self)
            co_return {};
        const QString sendError = co_await sendNewFiles();
        if (!self)
            co_return {};
        for (const QString &error : {removeError, sendError})
            if (!error.isEmpty() && m_pending)
                m_pending->result.notes << error;
    }
    if (!m_pending || m_pending->id != id || !m_process) {
        // The kernel went while the files were sent; that is the result.
        ExecutionResult lost = m_pending ? std::move(m_pending->result) : ExecutionResult{};
        m_pending.reset();
        co_return lost;
    }
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
    ExecutionResult result = std::move(m_pending->result);
    m_pending.reset();
    co_return result;
}

void SandboxSession::interrupt()
{
    interruptFor(false);
}

void SandboxSession::interruptFor(bool timeout)
{
    if (m_state != State::Busy || !m_pending)
        return;
    m_pending->interruptedByTimeout = timeout;
    setState(State::Interrupting);
    // tini (--init) passes SIGINT on to the kernel, which raises KeyboardInterrupt.
    DockerCli::runDetached({QStringLiteral("kill"), QStringLiteral("--signal"), QStringLiteral("INT"), m_containerName},
                           m_engine);
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
        DockerCli::runDetached({QStringLiteral("rm"), QStringLiteral("-f"), name}, engine);
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
    DockerCli::runDetached({QStringLiteral("rm"), QStringLiteral("-f"), m_containerName}, m_engine);
    old->kill();
    if (DiskWatch *watch = localDiskWatch())
        watch->stop();
    m_watchdog.stop();
    m_interruptGrace.stop();
    m_idleTimer.stop();
    if (m_pending && !m_pending->id.isEmpty()) {
        ExecutionResult &result = m_pending->result;
        result.status = ExecutionResult::Status::Interrupted;
        result.timedOut = m_pending->interruptedByTimeout;
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

void SandboxSession::readKernelOutput()
{
    if (!m_process)
        return;
    const QByteArray data = m_process->readAllStandardOutput();
    QByteArrayView rest(data);
    if (m_skippedLineBytes > 0) {
        const qsizetype end = rest.indexOf('\n');
        m_skippedLineBytes += end < 0 ? rest.size() : end;
        if (end < 0)
            return;
        lineTooLong(std::exchange(m_skippedLineBytes, 0));
        rest = rest.sliced(end + 1);
    }
    m_lineBuffer += rest;
    qsizetype start = 0;
    while (true) {
        const qsizetype end = m_lineBuffer.indexOf('\n', start);
        if (end < 0)
            break;
        const QByteArrayView line(m_lineBuffer.constData() + start, end - start);
        start = end + 1;
        if (line.size() > maxLineBytes)
            lineTooLong(line.size());
        else
            handleLine(line);
    }
    m_lineBuffer.remove(0, start);
    if (m_lineBuffer.size() > maxLineBytes) {
        m_skippedLineBytes = m_lineBuffer.size();
        m_lineBuffer.clear();
    }
}

void SandboxSession::handleLine(QByteArrayView line)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line.toByteArray(), &error);
    if (document.isObject()) {
        handleEvent(document.object());
        return;
    }
    qCWarning(lcSandbox) << "not a kernel event:" << line.left(200);
    if (m_pending && !m_pending->id.isEmpty())
        ++m_pending->invalidLines;
}

void SandboxSession::lineTooLong(qint64 bytes)
{
    qCWarning(lcSandbox) << m_containerName << "sent a protocol line of" << bytes << "bytes; skipped";
    if (m_pending && !m_pending->id.isEmpty())
        refuse(tr("The sandbox sent a message of %1, more than the %2 a message may have; it was ignored.")
                   .arg(SandboxFolder::formatBytes(bytes), SandboxFolder::formatBytes(maxLineBytes)));
}

void SandboxSession::refuse(const QString &sentence)
{
    if (m_pending->result.refused.size() < maxRefusals)
        m_pending->result.refused << sentence;
    else
        ++m_pending->unlistedRefusals;
}

void SandboxSession::acceptFigure(const QString &path)
{
    ExecutionResult &result = m_pending->result;
    // Past the limit nothing is looked at: forged events are only counted.
    if (result.figures.size() >= m_config.maxFigures || m_pending->refusedFigures >= maxRefusals) {
        ++result.figuresNotKept;
        return;
    }
    if (const QString problem = SandboxFigure::problem(m_folder, path); !problem.isEmpty()) {
        ++m_pending->refusedFigures;
        refuse(problem);
        return;
    }
    result.figures << path;
}

void SandboxSession::acceptFiles(const QJsonArray &files)
{
    ExecutionResult &result = m_pending->result;
    for (const QJsonValue &file : files) {
        if (result.files.size() >= maxListedFiles) {
            ++m_pending->unlistedFiles;
            continue;
        }
        // Only regular files inside the folder are offered; a link, a FIFO or a name that
        // leaves the folder is refused with its reason.
        const QString name = file.toString();
        if (m_pending->result.onEngine.contains(name)) {
            result.files << name; // listed as a regular file there; checked here when fetched
            continue;
        }
        if (const SandboxFolder::Opened opened = m_folder.open(name, std::numeric_limits<qint64>::max()); !opened)
            refuse(opened.error);
        else
            result.files << name;
    }
}

void SandboxSession::handleDiskBreach(DiskWatch::Breach breach)
{
    const bool running = m_pending && !m_pending->id.isEmpty();
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
    if (m_pending->result.stopReason.isEmpty())
        m_pending->result.stopReason = message;
    if (m_state == State::Busy) {
        interruptFor(false);
        return;
    }
    // Interrupted already, and still writing: no grace period for that.
    discardKernel(tr("The code kept writing after it was stopped, so its sandbox was replaced: variables and "
                     "imports from earlier were lost."));
}

void SandboxSession::handleEvent(const QJsonObject &event)
{
    const QString kind = event.value(QLatin1String("event")).toString();
    if (kind == QLatin1String("ready")) {
        if (m_state == State::Starting) {
            if (DiskWatch *watch = localDiskWatch())
                watch->rebase(false);
            setState(State::Idle);
            m_idleTimer.start(m_config.idleStop);
            Q_EMIT startFinished(true);
        }
        return;
    }
    const QString id = event.value(QLatin1String("id")).toString();
    if (id == QLatin1String("preload") && kind == QLatin1String("result")) {
        Q_EMIT prewarmed();
        return;
    }
    if (!m_pending || m_pending->id.isEmpty())
        return; // output of a background thread after the result, or a forged line
    if (id != m_pending->id) {
        // Late output of a background thread has no id; an event for another request is forged.
        if (kind != QLatin1String("stream"))
            ++m_pending->strayEvents;
        return;
    }
    ExecutionResult &result = m_pending->result;
    if (kind == QLatin1String("stream")) {
        appendStream(event.value(QLatin1String("name")).toString(), event.value(QLatin1String("text")).toString());
    } else if (kind == QLatin1String("display")) {
        const QString mime = event.value(QLatin1String("mime")).toString();
        const DisplayCounts before = displayCounts(result);
        if (mime == QLatin1String("image/png"))
            m_remote ? keepRemoteFigure(event.value(QLatin1String("path")).toString())
                     : acceptFigure(event.value(QLatin1String("path")).toString());
        else
            acceptRichDisplay(mime, event);
        if (event.value(QLatin1String("of_value")).toBool())
            noteValueDisplay(before, result);
    } else if (kind == QLatin1String("result")) {
        const QString status = event.value(QLatin1String("status")).toString();
        result.status = status == QLatin1String("ok")            ? ExecutionResult::Status::Ok
                        : status == QLatin1String("interrupted") ? ExecutionResult::Status::Interrupted
                                                                 : ExecutionResult::Status::Error;
        result.value = event.value(QLatin1String("value")).toString();
        const QJsonObject error = event.value(QLatin1String("error")).toObject();
        result.errorType = error.value(QLatin1String("type")).toString();
        if (!error.isEmpty())
            result.errorMessage = error.value(QLatin1String("message")).toString();
        result.traceback = error.value(QLatin1String("traceback")).toString();
        result.durationMs = event.value(QLatin1String("duration_ms")).toInteger(-1);
        m_pending->durationReported = true;
        const QJsonArray files = event.value(QLatin1String("files")).toArray();
        const QJsonObject dropped = event.value(QLatin1String("dropped")).toObject();
        result.droppedStdoutBytes += std::max<qint64>(0, dropped.value(QLatin1String("stdout")).toInteger());
        result.droppedStderrBytes += std::max<qint64>(0, dropped.value(QLatin1String("stderr")).toInteger());
        result.figuresNotKept +=
            int(std::clamp<qint64>(event.value(QLatin1String("figures_dropped")).toInteger(), 0, 1000000));
        if (!m_config.network && pipWantedNetwork(result))
            result.notes << tr("pip could not download packages: this conversation's sandbox has no network access. "
                               "Allow it with the \"Network in sandbox\" switch below the message box.");
        result.timedOut = event.value(QLatin1String("reason")).toString() == QLatin1String("timeout") ||
                          (result.status == ExecutionResult::Status::Interrupted && m_pending->interruptedByTimeout);
        if (m_remote) {
            m_watchdog.stop(); // the kernel answered; the copy has its own timeout
            removeHostCopies(event.value(QLatin1String("removed")).toArray());
            QCoro::connect(fetchFromContainer(id, files), this, [] {});
        } else
            completeExecution(files);
    }
}

void SandboxSession::completeExecution(const QJsonArray &files)
{
    acceptFiles(files);
    // Before the waiting coroutine resumes: it may start the next execution at once.
    if (DiskWatch *watch = localDiskWatch())
        watch->rebase(false);
    finishPending();
    setState(State::Idle);
    m_idleTimer.start(m_config.idleStop);
}

void SandboxSession::keepRemoteFigure(const QString &path)
{
    // Checked once copied; forged events past what could be kept are only counted.
    if (m_pending->remoteFigures.size() >= m_config.maxFigures + maxRefusals)
        ++m_pending->result.figuresNotKept;
    else
        m_pending->remoteFigures << path;
}

void SandboxSession::removeHostCopies(const QJsonArray &removed)
{
    // Only copies of files the container had from here or sent here: the code deleted them there,
    // as it could delete them in a local folder.
    for (const QJsonValue &value : removed) {
        const QString name = value.toString();
        EngineFiles::drop(m_config.dataDirectory, name);
        if (!SandboxFolder::nameProblem(name).isEmpty() || !m_inContainer.remove(name))
            continue;
        removeHostCopy(name);
    }
}

void SandboxSession::removeHostCopy(const QString &name)
{
    // Never through a link, never a folder.
    QString path = m_config.dataDirectory;
    bool safe = true;
    for (const QString &part : name.split(QLatin1Char('/'))) {
        path += QLatin1Char('/') + part;
        safe = safe && !QFileInfo(path).isSymLink();
    }
    if (safe && QFileInfo(path).isFile() && !QFile::remove(path))
        qCWarning(lcSandbox) << "cannot remove the copy of" << name;
}

void SandboxSession::leaveOnEngine(const QString &name, qint64 size)
{
    m_pending->result.onEngine.insert(name, size);
    EngineFiles::keep(m_config.dataDirectory, name,
                      {.container = runningContainer(), .size = size, .diskLimit = m_config.diskLimitBytes});
    // A copy here is of an older version: it goes, as it would be overwritten in a shared folder,
    // and this one is fetched when asked for.
    if (m_inContainer.remove(name))
        removeHostCopy(name);
}

QCoro::Task<> SandboxSession::fetchFromContainer(QString id, QJsonArray files)
{
    QPointer<SandboxSession> self(this);
    QStringList figures;
    for (const QString &figure : std::as_const(m_pending->remoteFigures))
        if (!figures.contains(figure) && SandboxFolder::nameProblem(figure).isEmpty())
            figures << figure;
    QStringList fileNames;
    for (const QJsonValue &file : std::as_const(files))
        if (const QString name = file.toString();
            figures.size() + fileNames.size() < m_config.maxFigures + maxRefusals + maxListedFiles &&
            SandboxFolder::nameProblem(name).isEmpty())
            fileNames << name;
    fileNames.removeDuplicates();
    // Large files stay there, listed with their size, until the user opens one.
    if (m_pending->fetchLater && m_config.remoteFetchLimitBytes > 0 && !fileNames.isEmpty()) {
        const ContainerFiles::Listing listing =
            co_await ContainerFiles::list(runningContainer(), fileNames, remoteCopyTimeout);
        if (!self || !m_pending || m_pending->id != id)
            co_return; // the kernel went meanwhile: that was the result
        // A listing that failed leaves every file to the copy, which says what went wrong.
        for (auto file = listing.regularFiles.cbegin(); file != listing.regularFiles.cend(); ++file)
            if (file.value() > m_config.remoteFetchLimitBytes)
                leaveOnEngine(file.key(), file.value());
        fileNames.removeIf([this](const QString &name) { return m_pending->result.onEngine.contains(name); });
    }
    QStringList names = figures + fileNames;
    names.removeDuplicates();
    const ContainerFiles::Fetched fetched = co_await ContainerFiles::fetch(
        runningContainer(), m_config.dataDirectory, names,
        ContainerFiles::room(m_folder, names, m_config.diskLimitBytes), remoteCopyTimeout);
    if (!self || !m_pending || m_pending->id != id)
        co_return; // the kernel went meanwhile: that was the result
    for (const QString &name : fetched.written) {
        const QFileInfo info(m_folder.hostPath(name));
        m_inContainer.insert(name, {info.size(), info.lastModified().toMSecsSinceEpoch()});
    }
    for (const QString &sentence : fetched.refused)
        refuse(sentence);
    if (!fetched.error.isEmpty())
        refuse(fetched.error);
    // The usual checks, on what arrived; what the copy refused is said once, by the copy.
    for (const QString &figure : std::exchange(m_pending->remoteFigures, {}))
        if (!fetched.refusedNames.contains(figure))
            acceptFigure(figure);
    QJsonArray checked;
    for (const QJsonValue &file : std::as_const(files))
        if (!fetched.refusedNames.contains(file.toString()))
            checked.append(file);
    ExecutionResult &result = m_pending->result;
    if (m_config.diskLimitBytes > 0 && result.stopReason.isEmpty() &&
        QString(result.errorMessage + result.standardError).contains(QLatin1String("No space left on device")))
        result.stopReason = tr("The conversation's files reached the %1 limit; the code could not write more. The "
                               "files are kept for you to look at or delete.")
                                .arg(SandboxFolder::formatBytes(m_config.diskLimitBytes));
    completeExecution(checked);
}

QCoro::Task<QString> SandboxSession::removeDeletedFiles()
{
    QPointer<SandboxSession> self(this);
    // Deleted here (in the app or the file manager): there too, or the code would still see them
    // and the disk limit count them.
    const auto isGone = [this](const QString &name) {
        const QFileInfo here(m_folder.hostPath(name));
        return !here.exists() && !here.isSymLink();
    };
    QStringList deleted;
    for (auto file = m_inContainer.cbegin(); file != m_inContainer.cend(); ++file)
        if (isGone(file.key()))
            deleted << file.key();
    // And those the engine kept, that the user fetched and then deleted.
    QStringList fetched = EngineFiles::keptIn(m_config.dataDirectory, m_containerName, true);
    fetched.removeIf([&isGone](const QString &name) { return !isGone(name); });
    deleted += fetched;
    if (deleted.isEmpty())
        co_return QString();
    const QString error = co_await ContainerFiles::remove(runningContainer(), deleted, remoteCopyTimeout);
    if (!self)
        co_return QString();
    if (!error.isEmpty())
        co_return tr("Files deleted from the conversation may still be in the sandbox: %1").arg(error);
    for (const QString &name : std::as_const(deleted)) {
        m_inContainer.remove(name);
        EngineFiles::drop(m_config.dataDirectory, name);
    }
    co_return QString();
}

QCoro::Task<QString> SandboxSession::sendNewFiles()
{
    QPointer<SandboxSession> self(this);
    // The files of the conversation's folder the container lacks, or has in another version:
    // uploads, and everything there after a fresh start. Figures stay here: code does not read them.
    QStringList names;
    QHash<QString, QPair<qint64, qint64>> versions;
    const QDir root(m_config.dataDirectory);
    QDirIterator it(m_config.dataDirectory, QDir::Files | QDir::Hidden | QDir::NoSymLinks | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext() && names.size() < maxSentFiles) {
        const QFileInfo info = it.nextFileInfo();
        const QString name = root.relativeFilePath(info.filePath());
        if (name.startsWith(QLatin1String("figures/")) || name.startsWith(QLatin1String(".sandpiper/")))
            continue;
        const QPair<qint64, qint64> version{info.size(), info.lastModified().toMSecsSinceEpoch()};
        if (m_inContainer.value(name) != version &&
            EngineFiles::fetchedVersion(m_config.dataDirectory, name) == version) {
            m_inContainer.insert(name, version); // fetched from there when the user opened it
            EngineFiles::drop(m_config.dataDirectory, name);
        } else if (m_inContainer.value(name) != version) {
            names << name;
            versions.insert(name, version);
        }
    }
    if (names.isEmpty())
        co_return QString();
    const QString error = co_await ContainerFiles::upload(runningContainer(), m_folder, names, remoteCopyTimeout);
    if (!self)
        co_return QString();
    if (!error.isEmpty())
        co_return tr("Not every file of the conversation reached the sandbox: %1").arg(error);
    for (auto version = versions.cbegin(); version != versions.cend(); ++version)
        m_inContainer.insert(version.key(), version.value());
    co_return QString();
}

void SandboxSession::appendStream(const QString &name, const QString &text)
{
    const bool isStdout = name == QLatin1String("stdout");
    QString &target = isStdout ? m_pending->result.standardOutput : m_pending->result.standardError;
    qint64 &kept = isStdout ? m_pending->stdoutBytes : m_pending->stderrBytes;
    qint64 &dropped = isStdout ? m_pending->result.droppedStdoutBytes : m_pending->result.droppedStderrBytes;
    const qint64 size = text.size();
    // Kept as a terminal shows it: a progress bar's redraws replace its line.
    if (kept + size <= m_config.outputLimitBytes) {
        TerminalText::append(target, text);
        kept += size;
    } else {
        const qint64 room = std::max<qint64>(0, m_config.outputLimitBytes - kept);
        TerminalText::append(target, QStringView(text).left(room));
        kept += room;
        dropped += size - room;
    }
    Q_EMIT output(name, text);
}

void SandboxSession::finishPending()
{
    m_watchdog.stop();
    m_interruptGrace.stop();
    Pending &pending = *m_pending;
    ExecutionResult &result = pending.result;
    // The host's clock: a replaced container reports nothing, and the kernel's figure is only
    // believed when it is possible.
    const qint64 elapsed = pending.elapsed.elapsed();
    if (!pending.durationReported || result.durationMs < 0 || result.durationMs > elapsed)
        result.durationMs = elapsed;
    if (pending.unlistedFiles > 0)
        refuse(
            tr("More new files than are listed were written; not checked or listed: %1.").arg(pending.unlistedFiles));
    if (pending.invalidLines > 0)
        refuse(tr("Lines from the sandbox that are not valid messages (JSON objects in UTF-8) were ignored: %1.")
                   .arg(pending.invalidLines));
    if (pending.strayEvents > 0)
        refuse(
            tr("Events from the sandbox for requests that are not running were ignored: %1.").arg(pending.strayEvents));
    if (pending.unlistedRefusals > 0)
        result.refused << tr("Further refusals, not listed: %1.").arg(pending.unlistedRefusals);
    if (pending.tablesDropped > 0)
        result.notes << tr("%n more tables were shown than are kept (%1 per run).", nullptr, pending.tablesDropped)
                            .arg(maxTables);
    const QString id = pending.id;
    // Mark it answered so that a late crash of the same request is not reported twice.
    m_pending->id.clear();
    Q_EMIT executionFinished(id);
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

void SandboxSession::acceptRichDisplay(const QString &mime, const QJsonObject &event)
{
    ExecutionResult &result = m_pending->result;
    const QString data = event.value(QLatin1String("data")).toString();
    qint64 &shown = m_pending->richChars;
    if (mime == tableMime) {
        if (result.tables.size() >= maxTables) {
            ++m_pending->tablesDropped;
            return;
        }
        if (auto table = DataTable::fromJson(event.value(QLatin1String("table")).toObject()))
            result.tables << *table;
    } else if ((mime == QLatin1String("text/markdown") || mime == QLatin1String("image/svg+xml")) &&
               shown + data.size() <= m_config.outputLimitBytes) {
        shown += data.size();
        (mime == QLatin1String("text/markdown") ? result.markdown : result.svg) << data;
    }
}

SandboxSession::DisplayCounts SandboxSession::displayCounts(const ExecutionResult &result)
{
    return {result.tables.size(), result.markdown.size(), result.svg.size(), result.figures.size()};
}

void SandboxSession::noteValueDisplay(const DisplayCounts &before, ExecutionResult &result)
{
    // What the display added, if it was kept, is the value's.
    const DisplayCounts after = displayCounts(result);
    ExecutionResult::ValueDisplays &values = result.valueDisplays;
    QList<int> *lists[] = {&values.tables, &values.markdown, &values.svg, &values.figures};
    for (size_t i = 0; i < after.size(); ++i) {
        if (after[i] > before[i])
            *lists[i] << int(after[i] - 1);
    }
}

bool SandboxSession::pipWantedNetwork(const ExecutionResult &result)
{
    const QString output = result.standardOutput + result.standardError;
    if (output.contains(QLatin1String("Network in sandbox")))
        return false; // the kernel said so already
    return output.contains(QLatin1String("No matching distribution found")) ||
           output.contains(QLatin1String("Could not find a version that satisfies the requirement")) ||
           (output.contains(QLatin1String("pip")) &&
            output.contains(QLatin1String("Temporary failure in name resolution")));
}

QString SandboxSession::crashCause(int exitCode) const
{
    // Docker's own complaint, without its "See 'docker run --help'" footer.
    QStringList dockerLines = QString::fromUtf8(m_dockerErrors).trimmed().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    dockerLines.removeIf([](const QString &line) { return line.startsWith(QLatin1String("See '")); });
    const QString docker = dockerLines.mid(std::max<qsizetype>(0, dockerLines.size() - 3)).join(QLatin1Char(' '));
    switch (exitCode) {
    case -2:
        return tr("The Docker client (%1) could not be started: is Docker installed?").arg(DockerCli::program());
    case 137:
        return tr("The Python kernel was killed (exit code 137), most likely because it ran out of memory "
                  "(the limit is %1).")
            .arg(m_config.memory);
    case 139:
        return tr("The Python kernel crashed with a segmentation fault (exit code 139).");
    case 125:
    case 126:
    case 127:
        return tr("Docker could not start the sandbox: %1")
            .arg(docker.isEmpty() ? tr("exit code %1").arg(exitCode) : docker);
    default:
        return tr("The Python kernel exited unexpectedly (exit code %1).").arg(exitCode);
    }
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
    const QString cause = crashCause(exitCode);
    setState(State::Stopped);

    if (wasStarting) {
        m_lastError = cause;
        qCWarning(lcSandbox) << "sandbox did not start:" << cause;
        Q_EMIT startFinished(false);
        return;
    }
    if (m_pending && !m_pending->id.isEmpty()) {
        m_pending->result.status = ExecutionResult::Status::Crashed;
        m_pending->result.errorMessage = cause;
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
