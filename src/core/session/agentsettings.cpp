#include "session/agentsettings.h"

#include "settings/settings.h"
#include "tools/tool.h"

#include <algorithm>

namespace Sandpiper::AgentSettings {

AgentConfig read(const Settings &settings)
{
    AgentConfig config;
    config.provider = settings.provider();
    config.systemPrompt = settings.string(QStringLiteral("agent/system_prompt"));
    if (config.systemPrompt.isEmpty())
        config.systemPrompt = settings.defaultSystemPrompt();
    config.maxToolRounds = std::max(1, settings.integer(QStringLiteral("agent/max_tool_rounds")));
    const auto policy = approvalPolicyFromName(settings.string(QStringLiteral("approval/execute_python_code")));
    config.approval.insert(QStringLiteral("execute_python_code"), policy.value_or(ApprovalPolicy::Ask));
    config.limits.streamChars = std::max(200, settings.integer(QStringLiteral("agent/output_chars")));
    config.limits.resultChars = std::max(0, settings.integer(QStringLiteral("agent/result_chars")));
    config.pythonEnabled = settings.boolean(QStringLiteral("sandbox/enabled"));
    config.prewarmSandbox = settings.boolean(QStringLiteral("sandbox/prewarm"));
    config.restoreKernelAutomatically = settings.boolean(QStringLiteral("sandbox/restore_variables"));
    config.modelTitles = settings.boolean(QStringLiteral("agent/model_titles"));
    config.imageMaxSide = std::clamp(settings.integer(QStringLiteral("images/max_side")), 64, 8192);
    config.chartsEnabled = settings.boolean(QStringLiteral("charts/enabled"));
    config.chartLimits.maxSeries = std::max(1, settings.integer(QStringLiteral("charts/max_series")));
    config.chartLimits.maxPoints = std::max(1, settings.integer(QStringLiteral("charts/max_points")));
    config.webEnabled = settings.boolean(QStringLiteral("web/enabled"));
    config.web = settings.web();
    // The web tools only read public pages and a chart only draws, so they run without asking
    // unless the user says so.
    for (const QString &tool :
         {QStringLiteral("search_web"), QStringLiteral("fetch_url"), QStringLiteral("create_chart")}) {
        const auto webPolicy = approvalPolicyFromName(settings.string(QStringLiteral("approval/") + tool));
        config.approval.insert(tool, webPolicy.value_or(ApprovalPolicy::Auto));
    }
    // MCP tools ask unless the user chose otherwise for each.
    for (const QString &tool : settings.mcpToolsWithPolicy()) {
        if (const auto mcpPolicy = approvalPolicyFromName(settings.string(QStringLiteral("approval/") + tool)))
            config.approval.insert(tool, *mcpPolicy);
    }
    return config;
}

} // namespace Sandpiper::AgentSettings
