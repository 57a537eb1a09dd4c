#pragma once

#include "sandbox/containerfiles.h"

#include <QCoreApplication>
#include <QPair>
#include <QString>
#include <QStringList>

#include <QCoroTask>

#include <optional>

namespace Sandpiper {

// The files a remote engine's container kept because they were too large to copy back after the
// execution (SandboxConfig::remoteFetchLimitBytes): which container holds each, so that the app
// fetches one when the user opens or saves it. The session notes them as they are listed and lets
// go of them when its container goes; the app's file rows ask from the window's thread, the
// session writes from the agent's: thread-safe. Nothing is remembered across runs of the app (the
// containers do not outlive it).
class EngineFiles
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::EngineFiles)

public:
    struct Kept {
        ContainerFiles::Container container; // and who reads it there (the sandbox user)
        qint64 size = 0;                     // as listed
        qint64 diskLimit = 0;                // the conversation's folder's limit (0: none)
    };
    // A version of a file on this machine: size and modification time in ms.
    using Version = QPair<qint64, qint64>;
    // A kept file not fetched since: NAME of the conversation's FOLDER, of SIZE bytes.
    struct Waiting {
        QString folder;
        QString name;
        qint64 size = 0;
    };

    // NAME (relative to FOLDER, the conversation's folder) is in KEPT's container, not here.
    static void keep(const QString &folder, const QString &name, const Kept &kept);
    // NAME is no longer in the container (the code removed it).
    static void drop(const QString &folder, const QString &name);
    // CONTAINER is gone, and every file it kept.
    static void release(const QString &container);
    static std::optional<Kept> find(const QString &folder, const QString &name);
    // The names of FOLDER that CONTAINER keeps and that were fetched since (FETCHED), or not.
    static QStringList keptIn(const QString &folder, const QString &container, bool fetched = false);
    // The version a fetch wrote here, if NAME was fetched since it was kept: the container has it.
    static std::optional<Version> fetchedVersion(const QString &folder, const QString &name);
    // Every kept file that is only in its container (what quitting the app would lose), by
    // folder and name.
    static QList<Waiting> notFetched();

    // Copies NAME from its container into FOLDER, within the folder's disk limit, through the
    // checks of every file from the sandbox (ContainerFiles, TarReader: a temporary file renamed
    // when whole). Empty on success, else why not, for the user.
    static QCoro::Task<QString> fetch(QString folder, QString name);
};

} // namespace Sandpiper
