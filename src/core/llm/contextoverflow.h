#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace Sandpiper {

// A server's answer that the request does not fit the model's context window, recognised in
// each server's own words: OpenAI's context_length_exceeded, llama.cpp's
// exceed_context_size_error, vLLM's and Mistral's "maximum context length", LM Studio's "loaded
// with context length of only", Ollama's "exceeds the context length", Anthropic's "prompt is
// too long". The figures are those the server named, 0 where it named none.
struct ContextOverflow {
    qint64 window = 0;       // the model's context window, in tokens
    qint64 promptTokens = 0; // what the request came to, in the server's tokens

    // From an HTTP error body (JSON or text).
    static std::optional<ContextOverflow> fromBody(const QByteArray &body);
    // From an error message alone, such as one sent inside a stream.
    static std::optional<ContextOverflow> fromMessage(const QString &message);
};

} // namespace Sandpiper
