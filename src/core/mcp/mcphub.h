#pragma once

#include "mcp/mcpserverregistry.h"

#include <QObject>

#include <map>
#include <memory>

class QNetworkAccessManager;

namespace Sandpiper {

class McpConnection;

// The MCP thread's side of McpServerRegistry: owns one McpConnection per configured server
// (and the short-lived ones of "Test"), and publishes their states to the registry.
class McpHub : public QObject
{
    Q_OBJECT

public:
    McpHub(McpServerRegistry *registry, McpServerRegistry::Options options, QObject *parent = nullptr);
    ~McpHub() override;

    void reload();
    void startEnabled();
    void restart(const QString &server);
    void setDefaultTimeout(std::chrono::seconds timeout);
    void request(quint64 ticket, const QString &server, const QString &method, const QJsonObject &params,
                 bool progress);
    void cancel(quint64 ticket, const QString &reason);
    void test(quint64 ticket, const McpServerConfig &config);
    // Stops every server and waits (a few seconds at most) for their processes to end.
    void shutdown();

private:
    McpConnection *connectionFor(const McpServerConfig &config);
    // Soon, once for a burst of changes; or now.
    void publish();
    void publishNow();

    McpServerRegistry *m_registry;
    McpServerRegistry::Options m_options;
    QNetworkAccessManager *m_network;
    std::vector<std::unique_ptr<McpConnection>> m_connections; // in the order of the file
    QList<McpConfigFile::Problem> m_problems;
    bool m_broken = false;
    bool m_publishQueued = false;
};

} // namespace Sandpiper
