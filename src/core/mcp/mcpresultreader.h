#pragma once

#include "mcp/mcpserverstatus.h"
#include "tools/mcpresult.h"
#include "tools/pythontool.h"
#include "tools/tool.h"

namespace Sandpiper {

// Turns the answer to tools/call into what the model reads (text capped like Python's output,
// a line for every image and file) and what the GUI shows (McpResult). Images and embedded
// resources are written into FOLDER/mcp/ under names Sandpiper makes: nothing the server names
// decides where a file goes. isError and JSON-RPC errors go back to the model as tool errors.
namespace McpResultReader {

ToolOutcome read(const McpReply &reply, const McpToolInfo &tool, const QString &folder, const ModelTextLimits &limits);
// The images and files a model text written by read() names: what a stored conversation can
// still show once the McpResult itself is gone.
McpResult fromModelText(const QString &text);

// What the card keeps of a long text; the model's limit is smaller still.
constexpr qsizetype shownChars = 100 * 1000;
constexpr qint64 maxImageBytes = 20 * 1024 * 1024;
constexpr qint64 maxFileBytes = 64 * 1024 * 1024;

} // namespace McpResultReader

} // namespace Sandpiper
