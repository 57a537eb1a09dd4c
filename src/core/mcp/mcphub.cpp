#include "mcp/mcphub.h"

#include "logging.h"
#include "mcp/mcpconnection.h"
#include "mcp/mcpstdiotransport.h"
#include "mcp/mcptoolname.h"

#include <QNetworkAccessManager>
#include <QTimer>

namespace Sandpiper {

McpHub::McpHub(McpServerRegistry *registry, McpServerRegistry::Options options, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_options(std::move(options))
    , m_network(new QNetworkAccessManager(this))
{}

McpHub::~McpHub()
{
    shutdown();
}

McpConnection *McpHub::connectionFor(const McpServerConfig &config)
{
    auto connection = std::make_unique<McpConnection>(config, m_network, m_options.logFolder, m_options.timeout);
    McpConnection *raw = connection.get();
    connect(raw, &McpConnection::changed, this, &McpHub::publish);
    connect(raw, &McpConnection::replied, m_registry, &McpServerRegistry::replied, Qt::DirectConnection);
    connect(raw, &McpConnection::progressed, m_registry, &McpServerRegistry::progressed, Qt::DirectConnection);
    m_connections.push_back(std::move(connection));
    return raw;
}

void McpHub::reload()
{
    const McpConfigFile file = McpConfigFile::read(m_options.configFile);
    m_problems = file.problems();
    m_broken = file.isBroken();
    if (m_broken) {
        // A file that cannot be read changes nothing: the servers known so far go on.
        qCWarning(lcMcp) << "cannot read" << m_options.configFile;
        publishNow();
        return;
    }
    std::vector<std::unique_ptr<McpConnection>> kept;
    for (const McpServerConfig &config : file.servers()) {
        auto same = std::find_if(m_connections.begin(), m_connections.end(),
                                 [&config](const auto &connection) { return connection->config() == config; });
        if (same != m_connections.end()) {
            kept.push_back(std::move(*same));
            m_connections.erase(same);
            continue;
        }
        kept.push_back(nullptr); // made below, once the old ones are gone
    }
    for (const auto &gone : m_connections)
        gone->stop(tr("The MCP server \"%1\" was removed or changed.").arg(gone->config().name));
    m_connections.clear();
    for (qsizetype i = 0; i < file.servers().size(); ++i) {
        if (kept[size_t(i)]) {
            m_connections.push_back(std::move(kept[size_t(i)]));
        } else {
            connectionFor(file.servers().at(i));
        }
    }
    // At once: whoever reloads may look at the servers right after.
    publishNow();
}

void McpHub::startEnabled()
{
    for (const auto &connection : m_connections) {
        if (connection->config().enabled)
            connection->start();
    }
}

void McpHub::restart(const QString &server)
{
    for (const auto &connection : m_connections) {
        if (connection->config().name == server && connection->config().enabled)
            connection->restart();
    }
}

void McpHub::setDefaultTimeout(std::chrono::seconds timeout)
{
    m_options.timeout = timeout;
    for (const auto &connection : m_connections)
        connection->setDefaultTimeout(timeout);
}

void McpHub::request(quint64 ticket, const QString &server, const QString &method, const QJsonObject &params,
                     bool progress)
{
    for (const auto &connection : m_connections) {
        if (connection->config().name == server) {
            connection->request(ticket, method, params, progress);
            return;
        }
    }
    Q_EMIT m_registry->replied(
        ticket, McpReply{McpReply::Kind::Unavailable, {}, 0, tr("There is no MCP server \"%1\".").arg(server)});
}

void McpHub::cancel(quint64 ticket, const QString &reason)
{
    for (const auto &connection : m_connections)
        connection->cancel(ticket, reason);
}

void McpHub::test(quint64 ticket, const McpServerConfig &config)
{
    // A connection of its own, so that testing an edited server leaves the running one alone.
    auto *connection = new McpConnection(config, m_network, m_options.logFolder, m_options.timeout, this);
    connect(connection, &McpConnection::changed, this, [this, connection, ticket] {
        const McpServerStatus::State state = connection->status().state;
        if (state != McpServerStatus::State::Running && state != McpServerStatus::State::Failed)
            return;
        disconnect(connection, nullptr, this, nullptr);
        Q_EMIT m_registry->tested(ticket, connection->status());
        connection->stop(tr("The test is over."));
        connection->deleteLater();
    });
    connection->start(true);
}

void McpHub::publish()
{
    // Many changes at once (a reload, a burst of notifications) are published once.
    if (std::exchange(m_publishQueued, true))
        return;
    QTimer::singleShot(0, this, &McpHub::publishNow);
}

void McpHub::publishNow()
{
    m_publishQueued = false;
    {
        QList<McpServerStatus> servers;
        QHash<QString, QString> prefixes;
        for (const auto &connection : m_connections) {
            McpServerStatus status = connection->status();
            const QString prefix = McpToolName::serverPart(status.config.name);
            if (prefixes.contains(prefix))
                status.problems << tr("Its tools would have the same names as those of \"%1\" (both begin with "
                                      "\"%2__\"); rename one of the two servers.")
                                       .arg(prefixes.value(prefix), prefix);
            else
                prefixes.insert(prefix, status.config.name);
            servers << status;
        }
        m_registry->publish(servers, m_problems, m_broken);
    }
}

void McpHub::shutdown()
{
    for (const auto &connection : m_connections)
        connection->stop(tr("Sandpiper is quitting."));
    m_connections.clear();
    // What is left are the connections of tests in progress.
    for (McpConnection *test : findChildren<McpConnection *>(Qt::FindDirectChildrenOnly))
        delete test;
    McpStdioTransport::finishClosing();
}

} // namespace Sandpiper
