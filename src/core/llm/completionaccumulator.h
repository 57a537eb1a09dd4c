#pragma once

#include "llm/chatmessage.h"

#include <QHash>

namespace Sandpiper {

// An error object a server sent inside a stream that had begun with 200, in its own words.
struct StreamError {
    QString message;
    QString code; // the provider's code or type ("overloaded_error", "429"), empty if none
    // The error says that the same request may succeed a little later (overloaded, rate
    // limited, a server error), rather than that the request itself is wrong.
    bool worthRetrying = false;

    bool isEmpty() const { return message.isEmpty(); }
};

// Builds the assistant's message from streamed chat.completion.chunk objects, whatever the
// server's dialect: text and reasoning deltas (reasoning_content or reasoning) kept apart,
// tool calls accumulated by index, or by id where a server leaves out the index, ids and names
// that arrive in pieces joined, whole calls in one chunk, usage in a last chunk, and errors
// sent inside the stream.
class CompletionAccumulator
{
public:
    struct Delta {
        QString text;
        QString reasoning;
        bool toolCallsChanged = false;
    };

    Delta apply(const QJsonObject &chunk);
    // An event the server marked as an error (llama.cpp's "error:" field) carrying OBJECT.
    void applyErrorEvent(const QJsonObject &object);
    // A non-streaming chat.completion object, for servers that refuse to stream.
    void applyCompleteResponse(const QJsonObject &response);

    // The stream ended: calls that came without an id get a unique one, since tool messages
    // must name the call they answer.
    void finish();
    ChatMessage message() const;
    bool hasToolCalls() const { return !m_calls.isEmpty(); }
    QString finishReason() const { return m_finishReason; }
    TokenUsage usage() const { return m_usage; }
    // An error object the server sent inside the stream, empty if none.
    StreamError error() const { return m_error; }

private:
    void applyToolCallDelta(const QJsonObject &delta);
    void applyUsage(const QJsonValue &usage);

    QString m_content;
    QString m_reasoning;
    QList<ToolCall> m_calls;
    QHash<int, qsizetype> m_slotByIndex;
    QString m_finishReason;
    TokenUsage m_usage;
    StreamError m_error;
};

} // namespace Sandpiper
