#pragma once

#include "storage/attachment.h"
#include "storage/storedatabase.h"

namespace Sandpiper {

// Files the user attached: copied into the conversation's folder, recorded with their size.
class AttachmentTable
{
    Q_DECLARE_TR_FUNCTIONS(AttachmentTable)

public:
    explicit AttachmentTable(StoreDatabase &database)
        : m_db(database)
    {}

    // Copies SOURCEPATH into the conversation's folder (under a free name) and records it;
    // refused past FOLDERLIMITBYTES or MINFREEDISKBYTES (0: not checked), see ConversationStore.
    StoreResult<Attachment> attach(qint64 conversationId, const QString &sourcePath, qint64 folderLimitBytes,
                                   qint64 minFreeDiskBytes);
    StoreResult<QList<Attachment>> of(qint64 conversationId);
    StoreResult<void> remove(qint64 attachmentId);

private:
    StoreDatabase &m_db;
};

} // namespace Sandpiper
