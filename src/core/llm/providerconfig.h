#pragma once

#include <QByteArray>
#include <QHash>
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
    // Tool calls that the model wrote into its answer as text run like native ones.
    bool recoverTextToolCalls = true;
    // The reasoning of the current turn's earlier answers goes back as "reasoning_content":
    // llama.cpp and vLLM need it for gpt-oss between tool rounds; DeepSeek's API rejects it.
    bool sendReasoningBack = false;
    // Context windows the user set, in tokens by model; they win over what the server says.
    QHash<QString, qint64> contextWindows;
    // Whether a model takes images, as the user set it by model ("*" for any); it wins over
    // what the server says.
    QHash<QString, bool> imageModels;
    // The window assumed when neither the user nor the server says (0: Sandpiper's default).
    qint64 defaultContextWindow = 0;
    // The longest answer asked for, in tokens ("max_tokens"); 0 leaves it to the server.
    int maxAnswerTokens = 0;
};

} // namespace Sandpiper
