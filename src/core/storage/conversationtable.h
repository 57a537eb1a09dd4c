#pragma once

#include "storage/conversation.h"
#include "storage/storedatabase.h"

namespace Sandpiper {

// The conversations table: one row per conversation with its title, provider, model and
// choices, and a folder beside the database for its files.
class ConversationTable
{
    Q_DECLARE_TR_FUNCTIONS(ConversationTable)

public:
    explicit ConversationTable(StoreDatabase &database)
        : m_db(database)
    {}

    StoreResult<Conversation> create(const QString &provider, const QString &model, const QJsonObject &settings);
    StoreResult<Conversation> find(qint64 id);
    // Most recently updated first.
    StoreResult<QList<Conversation>> all();
    StoreResult<void> rename(qint64 id, const QString &title);
    StoreResult<void> setModel(qint64 id, const QString &provider, const QString &model);
    StoreResult<void> setSettings(qint64 id, const QJsonObject &settings);
    // Removes the row (messages, executions, attachments cascade) and the folder.
    StoreResult<void> remove(qint64 id);
    // Inserts SOURCE as a new row in the transaction QUERY is in; returns its id.
    StoreResult<qint64> insert(QSqlQuery &query, const Conversation &source, qint64 now, const QString &failed);

private:
    StoreResult<QList<Conversation>> select(const QString &where, const QVariantList &values);
    // TOUCH: the conversation counts as updated now.
    StoreResult<void> update(qint64 id, const QString &assignments, const QVariantList &values, const QString &failed,
                             bool touch = true);

    StoreDatabase &m_db;
};

} // namespace Sandpiper
