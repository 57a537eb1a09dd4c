#include "mcp/mcptoolbox.h"

#include "mcp/mcpreplywaiter.h"
#include "mcp/mcpresultreader.h"
#include "mcp/mcpserverregistry.h"
#include "mcp/mcptool.h"
#include "mcp/mcptoolname.h"
#include "tools/toolregistry.h"

#include <QCoroSignal>
#include <QDeadlineTimer>
#include <QPointer>

using namespace std::chrono_literals;

namespace Sandpiper {

McpToolbox::McpToolbox(McpServerRegistry *registry, QString folder, ModelTextLimits limits, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_folder(std::move(folder))
    , m_limits(limits)
{}

QCoro::Task<QStringList> McpToolbox::refresh(ToolRegistry *tools, QHash<QString, ApprovalPolicy> approval)
{
    QPointer<McpToolbox> self(this);
    m_registry->startEnabled();
    const QDeadlineTimer deadline(startupWait);
    QList<McpServerStatus> servers = m_registry->servers();
    auto starting = [](const QList<McpServerStatus> &list) {
        return std::any_of(list.begin(), list.end(), [](const McpServerStatus &server) {
            return server.config.enabled && (server.state == McpServerStatus::State::Starting ||
                                             server.state == McpServerStatus::State::Stopped);
        });
    };
    while (starting(servers) && !deadline.hasExpired()) {
        // A change wakes the wait early; the bound keeps a change that came just before from being missed.
        co_await qCoro(m_registry, &McpServerRegistry::serversChanged,
                       std::chrono::milliseconds(std::clamp<qint64>(deadline.remainingTime(), 1, 250)));
        if (!self)
            co_return {};
        servers = m_registry->servers();
    }

    tools->removeIf([](const Tool &tool) { return McpToolName::isMcp(tool.name()); });
    QStringList notes;
    for (const McpServerStatus &server : std::as_const(servers)) {
        if (!server.config.enabled)
            continue;
        QString note;
        if (server.state == McpServerStatus::State::Failed)
            note = tr("The MCP server \"%1\" is not available, so its tools are not offered: %2")
                       .arg(server.config.name, server.error);
        else if (server.state != McpServerStatus::State::Running)
            note = tr("The MCP server \"%1\" is still starting; its tools join from your next message.")
                       .arg(server.config.name);
        if (note != m_told.value(server.config.name)) {
            m_told.insert(server.config.name, note);
            if (!note.isEmpty())
                notes << note;
        }
        for (const McpToolInfo &tool : server.tools) {
            if (approval.value(tool.exposedName, ApprovalPolicy::Ask) == ApprovalPolicy::Never ||
                tools->find(tool.exposedName))
                continue;
            tools->add(std::make_unique<McpTool>(tool, this));
        }
    }
    co_return notes;
}

QCoro::Task<ToolOutcome> McpToolbox::call(McpToolInfo tool, QJsonObject arguments)
{
    QPointer<McpToolbox> self(this);
    const quint64 ticket = m_registry->nextTicket();
    McpReplyWaiter waiter(m_registry, ticket);
    connect(&waiter, &McpReplyWaiter::progressed, this, &McpToolbox::progressed);
    m_running = ticket;
    m_registry->request(ticket, tool.server, QStringLiteral("tools/call"),
                        {{QStringLiteral("name"), tool.name}, {QStringLiteral("arguments"), arguments}}, true);
    co_await qCoro(&waiter, &McpReplyWaiter::arrived, m_registry->backstop(tool.server));
    if (!self)
        co_return {};
    m_running = 0;
    McpReply reply = waiter.reply().value_or(
        McpReply{McpReply::Kind::Timeout, {}, 0, tr("The MCP server \"%1\" did not answer in time.").arg(tool.server)});
    if (!waiter.reply())
        m_registry->cancel(ticket, QStringLiteral("no answer"));
    if (reply.kind == McpReply::Kind::Cancelled)
        reply.message = QStringLiteral("Cancelled: the user stopped the call before it finished.");
    co_return McpResultReader::read(reply, tool, m_folder, m_limits);
}

void McpToolbox::cancel()
{
    if (m_running != 0)
        m_registry->cancel(m_running, QStringLiteral("The user stopped it."));
}

} // namespace Sandpiper
