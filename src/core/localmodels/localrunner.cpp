#include "localmodels/localrunner.h"

#include "localmodels/backgroundwork.h"
#include "localmodels/runnercontainer.h"

#include <QCoreApplication>
#include <QCoroNetworkReply>
#include <QCoroSignal>
#include <QCoroTimer>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QStandardPaths>
#include <QTcpServer>

#ifdef Q_OS_LINUX
#include <sys/prctl.h>

#include <csignal>
#include <unistd.h>
#endif

namespace Sandpiper {

namespace {

constexpr qint64 memoryMargin = qint64(1) << 30; // for the app, the system and llama-server itself
constexpr int smallestContext = 2048;
constexpr int largestContext = 262144;

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace

RunnerProgram RunnerProgram::find(const QString &configured)
{
    RunnerProgram program;
    program.program =
        configured.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("llama-server")) : configured;
    if (program.program.isEmpty())
        if (const QString image = RunnerContainer::findImage(); !image.isEmpty())
            return container(image);
    return program;
}

QFuture<RunnerDiscovery> RunnerDiscovery::start(const QString &configured, const QString &cacheFile)
{
    return inBackground([configured, cacheFile] {
        RunnerDiscovery found;
        found.program = RunnerProgram::find(configured);
        found.devices = DeviceProbe::cached(found.program, cacheFile);
        return found;
    });
}

RunnerProgram RunnerProgram::container(const QString &image)
{
    RunnerProgram program;
    program.program = RunnerContainer::docker();
    program.environment = RunnerContainer::environment();
    program.image = image;
    return program;
}

QString RunnerProgram::describe() const
{
    if (isContainer())
        return QCoreApplication::translate("Sandpiper::LocalRunner", "llama-server in a container (image %1)")
            .arg(image);
    return QCoreApplication::translate("Sandpiper::LocalRunner", "llama-server at %1")
        .arg(QDir::toNativeSeparators(program));
}

RunnerPlan RunnerPlan::forModel(const QString &modelPath, const GgufInfo &info, qint64 availableBytes, int cores,
                                int parallel)
{
    RunnerPlan plan;
    plan.modelPath = modelPath;
    plan.alias = QFileInfo(modelPath).completeBaseName();
    plan.threads = std::max(1, cores);
    plan.parallel = std::max(1, parallel);
    qint64 context = info.trainedContext > 0 ? info.trainedContext : 8192;
    if (info.kvBytesPerToken > 0 && availableBytes > 0) {
        const qint64 room = availableBytes - info.weightBytes - memoryMargin;
        context = std::min(context, std::max<qint64>(0, room) / info.kvBytesPerToken / plan.parallel);
    }
    context = std::clamp<qint64>(context / 1024 * 1024, smallestContext, largestContext);
    plan.contextSize = int(context);
    return plan;
}

namespace {

// The value of FIELD ("MemAvailable:") of /proc/meminfo in bytes, 0 when unknown.
qint64 memoryInfo(const QByteArray &field)
{
    QFile meminfo(QStringLiteral("/proc/meminfo"));
    if (!meminfo.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : meminfo.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(field.size()).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return 0;
}

} // namespace

qint64 RunnerPlan::availableMemory()
{
    return memoryInfo("MemAvailable:");
}

qint64 RunnerPlan::totalMemory()
{
    return memoryInfo("MemTotal:");
}

void RunnerPlan::offloadTo(const DeviceProbe &probe)
{
    const QString seen = probe.hardware.isEmpty()
                             ? QCoreApplication::translate("Sandpiper::LocalRunner", "no GPU found on this computer")
                             : probe.hardware.join(QLatin1String(", "));
    if (!probe.devices.isEmpty()) {
        const ComputeDevice &device = probe.devices.constFirst();
        gpuLayers = 999; // every layer; llama-server keeps those that do not fit on the processor
        offload = QCoreApplication::translate("Sandpiper::LocalRunner", "all layers on %1 (%2, %3 MiB free)")
                      .arg(device.name, device.description)
                      .arg(device.freeMiB);
        return;
    }
    gpuLayers = 0;
    offload =
        probe.listed
            ? QCoreApplication::translate("Sandpiper::LocalRunner", "on the processor: llama-server lists no GPU (%1)")
                  .arg(seen)
            : QCoreApplication::translate("Sandpiper::LocalRunner", "on the processor: %1 (%2)").arg(probe.note, seen);
}

QStringList RunnerPlan::arguments(quint16 port) const
{
    // -ngl is always given: a newer llama-server offloads by itself when not told.
    return {QStringLiteral("-m"),
            modelPath,
            QStringLiteral("--host"),
            QStringLiteral("127.0.0.1"),
            QStringLiteral("--port"),
            QString::number(port),
            QStringLiteral("--jinja"),
            QStringLiteral("-c"),
            QString::number(qint64(contextSize) * parallel),
            QStringLiteral("-np"),
            QString::number(parallel),
            QStringLiteral("-t"),
            QString::number(threads),
            QStringLiteral("--alias"),
            alias,
            QStringLiteral("--no-webui"),
            QStringLiteral("-ngl"),
            QString::number(gpuLayers)};
}

LocalRunner::LocalRunner(RunnerProgram program, RunnerPlan plan, QString logFile, QObject *parent)
    : QObject(parent)
    , m_program(std::move(program))
    , m_plan(std::move(plan))
    , m_logFile(std::move(logFile))
{
    m_idle.setSingleShot(true);
    connect(&m_idle, &QTimer::timeout, this, [this] {
        const auto minutes =
            std::chrono::duration_cast<std::chrono::minutes>(std::chrono::milliseconds(m_idle.interval()));
        endProcess();
        setState(State::Stopped, tr("The local model was stopped after %n minute(s) without use; it starts again "
                                    "with the next message.",
                                    nullptr, int(minutes.count())));
    });
}

LocalRunner::~LocalRunner()
{
    blockSignals(true);
    stop();
    // Nothing of it stays behind: its container is gone when it is.
    m_removal.waitForFinished();
}

void LocalRunner::setIdleStop(std::chrono::milliseconds after)
{
    m_idle.setInterval(after);
    if (after.count() == 0)
        m_idle.stop();
}

void LocalRunner::keepAlive()
{
    if (m_state == State::Ready && m_idle.interval() > 0 && !m_inUse)
        m_idle.start();
}

void LocalRunner::setInUse(bool inUse)
{
    m_inUse = inUse;
    if (inUse)
        m_idle.stop();
    else
        keepAlive();
}

qint64 LocalRunner::processId() const
{
    return m_process && m_process->state() != QProcess::NotRunning ? m_process->processId() : 0;
}

QCoro::Task<Result<QUrl>> LocalRunner::ready()
{
    QPointer<LocalRunner> self(this);
    keepAlive();
    if (m_state == State::Ready && processId() != 0)
        co_return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(m_port));
    // Another answer started it: wait for the same start, and share how it ended.
    if (m_state == State::Loading) {
        while (m_state == State::Loading) {
            co_await qCoro(this, &LocalRunner::stateChanged);
            if (!self)
                co_return tr("The local model was closed.");
        }
        if (m_state == State::Ready)
            co_return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(m_port));
        co_return m_message;
    }

