#pragma once

#include "storage/storedatabase.h"
#include "storage/storedexecution.h"

namespace Sandpiper {

// The runs of code in the conversations' sandboxes, with what they printed and produced.
class ExecutionTable
{
    Q_DECLARE_TR_FUNCTIONS(ExecutionTable)

public:
    explicit ExecutionTable(StoreDatabase &database)
        : m_db(database)
    {}

    StoreResult<StoredExecution> add(const StoredExecution &execution);
    StoreResult<StoredExecution> find(qint64 id);
    // Every run of the conversation, on any branch, oldest first.
    StoreResult<QList<StoredExecution>> of(qint64 conversationId);
    // The runs of the messages of the path shown, with the runs that belong to no stored message
    // (theirs was dropped before conversations kept their versions), oldest first: what the
    // kernel of that branch ran.
    StoreResult<QList<StoredExecution>> ofShownPath(qint64 conversationId);
    // Inserts EXECUTION into conversation CONVERSATIONID in the transaction QUERY is in.
    StoreResult<StoredExecution> insert(QSqlQuery &query, qint64 conversationId, const StoredExecution &execution,
                                        qint64 now, const QString &failed);

private:
    StoreResult<QList<StoredExecution>> select(const QString &where, const QVariantList &values,
                                               const QString &with = {});

    StoreDatabase &m_db;
};

} // namespace Sandpiper
