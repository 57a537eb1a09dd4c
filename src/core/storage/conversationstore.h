#pragma once

// Threading: one Qt SQL connection per thread and store. Qt SQL connections may only be used by
// the thread that opened them, so each thread that calls the store gets its own connection,
// opened lazily on its first call and named after the store and the thread; a thread_local
// holder closes it when the thread finishes (and the store's destructor closes the rest).
// The database runs in WAL mode, so the GUI thread reads while the agent's worker thread
// writes, without waiting for it; writers take the write lock up front (BEGIN IMMEDIATE) and
// wait for each other through SQLite's busy timeout. Every call is synchronous and short, and
// none of them shares mutable state with another thread beyond the one-time opening, which a
// mutex guards. (One owner thread serving queued requests would have made every read in the
// GUI asynchronous or blocking on the writer; WAL makes that unnecessary.)

#include "llm/chatmessage.h"
#include "storage/attachment.h"
#include "storage/conversation.h"
#include "storage/conversationsnapshot.h"
#include "storage/searchhit.h"
#include "storage/storedexecution.h"
#include "storage/storeresult.h"

#include <QList>
#include <QMutex>
#include <QString>
#include <QVariantList>

#include <atomic>
#include <optional>

class QSqlDatabase;
class QSqlQuery;

namespace Sandpiper {

// Conversations, their messages, executions and attachments, in one SQLite file with a folder
// per conversation beside it:
//   <data>/sandpiper.db
//   <data>/conversations/<id>/   mounted into the conversation's sandbox at /mnt/data
// Any thread may call it; destroy it once the threads that used it are done with it.
class ConversationStore
{
public:
    // DATAFOLDER holds the database and the conversation folders; tests and --profile pass
    // their own. Nothing touches the disk until the first call.
    explicit ConversationStore(const QString &dataFolder = defaultDataFolder());
    ~ConversationStore();
    ConversationStore(const ConversationStore &) = delete;
    ConversationStore &operator=(const ConversationStore &) = delete;

    static QString defaultDataFolder();
    QString dataFolder() const;
    QString databasePath() const;
    QString conversationFolder(qint64 conversationId) const;

    // Opens the database: creates it, upgrades an older schema, moves a damaged or foreign file
    // aside (see lastWarning()) and marks what the last run left streaming as interrupted.
    // Every other call opens on demand, so after a failure the next call tries again.
    StoreResult<void> open();
    // What open() had to do to an unusable file, for the user; empty when nothing happened.
    QString lastWarning() const;
    // Messages open() found streaming (now interrupted) and tool results it had to supply.
    struct Recovery {
        int interruptedMessages = 0;
        int synthesizedToolResults = 0;
    };
    Recovery lastRecovery() const;

    StoreResult<Conversation> createConversation(const QString &provider, const QString &model,
                                                 const QJsonObject &settings = {});
    StoreResult<Conversation> conversation(qint64 id);
    // Most recently updated first.
    StoreResult<QList<Conversation>> conversations();
    StoreResult<void> renameConversation(qint64 id, const QString &title);
    StoreResult<void> setConversationModel(qint64 id, const QString &provider, const QString &model);
    StoreResult<void> setConversationSettings(qint64 id, const QJsonObject &settings);
    // Removes the rows (messages, executions, attachments cascade) and the folder.
    StoreResult<void> deleteConversation(qint64 id);

    // Stores MESSAGE at the end of the conversation and returns it with its id and times.
    // The first user message names a conversation that has no title yet.
    StoreResult<ChatMessage> appendMessage(qint64 conversationId, const ChatMessage &message);
    // Writes what changes while an answer streams and after: content, reasoning, tool calls,
    // tool call id and name, usage, status, error. MESSAGE.id names the row.
    StoreResult<void> updateMessage(const ChatMessage &message);
    // Removes MESSAGEID and every later message of the conversation (edit and resend).
    StoreResult<void> deleteMessagesFrom(qint64 conversationId, qint64 messageId);
    StoreResult<QList<ChatMessage>> messages(qint64 conversationId);

    StoreResult<StoredExecution> addExecution(const StoredExecution &execution);
    StoreResult<StoredExecution> execution(qint64 id);
    StoreResult<QList<StoredExecution>> executions(qint64 conversationId);

    // Copies SOURCEPATH into the conversation's folder (under a free name) and records it.
    StoreResult<Attachment> attachFile(qint64 conversationId, const QString &sourcePath);
    StoreResult<QList<Attachment>> attachments(qint64 conversationId);
    StoreResult<void> removeAttachment(qint64 attachmentId);

    // The conversation with its messages, executions and attachments, for display and export.
    StoreResult<ConversationSnapshot> loadConversation(qint64 id);
    // Stores SNAPSHOT as a new conversation in one transaction: all of it or nothing. Ids in
    // the snapshot are ignored, and so are its attachments: their files are not part of it.
    StoreResult<Conversation> insertConversation(const ConversationSnapshot &snapshot);

    // Full-text search over user and assistant messages and executed code, best match first.
    // QUERY is what the user typed: every whitespace-separated word must occur (as a word or
    // the start of one); it is never parsed as FTS syntax. An empty query finds nothing.
    StoreResult<QList<SearchHit>> search(const QString &query, int limit = 50);

private:
    StoreResult<void> ensureOpen();
    StoreResult<void> initialize();
    std::optional<QString> unusableFileReason();
    StoreResult<void> moveBrokenFilesAside(const QString &reason);
    StoreResult<void> migrate(QSqlQuery &query);
    StoreResult<void> recoverInterrupted(QSqlQuery &query);
    StoreResult<int> supplyMissingToolResults(QSqlQuery &query, qint64 conversationId);

    QString connectionName() const;
    StoreResult<QSqlDatabase> threadConnection();
    StoreResult<QSqlDatabase> database();
    StoreError sqlError(const QSqlQuery &query, const QString &action) const;

    // Runs SQL, a SELECT, on this thread's connection and turns every row into a T; ACTION
    // names what failed in the error ("read the messages").
    template<typename T>
    StoreResult<QList<T>> selectRows(const QString &sql, const QVariantList &values, const QString &action,
                                     T (*fromRow)(const QSqlQuery &));
    StoreResult<QList<Conversation>> selectConversations(const QString &where, const QVariantList &values);
    StoreResult<void> updateConversation(qint64 id, const QString &assignments, const QVariantList &values,
                                         const QString &action);
    StoreResult<ChatMessage> insertMessage(QSqlQuery &query, qint64 conversationId, const ChatMessage &message,
                                           qint64 now);
    StoreResult<StoredExecution> insertExecution(QSqlQuery &query, qint64 conversationId,
                                                 const StoredExecution &execution, qint64 now);
    StoreResult<QList<StoredExecution>> selectExecutions(const QString &where, qint64 id);
    StoreResult<QList<SearchHit>> searchTable(QSqlQuery &query, const QString &match, SearchHit::Kind kind, int limit);

    const QString m_dataFolder;
    const QString m_connectionPrefix;
    mutable QMutex m_openMutex; // guards opening and what it reports
    std::atomic<bool> m_open = false;
    QString m_lastWarning;
    Recovery m_lastRecovery;
    QMutex m_connectionsMutex;
    QStringList m_connections; // every thread's connection to this store
};

} // namespace Sandpiper