    if (m_program.program.isEmpty()) {
        setState(State::Failed, tr("No llama-server was found to run the model: press “Get llama-server for "
                                   "Docker” in Settings › Models, install llama.cpp's server (llama-server) from "
                                   "your distribution, or set its path there."));
        co_return m_message;
    }
    m_restartsLeft = 1;
    if (!co_await launch())
        co_return self ? m_message : tr("The local model was closed.");
    co_return co_await waitUntilAnswering();
}

QCoro::Task<bool> LocalRunner::launch(bool samePort)
{
    QPointer<LocalRunner> self(this);
    // A server started again keeps its address: the answers that were going to it retry there.
    if (!samePort || m_port == 0)
        m_port = freePort();
    const QString model = QFileInfo(m_plan.modelPath).fileName();
    // Loading from now on: an answer that asks meanwhile waits for this start.
    m_loading.start();
    setState(State::Loading, tr("Loading %1…").arg(model));
    QStringList arguments = m_program.leading + m_plan.arguments(m_port);
    if (m_program.isContainer()) {
        // The docker client in the foreground is the child process: the server's output is its
        // output (the log), its exit is the server's, and a SIGTERM it gets goes on to the server.
        // The last container (killed, it may not be removed yet) is gone before the next takes
        // its port. Docker answers within tens of milliseconds, or seconds when it is busy.
        co_await awaited(m_removal);
        if (!self)
            co_return false;
        const QString last = std::exchange(
            m_container,
            QStringLiteral("sandpiper-llama-%1-%2").arg(QCoreApplication::applicationPid()).arg(++m_launches));
        arguments = co_await awaited(
            inBackground([last, image = m_program.image, plan = m_plan, port = m_port, name = m_container] {
                RunnerContainer::remove(last);
                RunnerContainer::removeOrphans();
                RunnerContainer::ensureNetwork();
                return RunnerContainer::runArguments(image, plan, port, name);
            }));
        if (!self)
            co_return false;
        if (m_state != State::Loading)
            co_return false; // stopped meanwhile
    }
    auto *process = new QProcess(this);
    m_process = process;
    process->setProcessEnvironment(m_program.environment);
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->setStandardOutputFile(m_logFile, QIODevice::Append);
#ifdef Q_OS_LINUX
    // The server ends with Sandpiper however Sandpiper ends (a crash, kill -9): no orphan keeps the
    // model's memory. The kernel sends it SIGTERM when the thread that started it goes (the GUI
    // thread here); a parent gone before the request would never send it, so the child gives up.
    process->setChildProcessModifier([parent = ::getpid()] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent)
            ::_exit(127);
    });
