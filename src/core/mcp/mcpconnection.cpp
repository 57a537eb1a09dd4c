#include "mcp/mcpconnection.h"

#include "logging.h"
#include "mcp/mcphttptransport.h"
#include "mcp/mcplegacyssetransport.h"
#include "mcp/mcpsecrets.h"
#include "mcp/mcpstdiotransport.h"

#include <sandpiper/buildinfo.h>

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

constexpr int maxCrashesInARow = 5; // then it waits for the user
constexpr auto stableRun = 60s;     // a server that ran this long is no longer crashing in a row
constexpr int hardLimitFactor = 10; // progress keeps a request alive up to ten times its timeout

QString idKey(const QJsonValue &id)
{
    return id.isDouble() ? QString::number(qint64(id.toDouble())) : id.toString();
}

QString seconds(std::chrono::milliseconds duration)
{
    return QString::number(double(duration.count()) / 1000.0, 'g', 3);
}

} // namespace

const QStringList &McpConnection::supportedVersions()
{
    // 2025-03-26 and 2024-11-05 differ from the newer ones in nothing that Sandpiper uses, and
    // many servers still speak them.
    static const QStringList versions = {QStringLiteral("2025-11-25"), QStringLiteral("2025-06-18"),
                                         QStringLiteral("2025-03-26"), QStringLiteral("2024-11-05")};
    return versions;
}

