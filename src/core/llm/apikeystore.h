#pragma once

#include <QString>

#include <QCoroTask>

namespace Sandpiper {

// API keys live in the system keychain (QtKeychain), never in the settings file, the
// database or a log. Where no keychain answers, a key read from an environment variable
// or typed in for this session is kept in memory only.
class ApiKeyStore
{
public:
    struct Lookup {
        QString key;
        QString source; // "keychain", "environment:NAME", or empty when none was found
    };

    // The keychain's key for PROVIDERID, else the environment variable VARIABLE.
    static QCoro::Task<Lookup> read(QString providerId, QString variable);
    // Why the key could not be stored (the caller then keeps it in memory), empty on success.
    static QCoro::Task<QString> write(QString providerId, QString key);

    // Other secrets by name, such as the tokens that mcp.json names as ${keychain:NAME}.
    // SOURCE is empty when there is no such secret or no keychain answered.
    static QCoro::Task<Lookup> readSecret(QString name);
    static QCoro::Task<QString> writeSecret(QString name, QString value);
};

} // namespace Sandpiper
