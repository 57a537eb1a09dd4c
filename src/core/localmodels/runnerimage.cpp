#include "localmodels/runnerimage.h"

#include "localmodels/runnercontainer.h"
#include "logging.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <QCoroProcess>

#include <csignal>
#include <unistd.h>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

constexpr int keptLines = 12;

// Ends PROCESS and whatever it started (it leads a process group of its own), without waiting.
void killGroup(QProcess &process)
{
    if (const qint64 pid = process.processId(); pid > 0 && process.state() != QProcess::NotRunning)
        ::kill(-pid_t(pid), SIGKILL);
}

// killGroup(), then waits until PROCESS has ended.
void endGroup(QProcess &process)
{
    killGroup(process);
    process.kill();
    process.waitForFinished(5000);
}

QString lastLine(const QString &lines)
{
    return lines.trimmed().section(QLatin1Char('\n'), -1).trimmed();
}

// Whether docker pull's OUTPUT says that the registry was not reached at all, rather than that it
// refused or lacks the image.
bool unreachable(const QString &output)
{
    static const QRegularExpression words(
        QStringLiteral("dial tcp|no such host|connection refused|network is unreachable|i/o timeout|"
                       "Client\\.Timeout|TLS handshake timeout|no route to host|server misbehaving|"
                       "temporary failure in name resolution"),
        QRegularExpression::CaseInsensitiveOption);
    return words.match(output).hasMatch();
}

} // namespace

RunnerImage::RunnerImage(QObject *parent)
    : QObject(parent)
{}

RunnerImage::~RunnerImage()
{
    cancel();
}

QString RunnerImage::defaultReference()
{
    return QStringLiteral("ghcr.io/ggml-org/llama.cpp:server");
}

QString RunnerImage::localTag(const QString &reference)
{
    // "…/llama.cpp:server-vulkan" -> server-vulkan; a digest or no tag says little, the hash tells apart.
    const QString last = reference.section(QLatin1Char('/'), -1).section(QLatin1Char('@'), 0, 0);
    QString tag = last.contains(QLatin1Char(':')) ? last.section(QLatin1Char(':'), -1) : QStringLiteral("latest");
    tag.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]")), QStringLiteral("-"));
    const QByteArray hash = QCryptographicHash::hash(reference.toUtf8(), QCryptographicHash::Sha256).toHex().left(8);
    return RunnerContainer::repository() + QLatin1Char(':') + tag.left(64) + QLatin1Char('-') +
           QString::fromLatin1(hash);
}

QString RunnerImage::registry(const QString &reference)
{
    const QString first = reference.section(QLatin1Char('/'), 0, 0);
    if (reference.contains(QLatin1Char('/')) &&
        (first.contains(QLatin1Char('.')) || first.contains(QLatin1Char(':')) || first == QLatin1String("localhost")))
        return first;
    return QStringLiteral("docker.io");
}

QString RunnerImage::recipe()
{
    const QStringList candidates = {
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/sandpiper/sandbox/llama/build-image.sh"),
        QStringLiteral(SANDPIPER_SOURCE_DIR "/sandbox/llama/build-image.sh"),
    };
    for (const QString &candidate : candidates) {
        if (QFileInfo::exists(candidate))
            return QDir::cleanPath(candidate);
    }
    return {};
}

void RunnerImage::cancel()
{
    m_cancelled = true;
    // The wait for the process notices within a moment, and ends it there.
    if (m_process)
        killGroup(*m_process);
}

QCoro::Task<RunnerImage::Outcome> RunnerImage::provide(QString reference)
{
    QPointer<RunnerImage> self(this);
    m_running = true;
    m_cancelled = false;
    if (reference.trimmed().isEmpty())
        reference = defaultReference();
    Outcome outcome;
    if (RunnerContainer::docker().isEmpty()) {
        outcome.message = tr("Docker is not installed here, so llama-server cannot run in a container: install "
                             "llama.cpp's server (llama-server) instead and set its path in Settings › Models.");
    } else {
        outcome = co_await pull(reference.trimmed());
        if (self && !outcome.ready && !m_cancelled)
            outcome = co_await build(outcome.message);
    }
    if (!self)
        co_return {};
    if (m_cancelled)
        outcome = {false, {}, tr("Getting llama-server was cancelled.")};
    m_running = false;
    qCInfo(lcApp) << "runner image:" << outcome.ready << outcome.image << outcome.message;
    co_return outcome;
}

QCoro::Task<RunnerImage::Outcome> RunnerImage::pull(QString reference)
{
    QPointer<RunnerImage> self(this);
    const QString from = registry(reference);
    const QString docker = RunnerContainer::docker();
    Q_EMIT step(tr("Pulling llama.cpp's server image %1 from %2…").arg(reference, from));
    const Run pulled = co_await run(docker, {QStringLiteral("pull"), reference}, m_limits.firstAnswer);
    if (!self || m_cancelled)
        co_return {};
    if (!pulled.ok) {
        if (!pulled.stopped.isEmpty() || unreachable(pulled.lastLines))
            co_return {false, {}, tr("The registry %1 cannot be reached from this computer.").arg(from)};
        co_return {false,
                   {},
                   tr("The registry %1 did not give %2 (%3).")
                       .arg(from, reference, lastLine(pulled.lastLines).section(QStringLiteral(": "), -1))};
    }

    // Its entrypoint must be llama-server, and the server must start as the runner starts it.
    Q_EMIT step(tr("Checking that its llama-server starts…"));
    const Run version = co_await run(docker, RunnerContainer::versionArguments(reference), 60s);
    if (!self || m_cancelled)
        co_return {};
    if (!version.ok || !version.lastLines.contains(QLatin1String("version"))) {
        co_return {false,
                   {},
                   tr("The image %1 does not start llama-server as Sandpiper runs it (%2).")
                       .arg(reference, lastLine(version.stopped.isEmpty() ? version.lastLines : version.stopped))};
    }

    const QString tag = localTag(reference);
    const Run tagged = co_await run(docker, {QStringLiteral("tag"), reference, tag}, 30s);
    if (!self || m_cancelled)
        co_return {};
    if (!tagged.ok)
        co_return {
            false, {}, tr("The image %1 could not be tagged %2 (%3).").arg(reference, tag, lastLine(tagged.lastLines))};
    RunnerContainer::forgetImage();
    co_return {true, tag, tr("llama-server is ready in the image %1 (llama.cpp's %2).").arg(tag, reference)};
}