McpConnection::McpConnection(McpServerConfig config, QNetworkAccessManager *network, QString logFolder,
                             std::chrono::seconds defaultTimeout, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_defaultTimeout(defaultTimeout)
    , m_log(logFolder, config.name)
    , m_catalog(
          config.name,
          [this](const QString &method, const QJsonObject &params, McpCatalog::Reply reply) {
              send(0, method, params, false, std::move(reply));
          },
          this)
    , m_deadlines(this)
    , m_restartTimer(this)
{
    m_status.config = std::move(config);
    m_status.logFile = m_log.path();
    m_deadlines.setInterval(100ms);
    connect(&m_deadlines, &QTimer::timeout, this, &McpConnection::checkDeadlines);
    m_restartTimer.setSingleShot(true);
    connect(&m_restartTimer, &QTimer::timeout, this, [this] { start(true); });
    connect(&m_catalog, &McpCatalog::listed, this, &McpConnection::becomeRunning);
    connect(&m_catalog, &McpCatalog::failed, this, [this](const QString &reason) { fail(reason, false); });
    connect(&m_catalog, &McpCatalog::changed, this, [this] {
        m_status.tools = m_catalog.tools();
        m_status.prompts = m_catalog.prompts();
        Q_EMIT changed();
    });
    connect(&m_catalog, &McpCatalog::problem, this, &McpConnection::addProblem);
}

McpConnection::~McpConnection()
{
    closeTransport();
}

std::chrono::milliseconds McpConnection::timeout() const
{
    return m_status.config.timeout.count() > 0 ? m_status.config.timeout : m_defaultTimeout;
}

void McpConnection::setState(McpServerStatus::State state)
{
    m_status.state = state;
    Q_EMIT changed();
}

void McpConnection::addProblem(const QString &problem)
{
    m_log.event(problem);
    qCInfo(lcMcp) << m_status.config.name << problem;
    if (m_status.problems.contains(problem))
        return;
    m_status.problems << problem;
    if (m_status.problems.size() > 20)
        m_status.problems.removeFirst();
    Q_EMIT changed();
}

void McpConnection::start(bool force)
{
    using State = McpServerStatus::State;
    if (m_status.state == State::Starting || m_status.state == State::Running)
        return;
    if (!force && m_status.state == State::Failed && m_status.retryAt.isValid() &&
        QDateTime::currentDateTimeUtc() < m_status.retryAt)
        return;
    m_restartTimer.stop();
    closeTransport();
    const int generation = ++m_generation;
    m_fellBack = false;
    m_catalog.clear();
    m_garbage.clear();
    m_status.error.clear();
    m_status.tools.clear();
    m_status.prompts.clear();
    m_status.problems.clear();
    m_status.retryAt = {};
    m_unknownNotifications.clear();
    m_log.clearTail();
    setState(State::Starting);
    m_log.event(QStringLiteral("starting: %1").arg(m_status.config.summary()));
    QCoro::connect(McpSecrets::expand(m_status.config), this, [this, generation](const McpSecrets::Expanded &expanded) {
        if (generation != m_generation)
            return;
        if (!expanded.error.isEmpty()) {
            fail(expanded.error, false);
            return;
        }
        launch(expanded.config);
    });
}

void McpConnection::launch(const McpServerConfig &config)
{
    if (config.transport == McpServerConfig::Transport::Stdio)
        openTransport(new McpStdioTransport(config.command, config.args, config.env, config.cwd, this));
    else if (config.transport == McpServerConfig::Transport::LegacySse)
        openTransport(new McpLegacySseTransport(m_network, QUrl(config.url), config.headers, this));
    else
        openTransport(new McpHttpTransport(m_network, QUrl(config.url), config.headers, this));
}

void McpConnection::openTransport(McpTransport *transport)
{
    m_transport = transport;
    connect(transport, &McpTransport::opened, this, [this] {
        m_status.processId = m_transport ? m_transport->processId() : 0;
        if (m_status.processId)
            m_log.event(QStringLiteral("process %1 started").arg(m_status.processId));
        initialize();
    });
    connect(transport, &McpTransport::received, this, &McpConnection::receive);
    connect(transport, &McpTransport::logLine, this, [this](const QString &line) {
        m_log.stderrLine(line);
        if (m_status.state != McpServerStatus::State::Running) {
            m_status.stderrTail = m_log.stderrTail();
            Q_EMIT changed();
        }
    });
    connect(transport, &McpTransport::problem, this, [this](const QString &problem) {
        if (m_garbage.isEmpty())
            m_garbage = problem;
        addProblem(problem);
    });
    connect(transport, &McpTransport::failed, this, &McpConnection::transportFailed);
    connect(transport, &McpTransport::legacyFallbackSuggested, this, [this] {
        if (m_fellBack)
            return;
        m_fellBack = true;
        m_log.event(QStringLiteral("the server refused the Streamable HTTP transport; trying HTTP+SSE"));
        // The initialize that went unanswered is dropped; the new transport sends its own.
        for (auto it = m_pending.begin(); it != m_pending.end();)
            it = it->second.internal ? m_pending.erase(it) : std::next(it);
        closeTransport();
        QCoro::connect(McpSecrets::expand(m_status.config), this,
                       [this, generation = m_generation](const McpSecrets::Expanded &expanded) {
                           if (generation != m_generation || !expanded.error.isEmpty())
                               return;
                           openTransport(new McpLegacySseTransport(m_network, QUrl(expanded.config.url),
                                                                   expanded.config.headers, this));
                       });
    });
    transport->open();
}

void McpConnection::initialize()
{
    const QJsonObject params{
        {QStringLiteral("protocolVersion"), supportedVersions().first()},
        {QStringLiteral("capabilities"), QJsonObject()},
        {QStringLiteral("clientInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("sandpiper")},
                                                   {QStringLiteral("title"), QStringLiteral("Sandpiper")},
                                                   {QStringLiteral("version"), QLatin1String(BuildInfo::version)}}}};
    send(0, QStringLiteral("initialize"), params, false, [this](const McpReply &reply) { initialized(reply); });
}

void McpConnection::initialized(const McpReply &reply)
{
    if (!reply.ok()) {
        fail(reply.kind == McpReply::Kind::Timeout
                 ? tr("It did not answer the initialize request within %1 s.").arg(seconds(timeout())) +
                       (m_garbage.isEmpty() ? QString() : QLatin1Char(' ') + m_garbage)
                 : tr("It refused to initialize: %1").arg(reply.message),
             false);
        return;
    }
    const QString version = reply.result.value(QLatin1String("protocolVersion")).toString();
    if (!supportedVersions().contains(version)) {
        fail(tr("It speaks MCP version \"%1\", which Sandpiper does not support (it speaks %2).")
                 .arg(version, supportedVersions().join(QStringLiteral(", "))),
             false);
        return;
    }
    m_status.protocolVersion = version;
    const QJsonObject info = reply.result.value(QLatin1String("serverInfo")).toObject();
    m_status.serverInfo =
        QStringLiteral("%1 %2")
            .arg(info.value(QLatin1String("name")).toString(), info.value(QLatin1String("version")).toString())
            .trimmed();
    m_transport->setProtocolVersion(version);
    notify(QStringLiteral("notifications/initialized"));
    m_log.event(QStringLiteral("initialized: %1, MCP %2").arg(m_status.serverInfo, version));
    m_catalog.list(reply.result.value(QLatin1String("capabilities")).toObject());
}

void McpConnection::becomeRunning()
{
    m_status.tools = m_catalog.tools();
    m_status.prompts = m_catalog.prompts();
    m_runningSince.start();
    m_startFailures = 0;
    m_status.stderrTail.clear();
    m_log.event(QStringLiteral("running with %1 tools").arg(m_status.tools.size()));
    setState(McpServerStatus::State::Running);
    const QList<Queued> queued = std::exchange(m_queue, {});
    for (const Queued &request : queued)
        send(request.ticket, request.method, request.params, request.progress);
    m_catalog.refreshIfChanged();
}

void McpConnection::request(quint64 ticket, const QString &method, const QJsonObject &params, bool progress)
{
    using State = McpServerStatus::State;
    if (m_status.state == State::Running) {
        send(ticket, method, params, progress);
        return;
    }
    if (!m_status.config.enabled) {
        Q_EMIT replied(ticket, McpReply{McpReply::Kind::Unavailable,
                                        {},
                                        0,
                                        tr("The MCP server \"%1\" is switched off.").arg(m_status.config.name)});
        return;
    }
    start();
    if (m_status.state == State::Failed && !m_restartTimer.isActive()) {
        Q_EMIT replied(ticket, McpReply{McpReply::Kind::Unavailable, {}, 0, unavailableText()});
        return;
    }
    m_queue << Queued{ticket, method, params, progress};
}

QString McpConnection::unavailableText() const
{
    return tr("The MCP server \"%1\" is not available: %2").arg(m_status.config.name, m_status.error);
}

void McpConnection::send(quint64 ticket, const QString &method, QJsonObject params, bool progress,
                         std::function<void(const McpReply &)> internal)
{
    if (!m_transport) {
        // Not reached while the lifecycle holds; a caller must never wait for nothing all the same.
        if (!internal)
            Q_EMIT replied(ticket, McpReply{McpReply::Kind::Unavailable, {}, 0, unavailableText()});
        return;
    }
    const qint64 id = m_nextId++;
    Pending pending;
    pending.ticket = ticket;
    pending.method = method;
    pending.internal = std::move(internal);
    pending.deadline = QDeadlineTimer(timeout());
    pending.hardLimit = QDeadlineTimer(timeout() * hardLimitFactor);
    if (progress) {
        pending.progressToken = QStringLiteral("sandpiper-%1").arg(id);
        QJsonObject meta = params.value(QLatin1String("_meta")).toObject();
        meta.insert(QStringLiteral("progressToken"), pending.progressToken);
        params.insert(QStringLiteral("_meta"), meta);
    }
    m_pending.emplace(id, std::move(pending));
    if (!m_deadlines.isActive())
        m_deadlines.start();
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("id"), id},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    m_transport->send(message);
}

