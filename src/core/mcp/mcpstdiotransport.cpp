#include "mcp/mcpstdiotransport.h"

#include "logging.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

#include <csignal>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// What a server inherits of Sandpiper's environment, as the MCP SDKs do: enough to find
// programs, files, the language and the proxy, but none of Sandpiper's own secrets.
const QStringList inheritedVariables = {
    QStringLiteral("HOME"),
    QStringLiteral("LOGNAME"),
    QStringLiteral("PATH"),
    QStringLiteral("SHELL"),
    QStringLiteral("TERM"),
    QStringLiteral("USER"),
    QStringLiteral("LANG"),
    QStringLiteral("LC_ALL"),
    QStringLiteral("LC_CTYPE"),
    QStringLiteral("TMPDIR"),
    QStringLiteral("TZ"),
    QStringLiteral("XDG_CONFIG_HOME"),
    QStringLiteral("XDG_DATA_HOME"),
    QStringLiteral("XDG_CACHE_HOME"),
    QStringLiteral("XDG_RUNTIME_DIR"),
    QStringLiteral("HTTP_PROXY"),
    QStringLiteral("HTTPS_PROXY"),
    QStringLiteral("NO_PROXY"),
    QStringLiteral("http_proxy"),
    QStringLiteral("https_proxy"),
    QStringLiteral("no_proxy"),
};

constexpr auto closeGrace = 2s;

// Calls HANDLE with every complete line of BUFFER (searching from FROM on) and returns how many
// bytes those lines took.
template<typename Handle> qsizetype forEachLine(const QByteArray &buffer, qsizetype from, Handle handle)
{
    qsizetype start = 0;
    while (true) {
        const qsizetype end = buffer.indexOf('\n', std::max(start, from));
        if (end < 0)
            return start;
        handle(QByteArrayView(buffer.constData() + start, end - start));
        start = end + 1;
    }
}

} // namespace

McpStdioTransport::McpStdioTransport(QString command, QStringList args, QMap<QString, QString> env, QString cwd,
                                     QObject *parent)
    : McpTransport(parent)
    , m_command(std::move(command))
    , m_args(std::move(args))
    , m_env(std::move(env))
    , m_cwd(std::move(cwd))
{}

McpStdioTransport::~McpStdioTransport()
{
    close();
}

qint64 McpStdioTransport::processId() const
{
    return m_process ? m_process->processId() : 0;
}

void McpStdioTransport::open()
{
    const QProcessEnvironment system = QProcessEnvironment::systemEnvironment();
    QProcessEnvironment environment;
    for (const QString &name : inheritedVariables) {
        if (system.contains(name))
            environment.insert(name, system.value(name));
    }
    for (auto it = m_env.begin(); it != m_env.end(); ++it)
        environment.insert(it.key(), it.value());

    auto failLater = [this](const QString &reason) {
        QMetaObject::invokeMethod(
            this, [this, reason] { Q_EMIT failed(reason); }, Qt::QueuedConnection);
    };
    // The server's own PATH decides which program runs, not Sandpiper's.
    QString program = m_command;
    if (!program.contains(QLatin1Char('/'))) {
        program = QStandardPaths::findExecutable(
            m_command, environment.value(QStringLiteral("PATH")).split(QLatin1Char(':'), Qt::SkipEmptyParts));
        if (program.isEmpty()) {
            failLater(tr("The program \"%1\" was not found on the PATH (%2). Is it installed?")
                          .arg(m_command, environment.value(QStringLiteral("PATH"))));
            return;
        }
    }
    if (!m_cwd.isEmpty() && !QDir(m_cwd).exists()) {
        failLater(tr("The working folder %1 does not exist.").arg(QDir::toNativeSeparators(m_cwd)));
        return;
    }

    auto *process = new QProcess(this);
    m_process = process;
    process->setProcessEnvironment(environment);
    if (!m_cwd.isEmpty())
        process->setWorkingDirectory(m_cwd);
    connect(process, &QProcess::readyReadStandardOutput, this, &McpStdioTransport::readOutput);
    connect(process, &QProcess::readyReadStandardError, this, &McpStdioTransport::readErrors);
    connect(process, &QProcess::started, this, &McpTransport::opened);
    connect(process, &QProcess::finished, this, [this, process](int exitCode, QProcess::ExitStatus status) {
        if (process != m_process)
            return;
        readOutput();
        readErrors();
        ended(status == QProcess::CrashExit ? tr("The server stopped: it was killed or crashed.")
                                            : tr("The server exited with code %1.").arg(exitCode));
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && process == m_process)
            ended(tr("The program %1 could not be started: %2").arg(m_command, process->errorString()));
    });
    qCInfo(lcMcp) << "starting" << program << m_args;
    process->start(program, m_args);
}

