#pragma once

// Threading: one Qt SQL connection per thread and store. Qt SQL connections may only be used by
// the thread that opened them, so each thread that calls the store gets its own connection,
// opened lazily on its first call and named after the store and the thread; a thread_local
// holder closes it when the thread finishes (and the destructor closes the rest). The database
// runs in WAL mode, so the GUI thread reads while the agent's worker thread writes, without
// waiting for it; writers take the write lock up front (BEGIN IMMEDIATE) and wait for each other
// through SQLite's busy timeout. Every call is synchronous and short, and none of them shares
// mutable state with another thread beyond the one-time opening, which a mutex guards. (One
// owner thread serving queued requests would have made every read in the GUI asynchronous or
// blocking on the writer; WAL makes that unnecessary.)

#include "storage/storerecovery.h"
#include "storage/storeresult.h"

#include <QCoreApplication>
#include <QMutex>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStringList>
#include <QVariantList>

#include <atomic>
#include <memory>
#include <optional>

namespace Sandpiper {

// A write transaction. BEGIN IMMEDIATE takes the write lock at once, so two writers wait for each
// other through the busy timeout instead of failing when a read transaction cannot be upgraded.
// Rolled back unless committed.
class WriteTransaction
{
public:
    explicit WriteTransaction(QSqlQuery &query)
        : m_query(query)
    {}
    ~WriteTransaction();
    WriteTransaction(const WriteTransaction &) = delete;
    WriteTransaction &operator=(const WriteTransaction &) = delete;

    bool begin();
    bool commit();

private:
    QSqlQuery &m_query;
    bool m_active = false;
};

// A write transaction that has already marked one conversation as changed now: the start of
// every write that adds to a conversation.
struct ConversationWrite {
    explicit ConversationWrite(const QSqlDatabase &database);

    QSqlQuery query;
    WriteTransaction transaction;
    qint64 now;
};

// The store's SQLite file: one connection per thread; opening it (creating, upgrading, setting
// a damaged or foreign file aside, recovering what the last run left unfinished); SQLite's
// failures as sentences for the user. The tables of the store work through it.
class StoreDatabase
{
    Q_DECLARE_TR_FUNCTIONS(StoreDatabase)

public:
    explicit StoreDatabase(const QString &dataFolder);
    ~StoreDatabase();
    StoreDatabase(const StoreDatabase &) = delete;
    StoreDatabase &operator=(const StoreDatabase &) = delete;

    QString dataFolder() const { return m_dataFolder; }
    QString databasePath() const;
    QString conversationFolder(qint64 conversationId) const;
    QString conversationsFolder() const;
    // The kept copies of the conversation folders' files (FolderSnapshots).
    QString snapshotsFolder() const;

    StoreResult<void> open();
    QString lastWarning() const;
    StoreRecovery lastRecovery() const;

    // This thread's connection, the database opened first if needed.
    StoreResult<QSqlDatabase> connection();
    // A write in conversation ID, begun; FAILED is the sentence for a failure ("The message could
    // not be saved."), NOTFOUND the error when the conversation is not there.
    StoreResult<std::unique_ptr<ConversationWrite>> beginConversationWrite(qint64 id, const QString &failed);

    // SQL on QUERY with VALUES bound in order.
    static bool run(QSqlQuery &query, const QString &sql, const QVariantList &values = {});
    // Runs SQL, a SELECT, on this thread's connection and turns every row into a T.
    template<typename T>
    StoreResult<QList<T>> selectRows(const QString &sql, const QVariantList &values, const QString &failed,
                                     T (*fromRow)(const QSqlQuery &));
    // What went wrong with QUERY, for the user: FAILED (a whole sentence saying what could not be
    // done), then why in a sentence of its own.
    StoreError sqlError(const QSqlQuery &query, const QString &failed) const;
    static StoreError noConversation(qint64 id);

private:
    StoreResult<void> initialize();
    std::optional<QString> unusableFileReason();
    StoreResult<void> moveBrokenFilesAside(const QString &reason);
    StoreResult<void> migrate(QSqlQuery &query);
    QString connectionName() const;
    StoreResult<QSqlDatabase> threadConnection();

    const QString m_dataFolder;
    const QString m_connectionPrefix;
    mutable QMutex m_openMutex; // guards opening and what it reports
    std::atomic<bool> m_open = false;
    QString m_lastWarning;
    StoreRecovery m_lastRecovery;
    QMutex m_connectionsMutex;
    QStringList m_connections; // every thread's connection to this store
};

template<typename T>
StoreResult<QList<T>> StoreDatabase::selectRows(const QString &sql, const QVariantList &values, const QString &failed,
                                                T (*fromRow)(const QSqlQuery &))
{
    auto db = connection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    query.setForwardOnly(true);
    if (!run(query, sql, values))
        return sqlError(query, failed);
    QList<T> rows;
    while (query.next())
        rows.append(fromRow(query));
    return rows;
}

} // namespace Sandpiper