void McpConnection::notify(const QString &method, const QJsonObject &params)
{
    if (!m_transport)
        return;
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    m_transport->send(message);
}

void McpConnection::receive(const QJsonObject &message)
{
    const QString method = message.value(QLatin1String("method")).toString();
    const bool hasId = message.contains(QLatin1String("id")) && !message.value(QLatin1String("id")).isNull();
    if (!method.isEmpty() && hasId)
        answerServerRequest(message);
    else if (!method.isEmpty())
        handleNotification(method, message.value(QLatin1String("params")).toObject());
    else if (message.contains(QLatin1String("result")) || message.contains(QLatin1String("error")))
        handleResponse(message);
    else
        addProblem(tr("It sent a message that is neither a request, a notification nor an answer."));
}

void McpConnection::handleResponse(const QJsonObject &message)
{
    const QString key = idKey(message.value(QLatin1String("id")));
    bool numeric = false;
    const qint64 id = key.toLongLong(&numeric);
    if (!numeric || m_pending.find(id) == m_pending.end()) {
        // A late answer to a request that timed out or was cancelled is normal; one we never sent is not.
        if (!numeric || id >= m_nextId || id <= 0) {
            addProblem(tr("It answered a request that Sandpiper never sent (id %1); the answer was ignored.")
                           .arg(key.isEmpty() ? QStringLiteral("null") : key));
        }
        return;
    }
    McpReply reply;
    if (message.contains(QLatin1String("error"))) {
        const QJsonObject error = message.value(QLatin1String("error")).toObject();
        reply.kind = McpReply::Kind::Error;
        reply.code = error.value(QLatin1String("code")).toInt();
        reply.message = error.value(QLatin1String("message")).toString();
        if (reply.message.isEmpty())
            reply.message = tr("error %1").arg(reply.code);
    } else {
        reply.kind = McpReply::Kind::Result;
        reply.result = message.value(QLatin1String("result")).toObject();
    }
    finish(id, reply);
}

