#include "mcp/mcpreplywaiter.h"

#include "mcp/mcpserverregistry.h"

namespace Sandpiper {

McpReplyWaiter::McpReplyWaiter(McpServerRegistry *registry, quint64 ticket, QObject *parent)
    : QObject(parent)
    , m_ticket(ticket)
{
    // Queued: the registry emits on the MCP thread, this object answers on its own.
    connect(
        registry, &McpServerRegistry::replied, this,
        [this](quint64 answered, const McpReply &reply) {
            if (answered != m_ticket || hasArrived())
                return;
            m_reply = reply;
            Q_EMIT arrived();
        },
        Qt::QueuedConnection);
    connect(
        registry, &McpServerRegistry::tested, this,
        [this](quint64 answered, const McpServerStatus &status) {
            if (answered != m_ticket || hasArrived())
                return;
            m_tested = status;
            Q_EMIT arrived();
        },
        Qt::QueuedConnection);
    connect(
        registry, &McpServerRegistry::progressed, this,
        [this](quint64 answered, double progress, double total, const QString &message) {
            if (answered == m_ticket && !hasArrived())
                Q_EMIT progressed(progress, total, message);
        },
        Qt::QueuedConnection);
}

} // namespace Sandpiper
