#pragma once

#include "mcp/mcpserverstatus.h"
#include "tools/tool.h"

#include <QPointer>

namespace Sandpiper {

class McpToolbox;

// One tool of an MCP server in an agent's tool list, named SERVER__TOOL. It asks before it
// runs unless the user chose otherwise; the user approves the arguments in full.
class McpTool : public Tool
{
public:
    McpTool(McpToolInfo info, McpToolbox *toolbox);

    const McpToolInfo &info() const { return m_info; }
    QString name() const override { return m_info.exposedName; }
    QString description() const override;
    QJsonObject parameters() const override { return m_info.inputSchema; }
    ApprovalPolicy defaultApproval() const override { return ApprovalPolicy::Ask; }
    PreparedCall prepare(const ToolCall &call) const override;
    QCoro::Task<ToolOutcome> run(PreparedCall call) override;
    void cancel() override;

private:
    McpToolInfo m_info;
    QPointer<McpToolbox> m_toolbox;
};

} // namespace Sandpiper
