#include "mcp/mcpserverstatus.h"

namespace Sandpiper {

QString McpServerStatus::stateName(State state)
{
    switch (state) {
    case State::Stopped:
        return QStringLiteral("stopped");
    case State::Starting:
        return QStringLiteral("starting");
    case State::Running:
        return QStringLiteral("running");
    case State::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

} // namespace Sandpiper
