#pragma once

#include "charts/chartspec.h"
#include "llm/modelimage.h"
#include "llm/providerconfig.h"
#include "sandbox/sandboxconfig.h"
#include "tools/pythontool.h"
#include "tools/tool.h"
#include "tools/webconfig.h"

#include <QHash>

namespace Sandpiper {

class McpServerRegistry;

struct AgentConfig {
    ProviderConfig provider;
    QString systemPrompt;
    int maxToolRounds = 20;
    // Per tool; tools not named here use their own default.
    QHash<QString, ApprovalPolicy> approval;
    SandboxConfig sandbox;
    ModelTextLimits limits;
    // Off when Docker or the image is missing: the model is then not offered Python at all.
    bool pythonEnabled = true;
    bool prewarmSandbox = false;
    // Before the model's code runs in a new kernel, the conversation's earlier successful cells
    // run again (those that write files into /mnt/data are left out); see KernelRestore.
    bool restoreKernelAutomatically = false;
    // After the first answer, ask the model for a short title (one extra small request).
    bool modelTitles = false;
    // Images go to the model scaled down to this longest side (pixels).
    int imageMaxSide = ModelImage::DefaultMaxSide;
    // create_chart: needs nothing but the GUI, so it is on unless the user turns it off.
    bool chartsEnabled = true;
    ChartLimits chartLimits;
    // search_web and fetch_url: they reach the internet, so the user can turn them off.
    bool webEnabled = true;
    WebConfig web;
    // The MCP servers' tools (shared by all agents, thread-safe); none when null.
    McpServerRegistry *mcp = nullptr;
};

} // namespace Sandpiper
