#pragma once

namespace Sandpiper {

class McpServerRegistry;

// sandpiper-cli --list-tools: connects to every enabled server of REGISTRY, prints one line per
// tool, NAME<TAB>description, and returns 0 when every server answered, 1 otherwise (naming the
// servers that did not on stderr).
int listMcpTools(McpServerRegistry &registry);

} // namespace Sandpiper
