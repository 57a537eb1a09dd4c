#pragma once

#include "mcp/mcpserverstatus.h"

#include <QObject>

#include <optional>

namespace Sandpiper {

class McpServerRegistry;

// Catches the registry's answer to one ticket on the thread it lives on. Made before the
// request is sent, so that no answer can pass unseen; the caller then awaits arrived().
class McpReplyWaiter : public QObject
{
    Q_OBJECT

public:
    McpReplyWaiter(McpServerRegistry *registry, quint64 ticket, QObject *parent = nullptr);

    const std::optional<McpReply> &reply() const { return m_reply; }
    const std::optional<McpServerStatus> &tested() const { return m_tested; }
    bool hasArrived() const { return m_reply.has_value() || m_tested.has_value(); }

Q_SIGNALS:
    void arrived();
    void progressed(double progress, double total, const QString &message);

private:
    quint64 m_ticket;
    std::optional<McpReply> m_reply;
    std::optional<McpServerStatus> m_tested;
};

} // namespace Sandpiper
