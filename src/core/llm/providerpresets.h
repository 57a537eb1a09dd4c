#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace Sandpiper {

struct ProviderPreset {
    QString id;
    QString name;
    QString baseUrl;
    QString apiKeyVariable; // the environment variable that may hold the key
    QString defaultModel;
    bool needsKey = true;
    // Whether the reasoning of the current turn goes back to the server (see ProviderConfig).
    bool sendReasoningBack = false;
    // The context window to assume when the server does not say, in tokens; 0: a safe default.
    qint64 contextWindow = 0;
};

const QList<ProviderPreset> &providerPresets();
std::optional<ProviderPreset> findProviderPreset(const QString &id);

// A base URL as the clients take it (up to /v1), or why what was given is none.
struct BaseUrl {
    QString url;
    QString error; // empty when URL is set
};

// Accepts what people paste: no scheme, a trailing slash, the full /chat/completions path.
BaseUrl normalizeBaseUrl(const QString &input);

} // namespace Sandpiper
