#include "storage/turnrecovery.h"

#include "logging.h"
#include "storage/rowcodec.h"

#include <QHash>

namespace Sandpiper {

namespace {

// What the model reads in place of a result that never came.
const QString InterruptedToolResult =
    QStringLiteral("The tool call was interrupted when Sandpiper stopped; it did not finish.");

} // namespace

StoreResult<StoreRecovery> TurnRecovery::recover(const StoreDatabase &database, QSqlQuery &query)
{
    const QString failed = tr("The answers the last run left unfinished could not be recovered.");
    WriteTransaction transaction(query);
    if (!transaction.begin())
        return database.sqlError(query, failed);

    // Conversations the last run may have left mid-turn: a message still streaming, or a last
    // message of a branch that asks for or answers a tool call.
    QList<qint64> candidates;
    if (!query.exec(QStringLiteral(
            "SELECT DISTINCT conversation_id FROM messages WHERE status = 'streaming' "
            "UNION SELECT m.conversation_id FROM messages m WHERE (m.role = 'tool' OR m.tool_calls IS NOT NULL) "
            "AND NOT EXISTS (SELECT 1 FROM messages c WHERE c.parent_id = m.id)")))
        return database.sqlError(query, failed);
    while (query.next())
        candidates.append(query.value(0).toLongLong());

    StoreRecovery recovery;
    if (!StoreDatabase::run(
            query, QStringLiteral("UPDATE messages SET status = 'interrupted', updated = ? WHERE status = 'streaming'"),
            {RowCodec::nowMs()}))
        return database.sqlError(query, failed);
    recovery.interruptedMessages = query.numRowsAffected();

    for (const qint64 conversationId : std::as_const(candidates)) {
        auto supplied = supplyMissingToolResults(database, query, conversationId);
        if (!supplied)
            return supplied.error();
        recovery.synthesizedToolResults += *supplied;
    }
    if (!transaction.commit())
        return database.sqlError(query, failed);
    if (recovery.interruptedMessages > 0 || recovery.synthesizedToolResults > 0) {
        qCInfo(lcStorage) << "recovered" << recovery.interruptedMessages << "interrupted messages and"
                          << recovery.synthesizedToolResults << "unanswered tool calls";
    }
    return recovery;
}

StoreResult<int> TurnRecovery::supplyMissingToolResults(const StoreDatabase &database, QSqlQuery &query,
                                                        qint64 conversationId)
{
    const QString failed = tr("The tool calls the last run left unanswered could not be recovered.");
    struct Row {
        qint64 id;
        qint64 parentId;
        ChatMessage::Role role;
        QList<ToolCall> calls;
        QString toolCallId;
    };
    QList<Row> rows;
    QHash<qint64, qsizetype> rowOfId;
    if (!StoreDatabase::run(query,
                            QStringLiteral("SELECT id, parent_id, role, tool_calls, tool_call_id FROM messages "
                                           "WHERE conversation_id = ? ORDER BY seq, id"),
                            {conversationId}))
        return database.sqlError(query, failed);
    while (query.next()) {
        rowOfId.insert(query.value(0).toLongLong(), rows.size());
        rows.append({query.value(0).toLongLong(), query.value(1).toLongLong(),
                     ChatMessage::roleFromName(query.value(2).toString()),
                     RowCodec::toolCallsFromJson(query.value(3).toString()), query.value(4).toString()});
    }
    // The tool results of a call follow it one under the other (a conversation is a tree, but a
    // tool result has no other versions): the first tool message under a message continues them.
    QHash<qint64, qint64> toolChild;
    for (const Row &row : std::as_const(rows)) {
        if (row.role == ChatMessage::Role::Tool && row.parentId != 0 && !toolChild.contains(row.parentId))
            toolChild.insert(row.parentId, row.id);
    }

    // Strict servers reject a history in which a tool call is not answered by the tool messages
    // right after it. The missing results go under the last result there is, and what followed it
    // follows them; later rows move down in order to keep every message after its parent. Going
    // backwards keeps the order of earlier rows valid while later ones shift to make room.
    int supplied = 0;
    for (qsizetype i = rows.size() - 1; i >= 0; --i) {
        if (rows[i].role != ChatMessage::Role::Assistant || rows[i].calls.isEmpty())
            continue;
        QStringList answered; // an id may stand for several calls of one message
        qint64 last = rows[i].id;
        for (qint64 next = toolChild.value(last); next != 0; next = toolChild.value(last)) {
            answered << rows[rowOfId.value(next)].toolCallId;
            last = next;
        }
        QList<ToolCall> missing;
        for (const ToolCall &call : std::as_const(rows[i].calls)) {
            if (!answered.removeOne(call.id))
                missing.append(call);
        }
        if (missing.isEmpty())
            continue;
        // Read again: an earlier round may have moved it.
        if (!StoreDatabase::run(query, QStringLiteral("SELECT seq FROM messages WHERE id = ?"), {last}) ||
            !query.next())
            return database.sqlError(query, failed);
        qint64 lastSeq = query.value(0).toLongLong();
        query.finish();
        if (!StoreDatabase::run(
                query, QStringLiteral("UPDATE messages SET seq = seq + ? WHERE conversation_id = ? AND seq > ?"),
                {missing.size(), conversationId, lastSeq}))
            return database.sqlError(query, failed);
        const qint64 below = last;
        const qint64 now = RowCodec::nowMs();
        for (const ToolCall &call : std::as_const(missing)) {
            if (!StoreDatabase::run(
                    query,
                    QStringLiteral(
                        "INSERT INTO messages (conversation_id, seq, role, content, tool_call_id, tool_name, "
                        "status, created, updated, parent_id, chosen) VALUES (?, ?, 'tool', ?, ?, ?, 'complete', ?, ?, "
                        "?, (SELECT chosen FROM messages WHERE id = ?))"),
                    {conversationId, ++lastSeq, InterruptedToolResult, call.id, call.name, now, now, last, last}))
                return database.sqlError(query, failed);
            last = query.lastInsertId().toLongLong();
            ++supplied;
        }
        if (!StoreDatabase::run(
                query, QStringLiteral("UPDATE messages SET parent_id = ? WHERE parent_id = ? AND role <> 'tool'"),
                {last, below}))
            return database.sqlError(query, failed);
    }
    return supplied;
}

} // namespace Sandpiper
