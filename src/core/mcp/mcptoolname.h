#pragma once

#include <QString>

namespace Sandpiper {

// The names MCP tools get in the model's tool list: SERVER__TOOL, made of the characters that
// every OpenAI-compatible server accepts ([A-Za-z0-9_-]) and at most 64 of them. The server
// part never holds "__", so the first "__" splits a name again; built-in tools never hold it.
namespace McpToolName {

constexpr qsizetype maxLength = 64;

// SERVER as it stands in a tool name: unsafe characters become "_", runs of "_" shrink to one.
QString serverPart(const QString &server);
// The name the model sees for TOOL of SERVER; too long a name keeps its start and gets a short
// hash of the whole, so that two long names stay apart.
QString forTool(const QString &server, const QString &tool);
bool isMcp(const QString &name);
// The server part and the tool part of an MCP tool name (empty for another name).
QString serverOf(const QString &name);
QString toolOf(const QString &name);

} // namespace McpToolName

} // namespace Sandpiper
