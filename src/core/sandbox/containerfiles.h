#pragma once

#include "sandbox/dockercli.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <QCoroTask>

#include <QHash>

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
    // A running container, on the engine it was started on, and the user its files belong to.
    struct Container {
        QString name;
        QString user;
        DockerCli::Engine engine;
    };
    struct Fetched {
        QStringList written;      // names now in the folder, whole
        QStringList refused;      // a sentence each
        QStringList refusedNames; // the names those sentences are about
        QString error;            // the copy broke off or could not start; empty when it did not
    };

    // What a listing found: each regular file's size. Links, folders, special files and names
    // the listing has no business reporting are left out: they take the path of every other
    // file (fetched, and refused there with their reason).
    using Sizes = QHash<QString, qint64>;
    struct Listing {
        Sizes regularFiles;
        QString error; // the listing could not run
    };

    // Lists NAMES (relative to /mnt/data, checked by SandboxFolder::nameProblem) in CONTAINER
    // (read as its user, as are all of them below).
    static QCoro::Task<Listing> list(Container container, QStringList names, std::chrono::milliseconds timeout);
    // Reads what `find -printf '%y %s %p\0'` printed for NAMES; what does not parse, is not one
    // of NAMES or not a regular file is left out.
    static Sizes parseListing(const QByteArray &output, const QStringList &names);
    // Copies NAMES (relative to /mnt/data) out of CONTAINER into FOLDER, at most MAXBYTES in all.
    static QCoro::Task<Fetched> fetch(Container container, QString folder, QStringList names, qint64 maxBytes,
                                      std::chrono::milliseconds timeout);
    // Copies NAMES (relative to FOLDER, opened without following links) into CONTAINER's
    // /mnt/data; empty on success, else why not.
    static QCoro::Task<QString> upload(Container container, SandboxFolder folder, QStringList names,
                                       std::chrono::milliseconds timeout);
    // Removes NAMES (regular files, checked names) from CONTAINER's /mnt/data; empty on success.
    static QCoro::Task<QString> remove(Container container, QStringList names, std::chrono::milliseconds timeout);
    // What FOLDER may still take for NAMES under its limit DISKLIMIT (0: none): the limit, less
    // what the folder holds but for the files of those names, which are replaced.
    static qint64 room(const SandboxFolder &folder, const QStringList &names, qint64 diskLimit);
};

} // namespace Sandpiper
