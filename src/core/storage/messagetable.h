#pragma once

#include "llm/chatmessage.h"
#include "storage/storedatabase.h"

namespace Sandpiper {

// The messages of the conversations: a tree (see Schema, version 8), each message under the one it
// follows, with the path shown picked by the versions chosen last.
class MessageTable
{
    Q_DECLARE_TR_FUNCTIONS(MessageTable)

public:
    explicit MessageTable(StoreDatabase &database)
        : m_db(database)
    {}

    // Stores MESSAGE under MESSAGE.parentId, or at the end of the path shown when that is 0, and
    // shows it; the first user message names a conversation that has no title yet.
    StoreResult<ChatMessage> append(qint64 conversationId, const ChatMessage &message);
    // Stores MESSAGE as a new version of SIBLINGID (under the same parent) and shows it.
    StoreResult<ChatMessage> addVersion(qint64 conversationId, qint64 siblingId, const ChatMessage &message);
    StoreResult<void> update(const ChatMessage &message);
    // Shows MESSAGEID: the path shown goes through it, and below it through the versions chosen last.
    StoreResult<void> show(qint64 conversationId, qint64 messageId);
    // Removes MESSAGEID with every message below it and their runs of code; its other versions stay.
    StoreResult<void> removeVersion(qint64 conversationId, qint64 messageId);
    // The path shown, from the first message down, with each message's version and count of versions.
    StoreResult<QList<ChatMessage>> of(qint64 conversationId);
    // Every message of the conversation, on any branch, each after its parent (oldest first).
    StoreResult<QList<ChatMessage>> all(qint64 conversationId);
    // The versions of MESSAGEID (itself among them), oldest first.
    StoreResult<QList<qint64>> versions(qint64 messageId);
    // Inserts MESSAGE under MESSAGE.parentId (0: it begins the conversation) in the transaction
    // QUERY is in, chosen as CHOSEN (0: after every other message of the conversation).
    StoreResult<ChatMessage> insert(QSqlQuery &query, qint64 conversationId, const ChatMessage &message, qint64 now,
                                    const QString &failed, qint64 chosen = 0);

    // "WITH RECURSIVE path(id, depth) AS (...)": the ids of the path shown of the conversation bound
    // to its one placeholder, with their depth from 0; a statement that follows selects from it.
    static QString shownPathSql();

private:
    // Stores MESSAGE beside VERSIONOF when that is not 0, else as append() does.
    StoreResult<ChatMessage> store(qint64 conversationId, const ChatMessage &message, qint64 versionOf);

    StoreDatabase &m_db;
};

} // namespace Sandpiper