#endif
    if (QFile log(m_logFile); log.open(QIODevice::Append))
        log.write(QStringLiteral("\n--- %1: %2 %3\n")
                      .arg(QDateTime::currentDateTime().toString(Qt::ISODate), m_program.program,
                           arguments.join(QLatin1Char(' ')))
                      .toUtf8());
    connect(process, &QProcess::finished, this, [this, process](int exitCode, QProcess::ExitStatus status) {
        if (process == m_process)
            exited(exitCode, status);
        process->deleteLater();
    });
    process->start(m_program.program, arguments);
    if (!process->waitForStarted(10000)) {
        const QString why = process->errorString();
        m_process = nullptr;
        process->deleteLater();
        setState(State::Failed,
                 tr("llama-server could not be started (%1): %2.").arg(m_program.program, why.trimmed()));
        co_return false;
    }
    co_return true;
}

QCoro::Task<> LocalRunner::restart()
{
    QPointer<LocalRunner> self(this);
    if (co_await launch(true) && self)
        co_await waitUntilAnswering();
}

QCoro::Task<Result<QUrl>> LocalRunner::waitUntilAnswering()
{
    QPointer<LocalRunner> self(this);
    QNetworkAccessManager network;
    const QUrl health(QStringLiteral("http://127.0.0.1:%1/health").arg(m_port));
    qint64 lastSaid = 0;
    for (;;) {
        if (m_state != State::Loading || !m_process)
            co_return m_message; // it exited (exited() said why) or was stopped
        if (m_loading.elapsed() > m_loadTimeout.count()) {
            const QString said = failure(tr("%1 did not finish loading within %2 s.")
                                             .arg(QFileInfo(m_plan.modelPath).fileName())
                                             .arg(m_loadTimeout.count() / 1000));
            endProcess();
            setState(State::Failed, said);
            co_return m_message;
        }
        QNetworkRequest request(health);
        request.setTransferTimeout(2000);
        QNetworkReply *reply = network.get(request);
        co_await reply;
        if (!self)
            co_return QString();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->deleteLater();
        if (status == 200 && m_state == State::Loading) {
            setState(State::Ready, tr("%1 is ready (loaded in %2 s).")
                                       .arg(QFileInfo(m_plan.modelPath).fileName())
                                       .arg(double(m_loading.elapsed()) / 1000.0, 0, 'f', 1));
            keepAlive();
            co_return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(m_port));
        }
        // 503 while it loads, or no answer before it listens: say how long it has taken, each second.
        if (const qint64 seconds = m_loading.elapsed() / 1000; seconds > lastSaid && m_state == State::Loading) {
            lastSaid = seconds;
            setState(State::Loading, tr("Loading %1… %2 s").arg(QFileInfo(m_plan.modelPath).fileName()).arg(seconds));
        }
        // Often: a small model is ready within a few tens of milliseconds, and the wait is the
        // first message's (a /health request costs the server nothing).
        co_await QCoro::sleepFor(std::chrono::milliseconds(25));
        if (!self)
            co_return QString();
    }
}

