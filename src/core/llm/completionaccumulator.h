#pragma once

#include "llm/chatmessage.h"

#include <QHash>

namespace Sandpiper {

// Builds the assistant's message from streamed chat.completion.chunk objects, whatever the
// server's dialect: text and reasoning deltas (reasoning_content or reasoning) kept apart,
// tool calls accumulated by index, or by id where a server leaves out the index, whole calls
// in one chunk, usage in a last chunk, and errors sent inside the stream.
class CompletionAccumulator
{
public:
    struct Delta {
        QString text;
        QString reasoning;
        bool toolCallsChanged = false;
    };

    Delta apply(const QJsonObject &chunk);
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
    QString error() const { return m_error; }

private:
    void applyToolCallDelta(const QJsonObject &delta);
    void applyUsage(const QJsonValue &usage);

    QString m_content;
    QString m_reasoning;
    QList<ToolCall> m_calls;
    QHash<int, qsizetype> m_slotByIndex;
    QString m_finishReason;
    TokenUsage m_usage;
    QString m_error;
};

} // namespace Sandpiper
