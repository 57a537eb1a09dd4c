#include "storage/messagetable.h"

#include "storage/conversation.h"
#include "storage/rowcodec.h"

#include <algorithm>

namespace Sandpiper {

namespace {

// M is the messages table; PARENT comes last, so that a path's version figures can follow it.
const QString MessageColumns = QStringLiteral(
    "m.id, m.role, m.content, m.reasoning, m.tool_calls, m.tool_call_id, m.tool_name, m.prompt_tokens, "
    "m.completion_tokens, m.total_tokens, m.status, m.error, m.created, m.updated, m.images, m.attachments, "
    "m.attachment_note, m.parent_id");
constexpr int VersionColumn = 18;

// Each message of the subtree of the message bound to the first placeholder, in the conversation
// bound to the second; a statement that follows selects from "subtree".
const QString SubtreeSql =
    QStringLiteral("WITH RECURSIVE subtree(id) AS (SELECT id FROM messages WHERE id = ? AND conversation_id = ?"
                   " UNION ALL SELECT m.id FROM messages m JOIN subtree ON m.parent_id = subtree.id) ");

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
    message.parentId = query.value(17).toLongLong();
    return message;
}

ChatMessage messageOnPathFromRow(const QSqlQuery &query)
{
    ChatMessage message = messageFromRow(query);
    message.version = query.value(VersionColumn).toInt();
    message.versionCount = query.value(VersionColumn + 1).toInt();
    return message;
}

qint64 idFromRow(const QSqlQuery &query)
{
    return query.value(0).toLongLong();
}

StoreError noMessage(qint64 id)
{
    return {StoreError::Kind::NotFound, MessageTable::tr("There is no message with the id %1.").arg(id)};
}

} // namespace

QString MessageTable::shownPathSql()
{
    return QStringLiteral(
        "WITH RECURSIVE path(id, depth) AS ("
        " SELECT (SELECT r.id FROM messages r WHERE r.conversation_id = ? AND r.parent_id IS NULL"
        "  ORDER BY r.chosen DESC, r.id DESC LIMIT 1), 0"
        " UNION ALL SELECT (SELECT c.id FROM messages c WHERE c.parent_id = path.id"
        "  ORDER BY c.chosen DESC, c.id DESC LIMIT 1), path.depth + 1 FROM path WHERE path.id IS NOT NULL) ");
}

