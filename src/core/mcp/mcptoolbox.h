#pragma once

#include "mcp/mcpserverstatus.h"
#include "tools/pythontool.h"
#include "tools/tool.h"

#include <QHash>
#include <QObject>

#include <QCoroTask>

namespace Sandpiper {

class McpServerRegistry;
class ToolRegistry;

// An agent's door to the MCP servers: it puts their tools into the agent's ToolRegistry at every
// round (starting the servers when first needed) and runs the calls, with live progress and Stop.
// Lives on the agent's thread; the registry it uses is shared by all agents.
class McpToolbox : public QObject
{
    Q_OBJECT

public:
    // FOLDER is the conversation's folder: images and files the tools return are saved there.
    McpToolbox(McpServerRegistry *registry, QString folder, ModelTextLimits limits, QObject *parent = nullptr);

    // Starts the enabled servers that do not run, waits a moment for those that start, and
    // replaces the MCP tools in TOOLS with the current ones, leaving out those APPROVAL says
    // never to run. Returns what the user should hear about (servers that failed), once each.
    QCoro::Task<QStringList> refresh(ToolRegistry *tools, QHash<QString, ApprovalPolicy> approval);
    QCoro::Task<ToolOutcome> call(McpToolInfo tool, QJsonObject arguments);
    // Stops the call that runs (notifications/cancelled to its server).
    void cancel();

    // How long the first message waits for servers that are still starting.
    static constexpr std::chrono::seconds startupWait{15};

Q_SIGNALS:
    // Of the call that runs; TOTAL is 0 when the server does not know it.
    void progressed(double progress, double total, const QString &message);

private:
    McpServerRegistry *m_registry;
    QString m_folder;
    ModelTextLimits m_limits;
    quint64 m_running = 0;
    QHash<QString, QString> m_told; // server: what the user was last told about it
};

} // namespace Sandpiper
