#include "storage/conversationstore.h"

#include "sandbox/sandboxfolder.h"
#include "storage/attachmenttable.h"
#include "storage/conversationtable.h"
#include "storage/executiontable.h"
#include "storage/foldersnapshots.h"
#include "storage/messagetable.h"
#include "storage/rowcodec.h"
#include "storage/searchindex.h"
#include "storage/storedatabase.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace Sandpiper {

ConversationStore::ConversationStore(const QString &dataFolder)
    : m_db(std::make_unique<StoreDatabase>(dataFolder))
    , m_conversations(std::make_unique<ConversationTable>(*m_db))
    , m_messages(std::make_unique<MessageTable>(*m_db))
    , m_executions(std::make_unique<ExecutionTable>(*m_db))
    , m_attachments(std::make_unique<AttachmentTable>(*m_db))
    , m_search(std::make_unique<SearchIndex>(*m_db))
    , m_snapshots(std::make_unique<FolderSnapshots>(*m_db))
{}

ConversationStore::~ConversationStore() = default;

QString ConversationStore::defaultDataFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

QString ConversationStore::dataFolder() const
{
    return m_db->dataFolder();
}

QString ConversationStore::databasePath() const
{
    return m_db->databasePath();
}

QString ConversationStore::conversationFolder(qint64 conversationId) const
{
    return m_db->conversationFolder(conversationId);
}

StoreResult<void> ConversationStore::open()
{
    auto opened = m_db->open();
    // What a run deleted meanwhile or an interrupted copy left behind.
    if (opened && !m_swept.exchange(true))
        m_snapshots->sweep();
    return opened;
}

QString ConversationStore::lastWarning() const
{
    return m_db->lastWarning();
}

ConversationStore::Recovery ConversationStore::lastRecovery() const
{
    return m_db->lastRecovery();
}

StoreResult<Conversation> ConversationStore::createConversation(const QString &provider, const QString &model,
                                                                const QJsonObject &settings)
{
    return m_conversations->create(provider, model, settings);
}

StoreResult<Conversation> ConversationStore::conversation(qint64 id)
{
    return m_conversations->find(id);
}

StoreResult<QList<Conversation>> ConversationStore::conversations()
{
    return m_conversations->all();
}

StoreResult<void> ConversationStore::renameConversation(qint64 id, const QString &title)
{
    return m_conversations->rename(id, title);
}

StoreResult<void> ConversationStore::setConversationModel(qint64 id, const QString &provider, const QString &model)
{
    return m_conversations->setModel(id, provider, model);
}

StoreResult<void> ConversationStore::setConversationSettings(qint64 id, const QJsonObject &settings)
{
    return m_conversations->setSettings(id, settings);
}

StoreResult<void> ConversationStore::deleteConversation(qint64 id)
{
    auto removed = m_conversations->remove(id);
    if (removed) {
        m_snapshots->forget(id);
        m_snapshots->sweep();
    }
    return removed;
}

StoreResult<ChatMessage> ConversationStore::appendMessage(qint64 conversationId, const ChatMessage &message)
{
    return m_messages->append(conversationId, message);
}

StoreResult<void> ConversationStore::updateMessage(const ChatMessage &message)
{
    return m_messages->update(message);
}

StoreResult<ChatMessage> ConversationStore::addMessageVersion(qint64 conversationId, qint64 siblingId,
                                                              const ChatMessage &message)
{
    return m_messages->addVersion(conversationId, siblingId, message);
}

StoreResult<void> ConversationStore::showMessage(qint64 conversationId, qint64 messageId)
{
    return m_messages->show(conversationId, messageId);
}

StoreResult<void> ConversationStore::deleteMessage(qint64 conversationId, qint64 messageId)
{
    auto removed = m_messages->removeVersion(conversationId, messageId);
    if (removed)
        m_snapshots->sweep(); // the runs of the subtree went with it
    return removed;
}

StoreResult<QList<ChatMessage>> ConversationStore::messages(qint64 conversationId)
{
    return m_messages->of(conversationId);
}