void LocalRunner::stop()
{
    endProcess();
    if (m_state != State::Stopped && m_state != State::Failed)
        setState(State::Stopped, QString());
}

void LocalRunner::retire(const QString &why)
{
    endProcess();
    setState(State::Failed, why);
}

void LocalRunner::endProcess()
{
    m_idle.stop();
    QProcess *process = m_process;
    m_process = nullptr;
    if (!process || process->state() == QProcess::NotRunning)
        return;
    process->terminate();
    if (!process->waitForFinished(5000)) {
        process->kill();
        process->waitForFinished(2000);
    }
    // A docker client that was made to end leaves its container behind: it is removed off the GUI
    // thread, and the next start waits until it is gone.
    if (m_program.isContainer() && !m_container.isEmpty())
        m_removal = inBackground([name = std::exchange(m_container, QString())] { RunnerContainer::remove(name); });
}

void LocalRunner::exited(int exitCode, QProcess::ExitStatus status)
{
    // Only a server that ended by itself comes here: endProcess() lets go of it first.
    m_process = nullptr;
    m_idle.stop();
    const QString how =
        status == QProcess::CrashExit ? tr("it was killed or crashed") : tr("exit code %1").arg(exitCode);
    if (m_state == State::Ready && m_restartsLeft > 0) {
        --m_restartsLeft;
        setState(State::Loading, tr("The local model's server stopped (%1); starting it again.").arg(how));
        QCoro::connect(restart(), this, [] {});
        return;
    }
    // A server that ran and was stopped from outside left nothing useful in its log (the status
    // bar's Log button opens it); one that never loaded says why there.
    if (m_state == State::Ready) {
        setState(State::Failed,
                 tr("The local model's server stopped again (%1); it starts with the next message.").arg(how));
        return;
    }
    setState(
        State::Failed,
        failure(tr("llama-server stopped while loading %1 (%2).").arg(QFileInfo(m_plan.modelPath).fileName(), how)));
}

QString LocalRunner::failure(const QString &what) const
{
    const QString log = logTail();
    QString said = what;
    const QString lower = log.toLower();
    if (lower.contains(QLatin1String("failed to allocate")) || lower.contains(QLatin1String("out of memory")) ||
        lower.contains(QLatin1String("unable to allocate")))
        said += QLatin1Char(' ') + tr("The model does not fit in this computer's memory: choose a smaller "
                                      "quantization or a smaller context.");
    else if (lower.contains(QLatin1String("failed to load model")) ||
             lower.contains(QLatin1String("error loading model")))
        said += QLatin1Char(' ') + tr("llama-server could not read the model file.");
    if (!log.isEmpty())
        said += QLatin1Char('\n') + tr("The end of its log (%1):").arg(m_logFile) + QLatin1Char('\n') + log;
    return said;
}

QString LocalRunner::logTail() const
{
    QFile log(m_logFile);
    if (!log.open(QIODevice::ReadOnly))
        return {};
    log.seek(std::max<qint64>(0, log.size() - 1500));
    QStringList lines = QString::fromUtf8(log.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.size() > 8)
        lines = lines.mid(lines.size() - 8);
    return lines.join(QLatin1Char('\n'));
}

void LocalRunner::setState(State state, const QString &message)
{
    m_state = state;
    m_message = message;
    Q_EMIT stateChanged(state, message);
}

} // namespace Sandpiper
