#pragma once

#include "tools/tool.h"

#include <QDateTime>
#include <QString>

namespace Sandpiper {

class Settings;

// The user's trust in MCP tools, kept in the settings: a policy per tool (approval/SERVER__TOOL,
// ask unless chosen), and the "Always allow" chosen on an approval card, which the settings
// show with its date and can take back.
namespace McpTrust {

ApprovalPolicy policy(const Settings &settings, const QString &tool);
// Clears an "Always allow" mark unless POLICY is auto.
void setPolicy(Settings &settings, const QString &tool, ApprovalPolicy policy);
void allowAlways(Settings &settings, const QString &tool);
// Back to asking.
void takeBack(Settings &settings, const QString &tool);
// When the user chose "Always allow" for TOOL on a card; invalid when they did not.
QDateTime allowedAlwaysSince(const Settings &settings, const QString &tool);

} // namespace McpTrust

} // namespace Sandpiper