QCoro::Task<RunnerImage::Outcome> RunnerImage::build(QString why)
{
    QPointer<RunnerImage> self(this);
    const QString script = recipe();
    const QString mmdebstrap = QStandardPaths::findExecutable(QStringLiteral("mmdebstrap"));
    if (script.isEmpty()) {
        co_return {false,
                   {},
                   tr("%1 The recipe to build the image from Debian's packages (sandbox/llama/build-image.sh) is "
                      "missing: reinstall Sandpiper, or install llama.cpp's server (llama-server) and set its path in "
                      "Settings › Models.")
                       .arg(why)};
    }
    if (mmdebstrap.isEmpty()) {
        co_return {false,
                   {},
                   tr("%1 To build the image from Debian's llama.cpp-tools instead, install mmdebstrap (sudo apt "
                      "install mmdebstrap) and press “Get llama-server for Docker” again. Or install llama.cpp's "
                      "server yourself (llama-server, package llama.cpp-tools in Debian sid) and set its path in "
                      "Settings › Models.")
                       .arg(why)};
    }
    Q_EMIT output(why);
    Q_EMIT step(tr("Building the image from Debian's llama.cpp-tools with mmdebstrap (a few minutes)…"));
    const Run built = co_await run(QStringLiteral("/bin/bash"), {script}, 60s);
    if (!self || m_cancelled)
        co_return {};
    const QString last = lastLine(built.lastLines);
    if (!built.ok || !last.startsWith(QLatin1String("built "))) {
        const QStringList lines = built.lastLines.trimmed().split(QLatin1Char('\n'));
        const QString said = built.stopped.isEmpty()
                                 ? lines.mid(std::max<qsizetype>(0, lines.size() - 3)).join(QLatin1Char(' '))
                                 : built.stopped;
        co_return {
            false, {}, tr("%1 Building the image from Debian's packages failed too: %2").arg(why, said.trimmed())};
    }
    RunnerContainer::forgetImage();
    const QString tag = last.mid(6).trimmed();
    co_return {true, tag, tr("llama-server is ready in the image %1 (Debian's llama.cpp-tools).").arg(tag)};
}

QCoro::Task<RunnerImage::Run> RunnerImage::run(QString program, QStringList arguments,
                                               std::chrono::milliseconds firstAnswer)
{
    QPointer<RunnerImage> self(this);
    Run result;
    QProcess process;
    process.setProcessEnvironment(RunnerContainer::environment());
    process.setProcessChannelMode(QProcess::MergedChannels);
    // A group of its own: cancel() ends mmdebstrap and docker import with the script.
    process.setChildProcessModifier([] { ::setpgid(0, 0); });
    QByteArray partial;
    QStringList last;
    QElapsedTimer quiet;
    bool heard = false;
    const auto take = [&](bool all) {
        static const QRegularExpression breaks(QStringLiteral("[\r\n]"));
        QStringList lines = QString::fromUtf8(partial).split(breaks);
        partial = all ? QByteArray() : lines.takeLast().toUtf8();
        for (const QString &line : std::as_const(lines)) {
            if (line.trimmed().isEmpty())
                continue;
            last << line.trimmed();
            if (last.size() > keptLines)
                last.removeFirst();
            Q_EMIT output(line.trimmed());
        }
    };
    connect(&process, &QProcess::readyRead, this, [&] {
        partial += process.readAll();
        heard = true;
        quiet.restart();
        take(false);
    });
    m_process = &process;
    qCDebug(lcApp) << "runner image:" << program << arguments;
    process.start(program, arguments);
    if (!co_await qCoro(process).waitForStarted(10s)) {
        result.lastLines = process.errorString();
        co_return result;
    }
    QElapsedTimer whole;
    whole.start();
    quiet.start();
    while (process.state() != QProcess::NotRunning) {
        co_await qCoro(process).waitForFinished(250ms);
        if (!self) {
            endGroup(process);
            co_return result;
        }
        if (m_cancelled)
            result.stopped = tr("Cancelled.");
        else if (!heard && quiet.elapsed() > firstAnswer.count())
            result.stopped =
                tr("Nothing was heard from it for %n second(s).", nullptr, int(firstAnswer.count() / 1000));
        else if (quiet.elapsed() > m_limits.silence.count())
            result.stopped =
                tr("Nothing was heard from it for %n minute(s).", nullptr, int(m_limits.silence.count() / 60000));
        else if (whole.elapsed() > m_limits.whole.count())
            result.stopped = tr("It took longer than %n minute(s).", nullptr, int(m_limits.whole.count() / 60000));
        if (!result.stopped.isEmpty()) {
            endGroup(process);
            break;
        }
    }
    partial += process.readAll();
    take(true);
    m_process.clear();
    result.lastLines = last.join(QLatin1Char('\n'));
    result.ok = result.stopped.isEmpty() && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    if (!result.ok)
        qCWarning(lcApp) << "runner image:" << program << arguments << "failed:" << result.stopped << result.lastLines;
    co_return result;
}

} // namespace Sandpiper
