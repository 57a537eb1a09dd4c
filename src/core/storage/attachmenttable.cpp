#include "storage/attachmenttable.h"

#include "storage/rowcodec.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace Sandpiper {

namespace {

const QString AttachmentColumns = QStringLiteral("id, conversation_id, file_name, size, created");

Attachment attachmentFromRow(const QSqlQuery &query)
{
    return {query.value(0).toLongLong(), query.value(1).toLongLong(), query.value(2).toString(),
            query.value(3).toLongLong(), RowCodec::fromMs(query.value(4))};
}

} // namespace

StoreResult<Attachment> AttachmentTable::attach(qint64 conversationId, const QString &sourcePath)
{
    const QString failed = tr("The file could not be attached.");
    const QFileInfo source(sourcePath);
    if (!source.isFile()) {
        return StoreError{StoreError::Kind::InvalidInput,
                          tr("%1 is not a file.").arg(QDir::toNativeSeparators(sourcePath))};
    }
    auto write = m_db.beginConversationWrite(conversationId, failed);
    if (!write)
        return write.error();
    QSqlQuery &query = (*write)->query;

    const QDir folder(m_db.conversationFolder(conversationId));
    QString fileName = source.fileName();
    for (int n = 2; folder.exists(fileName); ++n) {
        fileName = source.completeSuffix().isEmpty()
                       ? QStringLiteral("%1 (%2)").arg(source.baseName()).arg(n)
                       : QStringLiteral("%1 (%2).%3").arg(source.baseName()).arg(n).arg(source.completeSuffix());
    }
    const QString target = folder.filePath(fileName);
    if (!QDir().mkpath(folder.path()) || !QFile::copy(sourcePath, target)) {
        return StoreError{StoreError::Kind::WriteFailed,
                          failed + QLatin1Char(' ') +
                              tr("%1 cannot be copied to %2.")
                                  .arg(QDir::toNativeSeparators(sourcePath), QDir::toNativeSeparators(folder.path()))};
    }
    const qint64 now = (*write)->now;
    Attachment attachment{0, conversationId, fileName, source.size(), RowCodec::fromMs(now)};
    if (!StoreDatabase::run(
            query,
            QStringLiteral("INSERT INTO attachments (conversation_id, file_name, size, created) VALUES (?, ?, ?, ?)"),
            {conversationId, fileName, attachment.size, now}) ||
        !(*write)->transaction.commit()) {
        QFile::remove(target);
        return m_db.sqlError(query, failed);
    }
    attachment.id = query.lastInsertId().toLongLong();
    return attachment;
}

StoreResult<QList<Attachment>> AttachmentTable::of(qint64 conversationId)
{
    return m_db.selectRows(
        QStringLiteral("SELECT %1 FROM attachments WHERE conversation_id = ? ORDER BY id").arg(AttachmentColumns),
        {conversationId}, tr("The attachments could not be read."), &attachmentFromRow);
}

StoreResult<void> AttachmentTable::remove(qint64 attachmentId)
{
    auto db = m_db.connection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    if (!StoreDatabase::run(query,
                            QStringLiteral("DELETE FROM attachments WHERE id = ? RETURNING conversation_id, file_name"),
                            {attachmentId}))
        return m_db.sqlError(query, tr("The attachment could not be removed."));
    if (!query.next())
        return StoreError{StoreError::Kind::NotFound, tr("There is no attachment with the id %1.").arg(attachmentId)};
    const QString path =
        m_db.conversationFolder(query.value(0).toLongLong()) + QLatin1Char('/') + query.value(1).toString();
    query.finish();
    if (QFileInfo::exists(path) && !QFile::remove(path)) {
        return StoreError{StoreError::Kind::WriteFailed,
                          tr("The attachment was removed from the conversation, but the file %1 could not be deleted.")
                              .arg(QDir::toNativeSeparators(path))};
    }
    return {};
}

} // namespace Sandpiper
