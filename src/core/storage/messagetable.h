#pragma once

#include "llm/chatmessage.h"
#include "storage/storedatabase.h"

namespace Sandpiper {

// The messages of the conversations, in order (seq), with their streaming status.
class MessageTable
{
    Q_DECLARE_TR_FUNCTIONS(MessageTable)

public:
    explicit MessageTable(StoreDatabase &database)
        : m_db(database)
    {}

    // Stores MESSAGE at the end of the conversation; the first user message names a conversation
    // that has no title yet.
    StoreResult<ChatMessage> append(qint64 conversationId, const ChatMessage &message);
    StoreResult<void> update(const ChatMessage &message);
    StoreResult<void> removeFrom(qint64 conversationId, qint64 messageId);
    StoreResult<QList<ChatMessage>> of(qint64 conversationId);
    // Inserts MESSAGE at the end of the conversation in the transaction QUERY is in.
    StoreResult<ChatMessage> insert(QSqlQuery &query, qint64 conversationId, const ChatMessage &message, qint64 now,
                                    const QString &failed);

private:
    StoreDatabase &m_db;
};

} // namespace Sandpiper