void McpConnection::finish(qint64 id, const McpReply &reply)
{
    const auto found = m_pending.find(id);
    if (found == m_pending.end())
        return;
    Pending pending = std::move(found->second);
    m_pending.erase(found);
    if (m_pending.empty())
        m_deadlines.stop();
    if (pending.internal)
        pending.internal(reply);
    else
        Q_EMIT replied(pending.ticket, reply);
}

void McpConnection::handleNotification(const QString &method, const QJsonObject &params)
{
    const bool running = m_status.state == McpServerStatus::State::Running;
    if (method == QLatin1String("notifications/tools/list_changed")) {
        m_catalog.toolsChanged(running);
    } else if (method == QLatin1String("notifications/prompts/list_changed")) {
        m_catalog.promptsChanged(running);
    } else if (method == QLatin1String("notifications/progress")) {
        const QString token = idKey(params.value(QLatin1String("progressToken")));
        for (auto &[id, pending] : m_pending) {
            if (pending.progressToken != token || token.isEmpty())
                continue;
            // Work goes on: the timeout starts again, up to the hard limit.
            pending.deadline = QDeadlineTimer(std::min<qint64>(timeout().count(), pending.hardLimit.remainingTime()));
            Q_EMIT progressed(pending.ticket, params.value(QLatin1String("progress")).toDouble(),
                              params.value(QLatin1String("total")).toDouble(0),
                              params.value(QLatin1String("message")).toString());
            return;
        }
    } else if (method == QLatin1String("notifications/message")) {
        const QJsonValue data = params.value(QLatin1String("data"));
        m_log.event(
            QStringLiteral("log %1 %2: %3")
                .arg(params.value(QLatin1String("level")).toString(), params.value(QLatin1String("logger")).toString(),
                     data.isString() ? data.toString()
                                     : QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("data"), data}})
                                                             .toJson(QJsonDocument::Compact))));
    } else if (method == QLatin1String("notifications/cancelled") ||
               method.startsWith(QLatin1String("notifications/resources/")) ||
               method == QLatin1String("notifications/tasks/status")) {
        // Known and of no use to Sandpiper: it sends no requests to cancel and reads no resources.
    } else if (!m_unknownNotifications.contains(method)) {
        m_unknownNotifications.insert(method);
        addProblem(tr("It sent a notification Sandpiper does not know (%1); it was ignored.").arg(method));
    }
}

void McpConnection::answerServerRequest(const QJsonObject &message)
{
    const QString method = message.value(QLatin1String("method")).toString();
    QJsonObject answer{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("id"), message.value(QLatin1String("id"))}};
    if (method == QLatin1String("ping")) {
        answer.insert(QStringLiteral("result"), QJsonObject());
    } else {
        // Sandpiper offers no roots, sampling or elicitation (it declared none of them).
        answer.insert(QStringLiteral("error"),
                      QJsonObject{{QStringLiteral("code"), -32601},
                                  {QStringLiteral("message"), QStringLiteral("Method not found: %1").arg(method)}});
        m_log.event(QStringLiteral("refused the server's request %1").arg(method));
    }
    if (m_transport)
        m_transport->send(answer);
}

void McpConnection::cancel(quint64 ticket, const QString &reason)
{
    for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
        if (it->ticket == ticket) {
            m_queue.erase(it);
            Q_EMIT replied(ticket, McpReply{McpReply::Kind::Cancelled, {}, 0, reason});
            return;
        }
    }
    for (auto &[id, pending] : m_pending) {
        if (pending.ticket != ticket || pending.internal)
            continue;
        notify(QStringLiteral("notifications/cancelled"),
               {{QStringLiteral("requestId"), id}, {QStringLiteral("reason"), reason}});
        finish(id, McpReply{McpReply::Kind::Cancelled, {}, 0, reason});
        return;
    }
}

