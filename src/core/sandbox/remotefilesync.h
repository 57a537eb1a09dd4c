#pragma once

#include "sandbox/containerfiles.h"
#include "sandbox/sandboxconfig.h"
#include "sandbox/sandboxfolder.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QProcess>

#include <memory>
#include <optional>

#include <QCoroTask>

namespace Sandpiper {

class TarReader;

// The conversation's folder and /mnt/data of its container on a remote engine, which has a
// filesystem of its own: before a run the container gets what changed here (uploads, deletions),
// after it what the code wrote comes here, but for large files, which stay there until the user
// asks for them (EngineFiles). Keeps what the container has from here.
//
// The channel. Files travel on the kernel's own stdin and stdout, open for the container's life,
// so a run costs no new process on the engine (a `docker exec` is a new session there, over SSH a
// new connection) in the common case: figures and files of a few MiB (channelFetchBytes) together;
// more comes by `docker exec tar`, faster for it. Uploads: one receive_files request, its files' bytes right behind it,
// sent before the run's request; the kernel says which it could not write. Back: after the result, a send_files request
// for the names wanted (the result's files and the run's figures, less those its sizes say are large); the kernel
// answers with a tar stream in base64 pieces (file_data events, 1 MiB each) and files_sent. The stream feeds the
// TarReader the `docker exec tar` path uses, so it meets the same checks: only the names asked for, each once; regular
// files only, never through a link; at most the room the disk limit leaves; written whole or not at all.
//
// The code runs in the kernel's interpreter and can write into that channel (it can find the
// descriptor), so every frame is forged input: frames outside a fetch of the running run are
// ignored; a fetch reads at most what it asked for could fill (the room, headers, padding) and
// stops after copyTimeout, or when nothing comes for channelStall; a piece that is not base64 or
// a stream that is not tar ends it. Such a fetch, and any when the channel is gone (no kernel, or
// SANDPIPER_REMOTE_CHANNEL=0), falls back to `docker exec` (ContainerFiles) for what did not come;
// a stall marks the channel gone for the container's life. What forged frames can do is what the
// code can do anyway: write its own files into its conversation's folder, within its limits.
//
// Lives with its SandboxSession; not thread-safe.
class RemoteFileSync : public QObject
{
    Q_OBJECT

public:
    // Files copied to and from the engine: per run, whatever their size.
    static constexpr auto copyTimeout = std::chrono::minutes(5);

    // The channel waits this long for the kernel's next piece before it is given up.
    static constexpr auto channelStall = std::chrono::seconds(20);

    explicit RemoteFileSync(const SandboxConfig &config, SandboxFolder folder, QObject *parent = nullptr);
    ~RemoteFileSync() override;

    // A fresh CONTAINER, which has nothing from here yet; its kernel's standard input is KERNEL
    // (the channel; null: none).
    void reset(const ContainerFiles::Container &container, QProcess *kernel = nullptr);
    // Whether files travel on the kernel's channel.
    bool hasChannel() const;
    // Gives the container what changed here since it last had the folder: deleted files go, new
    // and changed ones come (on the channel, as part of run ID). What did not work, a sentence
    // each, for the run's notes.
    QCoro::Task<QStringList> sendChanges(QString id = {});
    // Of NAMES, the regular files larger than the fetch limit, with their size: they stay there.
    // SIZES are the kernel's word for them, taken when the channel is up.
    QCoro::Task<QMap<QString, qint64>> largeFiles(QStringList names, QJsonObject sizes = {});
    // NAME (SIZE bytes) stays in the container until the user asks for it; a copy here is older.
    void leaveOnEngine(const QString &name, qint64 size);
    // Files together larger than this come by `docker exec tar`: the channel's base64 through the
    // engine's attach stream is slower than a new process beyond a few MiB.
    static constexpr qint64 channelFetchBytes = qint64(4) << 20;
    // Copies NAMES here, for run ID, as far as the disk limit leaves room; SIZES are the kernel's
    // word for their sizes (figures have none: they are small).
    QCoro::Task<ContainerFiles::Fetched> fetch(QStringList names, QString id = {}, QJsonObject sizes = {});
    // What the kernel says on the channel (see KernelProtocol's signals of the same names).
    void fileData(const QByteArray &base64);
    void filesSent();
    // The uploads of FAILED did not reach the container; ERRORS say why.
    QStringList filesReceived(const QJsonArray &failed, const QJsonArray &errors);

    // Removes the copies here of REMOVED, the files the code deleted in the container.
    void removeHostCopies(const QJsonArray &removed);
    // Copies here what the container kept, before it goes; what could not come, a sentence each.
    QCoro::Task<QStringList> fetchKept();

Q_SIGNALS:
    // The kernel stopped reading an upload half-way: its channel is out of step, the kernel has to go.
    void channelBroken(const QString &reason);
    // Internal: a fetch on the channel waits on it.
    void channelProgress();

private:
    using Versions = QHash<QString, QPair<qint64, qint64>>;
    // The files the container has from here that are no longer here.
    QStringList deletedHere() const;
    // The files here the container lacks or has in another version, with their versions.
    QStringList changedHere(Versions &versions);
    void forgetRemoved(const QStringList &names);
    // Removes from the container the files it has from here that are no longer here.
    QCoro::Task<QString> removeDeletedFiles();
    QCoro::Task<QString> sendNewFiles();
    // Sends REMOVED and NAMES to the container on the channel, for run ID.
    QCoro::Task<QString> sendOnChannel(QString id, QStringList removed, QStringList names);
    // Waits until the kernel took what was written to it; false when it stopped reading.
    QCoro::Task<bool> drainChannel(qint64 atMost);
    // Copies NAMES here on the channel, at most MAXBYTES; a fetch that broke off leaves error set.
    QCoro::Task<ContainerFiles::Fetched> fetchOnChannel(QString id, QStringList names, qint64 maxBytes);
    void removeHostCopy(const QString &name);
    void noteFetched(const QStringList &names);

    // A fetch on the channel under way.
    struct Incoming {
        std::unique_ptr<TarReader> reader;
        qint64 bytes = 0;    // of the stream so far
        qint64 maxBytes = 0; // more is not what was asked for
        bool sent = false;   // the kernel said the stream is whole
        QString error;
    };

    QString m_dataDirectory;
    qint64 m_diskLimitBytes;
    qint64 m_fetchLimitBytes;
    SandboxFolder m_folder;
    ContainerFiles::Container m_container;
    // The host's files as the container has them (name: size, modification time in ms).
    QHash<QString, QPair<qint64, qint64>> m_inContainer;
    QPointer<QProcess> m_kernel; // the channel: the kernel's standard input
    std::optional<Incoming> m_incoming;
};

} // namespace Sandpiper