StoreResult<ChatMessage> MessageTable::insert(QSqlQuery &query, qint64 conversationId, const ChatMessage &message,
                                              qint64 now, const QString &failed, qint64 chosen)
{
    ChatMessage stored = message;
    stored.created = RowCodec::fromMs(RowCodec::toMs(message.created, now));
    stored.updated = RowCodec::fromMs(RowCodec::toMs(message.updated, now));
    const QVariant parent =
        message.parentId != 0 ? QVariant(message.parentId) : QVariant(QMetaType::fromType<qint64>());
    const QVariant chosenValue = chosen != 0 ? QVariant(chosen) : QVariant(QMetaType::fromType<qint64>());
    if (!StoreDatabase::run(
            query,
            QStringLiteral(
                "INSERT INTO messages (conversation_id, seq, role, content, reasoning, tool_calls, "
                "tool_call_id, tool_name, prompt_tokens, completion_tokens, total_tokens, status, error, "
                "created, updated, images, attachments, attachment_note, parent_id, chosen) VALUES (?, (SELECT "
                "COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "?, ?, ?, ?, ?, ?, ?, COALESCE(?, (SELECT COALESCE(MAX(chosen), 0) + 1 FROM messages WHERE "
                "conversation_id = ?)))"),
            {conversationId,
             conversationId,
             ChatMessage::roleName(message.role),
             message.content,
             message.reasoning,
             RowCodec::toolCallsToJson(message.toolCalls),
             message.toolCallId,
             message.toolName,
             message.usage.promptTokens,
             message.usage.completionTokens,
             message.usage.totalTokens,
             ChatMessage::statusName(message.status),
             message.error,
             stored.created.toMSecsSinceEpoch(),
             stored.updated.toMSecsSinceEpoch(),
             RowCodec::stringListToJson(message.images),
             RowCodec::attachedFilesToJson(message.attachments),
             message.attachmentNote,
             parent,
             chosenValue,
             conversationId}))
        return m_db.sqlError(query, failed);
    stored.id = query.lastInsertId().toLongLong();
    return stored;
}

StoreResult<ChatMessage> MessageTable::append(qint64 conversationId, const ChatMessage &message)
{
    return store(conversationId, message, 0);
}

StoreResult<ChatMessage> MessageTable::addVersion(qint64 conversationId, qint64 siblingId, const ChatMessage &message)
{
    return store(conversationId, message, siblingId);
}

StoreResult<ChatMessage> MessageTable::store(qint64 conversationId, const ChatMessage &message, qint64 versionOf)
{
    const QString failed = tr("The message could not be saved.");
    auto write = m_db.beginConversationWrite(conversationId, failed);
    if (!write)
        return write.error();
    QSqlQuery &query = (*write)->query;
    ChatMessage placed = message;
    if (versionOf != 0) { // beside it, under the same parent
        if (!StoreDatabase::run(query,
                                QStringLiteral("SELECT parent_id FROM messages WHERE id = ? AND conversation_id = ?"),
                                {versionOf, conversationId}))
            return m_db.sqlError(query, failed);
        if (!query.next())
            return noMessage(versionOf);
        placed.parentId = query.value(0).toLongLong();
    } else if (placed.parentId == 0) { // at the end of the path shown
        if (!StoreDatabase::run(
                query,
                shownPathSql() + QStringLiteral("SELECT id FROM path WHERE id IS NOT NULL ORDER BY depth DESC LIMIT 1"),
                {conversationId}))
            return m_db.sqlError(query, failed);
        if (query.next())
            placed.parentId = query.value(0).toLongLong();
    } else {
        if (!StoreDatabase::run(query, QStringLiteral("SELECT 1 FROM messages WHERE id = ? AND conversation_id = ?"),
                                {placed.parentId, conversationId}))
            return m_db.sqlError(query, failed);
        if (!query.next())
            return noMessage(placed.parentId);
    }
    query.finish();
    auto stored = insert(query, conversationId, placed, (*write)->now, failed);
    if (!stored)
        return stored;
    // The newest of its versions: the chat shows "< 3 / 3 >" beside it at once.
    if (!StoreDatabase::run(
            query, QStringLiteral("SELECT COUNT(*) FROM messages WHERE conversation_id = ? AND parent_id IS ?"),
            {conversationId,
             placed.parentId != 0 ? QVariant(placed.parentId) : QVariant(QMetaType::fromType<qint64>())}))
        return m_db.sqlError(query, failed);
    if (query.next())
        stored->version = stored->versionCount = std::max(1, query.value(0).toInt());
    query.finish();
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

StoreResult<void> MessageTable::show(qint64 conversationId, qint64 messageId)
{
    const QString failed = tr("The version could not be shown.");
    auto db = m_db.connection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    // The message and every message above it become the versions chosen last.
    if (!StoreDatabase::run(
            query,
            QStringLiteral(
                "UPDATE messages SET chosen = (SELECT MAX(chosen) + 1 FROM messages WHERE conversation_id = ?)"
                " WHERE conversation_id = ? AND id IN (WITH RECURSIVE up(id) AS (SELECT ?"
                " UNION ALL SELECT m.parent_id FROM messages m JOIN up ON m.id = up.id"
                " WHERE m.parent_id IS NOT NULL) SELECT id FROM up)"),
            {conversationId, conversationId, messageId}))
        return m_db.sqlError(query, failed);
    if (query.numRowsAffected() == 0)
        return noMessage(messageId);
    return {};
}

StoreResult<void> MessageTable::removeVersion(qint64 conversationId, qint64 messageId)
{
    const QString failed = tr("The version could not be deleted.");
    auto write = m_db.beginConversationWrite(conversationId, failed);
    if (!write)
        return write.error();
    QSqlQuery &query = (*write)->query;
    // The runs of the subtree go with it: they belong to no other branch.
    if (!StoreDatabase::run(
            query, SubtreeSql + QStringLiteral("DELETE FROM executions WHERE message_id IN (SELECT id FROM subtree)"),
            {messageId, conversationId}) ||
        !StoreDatabase::run(query,
                            SubtreeSql + QStringLiteral("DELETE FROM messages WHERE id IN (SELECT id FROM subtree)"),
                            {messageId, conversationId}))
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
        shownPathSql() + QStringLiteral("SELECT %1, (SELECT COUNT(*) FROM messages s WHERE s.conversation_id = "
                                        "m.conversation_id AND s.parent_id IS m.parent_id AND s.id <= m.id), "
                                        "(SELECT COUNT(*) FROM messages s WHERE s.conversation_id = m.conversation_id "
                                        "AND s.parent_id IS m.parent_id) FROM path JOIN messages m ON m.id = path.id "
                                        "ORDER BY path.depth")
                             .arg(MessageColumns),
        {conversationId}, tr("The messages could not be read."), &messageOnPathFromRow);
}

StoreResult<QList<ChatMessage>> MessageTable::all(qint64 conversationId)
{
    // A message is always stored after its parent (the recovery of unanswered calls keeps that when
    // it puts results in between), so the order of storing puts every parent first.
    return m_db.selectRows(QStringLiteral("SELECT %1 FROM messages m WHERE m.conversation_id = ? ORDER BY m.seq, m.id")
                               .arg(MessageColumns),
                           {conversationId}, tr("The messages could not be read."), &messageFromRow);
}

StoreResult<QList<qint64>> MessageTable::versions(qint64 messageId)
{
    auto found = m_db.selectRows<qint64>(
        QStringLiteral("SELECT s.id FROM messages s JOIN messages m ON m.id = ? AND s.conversation_id = "
                       "m.conversation_id AND s.parent_id IS m.parent_id ORDER BY s.id"),
        {messageId}, tr("The versions of the message could not be read."), &idFromRow);
    if (found && found->isEmpty())
        return noMessage(messageId);
    return found;
}

} // namespace Sandpiper
