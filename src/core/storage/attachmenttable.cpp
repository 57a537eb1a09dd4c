#include "storage/attachmenttable.h"

#include "sandbox/sandboxfolder.h"
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

// Copies SOURCEPATH into FOLDER as the new file FILENAME; empty on success, else why not.
QString copyInto(const SandboxFolder &folder, const QString &fileName, const QString &sourcePath)
{
    QFile source(sourcePath);
    if (!source.open(QIODevice::ReadOnly))
        return source.errorString();
    QString error;
    const auto target = folder.create(fileName, &error);
    if (!target)
        return error;
    while (error.isEmpty() && !source.atEnd()) {
        const QByteArray chunk = source.read(1 << 20);
        if (chunk.isEmpty())
            error = source.errorString();
        else if (target->write(chunk) != chunk.size())
            error = target->errorString();
    }
    if (error.isEmpty() && !target->flush())
        error = target->errorString();
    if (!error.isEmpty())
        QFile::remove(folder.hostPath(fileName)); // the name this call created, not a link's target
    return error;
}

} // namespace

StoreResult<Attachment> AttachmentTable::attach(qint64 conversationId, const QString &sourcePath,
                                                qint64 folderLimitBytes, qint64 minFreeDiskBytes)
{
    const QString failed = tr("The file could not be attached.");
    const QFileInfo source(sourcePath);
    if (!source.isFile()) {
        return StoreError{StoreError::Kind::InvalidInput,
                          tr("%1 is not a file.").arg(QDir::toNativeSeparators(sourcePath))};
    }
    // Uploads count against the same limits as what the sandbox writes.
    const SandboxFolder folder(m_db.conversationFolder(conversationId));
    if (folderLimitBytes > 0) {
        const qint64 used = folder.usage().bytes;
        if (used + source.size() > folderLimitBytes) {
            return StoreError{StoreError::Kind::InvalidInput,
                              tr("%1 (%2) would take the conversation's files past their %3 limit (%4 are used). "
                                 "Delete files of the conversation or raise the limit in the settings.")
                                  .arg(source.fileName(), SandboxFolder::formatBytes(source.size()),
                                       SandboxFolder::formatBytes(folderLimitBytes), SandboxFolder::formatBytes(used))};
        }
    }
    QDir().mkpath(folder.root());
    if (const qint64 free = folder.freeDiskBytes();
        minFreeDiskBytes > 0 && free >= 0 && free - source.size() < minFreeDiskBytes) {
        return StoreError{StoreError::Kind::WriteFailed,
                          tr("%1 (%2) would leave less than %3 free on the disk that holds the conversation's files.")
                              .arg(source.fileName(), SandboxFolder::formatBytes(source.size()),
                                   SandboxFolder::formatBytes(minFreeDiskBytes))};
    }
    auto write = m_db.beginConversationWrite(conversationId, failed);
    if (!write)
        return write.error();
    QSqlQuery &query = (*write)->query;

    // Any name in the folder counts as taken, a link the sandbox left there too: the copy
    // never writes through one.
    QString fileName = source.fileName();
    for (int n = 2; folder.contains(fileName); ++n) {
        fileName = source.completeSuffix().isEmpty()
                       ? QStringLiteral("%1 (%2)").arg(source.baseName()).arg(n)
                       : QStringLiteral("%1 (%2).%3").arg(source.baseName()).arg(n).arg(source.completeSuffix());
    }
    const QString target = folder.hostPath(fileName);
    if (const QString copyError = copyInto(folder, fileName, sourcePath); !copyError.isEmpty()) {
        return StoreError{
            StoreError::Kind::WriteFailed,
            failed + QLatin1Char(' ') +
                tr("%1 cannot be copied to %2: %3")
                    .arg(QDir::toNativeSeparators(sourcePath), QDir::toNativeSeparators(folder.root()), copyError)};
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
