#pragma once

#include <QDateTime>
#include <QMetaType>
#include <QString>

namespace Sandpiper {

// A file the user put into a conversation's folder (the sandbox sees it in /mnt/data).
struct Attachment {
    qint64 id = 0;
    qint64 conversationId = 0;
    QString fileName; // relative to the conversation's folder
    qint64 size = 0;
    QDateTime created;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::Attachment)
