#pragma once

#include "sandbox/containerfiles.h"
#include "sandbox/sandboxconfig.h"
#include "sandbox/sandboxfolder.h"

#include <QHash>
#include <QJsonArray>
#include <QMap>
#include <QObject>
#include <QPair>

#include <QCoroTask>

namespace Sandpiper {

// The conversation's folder and /mnt/data of its container on a remote engine, which has a
// filesystem of its own: before a run the container gets what changed here (uploads, deletions),
// after it what the code wrote comes here (ContainerFiles), but for large files, which stay there
// until the user asks for them (EngineFiles). Keeps what the container has from here.
//
// Lives with its SandboxSession; not thread-safe.
class RemoteFileSync : public QObject
{
    Q_OBJECT

public:
    // Files copied to and from the engine: per run, whatever their size.
    static constexpr auto copyTimeout = std::chrono::minutes(5);

    explicit RemoteFileSync(const SandboxConfig &config, SandboxFolder folder, QObject *parent = nullptr);

    // A fresh CONTAINER, which has nothing from here yet.
    void reset(const ContainerFiles::Container &container);
    // Gives the container what changed here since it last had the folder: deleted files go, new
    // and changed ones come. What did not work, a sentence each, for the run's notes.
    QCoro::Task<QStringList> sendChanges();
    // Of NAMES, the regular files larger than the fetch limit, with their size: they stay there.
    QCoro::Task<QMap<QString, qint64>> largeFiles(QStringList names);
    // NAME (SIZE bytes) stays in the container until the user asks for it; a copy here is older.
    void leaveOnEngine(const QString &name, qint64 size);
    // Copies NAMES here, as far as the disk limit leaves room.
    QCoro::Task<ContainerFiles::Fetched> fetch(QStringList names);
    // Removes the copies here of REMOVED, the files the code deleted in the container.
    void removeHostCopies(const QJsonArray &removed);
    // Copies here what the container kept, before it goes; what could not come, a sentence each.
    QCoro::Task<QStringList> fetchKept();

private:
    // Removes from the container the files it has from here that are no longer here.
    QCoro::Task<QString> removeDeletedFiles();
    QCoro::Task<QString> sendNewFiles();
    void removeHostCopy(const QString &name);

    QString m_dataDirectory;
    qint64 m_diskLimitBytes;
    qint64 m_fetchLimitBytes;
    SandboxFolder m_folder;
    ContainerFiles::Container m_container;
    // The host's files as the container has them (name: size, modification time in ms).
    QHash<QString, QPair<qint64, qint64>> m_inContainer;
};

} // namespace Sandpiper
