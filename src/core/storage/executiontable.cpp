#include "storage/executiontable.h"

#include "storage/messagetable.h"
#include "storage/rowcodec.h"

#include <QJsonDocument>

namespace Sandpiper {

namespace {

const QString ExecutionColumns = QStringLiteral(
    "id, conversation_id, tool_call_id, origin, code, status, stdout, stderr, value, error_type, error_message, "
    "traceback, dropped_stdout_bytes, dropped_stderr_bytes, duration_ms, timed_out, state_lost, state_reset, figures, "
    "files, created, figures_not_kept, refused, stop_reason, rich_output, message_id, call_index");

StoredExecution executionFromRow(const QSqlQuery &query)
{
    StoredExecution execution;
    execution.id = query.value(0).toLongLong();
    execution.conversationId = query.value(1).toLongLong();
    execution.toolCallId = query.value(2).toString();
    execution.origin =
        StoredExecution::originFromName(query.value(3).toString()).value_or(StoredExecution::Origin::Model);
    execution.code = query.value(4).toString();
    ExecutionResult &result = execution.result;
    result.status = StoredExecution::statusFromName(query.value(5).toString()).value_or(ExecutionResult::Status::Error);
    result.standardOutput = query.value(6).toString();
    result.standardError = query.value(7).toString();
    result.value = query.value(8).toString();
    result.errorType = query.value(9).toString();
    result.errorMessage = query.value(10).toString();
    result.traceback = query.value(11).toString();
    result.droppedStdoutBytes = query.value(12).toLongLong();
    result.droppedStderrBytes = query.value(13).toLongLong();
    result.durationMs = query.value(14).toLongLong();
    result.timedOut = query.value(15).toBool();
    result.stateLost = query.value(16).toBool();
    result.stateReset = query.value(17).toBool();
    result.figures = RowCodec::stringListFromJson(query.value(18).toString());
    result.files = RowCodec::stringListFromJson(query.value(19).toString());
    execution.created = RowCodec::fromMs(query.value(20));
    result.figuresNotKept = query.value(21).toInt();
    result.refused = RowCodec::stringListFromJson(query.value(22).toString());
    result.stopReason = query.value(23).toString();
    result.setRichOutput(QJsonDocument::fromJson(query.value(24).toString().toUtf8()).object());
    if (!query.isNull(25) && !query.isNull(26))
        execution.call = {query.value(25).toLongLong(), query.value(26).toInt()};
    return execution;
}

} // namespace

StoreResult<StoredExecution> ExecutionTable::insert(QSqlQuery &query, qint64 conversationId,
                                                    const StoredExecution &execution, qint64 now, const QString &failed)
{
    StoredExecution stored = execution;
    stored.conversationId = conversationId;
    stored.created = RowCodec::fromMs(RowCodec::toMs(execution.created, now));
    const ExecutionResult &result = execution.result;
    if (!StoreDatabase::run(
            query,
            QStringLiteral(
                "INSERT INTO executions (conversation_id, tool_call_id, origin, code, status, stdout, stderr, "
                "value, error_type, error_message, traceback, dropped_stdout_bytes, dropped_stderr_bytes, "
                "duration_ms, timed_out, state_lost, state_reset, figures, files, created, figures_not_kept, refused, "
                "stop_reason, rich_output, message_id, call_index) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
            {conversationId,
             execution.toolCallId.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : execution.toolCallId,
             StoredExecution::originName(execution.origin),
             execution.code,
             ExecutionResult::statusName(result.status),
             result.standardOutput,
             result.standardError,
             result.value,
             result.errorType,
             result.errorMessage,
             result.traceback,
             result.droppedStdoutBytes,
             result.droppedStderrBytes,
             result.durationMs,
             result.timedOut,
             result.stateLost,
             result.stateReset,
             RowCodec::stringListToJson(result.figures),
             RowCodec::stringListToJson(result.files),
             stored.created.toMSecsSinceEpoch(),
             result.figuresNotKept,
             RowCodec::stringListToJson(result.refused),
             result.stopReason,
             RowCodec::compactJson(result.richOutputJson()),
             execution.call.isValid() ? QVariant(execution.call.messageId) : QVariant(QMetaType::fromType<qint64>()),
             execution.call.isValid() ? QVariant(execution.call.index) : QVariant(QMetaType::fromType<int>())}))
        return m_db.sqlError(query, failed);
    stored.id = query.lastInsertId().toLongLong();
    return stored;
}

StoreResult<StoredExecution> ExecutionTable::add(const StoredExecution &execution)
{
    const QString failed = tr("The execution could not be saved.");
    auto write = m_db.beginConversationWrite(execution.conversationId, failed);
    if (!write)
        return write.error();
    auto stored = insert((*write)->query, execution.conversationId, execution, (*write)->now, failed);
    if (stored && !(*write)->transaction.commit())
        return m_db.sqlError((*write)->query, failed);
    return stored;
}

StoreResult<QList<StoredExecution>> ExecutionTable::select(const QString &where, const QVariantList &values,
                                                           const QString &with)
{
    return m_db.selectRows(
        with + QStringLiteral("SELECT %1 FROM executions WHERE %2 ORDER BY id").arg(ExecutionColumns, where), values,
        tr("The executions could not be read."), &executionFromRow);
}

StoreResult<StoredExecution> ExecutionTable::find(qint64 id)
{
    auto found = select(QStringLiteral("id = ?"), {id});
    if (!found)
        return found.error();
    if (found->isEmpty())
        return StoreError{StoreError::Kind::NotFound, tr("There is no execution with the id %1.").arg(id)};
    return found->first();
}

StoreResult<QList<StoredExecution>> ExecutionTable::of(qint64 conversationId)
{
    return select(QStringLiteral("conversation_id = ?"), {conversationId});
}

StoreResult<QList<StoredExecution>> ExecutionTable::ofShownPath(qint64 conversationId)
{
    // A run whose message is not stored (any more) is never hidden: it is the conversation's own.
    return select(QStringLiteral("conversation_id = ? AND (message_id IS NULL OR message_id IN (SELECT id FROM path) "
                                 "OR NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = executions.message_id))"),
                  {conversationId, conversationId}, MessageTable::shownPathSql());
}

} // namespace Sandpiper