StoreResult<QList<ChatMessage>> ConversationStore::allMessages(qint64 conversationId)
{
    return m_messages->all(conversationId);
}

StoreResult<QList<qint64>> ConversationStore::messageVersions(qint64 messageId)
{
    return m_messages->versions(messageId);
}

StoreResult<StoredExecution> ConversationStore::addExecution(const StoredExecution &execution)
{
    return m_executions->add(execution);
}

StoreResult<StoredExecution> ConversationStore::execution(qint64 id)
{
    return m_executions->find(id);
}

StoreResult<QList<StoredExecution>> ConversationStore::executions(qint64 conversationId)
{
    return m_executions->ofShownPath(conversationId);
}

StoreResult<QList<StoredExecution>> ConversationStore::allExecutions(qint64 conversationId)
{
    return m_executions->of(conversationId);
}

StoreResult<QList<StoredExecution>> ConversationStore::executionsOf(qint64 conversationId,
                                                                    const QList<ChatMessage> &path)
{
    auto all = m_executions->of(conversationId);
    if (!all)
        return all;
    QSet<qint64> onPath;
    for (const ChatMessage &message : path)
        onPath.insert(message.id);
    all->removeIf([&onPath](const StoredExecution &execution) {
        return execution.call.isValid() && !onPath.contains(execution.call.messageId);
    });
    return all;
}

StoreResult<void> ConversationStore::recordFolder(qint64 conversationId, qint64 executionId, qint64 fileLimitBytes,
                                                  qint64 minFreeDiskBytes)
{
    return m_snapshots->record(conversationId, executionId, fileLimitBytes, minFreeDiskBytes);
}

StoreResult<FolderRestore> ConversationStore::restoreFolder(qint64 conversationId, qint64 executionId,
                                                            qint64 folderLimitBytes, qint64 minFreeDiskBytes)
{
    return m_snapshots->restore(conversationId, executionId, folderLimitBytes, minFreeDiskBytes);
}

QString ConversationStore::snapshotFolder() const
{
    return m_snapshots->storeFolder();
}

qint64 ConversationStore::snapshotHashedBytes() const
{
    return m_snapshots->hashedBytes();
}

StoreResult<Attachment> ConversationStore::attachFile(qint64 conversationId, const QString &sourcePath,
                                                      qint64 folderLimitBytes, qint64 minFreeDiskBytes)
{
    return m_attachments->attach(conversationId, sourcePath, folderLimitBytes, minFreeDiskBytes);
}

StoreResult<QList<Attachment>> ConversationStore::attachments(qint64 conversationId)
{
    return m_attachments->of(conversationId);
}

StoreResult<void> ConversationStore::removeAttachment(qint64 attachmentId)
{
    return m_attachments->remove(attachmentId);
}

StoreResult<QList<SearchHit>> ConversationStore::search(const QString &query, int limit)
{
    return m_search->search(query, limit);
}

StoreResult<ConversationSnapshot> ConversationStore::loadConversation(qint64 id)
{
    // One read transaction, so the parts agree with each other while the agent writes.
    auto db = m_db->connection();
    if (!db)
        return db.error();
    QSqlQuery transaction(*db);
    if (!transaction.exec(QStringLiteral("BEGIN")))
        return m_db->sqlError(transaction, tr("The conversation could not be read."));
    ConversationSnapshot snapshot;
    StoreError failure;
    bool ok = false;
    if (auto conversation = m_conversations->find(id); !conversation) {
        failure = conversation.error();
    } else if (auto messages = m_messages->of(id); !messages) {
        failure = messages.error();
    } else if (auto executions = m_executions->ofShownPath(id); !executions) {
        failure = executions.error();
    } else if (auto tree = m_messages->all(id); !tree) {
        failure = tree.error();
    } else if (auto allExecutions = m_executions->of(id); !allExecutions) {
        failure = allExecutions.error();
    } else if (auto attachments = m_attachments->of(id); !attachments) {
        failure = attachments.error();
    } else {
        snapshot.conversation = std::move(conversation).value();
        snapshot.messages = std::move(messages).value();
        snapshot.executions = std::move(executions).value();
        snapshot.tree = std::move(tree).value();
        snapshot.allExecutions = std::move(allExecutions).value();
        snapshot.attachments = std::move(attachments).value();
        ok = true;
    }
    transaction.exec(QStringLiteral("COMMIT"));
    if (!ok)
        return failure;
    return snapshot;
}

