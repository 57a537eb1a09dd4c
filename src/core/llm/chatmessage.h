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

// A file that went with a user's message: its name in the conversation's folder (the sandbox
// sees it in /mnt/data) and its size when it was sent.
struct AttachedFile {
    QString name;
    qint64 size = 0;

    friend bool operator==(const AttachedFile &, const AttachedFile &) = default;
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
    // A conversation is a tree: the message this one follows (0: it begins the conversation).
    // Editing a question or asking again adds a version beside the old one, under the same parent.
    qint64 parentId = 0;
    // Which of the versions under the same parent this is (from 1), and how many there are; the
    // store fills them in for the messages of the path shown ("< 2 / 3 >").
    int version = 1;
    int versionCount = 1;
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
    // User messages: the files that went with the text, shown beside it. What the model was told
    // about them (where they are, their first rows) is ATTACHMENTNOTE, which is not the user's
    // words: it goes to the model before the text (modelContent()) and is never shown as theirs.
    QList<AttachedFile> attachments;
    QString attachmentNote;
    TokenUsage usage;
    Status status = Status::Complete;
    QString error;
    QDateTime created;
    QDateTime updated;

    // CONTENT as the model reads it: after the note on the attached files, when there is one.
    QString modelContent() const;
    // What a note on attached files begins with, in front of the user's text (stored so in
    // messages of schema 5 and older).
    static QString attachmentHeader();
    // A user message whose CONTENT begins with a note on attached files (schema 5 and older stored
    // them so, and an exported request carries them so) gets the note and the files' names apart
    // from the user's text; their sizes are not in the note.
    void separateAttachmentNote();

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