void McpConnection::checkDeadlines()
{
    QList<qint64> expired;
    for (const auto &[id, pending] : m_pending) {
        if (pending.deadline.hasExpired())
            expired << id;
    }
    for (const qint64 id : std::as_const(expired)) {
        const auto found = m_pending.find(id);
        if (found == m_pending.end())
            continue;
        const QString method = found->second.method;
        notify(QStringLiteral("notifications/cancelled"),
               {{QStringLiteral("requestId"), id}, {QStringLiteral("reason"), QStringLiteral("timed out")}});
        m_log.event(QStringLiteral("%1 (request %2) timed out").arg(method).arg(id));
        QString message =
            tr("The MCP server \"%1\" did not answer within %2 s.").arg(m_status.config.name, seconds(timeout()));
        if (!m_garbage.isEmpty())
            message += QLatin1Char(' ') + m_garbage;
        finish(id, McpReply{McpReply::Kind::Timeout, {}, 0, message});
    }
}

void McpConnection::transportFailed(const QString &reason)
{
    using State = McpServerStatus::State;
    if (m_status.state == State::Stopped)
        return;
    QString why = reason;
    if (!m_log.stderrTail().isEmpty())
        why += QLatin1Char(' ') + tr("Its last words on stderr: %1").arg(m_log.stderrTail().constLast());
    fail(why, m_status.state == State::Running);
}

void McpConnection::fail(const QString &reason, bool crashed)
{
    closeTransport();
    m_status.error = reason;
    m_status.stderrTail = m_log.stderrTail();
    m_status.processId = 0;
    m_log.event(QStringLiteral("failed: %1").arg(reason));
    qCWarning(lcMcp) << m_status.config.name << "failed:" << reason;
    bool restarts = false;
    if (crashed) {
        if (m_runningSince.isValid() && m_runningSince.elapsed() > std::chrono::milliseconds(stableRun).count())
            m_crashes = 0;
        ++m_crashes;
        ++m_status.restarts;
        restarts = m_crashes <= maxCrashesInARow;
        if (restarts) {
            const auto delay = std::min<std::chrono::milliseconds>(60s, 1s * (1 << (m_crashes - 1)));
            m_restartTimer.start(delay);
            m_status.retryAt = QDateTime::currentDateTimeUtc().addMSecs(delay.count());
            m_status.error = tr("%1 It is started again in %2 s.").arg(reason, seconds(delay));
        } else {
            m_status.error =
                tr("%1 It stopped %2 times in a row; restart it from the settings.").arg(reason).arg(m_crashes);
        }
    } else {
        // A server that does not start is tried again when needed, after a growing pause.
        ++m_startFailures;
        const auto pause = std::min<std::chrono::milliseconds>(5min, 10s * (1 << std::min(m_startFailures - 1, 5)));
        m_status.retryAt = QDateTime::currentDateTimeUtc().addMSecs(pause.count());
    }
    const QString message =
        crashed ? tr("The MCP server \"%1\" stopped while it worked on this: %2").arg(m_status.config.name, reason)
                : unavailableText();
    finishAll(McpReply::Kind::Unavailable, message, restarts);
    setState(McpServerStatus::State::Failed);
}

void McpConnection::finishAll(McpReply::Kind kind, const QString &message, bool keepQueued)
{
    auto pending = std::exchange(m_pending, {});
    m_deadlines.stop();
    for (auto &[id, request] : pending) {
        if (!request.internal)
            Q_EMIT replied(request.ticket, McpReply{kind, {}, 0, message});
    }
    if (keepQueued)
        return;
    const QList<Queued> queued = std::exchange(m_queue, {});
    for (const Queued &request : queued)
        Q_EMIT replied(request.ticket, McpReply{kind, {}, 0, message});
}

void McpConnection::closeTransport()
{
    if (!m_transport)
        return;
    McpTransport *transport = m_transport;
    m_transport = nullptr;
    disconnect(transport, nullptr, this, nullptr);
    transport->close();
    transport->deleteLater();
}

void McpConnection::stop(const QString &reason)
{
    ++m_generation;
    m_restartTimer.stop();
    closeTransport();
    finishAll(McpReply::Kind::Unavailable, reason, false);
    m_status.processId = 0;
    m_status.tools.clear();
    m_status.prompts.clear();
    m_status.error.clear();
    m_log.event(QStringLiteral("stopped: %1").arg(reason));
    setState(McpServerStatus::State::Stopped);
}

void McpConnection::restart()
{
    m_crashes = 0;
    m_startFailures = 0;
    stop(tr("The MCP server \"%1\" was restarted.").arg(m_status.config.name));
    start(true);
}

} // namespace Sandpiper