StoreResult<Conversation> ConversationStore::insertConversation(const ConversationSnapshot &snapshot)
{
    const QString failed = tr("The conversation could not be imported.");
    auto db = m_db->connection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    WriteTransaction transaction(query);
    const qint64 now = RowCodec::nowMs();
    if (!transaction.begin())
        return m_db->sqlError(query, failed);
    const auto id = m_conversations->insert(query, snapshot.conversation, now, failed);
    if (!id)
        return id.error();
    // The calls of the executions name their messages by the snapshot's ids; the rows are new.
    // A run without a call (a file from before calls had keys) names it by its id only: the n-th
    // run of an id is taken for the n-th call with that id.
    QHash<qint64, qint64> storedId;
    QHash<QString, QList<CallKey>> callsOfId;
    const bool tree = !snapshot.tree.isEmpty();
    qint64 previous = 0;
    for (const ChatMessage &message : tree ? snapshot.tree : snapshot.messages) {
        ChatMessage placed = message;
        if (!tree)
            placed.parentId = previous;
        else if (message.parentId != 0 && !storedId.contains(message.parentId))
            return StoreError{StoreError::Kind::InvalidInput,
                              failed + QLatin1Char(' ') + tr("A message comes before the message it follows.")};
        else
            placed.parentId = storedId.value(message.parentId);
        auto stored = m_messages->insert(query, *id, placed, now, failed);
        if (!stored)
            return stored.error();
        previous = stored->id;
        if (message.id != 0)
            storedId.insert(message.id, stored->id);
        for (int index = 0; index < message.toolCalls.size(); ++index)
            callsOfId[message.toolCalls.at(index).id] << CallKey{stored->id, index};
    }
    for (StoredExecution execution : tree ? snapshot.allExecutions : snapshot.executions) {
        if (execution.call.isValid() && storedId.contains(execution.call.messageId))
            execution.call.messageId = storedId.value(execution.call.messageId);
        else if (execution.origin == RunOrigin::Model && !callsOfId.value(execution.toolCallId).isEmpty())
            execution.call = callsOfId[execution.toolCallId].takeFirst();
        else
            execution.call = {};
        if (auto stored = m_executions->insert(query, *id, execution, now, failed); !stored)
            return stored.error();
    }
    const QString folder = conversationFolder(*id);
    if (!QDir().mkpath(folder)) {
        return StoreError{StoreError::Kind::WriteFailed,
                          failed + QLatin1Char(' ') +
                              tr("The folder %1 cannot be created.").arg(QDir::toNativeSeparators(folder))};
    }
    for (auto file = snapshot.files.cbegin(); file != snapshot.files.cend(); ++file) {
        QString error;
        const std::unique_ptr<QFile> created = SandboxFolder(folder).create(file.key(), &error);
        if (!created || created->write(file.value()) != file.value().size() || !created->flush()) {
            const QString why = created ? created->errorString() : error;
            QDir(folder).removeRecursively();
            return StoreError{StoreError::Kind::WriteFailed,
                              failed + QLatin1Char(' ') +
                                  tr("The file %1 cannot be written: %2")
                                      .arg(QDir::toNativeSeparators(QDir(folder).filePath(file.key())), why)};
        }
    }
    // The path shown of the tree is the one that was shown (the call runs in this transaction).
    if (tree && !snapshot.messages.isEmpty() && storedId.contains(snapshot.messages.constLast().id)) {
        if (auto shown = m_messages->show(*id, storedId.value(snapshot.messages.constLast().id)); !shown) {
            QDir(folder).removeRecursively();
            return shown.error();
        }
    }
    if (!transaction.commit()) {
        QDir(folder).removeRecursively();
        return m_db->sqlError(query, failed);
    }
    query.finish();
    return m_conversations->find(*id);
}

} // namespace Sandpiper
