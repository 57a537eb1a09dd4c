#include "storage/messagetable.h"

#include "storage/conversation.h"
#include "storage/rowcodec.h"

namespace Sandpiper {

namespace {

const QString MessageColumns = QStringLiteral(
    "id, role, content, reasoning, tool_calls, tool_call_id, tool_name, prompt_tokens, completion_tokens, "
    "total_tokens, status, error, created, updated, images, attachments, attachment_note");

ChatMessage messageFromRow(const QSqlQuery &query)
{
    ChatMessage message;
    message.id = query.value(0).toLongLong();
    message.role = ChatMessage::roleFromName(query.value(1).toString());
    message.content = query.value(2).toString();
    message.reasoning = query.value(3).toString();
    message.toolCalls = RowCodec::toolCallsFromJson(query.value(4).toString());
    message.toolCallId = query.value(5).toString();
    message.toolName = query.value(6).toString();
    message.usage = {query.value(7).toLongLong(), query.value(8).toLongLong(), query.value(9).toLongLong()};
    message.status = ChatMessage::statusFromName(query.value(10).toString());
    message.error = query.value(11).toString();
    message.created = RowCodec::fromMs(query.value(12));
    message.updated = RowCodec::fromMs(query.value(13));
    message.images = RowCodec::stringListFromJson(query.value(14).toString());
    message.attachments = RowCodec::attachedFilesFromJson(query.value(15).toString());
    message.attachmentNote = query.value(16).toString();
    return message;
}

StoreError noMessage(qint64 id)
{
    return {StoreError::Kind::NotFound, MessageTable::tr("There is no message with the id %1.").arg(id)};
}

} // namespace

StoreResult<ChatMessage> MessageTable::insert(QSqlQuery &query, qint64 conversationId, const ChatMessage &message,
                                              qint64 now, const QString &failed)
{
    ChatMessage stored = message;
    stored.created = RowCodec::fromMs(RowCodec::toMs(message.created, now));
    stored.updated = RowCodec::fromMs(RowCodec::toMs(message.updated, now));
    if (!StoreDatabase::run(
            query,
            QStringLiteral(
                "INSERT INTO messages (conversation_id, seq, role, content, reasoning, tool_calls, "
                "tool_call_id, tool_name, prompt_tokens, completion_tokens, total_tokens, status, error, "
                "created, updated, images, attachments, attachment_note) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 "
                "FROM messages WHERE conversation_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
            {conversationId, conversationId, ChatMessage::roleName(message.role), message.content, message.reasoning,
             RowCodec::toolCallsToJson(message.toolCalls), message.toolCallId, message.toolName,
             message.usage.promptTokens, message.usage.completionTokens, message.usage.totalTokens,
             ChatMessage::statusName(message.status), message.error, stored.created.toMSecsSinceEpoch(),
             stored.updated.toMSecsSinceEpoch(), RowCodec::stringListToJson(message.images),
             RowCodec::attachedFilesToJson(message.attachments), message.attachmentNote}))
        return m_db.sqlError(query, failed);
    stored.id = query.lastInsertId().toLongLong();
    return stored;
}

StoreResult<ChatMessage> MessageTable::append(qint64 conversationId, const ChatMessage &message)
{
    const QString failed = tr("The message could not be saved.");
    auto write = m_db.beginConversationWrite(conversationId, failed);
    if (!write)
        return write.error();
    QSqlQuery &query = (*write)->query;
    auto stored = insert(query, conversationId, message, (*write)->now, failed);
    if (!stored)
        return stored;
    if (message.role == ChatMessage::Role::User) {
        const QString title = Conversation::titleFromFirstMessage(message);
        if (!title.isEmpty() &&
            !StoreDatabase::run(query, QStringLiteral("UPDATE conversations SET title = ? WHERE id = ? AND title = ''"),
                                {title, conversationId}))
            return m_db.sqlError(query, failed);
    }
    if (!(*write)->transaction.commit())
        return m_db.sqlError(query, failed);
    return stored;
}

StoreResult<void> MessageTable::removeFrom(qint64 conversationId, qint64 messageId)
{
    const QString failed = tr("The later messages could not be removed.");
    auto write = m_db.beginConversationWrite(conversationId, failed);
    if (!write)
        return write.error();
    QSqlQuery &query = (*write)->query;
    if (!StoreDatabase::run(query,
                            QStringLiteral("DELETE FROM messages WHERE conversation_id = ? AND seq >= "
                                           "(SELECT seq FROM messages WHERE id = ? AND conversation_id = ?)"),
                            {conversationId, messageId, conversationId}))
        return m_db.sqlError(query, failed);
    if (query.numRowsAffected() == 0)
        return noMessage(messageId);
    if (!(*write)->transaction.commit())
        return m_db.sqlError(query, failed);
    return {};
}

StoreResult<void> MessageTable::update(const ChatMessage &message)
{
    const QString failed = tr("The message could not be saved.");
    auto db = m_db.connection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    WriteTransaction transaction(query);
    const qint64 now = RowCodec::nowMs();
    if (!transaction.begin() ||
        !StoreDatabase::run(
            query,
            QStringLiteral("UPDATE messages SET content = ?, reasoning = ?, tool_calls = ?, tool_call_id = ?, "
                           "tool_name = ?, prompt_tokens = ?, completion_tokens = ?, total_tokens = ?, status = ?, "
                           "error = ?, updated = ? WHERE id = ?"),
            {message.content, message.reasoning, RowCodec::toolCallsToJson(message.toolCalls), message.toolCallId,
             message.toolName, message.usage.promptTokens, message.usage.completionTokens, message.usage.totalTokens,
             ChatMessage::statusName(message.status), message.error, now, message.id}))
        return m_db.sqlError(query, failed);
    if (query.numRowsAffected() == 0)
        return noMessage(message.id);
    if (!StoreDatabase::run(query,
                            QStringLiteral("UPDATE conversations SET updated = ? WHERE id = "
                                           "(SELECT conversation_id FROM messages WHERE id = ?)"),
                            {now, message.id}) ||
        !transaction.commit())
        return m_db.sqlError(query, failed);
    return {};
}

StoreResult<QList<ChatMessage>> MessageTable::of(qint64 conversationId)
{
    return m_db.selectRows(
        QStringLiteral("SELECT %1 FROM messages WHERE conversation_id = ? ORDER BY seq, id").arg(MessageColumns),
        {conversationId}, tr("The messages could not be read."), &messageFromRow);
}

} // namespace Sandpiper
