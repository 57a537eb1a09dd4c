#pragma once

#include "llm/chatmessage.h"
#include "storage/attachment.h"
#include "storage/conversation.h"
#include "storage/conversationsnapshot.h"
#include "storage/folderrestore.h"
#include "storage/searchhit.h"
#include "storage/storedexecution.h"
#include "storage/storerecovery.h"
#include "storage/storeresult.h"

#include <QCoreApplication>
#include <QString>

#include <atomic>
#include <memory>

namespace Sandpiper {

class AttachmentTable;
class ConversationTable;
class ExecutionTable;
class FolderSnapshots;
class MessageTable;
class SearchIndex;
class StoreDatabase;

// Conversations, their messages, executions and attachments, in one SQLite file with a folder
// per conversation beside it:
//   <data>/sandpiper.db
//   <data>/conversations/<id>/   mounted into the conversation's sandbox at /mnt/data
//   <data>/snapshots/            the files of the folders as they were after each run (FolderSnapshots)
// The work is done by one part per entity (ConversationTable, MessageTable, ExecutionTable,
// AttachmentTable, SearchIndex) over the database and its connections (StoreDatabase, which
// also explains the threading); this is what the rest of Sandpiper calls. Any thread may call
// it; destroy it once the threads that used it are done with it.
class ConversationStore
{
    Q_DECLARE_TR_FUNCTIONS(ConversationStore)

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
    using Recovery = StoreRecovery;
    Recovery lastRecovery() const;

    StoreResult<Conversation> createConversation(const QString &provider, const QString &model,
                                                 const QJsonObject &settings = {});
    StoreResult<Conversation> conversation(qint64 id);
    // Most recently updated first.
    StoreResult<QList<Conversation>> conversations();
    StoreResult<void> renameConversation(qint64 id, const QString &title);
    // The provider and model the conversation's next request goes to; its place in the list stays.
    StoreResult<void> setConversationModel(qint64 id, const QString &provider, const QString &model);
    StoreResult<void> setConversationSettings(qint64 id, const QJsonObject &settings);
    // Removes the rows (messages, executions, attachments cascade), the folder and the kept copies
    // of its files that no other run names.
    StoreResult<void> deleteConversation(qint64 id);

    // A conversation is a tree of messages; the chat shows one path of it (see Schema, version 8).
    // Stores MESSAGE under MESSAGE.parentId, or at the end of the path shown when that is 0, shows
    // it, and returns it with its id, parent and times. The first user message names a conversation
    // that has no title yet.
    StoreResult<ChatMessage> appendMessage(qint64 conversationId, const ChatMessage &message);
    // Stores MESSAGE as a new version of SIBLINGID (an edited question, an answer asked again),
    // beside it under the same parent, and shows it; SIBLINGID and what follows it stay.
    StoreResult<ChatMessage> addMessageVersion(qint64 conversationId, qint64 siblingId, const ChatMessage &message);
    // Writes what changes while an answer streams and after: content, reasoning, tool calls,
    // tool call id and name, usage, status, error. MESSAGE.id names the row.
    StoreResult<void> updateMessage(const ChatMessage &message);
    // Shows MESSAGEID (another version, or a message that search found on another branch): the path
    // shown goes through it, and below it through the versions shown there last.
    StoreResult<void> showMessage(qint64 conversationId, qint64 messageId);
    // Removes MESSAGEID, every message below it and their runs of code; its other versions and
    // everything on them stay.
    StoreResult<void> deleteMessage(qint64 conversationId, qint64 messageId);
    // The path shown, from the first message down; each message says which of its versions it is.
    StoreResult<QList<ChatMessage>> messages(qint64 conversationId);
    // Every message of the conversation on any branch, each after its parent.
    StoreResult<QList<ChatMessage>> allMessages(qint64 conversationId);
    // The versions of MESSAGEID, itself among them, oldest first ("< 2 / 3 >").
    StoreResult<QList<qint64>> messageVersions(qint64 messageId);

