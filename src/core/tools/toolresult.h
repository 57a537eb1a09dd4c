#pragma once

#include "sandbox/executionresult.h"
#include "tools/mcpresult.h"
#include "tools/websource.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <variant>

namespace Sandpiper {

// Who started a run of code: the model through a tool call, or the user from the inspector.
enum class RunOrigin { Model, User };

// create_chart: the normalised spec the GUI draws (see ChartSpec).
struct ChartResult {
    QJsonObject spec;
};

// search_web and fetch_url: the pages the model may cite, numbered, and what went wrong, in a
// line for the user.
struct WebResult {
    QList<WebSource> sources;
    QString userNote;
};

// What a tool produced beside the text the model reads: one alternative per kind of tool, so a
// new tool adds its own type here instead of fields on shared structs. Empty (monostate) for a
// call that did not run.
using ToolResult = std::variant<std::monostate, ExecutionResult, ChartResult, WebResult, McpResult>;

} // namespace Sandpiper
