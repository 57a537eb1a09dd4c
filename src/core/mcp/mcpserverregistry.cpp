#include "mcp/mcpserverregistry.h"

#include "mcp/mcphub.h"
#include "mcp/mcpreplywaiter.h"

#include <QCoroSignal>
#include <QThread>

namespace Sandpiper {

McpServerRegistry::McpServerRegistry(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_thread(new QThread)
{
    qRegisterMetaType<Sandpiper::McpReply>();
    qRegisterMetaType<Sandpiper::McpServerStatus>();
    qRegisterMetaType<Sandpiper::McpServerConfig>();
    m_thread->setObjectName(QStringLiteral("mcp"));
    m_thread->start();
    auto *onThread = new QObject;
    onThread->moveToThread(m_thread);
    QMetaObject::invokeMethod(
        onThread,
        [this, onThread] {
            onThread->deleteLater();
            m_hub = new McpHub(this, m_options);
            m_hub->reload();
        },
        Qt::BlockingQueuedConnection);
}

McpServerRegistry::~McpServerRegistry()
{
    QMetaObject::invokeMethod(
        m_hub, [hub = m_hub] { delete hub; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

std::chrono::seconds McpServerRegistry::defaultTimeout() const
{
    const QMutexLocker lock(&m_mutex);
    return m_options.timeout;
}

QList<McpServerStatus> McpServerRegistry::servers() const
{
    const QMutexLocker lock(&m_mutex);
    return m_servers;
}

QList<McpConfigFile::Problem> McpServerRegistry::configProblems() const
{
    const QMutexLocker lock(&m_mutex);
    return m_problems;
}

bool McpServerRegistry::configIsBroken() const
{
    const QMutexLocker lock(&m_mutex);
    return m_broken;
}

void McpServerRegistry::publish(QList<McpServerStatus> servers, QList<McpConfigFile::Problem> problems, bool broken)
{
    {
        const QMutexLocker lock(&m_mutex);
        m_servers = std::move(servers);
        m_problems = std::move(problems);
        m_broken = broken;
    }
    Q_EMIT serversChanged();
}

void McpServerRegistry::reload()
{
    QMetaObject::invokeMethod(m_hub, &McpHub::reload, Qt::QueuedConnection);
}

void McpServerRegistry::startEnabled()
{
    {
        // Marked at once, so that a caller who waits for the servers to come up does not find
        // them still stopped before the MCP thread got to them.
        const QMutexLocker lock(&m_mutex);
        const QDateTime now = QDateTime::currentDateTimeUtc();
        for (McpServerStatus &status : m_servers) {
            const bool retry =
                status.state == McpServerStatus::State::Failed && (!status.retryAt.isValid() || status.retryAt <= now);
            if (status.config.enabled && (status.state == McpServerStatus::State::Stopped || retry))
                status.state = McpServerStatus::State::Starting;
        }
    }
    QMetaObject::invokeMethod(m_hub, &McpHub::startEnabled, Qt::QueuedConnection);
}

void McpServerRegistry::restart(const QString &server)
{
    QMetaObject::invokeMethod(
        m_hub, [hub = m_hub, server] { hub->restart(server); }, Qt::QueuedConnection);
}

void McpServerRegistry::setDefaultTimeout(std::chrono::seconds timeout)
{
    {
        const QMutexLocker lock(&m_mutex);
        m_options.timeout = timeout;
    }
    QMetaObject::invokeMethod(
        m_hub, [hub = m_hub, timeout] { hub->setDefaultTimeout(timeout); }, Qt::QueuedConnection);
}

void McpServerRegistry::request(quint64 ticket, const QString &server, const QString &method, const QJsonObject &params,
                                bool progress)
{
    QMetaObject::invokeMethod(
        m_hub,
        [hub = m_hub, ticket, server, method, params, progress] {
            hub->request(ticket, server, method, params, progress);
        },
        Qt::QueuedConnection);
}

void McpServerRegistry::cancel(quint64 ticket, const QString &reason)
{
    QMetaObject::invokeMethod(
        m_hub, [hub = m_hub, ticket, reason] { hub->cancel(ticket, reason); }, Qt::QueuedConnection);
}

void McpServerRegistry::test(quint64 ticket, const McpServerConfig &config)
{
    QMetaObject::invokeMethod(
        m_hub, [hub = m_hub, ticket, config] { hub->test(ticket, config); }, Qt::QueuedConnection);
}

std::chrono::milliseconds McpServerRegistry::backstop(const QString &server) const
{
    std::chrono::seconds timeout;
    {
        const QMutexLocker lock(&m_mutex);
        timeout = m_options.timeout;
        for (const McpServerStatus &status : m_servers) {
            if (status.config.name == server && status.config.timeout.count() > 0)
                timeout = status.config.timeout;
        }
    }
    // Starting, then the request with progress extending it: the MCP thread ends every request
    // well before this; it only guards against a thread that no longer answers.
    return timeout * 12 + std::chrono::seconds(30);
}

QCoro::Task<McpReply> McpServerRegistry::call(QString server, QString method, QJsonObject params)
{
    const quint64 ticket = nextTicket();
    McpReplyWaiter waiter(this, ticket);
    request(ticket, server, method, params);
    const auto limit = backstop(server);
    if (!waiter.hasArrived())
        co_await qCoro(&waiter, &McpReplyWaiter::arrived, limit);
    if (waiter.reply())
        co_return *waiter.reply();
    cancel(ticket, QStringLiteral("no answer"));
    co_return McpReply{McpReply::Kind::Timeout, {}, 0, tr("The MCP server \"%1\" did not answer in time.").arg(server)};
}

QCoro::Task<McpServerStatus> McpServerRegistry::testServer(McpServerConfig config)
{
    const quint64 ticket = nextTicket();
    McpReplyWaiter waiter(this, ticket);
    const auto limit = (config.timeout.count() > 0 ? config.timeout : defaultTimeout()) * 3;
    test(ticket, config);
    if (!waiter.hasArrived())
        co_await qCoro(&waiter, &McpReplyWaiter::arrived, limit);
    if (waiter.tested())
        co_return *waiter.tested();
    McpServerStatus status;
    status.config = config;
    status.state = McpServerStatus::State::Failed;
    status.error = tr("The test got no answer in time.");
    co_return status;
}

} // namespace Sandpiper
