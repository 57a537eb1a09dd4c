#pragma once

#include "llm/providerconfig.h"
#include "sandbox/dockercli.h"
#include "sandbox/sandboxconfig.h"
#include "tools/webconfig.h"

#include <QHash>
#include <QVariant>

#include <memory>

class QSettings;

namespace Sandpiper {

// The user's settings (QSettings, an INI file), with defaults for every known key and
// overrides for this run only (`--set KEY=VALUE`), which are never written back. A profile
// folder (`--profile DIR`) keeps settings and data apart from the user's own.
// Secrets are not settings: API keys go to the keychain (ApiKeyStore).
class Settings
{
public:
    enum class Type { String, Integer, Boolean, Number };
    struct Spec {
        QString key;
        Type type;
        QVariant defaultValue;
    };

    explicit Settings(QString profileDirectory = {});
    ~Settings();

    static const QList<Spec> &specs();

    QVariant value(const QString &key) const;
    QString string(const QString &key) const { return value(key).toString(); }
    int integer(const QString &key) const { return value(key).toInt(); }
    bool boolean(const QString &key) const { return value(key).toBool(); }
    void setValue(const QString &key, const QVariant &value);
    // Whether KEY has a value of its own (set by the user or for this run), not its default.
    bool isSet(const QString &key) const;

    // "KEY=VALUE" for this run. Empty when taken, else why not: an unknown key or a value of
    // the wrong type.
    [[nodiscard]] QString addOverride(const QString &assignment);

    QString configFile() const;
    // Why the settings file was set aside (corrupt, or written by a newer Sandpiper), empty when
    // it was read. The file is then left untouched and changes last for this run only.
    QString warning() const { return m_warning; }
    // Where the database and the conversation folders live.
    QString dataDirectory() const;
    // mcp.json, beside the settings file; and the folder of the MCP servers' logs.
    QString mcpConfigFile() const;
    QString mcpLogFolder() const;
    // Where the models Sandpiper downloads are kept (GGUF files).
    QString localModelsFolder() const;
    // Where what Sandpiper learnt about this computer is kept, to be learnt again when it is gone
    // (what llama-server's devices are): the profile's, or the user's cache folder.
    QString cacheDirectory() const;
    // The MCP tools (SERVER__TOOL) that have an approval policy of their own.
    QStringList mcpToolsWithPolicy() const;

    // The selected provider with its URL, model and headers (the API key is read separately).
    ProviderConfig provider() const;
    // The same for the provider ID, selected or not.
    ProviderConfig provider(const QString &id) const;
    // providers/<id>/context_windows: "MODEL=TOKENS" lines ("8k" is 8192; "*" for any model).
    static QHash<QString, qint64> parseContextWindows(const QString &text);
    static QString formatContextWindows(const QHash<QString, qint64> &windows);
    // providers/<id>/image_models: "MODEL=yes" or "MODEL=no" lines ("*" for any model).
    static QHash<QString, bool> parseImageModels(const QString &text);
    static QString formatImageModels(const QHash<QString, bool> &models);
    // The environment variable that may hold the key of the selected provider, or of PROVIDERID.
    QString apiKeyVariable() const;
    QString apiKeyVariable(const QString &providerId) const;
    SandboxConfig sandbox(const QString &conversationId, const QString &conversationFolder) const;
    // The Docker engine chosen here (sandbox/engine); empty: the docker command's own choice.
    DockerCli::Engine engine() const;
    WebConfig web() const;
    QString defaultSystemPrompt() const;

private:
    std::optional<Spec> specFor(const QString &key) const;

    QString m_profile;
    std::unique_ptr<QSettings> m_settings;
    QHash<QString, QVariant> m_overrides;
    QString m_warning;
    // Set when the file was set aside: changes are kept here instead, for this run only.
    bool m_fileSetAside = false;
    QHash<QString, QVariant> m_unsaved;
};

} // namespace Sandpiper
