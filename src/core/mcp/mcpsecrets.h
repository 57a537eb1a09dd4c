#pragma once

#include "mcp/mcpserverconfig.h"

#include <QHash>

#include <QCoroTask>

namespace Sandpiper {

// ${keychain:NAME} and ${env:NAME} in a server's command, args, env, cwd, url and headers, so
// that tokens need not sit in mcp.json: keychain secrets are read through ApiKeyStore, stored
// there from the settings (ApiKeyStore::writeSecret).
namespace McpSecrets {

struct Expanded {
    McpServerConfig config;
    QString error; // which secret or variable is missing; the server is not started then
};

// The keychain names CONFIG refers to.
QStringList keychainNames(const McpServerConfig &config);
// CONFIG with every reference replaced from SECRETS (keychain names) and the environment.
Expanded apply(McpServerConfig config, const QHash<QString, QString> &secrets);
// Reads the secrets CONFIG needs from the keychain, then applies them.
QCoro::Task<Expanded> expand(McpServerConfig config);

} // namespace McpSecrets

} // namespace Sandpiper
