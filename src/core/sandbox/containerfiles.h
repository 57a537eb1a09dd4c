#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <QCoroTask>

#include <chrono>

namespace Sandpiper {

class SandboxFolder;

// Files between a conversation's folder on this machine and /mnt/data in its running container,
// for engines that do not share this machine's filesystem (EngineLocality::Kind::Remote). They
// travel as tar streams over the engine's API: `docker exec -i CONTAINER tar -x` in, `docker exec
// CONTAINER tar -c` out (`docker cp` cannot write into the read-only container's tmpfs). What
// comes out is unpacked by a TarReader, with its checks, before the usual checks of the folder.
class ContainerFiles
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::ContainerFiles)

public:
    struct Fetched {
        QStringList written;      // names now in the folder, whole
        QStringList refused;      // a sentence each
        QStringList refusedNames; // the names those sentences are about
        QString error;            // the copy broke off or could not start; empty when it did not
    };

    // Copies NAMES (relative to /mnt/data) out of CONTAINER into FOLDER, at most MAXBYTES in all.
    static QCoro::Task<Fetched> fetch(QString container, QString user, QString folder, QStringList names,
                                      qint64 maxBytes, std::chrono::milliseconds timeout);
    // Copies NAMES (relative to FOLDER, opened without following links) into CONTAINER's
    // /mnt/data as USER; empty on success, else why not.
    static QCoro::Task<QString> upload(QString container, QString user, SandboxFolder folder, QStringList names,
                                       std::chrono::milliseconds timeout);
};

} // namespace Sandpiper
