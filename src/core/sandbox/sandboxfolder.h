#pragma once

#include <QCoreApplication>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QFile;

namespace Sandpiper {

// A conversation's folder as the host sees it: the sandbox writes there (/mnt/data), so every
// name the kernel reports and every file in it is untrusted. Names are checked (relative, no
// "..", no NUL or control characters) and files are opened beneath the folder without following
// a symbolic link anywhere on the way (openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or an
// O_NOFOLLOW walk where the kernel lacks it), and only when they are regular files within a size
// limit. Callers open the file at the moment they use it and read from what they opened, so a
// link swapped in after listing is refused, not followed.
//
// Cheap to create and copy; holds no descriptor between calls. Thread-safe.
class SandboxFolder
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::SandboxFolder)

public:
    enum class Resolution {
        Beneath,       // openat2 where the kernel has it, else ComponentWalk
        ComponentWalk, // one component at a time with O_NOFOLLOW (what old kernels get)
    };
    enum class Problem { None, BadName, Missing, Link, NotRegular, TooLarge, Unreadable };

    // An opened, checked file: read it from FILE, not by its name.
    struct Opened {
        std::unique_ptr<QFile> file; // open for reading; null when the file was refused
        qint64 size = 0;
        bool executable = false; // an execute bit is set
        Problem problem = Problem::None;
        QString error; // why it was refused, for the user and the model
        explicit operator bool() const { return file != nullptr; }
    };

    // What the folder holds, measured without following links. Each file counts with the larger
    // of its size and the disk space it takes, so sparse files count in full.
    struct Usage {
        qint64 bytes = 0;
        qint64 entries = 0;
        bool complete = true; // false when folders nested deeper than can be measured
    };

    explicit SandboxFolder(QString root, Resolution resolution = Resolution::Beneath);

    QString root() const { return m_root; }
    // Where NAME would be on the host, for messages and "Show in folder"; not for opening.
    QString hostPath(const QString &name) const;

    // Why NAME, as the sandbox reported it, cannot name something inside the folder; empty
    // when it can. Relative, not empty, no "." or ".." component, no NUL or other control
    // character, within the system's length limits.
    static QString nameProblem(const QString &name);

    // Opens NAME for reading if it is a regular file inside the folder of at most MAXBYTES.
    Opened open(const QString &name, qint64 maxBytes) const;
    // The size of NAME, checked as open() checks it; 0 when it is not a regular file inside.
    qint64 fileSize(const QString &name) const;
    // NAME's bytes (at most MAXBYTES), or an empty optional with ERROR set.
    std::optional<QByteArray> read(const QString &name, qint64 maxBytes, QString *error) const;
    // Copies NAME to TARGET (a path the user chose) as it is at this moment; empty on success,
    // else why not. TARGET is replaced atomically, so a failed copy leaves no half file.
    QString copyTo(const QString &name, const QString &target) const;

    // Called with a descriptor of each folder the walk enters (the top one first); valid
    // during the call only.
    using FolderVisitor = std::function<void(int folderFd)>;
    Usage usage(const FolderVisitor &visit = {}) const;
    // Free space on the folder's disk, for the user's unprivileged processes; -1 if unknown.
    qint64 freeDiskBytes() const;

    // Removes the folder and everything in it. Links are removed, never followed, even when the
    // sandbox swaps a folder for a link while this runs. False with ERROR when something stayed.
    bool removeAll(QString *error) const;
    // Creates the new file FILENAME (one component) at the top of the folder, for writing;
    // null with ERROR when it cannot, or when anything of that name exists (even a link).
    std::unique_ptr<QFile> create(const QString &fileName, QString *error) const;
    // Whether anything (a file, a folder, a link) is called FILENAME at the top of the folder.
    bool contains(const QString &fileName) const;

    // A byte count for messages, such as "1 GiB" or "250.5 MiB".
    static QString formatBytes(qint64 bytes);

private:
    int openRoot() const;
    int openBeneath(int rootFd, const QByteArray &name, int flags) const;

    QString m_root;
    Resolution m_resolution;
};

} // namespace Sandpiper