void McpStdioTransport::send(const QJsonObject &message)
{
    if (m_process && m_process->state() == QProcess::Running)
        m_process->write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
}

void McpStdioTransport::close()
{
    if (!m_process)
        return;
    m_closing = true;
    // The process ends on its own time: input closed first, SIGTERM after a grace period, then
    // SIGKILL. It deletes itself when it has ended.
    QProcess *process = m_process;
    m_process = nullptr;
    disconnect(process, nullptr, this, nullptr);
    process->setParent(nullptr);
    connect(process, &QProcess::readyReadStandardOutput, process, [process] { process->readAllStandardOutput(); });
    connect(process, &QProcess::readyReadStandardError, process, [process] { process->readAllStandardError(); });
    connect(process, &QProcess::finished, process, &QObject::deleteLater);
    if (process->state() == QProcess::NotRunning) {
        process->deleteLater();
        return;
    }
    process->closeWriteChannel();
    QTimer::singleShot(closeGrace, process, [process] { process->terminate(); });
    QTimer::singleShot(2 * closeGrace, process, [process] { process->kill(); });
    closingProcesses().removeIf([](const QPointer<QProcess> &closing) { return closing.isNull(); });
    closingProcesses().append(process);
}

QList<QPointer<QProcess>> &McpStdioTransport::closingProcesses()
{
    thread_local QList<QPointer<QProcess>> processes;
    return processes;
}

void McpStdioTransport::finishClosing()
{
    QList<QPointer<QProcess>> &processes = closingProcesses();
    processes.removeIf([](const QPointer<QProcess> &process) { return process.isNull(); });
    // All of them at once: each step waits for every process, so N servers take no longer than one.
    for (const auto signal : {0, SIGTERM, SIGKILL}) {
        const QDeadlineTimer deadline(signal == SIGKILL ? 500ms : closeGrace);
        for (const QPointer<QProcess> &process : std::as_const(processes)) {
            if (!process || process->state() == QProcess::NotRunning)
                continue;
            if (signal == SIGTERM)
                process->terminate();
            else if (signal == SIGKILL)
                process->kill();
        }
        for (const QPointer<QProcess> &process : std::as_const(processes)) {
            if (process && process->state() != QProcess::NotRunning)
                process->waitForFinished(int(std::max<qint64>(1, deadline.remainingTime())));
        }
    }
    for (const QPointer<QProcess> &process : std::as_const(processes))
        delete process.data();
    processes.clear();
}

void McpStdioTransport::readOutput()
{
    if (!m_process)
        return;
    m_stdout += m_process->readAllStandardOutput();
    // A long message arrives in many reads: the part searched before is not searched again.
    const qsizetype consumed = forEachLine(m_stdout, m_scanned, [this](QByteArrayView line) { handleLine(line); });
    m_stdout.remove(0, consumed);
    m_scanned = m_stdout.size();
    if (m_stdout.size() > maxMessageBytes) {
        m_stdout.clear();
        m_scanned = 0;
        ended(tr("The server sent a message larger than %1 MB without a line end; the connection was closed.")
                  .arg(maxMessageBytes / (1024 * 1024)));
    }
}

void McpStdioTransport::handleLine(QByteArrayView line)
{
    if (line.endsWith('\r'))
        line.chop(1);
    if (line.trimmed().isEmpty())
        return;
    if (deliver(line))
        return;
    ++m_garbageLines;
    const QString text = QString::fromUtf8(line.left(200)).simplified();
    Q_EMIT logLine(QStringLiteral("stdout (not JSON-RPC): ") + text);
    // Reported once with its first line, then counted: a chatty server must not flood the row.
    if (m_garbageLines == 1)
        Q_EMIT problem(tr("It wrote text to its standard output that is not JSON-RPC (MCP servers may only write "
                          "protocol messages there; logs belong on stderr): \"%1\"")
                           .arg(text));
}

void McpStdioTransport::readErrors()
{
    if (!m_process)
        return;
    m_stderr += m_process->readAllStandardError();
    const qsizetype consumed =
        forEachLine(m_stderr, 0, [this](QByteArrayView line) { Q_EMIT logLine(QString::fromUtf8(line).trimmed()); });
    m_stderr.remove(0, consumed);
    // A line without an end is logged in pieces rather than kept without bound.
    if (m_stderr.size() > 64 * 1024) {
        Q_EMIT logLine(QString::fromUtf8(m_stderr).trimmed());
        m_stderr.clear();
    }
}

void McpStdioTransport::ended(const QString &reason)
{
    if (!m_stderr.isEmpty()) {
        Q_EMIT logLine(QString::fromUtf8(m_stderr).trimmed());
        m_stderr.clear();
    }
    close();
    m_closing = false;
    Q_EMIT failed(reason);
}

} // namespace Sandpiper
