#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <chrono>
#include <utility>

namespace Sandpiper {

// Everything needed to talk to one OpenAI-compatible endpoint. The API key lives only in
// memory here; it comes from the keychain or an environment variable (see ApiKeyStore).
struct ProviderConfig {
    QString id;      // a preset id such as "openai" or "ollama", or "custom"
    QString baseUrl; // up to and including /v1, without /chat/completions
    QString apiKey;
    QString model;
    QList<std::pair<QByteArray, QByteArray>> extraHeaders;
    std::chrono::milliseconds connectTimeout = std::chrono::seconds(30);
    // How long a stream may stay silent between chunks (slow local models think long).
    std::chrono::milliseconds idleTimeout = std::chrono::seconds(180);
    int maxRetries = 3;
    std::chrono::milliseconds maxRetryDelay = std::chrono::seconds(60);
};

} // namespace Sandpiper
