#pragma once

#include <QMetaType>
#include <QString>

namespace Sandpiper {

// What ConversationStore::restoreFolder did to a conversation's folder. A value type.
struct FolderRestore {
    int written = 0; // files written from the snapshot store (missing or different)
    int removed = 0; // files, links and special files removed (not in the snapshot, not attached)
    int kept = 0;    // files whose content was right already
    qint64 bytesWritten = 0;
    // What could not be done, in sentences for the user: files of the branch that were not recorded,
    // a file that could not be written or removed. Empty when the folder is exactly as recorded.
    QString problem;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::FolderRestore)