    StoreResult<StoredExecution> addExecution(const StoredExecution &execution);
    StoreResult<StoredExecution> execution(qint64 id);
    // The runs of the path shown (what its kernel ran), with those that belong to no message.
    StoreResult<QList<StoredExecution>> executions(qint64 conversationId);
    // Every run of the conversation, on any branch.
    StoreResult<QList<StoredExecution>> allExecutions(qint64 conversationId);
    // The runs of the messages of PATH (a branch, or its first part), with those that belong to no
    // message, oldest first: what a kernel on that branch ran.
    StoreResult<QList<StoredExecution>> executionsOf(qint64 conversationId, const QList<ChatMessage> &path);

    // The conversation's folder follows the branch (issue 27). Records what the folder holds now as
    // the folder after EXECUTIONID (a run of the conversation; ToolCallRunner does it after storing
    // each run): every regular file, by its content, kept once in <data>/snapshots however many runs
    // and conversations hold it. Links and special files are skipped; files larger than
    // FILELIMITBYTES (0: no limit, as the sandbox's disk limit) or that would leave less than
    // MINFREEDISKBYTES free on the disk are left out, with a note that restoreFolder() reports.
    StoreResult<void> recordFolder(qint64 conversationId, qint64 executionId, qint64 fileLimitBytes = 0,
                                   qint64 minFreeDiskBytes = 0);
    // Makes the conversation's folder hold exactly what it held after EXECUTIONID (0: before any
    // code ran, only the files the user attached, which always stay). Files that are right already
    // are not touched; the others are written from the kept copies (each checked against its hash
    // before anything in the folder changes), what the branch did not have is removed. Nothing in
    // the folder is followed. An error, and the folder left as it is, when EXECUTIONID was not
    // recorded (it ran before this was kept), a kept copy is missing or damaged, the branch's files
    // take more than FOLDERLIMITBYTES (0: not checked), or writing them would leave less than
    // MINFREEDISKBYTES free. FolderRestore::problem says what could not be done after that.
    StoreResult<FolderRestore> restoreFolder(qint64 conversationId, qint64 executionId, qint64 folderLimitBytes = 0,
                                             qint64 minFreeDiskBytes = 0);
    // Where the kept copies are; bytes read to hash files since the store was made (for tests).
    QString snapshotFolder() const;
    qint64 snapshotHashedBytes() const;

    // Copies SOURCEPATH into the conversation's folder (under a free name) and records it.
    // Refused when the folder would hold more than FOLDERLIMITBYTES, or the disk keep less
    // than MINFREEDISKBYTES free (0: not checked): uploads count against the sandbox's limit.
    StoreResult<Attachment> attachFile(qint64 conversationId, const QString &sourcePath, qint64 folderLimitBytes = 0,
                                       qint64 minFreeDiskBytes = 0);
    StoreResult<QList<Attachment>> attachments(qint64 conversationId);
    StoreResult<void> removeAttachment(qint64 attachmentId);

    // The conversation with its path shown and its runs, its whole tree, and its attachments, for
    // display and export.
    StoreResult<ConversationSnapshot> loadConversation(qint64 id);
    // Stores SNAPSHOT as a new conversation in one transaction: all of it or nothing. Its rows get
    // new ids (a message's parent and an execution's call follow their message there), and its
    // attachments are ignored: their files are not part of it. Its TREE is stored with the last
    // of its MESSAGES shown; without a tree, its MESSAGES are one path.
    StoreResult<Conversation> insertConversation(const ConversationSnapshot &snapshot);

    // Full-text search over user and assistant messages and executed code, best match first.
    // QUERY is what the user typed: every whitespace-separated word must occur (as a word or
    // the start of one); it is never parsed as FTS syntax. An empty query finds nothing.
    StoreResult<QList<SearchHit>> search(const QString &query, int limit = 50);

private:
    std::unique_ptr<StoreDatabase> m_db;
    std::unique_ptr<ConversationTable> m_conversations;
    std::unique_ptr<MessageTable> m_messages;
    std::unique_ptr<ExecutionTable> m_executions;
    std::unique_ptr<AttachmentTable> m_attachments;
    std::unique_ptr<SearchIndex> m_search;
    std::unique_ptr<FolderSnapshots> m_snapshots;
    std::atomic<bool> m_swept = false;
};

} // namespace Sandpiper
