#pragma once

#include "agent/agentconfig.h"

namespace Sandpiper {

class Settings;

// The agent's configuration as the user's settings make it. It is put together here, above the
// agent, so that the settings, which MCP reads too, need nothing from the floors above them.
namespace AgentSettings {

// The provider selected, the system prompt, the tools and their limits, and the approval policy
// of each tool (MCP tools only where the user chose one); the sandbox's is the caller's to set
// per conversation, and so is the MCP registry.
AgentConfig read(const Settings &settings);

} // namespace AgentSettings

} // namespace Sandpiper
