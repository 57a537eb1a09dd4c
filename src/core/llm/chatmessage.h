#pragma once

#include "llm/callkey.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace Sandpiper {

// One function call the model asked for. ARGUMENTS is the raw JSON text the model sent:
// it may be invalid, and is repaired (or refused) only when the tool runs.
struct ToolCall {
    QString id;
    QString name;
    QString arguments;

    friend bool operator==(const ToolCall &, const ToolCall &) = default;
};

struct TokenUsage {
    qint64 promptTokens = 0;
    qint64 completionTokens = 0;
    qint64 totalTokens = 0;

    bool isEmpty() const { return totalTokens == 0 && promptTokens == 0 && completionTokens == 0; }
    friend bool operator==(const TokenUsage &, const TokenUsage &) = default;
};

// A message of a conversation, in the shape of the OpenAI chat format plus what Sandpiper
// keeps beside it (reasoning, status, usage, its row in the store). A value type.
struct ChatMessage {
    enum class Role { System, User, Assistant, Tool };
    enum class Status {
        Complete,
        Streaming,   // being written while the answer streams in
        Cancelled,   // the user stopped it
        Error,       // the provider or the network failed; see error
        Interrupted, // the app ended while it streamed (found so at the next start)
    };

    qint64 id = 0; // row in the store; 0 until stored
    Role role = Role::User;
    QString content;
    QString reasoning;
    QList<ToolCall> toolCalls; // assistant messages
    QString toolCallId;        // tool messages: the call they answer
    QString toolName;          // tool messages: the tool that answered
    // User messages: images that go with the text, as file names in the conversation's folder
    // (the sandbox sees them in /mnt/data). Stored with the message.
    QStringList images;
    // The images as data URLs, filled just before a request (never stored): toOpenAi() sends
    // them as "image_url" content parts after the text.
    QStringList imageUrls;
    TokenUsage usage;
    Status status = Status::Complete;
    QString error;
    QDateTime created;
    QDateTime updated;

    // The message as an OpenAI-compatible server expects it in a request.
    QJsonObject toOpenAi() const;
    // The inverse, for imports; unknown roles become user messages.
    static ChatMessage fromOpenAi(const QJsonObject &object);

    // Where the current turn begins in MESSAGES: just after the last user message.
    static qsizetype currentTurnStart(const QList<ChatMessage> &messages);
    // For each of MESSAGES (a conversation in order), the call a tool message answers: the first
    // call with its tool_call_id of the answer before it that no earlier tool message answered
    // (tool messages follow their answer in the order of its calls; servers repeat ids across
    // answers, some within one). Invalid for other messages and for a tool message that answers
    // nothing.
    static QList<CallKey> answeredCalls(const QList<ChatMessage> &messages);

    static QString roleName(Role role);
    static Role roleFromName(QStringView name);
    static QString statusName(Status status);
    static Status statusFromName(QStringView name);
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::ChatMessage)
