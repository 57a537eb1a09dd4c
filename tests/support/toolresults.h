#pragma once

#include <agent/agentevent.h>
#include <tools/tool.h>

namespace Sandpiper::Test {

// The payload of one kind a tool result carries, or an empty one: for tests that look inside.
template<typename Payload> const Payload &payloadOf(const ToolResult &result)
{
    static const Payload none;
    const Payload *payload = std::get_if<Payload>(&result);
    return payload ? *payload : none;
}

inline const WebResult &webOf(const ToolOutcome &outcome)
{
    return payloadOf<WebResult>(outcome.result);
}

inline const WebResult &webOf(const AgentEvent &event)
{
    return payloadOf<WebResult>(event.result);
}

inline const QJsonObject &chartOf(const ToolOutcome &outcome)
{
    return payloadOf<ChartResult>(outcome.result).spec;
}

inline const QJsonObject &chartOf(const AgentEvent &event)
{
    return payloadOf<ChartResult>(event.result).spec;
}

} // namespace Sandpiper::Test
