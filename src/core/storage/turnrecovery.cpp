#include "storage/turnrecovery.h"

#include "logging.h"
#include "storage/rowcodec.h"

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

    // Conversations the last run may have left mid-turn: a message still streaming, or a
    // last message that asks for or answers a tool call.
    QList<qint64> candidates;
    if (!query.exec(QStringLiteral(
            "SELECT DISTINCT conversation_id FROM messages WHERE status = 'streaming' "
            "UNION SELECT c.id FROM conversations c WHERE EXISTS (SELECT 1 FROM (SELECT role, tool_calls FROM messages "
            "WHERE conversation_id = c.id ORDER BY seq DESC, id DESC LIMIT 1) AS last "
            "WHERE last.role = 'tool' OR last.tool_calls IS NOT NULL)")))
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
        qint64 seq;
        ChatMessage::Role role;
        QList<ToolCall> calls;
        QString toolCallId;
    };
    QList<Row> rows;
    if (!StoreDatabase::run(query,
                            QStringLiteral("SELECT seq, role, tool_calls, tool_call_id FROM messages WHERE "
                                           "conversation_id = ? ORDER BY seq, id"),
                            {conversationId}))
        return database.sqlError(query, failed);
    while (query.next()) {
        rows.append({query.value(0).toLongLong(), ChatMessage::roleFromName(query.value(1).toString()),
                     RowCodec::toolCallsFromJson(query.value(2).toString()), query.value(3).toString()});
    }

    // Strict servers reject a history in which a tool call is not answered by the tool messages
    // right after it. Going backwards keeps the positions of earlier rows valid while later ones
    // shift to make room.
    int supplied = 0;
    for (qsizetype i = rows.size() - 1; i >= 0; --i) {
        if (rows[i].role != ChatMessage::Role::Assistant || rows[i].calls.isEmpty())
            continue;
        QStringList answered; // an id may stand for several calls of one message
        qint64 lastSeq = rows[i].seq;
        for (qsizetype j = i + 1; j < rows.size() && rows[j].role == ChatMessage::Role::Tool; ++j) {
            answered << rows[j].toolCallId;
            lastSeq = rows[j].seq;
        }
        QList<ToolCall> missing;
        for (const ToolCall &call : std::as_const(rows[i].calls)) {
            if (!answered.removeOne(call.id))
                missing.append(call);
        }
        if (missing.isEmpty())
            continue;
        if (!StoreDatabase::run(
                query, QStringLiteral("UPDATE messages SET seq = seq + ? WHERE conversation_id = ? AND seq > ?"),
                {missing.size(), conversationId, lastSeq}))
            return database.sqlError(query, failed);
        const qint64 now = RowCodec::nowMs();
        for (const ToolCall &call : std::as_const(missing)) {
            if (!StoreDatabase::run(
                    query,
                    QStringLiteral(
                        "INSERT INTO messages (conversation_id, seq, role, content, tool_call_id, tool_name, "
                        "status, created, updated) VALUES (?, ?, 'tool', ?, ?, ?, 'complete', ?, ?)"),
                    {conversationId, ++lastSeq, InterruptedToolResult, call.id, call.name, now, now}))
                return database.sqlError(query, failed);
            ++supplied;
        }
    }
    return supplied;
}

} // namespace Sandpiper
