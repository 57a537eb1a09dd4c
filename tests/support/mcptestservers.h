#pragma once

#include <mcp/mcpserverconfig.h>

#include <QList>
#include <QProcess>
#include <QString>

#include <memory>

namespace Sandpiper::Test {

// The MCP servers of the tests: the reference servers from npm (installed by scripts/test into
// ~/.cache/sandpiper/npm, or SANDPIPER_MCP_SERVERS) and tests/support/misbehaving-mcp-server.py.
namespace McpTestServers {

// Why the reference servers cannot run here, empty when they can.
QString unavailableReason();
// server-everything on stdio.
McpServerConfig everything(const QString &name = QStringLiteral("everything"));
// server-filesystem on stdio, allowed into FOLDER.
McpServerConfig filesystem(const QString &folder, const QString &name = QStringLiteral("files"));
// tests/support/misbehaving-mcp-server.py MODE (see there).
McpServerConfig misbehaving(const QString &mode, const QString &name);

// server-everything over HTTP, in its own process on a free port: "streamableHttp" or "sse".
class HttpServer
{
public:
    explicit HttpServer(const QString &mode);
    ~HttpServer();
    // Empty when the server did not come up.
    QString url() const { return m_url; }

private:
    std::unique_ptr<QProcess> m_process;
    QString m_url;
};

// mcp.json in FOLDER with SERVERS; returns its path.
QString writeConfig(const QString &folder, const QList<McpServerConfig> &servers);

} // namespace McpTestServers

} // namespace Sandpiper::Test

// Skips, or fails under CI (where the servers must be there), when the reference servers are missing.
#define SANDPIPER_REQUIRE_MCP_SERVERS()                                                                                \
    do {                                                                                                               \
        const QString reason = Sandpiper::Test::McpTestServers::unavailableReason();                                   \
        if (!reason.isEmpty()) {                                                                                       \
            if (qEnvironmentVariable("CI") == QLatin1String("true"))                                                   \
                QFAIL(qPrintable(reason));                                                                             \
            QSKIP(qPrintable(reason));                                                                                 \
        }                                                                                                              \
    } while (false)
