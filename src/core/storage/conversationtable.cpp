#include "storage/conversationtable.h"

#include "logging.h"
#include "sandbox/sandboxfolder.h"
#include "storage/rowcodec.h"

#include <QDir>
#include <QJsonDocument>

namespace Sandpiper {

namespace {

const QString ConversationColumns =
    QStringLiteral("c.id, c.title, c.created, c.updated, c.provider, c.model, c.settings, "
                   "(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id)");

Conversation conversationFromRow(const QSqlQuery &query)
{
    Conversation conversation;
    conversation.id = query.value(0).toLongLong();
    conversation.title = query.value(1).toString();
    conversation.created = RowCodec::fromMs(query.value(2));
    conversation.updated = RowCodec::fromMs(query.value(3));
    conversation.provider = query.value(4).toString();
    conversation.model = query.value(5).toString();
    conversation.settings = QJsonDocument::fromJson(query.value(6).toString().toUtf8()).object();
    conversation.messageCount = query.value(7).toLongLong();
    return conversation;
}

} // namespace

StoreResult<Conversation> ConversationTable::create(const QString &provider, const QString &model,
                                                    const QJsonObject &settings)
{
    const QString failed = tr("A new conversation could not be created.");
    auto db = m_db.connection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    WriteTransaction transaction(query);
    const qint64 now = RowCodec::nowMs();
    if (!transaction.begin() ||
        !StoreDatabase::run(query,
                            QStringLiteral("INSERT INTO conversations (created, updated, provider, model, settings) "
                                           "VALUES (?, ?, ?, ?, ?)"),
                            {now, now, provider, model, RowCodec::compactJson(settings)}))
        return m_db.sqlError(query, failed);
    Conversation conversation;
    conversation.id = query.lastInsertId().toLongLong();
    conversation.created = conversation.updated = RowCodec::fromMs(now);
    conversation.provider = provider;
    conversation.model = model;
    conversation.settings = settings;

    const QString folder = m_db.conversationFolder(conversation.id);
    if (!QDir().mkpath(folder)) {
        return StoreError{StoreError::Kind::WriteFailed,
                          failed + QLatin1Char(' ') +
                              tr("The folder %1 cannot be created.").arg(QDir::toNativeSeparators(folder))};
    }
    if (!transaction.commit()) {
        QDir(folder).removeRecursively();
        return m_db.sqlError(query, failed);
    }
    return conversation;
}

StoreResult<qint64> ConversationTable::insert(QSqlQuery &query, const Conversation &source, qint64 now,
                                              const QString &failed)
{
    if (!StoreDatabase::run(query,
                            QStringLiteral("INSERT INTO conversations (title, created, updated, provider, model, "
                                           "settings) VALUES (?, ?, ?, ?, ?, ?)"),
                            {source.title, RowCodec::toMs(source.created, now), RowCodec::toMs(source.updated, now),
                             source.provider, source.model, RowCodec::compactJson(source.settings)}))
        return m_db.sqlError(query, failed);
    return query.lastInsertId().toLongLong();
}

StoreResult<QList<Conversation>> ConversationTable::select(const QString &where, const QVariantList &values)
{
    return m_db.selectRows(QStringLiteral("SELECT %1 FROM conversations c %2 ORDER BY c.updated DESC, c.id DESC")
                               .arg(ConversationColumns, where),
                           values, tr("The conversations could not be read."), &conversationFromRow);
}

StoreResult<Conversation> ConversationTable::find(qint64 id)
{
    auto found = select(QStringLiteral("WHERE c.id = ?"), {id});
    if (!found)
        return found.error();
    if (found->isEmpty())
        return StoreDatabase::noConversation(id);
    return found->first();
}

StoreResult<QList<Conversation>> ConversationTable::all()
{
    return select({}, {});
}

StoreResult<void> ConversationTable::update(qint64 id, const QString &assignments, const QVariantList &values,
                                            const QString &failed, bool touch)
{
    auto db = m_db.connection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    QVariantList bound = values;
    QString statement = QStringLiteral("UPDATE conversations SET %1").arg(assignments);
    if (touch) {
        statement += QStringLiteral(", updated = ?");
        bound << RowCodec::nowMs();
    }
    if (!StoreDatabase::run(query, statement + QStringLiteral(" WHERE id = ?"), bound << id))
        return m_db.sqlError(query, failed);
    if (query.numRowsAffected() == 0)
        return StoreDatabase::noConversation(id);
    return {};
}

StoreResult<void> ConversationTable::rename(qint64 id, const QString &title)
{
    return update(id, QStringLiteral("title = ?"), {title.simplified()}, tr("The conversation could not be renamed."));
}

StoreResult<void> ConversationTable::setModel(qint64 id, const QString &provider, const QString &model)
{
    // The list is ordered by what was said and set, not by which model says it: a conversation
    // whose model is chosen (or that takes one on opening) stays where it is.
    return update(id, QStringLiteral("provider = ?, model = ?"), {provider, model},
                  tr("The conversation's model could not be changed."), false);
}

StoreResult<void> ConversationTable::setSettings(qint64 id, const QJsonObject &settings)
{
    return update(id, QStringLiteral("settings = ?"), {RowCodec::compactJson(settings)},
                  tr("The conversation's settings could not be saved."));
}

StoreResult<void> ConversationTable::remove(qint64 id)
{
    auto db = m_db.connection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    if (!StoreDatabase::run(query, QStringLiteral("DELETE FROM conversations WHERE id = ?"), {id}))
        return m_db.sqlError(query, tr("The conversation could not be deleted."));
    if (query.numRowsAffected() == 0)
        return StoreDatabase::noConversation(id);
    // The rows are gone and the id is never reused, so a folder that resists removal (a file
    // still open elsewhere) harms nothing but disk space; the user hears about the deletion only.
    // The sandbox wrote there: its links are removed, never followed.
    QString error;
    if (!SandboxFolder(m_db.conversationFolder(id)).removeAll(&error))
        qCWarning(lcStorage) << error;
    return {};
}

} // namespace Sandpiper
