#pragma once

#include "storage/folderrestore.h"
#include "storage/storedatabase.h"

#include <QByteArray>
#include <QHash>
#include <QMutex>

#include <atomic>

namespace Sandpiper {

// What a conversation's folder held after each run of code, and the folder put back as it was
// after any of them (issue 27: the files follow the branch). After a run is stored, the folder is
// recorded as a manifest (the folder_states row of the run): each regular file's name, SHA-256,
// size and execute bit. The files themselves are kept once each, whatever conversation or run
// holds them, in a content-addressed store beside the conversation folders:
//   <data>/snapshots/sha256/ab/cdef…   a copy (a reflink where the filesystem can), never a hard
//                                      link: the sandbox writes through its mount and would change it
//   <data>/snapshots/tmp/              copies under way
// A file is hashed only when it changed: a manifest remembers each file's size, times and inode,
// and a file that still has them is taken to hold what it held (a file changed less than
// RacyMargin before it was looked at is not: it may change again within the same tick).
//
// The folder is the sandbox's: it may plant links, swap a folder for a link, leave FIFOs or sparse
// files of any size. Nothing is followed (every open is beneath the folder with O_NOFOLLOW), special
// files are never opened, and files past the limit are left out with a note.
//
// One mutex orders recording, restoring and the sweep of unused copies, so that a copy is never
// swept between being written and being named by its manifest. Any thread may call it.
class FolderSnapshots
{
    Q_DECLARE_TR_FUNCTIONS(FolderSnapshots)

public:
    explicit FolderSnapshots(StoreDatabase &database);

    // How long after its last change a file's times are trusted to tell a later change.
    static constexpr qint64 RacyMarginNs = 1'000'000'000;

    QString storeFolder() const;

    // Records what the folder of CONVERSATIONID holds as the folder after EXECUTIONID. Files larger
    // than FILELIMITBYTES (0: no limit), or that would leave less than MINFREEDISKBYTES free on the
    // store's disk, are left out, with a note in the manifest that restore() reports.
    StoreResult<void> record(qint64 conversationId, qint64 executionId, qint64 fileLimitBytes, qint64 minFreeDiskBytes);
    // Makes the folder hold what it held after EXECUTIONID (0: before any code ran); see
    // ConversationStore::restoreFolder.
    StoreResult<FolderRestore> restore(qint64 conversationId, qint64 executionId, qint64 folderLimitBytes,
                                       qint64 minFreeDiskBytes);
    // Removes the copies no manifest names any more, and copies an interrupted run left behind.
    void sweep();
    // The conversation is gone: what was known of its folder is forgotten.
    void forget(qint64 conversationId);

    // Bytes read to hash them since the store was made (recording and restoring), for tests.
    qint64 hashedBytes() const { return m_hashedBytes.load(); }

    // A file as a manifest records it. STATKEY (size, times, inode) is empty when the file's
    // times cannot be trusted to tell a later change.
    struct FileState {
        QByteArray sha256; // hex
        qint64 size = 0;
        bool executable = false;
        QByteArray statKey;
    };
    using Files = QHash<QString, FileState>;

private:
    struct Manifest;
    QString blobPath(const QByteArray &sha256) const;
    bool blobPresent(const FileState &state) const;
    Files knownFiles(qint64 conversationId);
    StoreResult<Manifest> manifestOf(qint64 conversationId, qint64 executionId);
    StoreResult<QStringList> attachedNames(qint64 conversationId);

    StoreDatabase &m_db;
    QMutex m_mutex;               // recording, restoring and sweeping, one at a time
    QHash<qint64, Files> m_known; // each conversation's files as last recorded or restored
    std::atomic<qint64> m_hashedBytes = 0;
};

} // namespace Sandpiper
