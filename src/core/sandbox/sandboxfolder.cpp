#include "sandbox/sandboxfolder.h"

#include "bidicontrols.h"
#include "logging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>
#include <QSet>
#include <QStorageInfo>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <limits>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

namespace Sandpiper {

namespace {

// Deeper folders are not walked: each level holds a descriptor while the walk is inside it.
constexpr int maxDepth = 128;
constexpr qsizetype maxNameBytes = 4000; // PATH_MAX less room for the folder itself
constexpr qsizetype maxComponentBytes = 255;
constexpr qint64 copyChunk = 1 << 20;

// Set once openat2 turned out to be missing (ENOSYS) or filtered (EPERM), so later opens walk.
std::atomic<bool> openat2Unavailable = false;

// Closes a descriptor when it goes out of scope.
struct Descriptor {
    int fd = -1;
    explicit Descriptor(int value = -1)
        : fd(value)
    {}
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    ~Descriptor()
    {
        if (fd >= 0)
            ::close(fd);
    }
    int release() { return std::exchange(fd, -1); }
    void reset(int value)
    {
        if (fd >= 0)
            ::close(fd);
        fd = value;
    }
};

// NAME as it may appear in a message: control characters escaped, long names shortened.
QString printable(const QString &name)
{
    QString shown;
    for (const QChar c : name.left(200)) {
        if (c.category() == QChar::Other_Control || c == QChar(0x7f))
            shown += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else if (isBidiControl(c.unicode()))
            shown += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        else
            shown += c;
    }
    if (name.size() > 200)
        shown += QStringLiteral("…");
    return shown;
}

int openComponentWalk(int rootFd, const QByteArray &name, int flags)
{
    const QList<QByteArray> parts = name.split('/');
    Descriptor current;
    int dir = rootFd;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        const int next = ::openat(dir, parts.at(i).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0)
            return -1;
        current.reset(next);
        dir = next;
    }
    return ::openat(dir, parts.constLast().constData(), flags | O_NOFOLLOW);
}

// What the first component of NAME that cannot be walked is, after an open failed: a link, a
// file where a folder should be, or nothing. Only for the message; the open already refused.
SandboxFolder::Problem diagnose(int rootFd, const QByteArray &name)
{
    const QList<QByteArray> parts = name.split('/');
    Descriptor current;
    int dir = rootFd;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        struct stat st;
        if (::fstatat(dir, parts.at(i).constData(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            return SandboxFolder::Problem::Missing;
        if (S_ISLNK(st.st_mode))
            return SandboxFolder::Problem::Link;
        if (i + 1 == parts.size())
            return S_ISREG(st.st_mode) ? SandboxFolder::Problem::Unreadable : SandboxFolder::Problem::NotRegular;
        if (!S_ISDIR(st.st_mode))
            return SandboxFolder::Problem::Missing;
        const int next = ::openat(dir, parts.at(i).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0)
            return SandboxFolder::Problem::Unreadable;
        current.reset(next);
        dir = next;
    }
    return SandboxFolder::Problem::Unreadable;
}

QString kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return SandboxFolder::tr("a folder");
    if (S_ISFIFO(mode))
        return SandboxFolder::tr("a named pipe (FIFO)");
    if (S_ISSOCK(mode))
        return SandboxFolder::tr("a socket");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return SandboxFolder::tr("a device");
    if (S_ISLNK(mode))
        return SandboxFolder::tr("a symbolic link");
    return SandboxFolder::tr("not a regular file");
}

struct Measurement {
    SandboxFolder::Usage usage;
    QSet<QPair<dev_t, ino_t>> linked;
    const SandboxFolder::FolderVisitor &visit;
};

void measure(int dirFd, int depth, Measurement &measurement)
{
    DIR *dir = ::fdopendir(dirFd);
    if (!dir) {
        ::close(dirFd);
        return;
    }
    if (measurement.visit)
        measurement.visit(dirFd);
    SandboxFolder::Usage &usage = measurement.usage;
    while (const dirent *entry = ::readdir(dir)) {
        if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0)
            continue;
        struct stat st;
        if (::fstatat(::dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue; // removed meanwhile
        ++usage.entries;
        // A hard link shares its blocks with the other names of the file.
        if (!S_ISDIR(st.st_mode) && st.st_nlink > 1) {
            const QPair<dev_t, ino_t> inode(st.st_dev, st.st_ino);
            if (measurement.linked.contains(inode))
                continue;
            measurement.linked.insert(inode);
        }
        usage.bytes += std::max<qint64>(S_ISREG(st.st_mode) ? st.st_size : 0, qint64(st.st_blocks) * 512);
        if (!S_ISDIR(st.st_mode))
            continue;
        if (depth + 1 >= maxDepth) {
            usage.complete = false;
            continue;
        }
        const int child = ::openat(::dirfd(dir), entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (child >= 0)
            measure(child, depth + 1, measurement);
    }
    ::closedir(dir);
}

// Empties the folder DIRFD (and closes it); true when nothing is left in it.
bool removeContents(int dirFd, int depth)
{
    DIR *dir = ::fdopendir(dirFd);
    if (!dir) {
        ::close(dirFd);
        return false;
    }
    ::rewinddir(dir); // a later pass reads the same folder again
    bool ok = true;
    QList<QByteArray> names;
    while (const dirent *entry = ::readdir(dir)) {
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
            names << QByteArray(entry->d_name);
    }
    const int fd = ::dirfd(dir);
    for (const QByteArray &name : std::as_const(names)) {
        // Not a folder (or no longer one): unlink removes the name itself, also a link's.
        const int child =
            depth + 1 < maxDepth ? ::openat(fd, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
        if (child < 0) {
            if (::unlinkat(fd, name.constData(), 0) != 0 && errno != ENOENT)
                ok = false;
            continue;
        }
        ok = removeContents(child, depth + 1) && ok;
        if (::unlinkat(fd, name.constData(), AT_REMOVEDIR) != 0 && errno != ENOENT)
            ok = false;
    }
    ::closedir(dir);
    return ok;
}

} // namespace

SandboxFolder::SandboxFolder(QString root, Resolution resolution)
    : m_root(QDir::cleanPath(root))
    , m_resolution(resolution)
{}

QString SandboxFolder::hostPath(const QString &name) const
{
    return m_root + QLatin1Char('/') + name;
}

QString SandboxFolder::nameProblem(const QString &name)
{
    if (name.isEmpty())
        return tr("the name is empty");
    if (name.startsWith(QLatin1Char('/')))
        return tr("it is an absolute path");
    for (const QChar c : name) {
        if (c.category() == QChar::Other_Control || c == QChar(0x7f))
            return c.isNull() ? tr("it contains a NUL character") : tr("it contains a control character");
        if (isBidiControl(c.unicode()))
            return tr("it contains a control character of text direction, which makes the name read otherwise");
    }
    const QByteArray bytes = QFile::encodeName(name);
    if (bytes.size() > maxNameBytes)
        return tr("it is too long");
    for (const QByteArray &part : bytes.split('/')) {
        if (part.isEmpty() || part == ".")
            return tr("it has an empty or “.” component");
        if (part == "..")
            return tr("it goes up with “..”");
        if (part.size() > maxComponentBytes)
            return tr("it is too long");
    }
    return {};
}

int SandboxFolder::openRoot() const
{
    return ::open(QFile::encodeName(m_root).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

int SandboxFolder::openBeneath(int rootFd, const QByteArray &name, int flags) const
{
#if defined(SYS_openat2) && defined(RESOLVE_BENEATH)
    if (m_resolution == Resolution::Beneath && !openat2Unavailable.load(std::memory_order_relaxed)) {
        struct open_how how = {};
        how.flags = quint64(flags | O_NOFOLLOW);
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
        const long fd = ::syscall(SYS_openat2, rootFd, name.constData(), &how, sizeof how);
        if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
            return int(fd);
        qCInfo(lcSandbox) << "openat2 is not available; opening sandbox files one component at a time";
        openat2Unavailable = true;
    }
#endif
    return openComponentWalk(rootFd, name, flags);
}

qint64 SandboxFolder::fileSize(const QString &name) const
{
    const Opened opened = open(name, std::numeric_limits<qint64>::max());
    return opened ? opened.size : 0;
}

SandboxFolder::Opened SandboxFolder::open(const QString &name, qint64 maxBytes) const
{
    Opened opened;
    auto refuse = [&](Problem problem, const QString &error) {
        opened.problem = problem;
        opened.error = error;
        return std::move(opened);
    };
    if (const QString problem = nameProblem(name); !problem.isEmpty())
        return refuse(Problem::BadName,
                      tr("“%1” is not a name inside the conversation's folder: %2.").arg(printable(name), problem));
    const Descriptor root(openRoot());
    if (root.fd < 0)
        return refuse(Problem::Unreadable,
                      tr("The conversation's folder %1 cannot be opened: %2.")
                          .arg(QDir::toNativeSeparators(m_root), QString::fromLocal8Bit(std::strerror(errno))));
    const QByteArray path = QFile::encodeName(name);
    // O_NONBLOCK: a FIFO opens at once instead of waiting for a writer, and is refused below.
    Descriptor fd(openBeneath(root.fd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (fd.fd < 0) {
        const int error = errno;
        const Problem problem = error == ELOOP || error == EXDEV ? Problem::Link
                                : error == ENXIO                 ? Problem::NotRegular
                                                                 : diagnose(root.fd, path);
        switch (problem) {
        case Problem::Link:
            return refuse(problem, tr("“%1” is or goes through a symbolic link; Sandpiper does not follow links "
                                      "out of the sandbox.")
                                       .arg(printable(name)));
        case Problem::Missing:
            return refuse(problem, tr("“%1” does not exist in the conversation's folder.").arg(printable(name)));
        case Problem::NotRegular:
            return refuse(problem, tr("“%1” is not a regular file.").arg(printable(name)));
        default:
            return refuse(
                Problem::Unreadable,
                tr("“%1” cannot be read: %2.").arg(printable(name), QString::fromLocal8Bit(std::strerror(error))));
        }
    }
    struct stat st;
    if (::fstat(fd.fd, &st) != 0)
        return refuse(
            Problem::Unreadable,
            tr("“%1” cannot be read: %2.").arg(printable(name), QString::fromLocal8Bit(std::strerror(errno))));
    if (!S_ISREG(st.st_mode))
        return refuse(Problem::NotRegular,
                      tr("“%1” is not a regular file but %2.").arg(printable(name), kindOf(st.st_mode)));
    if (st.st_size > maxBytes)
        return refuse(Problem::TooLarge, tr("“%1” is too large (%2; the limit is %3).")
                                             .arg(printable(name), formatBytes(st.st_size), formatBytes(maxBytes)));
    ::fcntl(fd.fd, F_SETFL, ::fcntl(fd.fd, F_GETFL) & ~O_NONBLOCK);
    auto file = std::make_unique<QFile>();
    if (!file->open(fd.fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle))
        return refuse(Problem::Unreadable, tr("“%1” cannot be read: %2.").arg(printable(name), file->errorString()));
    fd.release();
    opened.file = std::move(file);
    opened.size = st.st_size;
    opened.executable = (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0;
    return opened;
}

std::optional<QByteArray> SandboxFolder::read(const QString &name, qint64 maxBytes, QString *error) const
{
    Opened opened = open(name, maxBytes);
    if (!opened) {
        *error = opened.error;
        return std::nullopt;
    }
    // The file may have grown since it was opened: never read more than the limit.
    QByteArray bytes = opened.file->read(maxBytes + 1);
    if (bytes.size() > maxBytes) {
        *error = tr("“%1” is too large (the limit is %2).").arg(printable(name), formatBytes(maxBytes));
        return std::nullopt;
    }
    return bytes;
}

QString SandboxFolder::copyTo(const QString &name, const QString &target) const
{
    Opened opened = open(name, std::numeric_limits<qint64>::max());
    if (!opened)
        return opened.error;
    const QString targetFolder = QFileInfo(target).absolutePath();
    const QStorageInfo storage(targetFolder);
    if (storage.isValid() && storage.bytesAvailable() >= 0 && storage.bytesAvailable() < opened.size) {
        return tr("%1 needs %2, but only %3 are free there.")
            .arg(QDir::toNativeSeparators(targetFolder), formatBytes(opened.size),
                 formatBytes(storage.bytesAvailable()));
    }
    QSaveFile out(target);
    if (!out.open(QIODevice::WriteOnly))
        return tr("%1 cannot be written: %2.").arg(QDir::toNativeSeparators(target), out.errorString());
    // Only what was there when the file was opened: a file that keeps growing stops here.
    qint64 left = opened.size;
    while (left > 0) {
        const QByteArray chunk = opened.file->read(std::min(left, copyChunk));
        if (chunk.isEmpty())
            break;
        if (out.write(chunk) != chunk.size())
            return tr("%1 cannot be written: %2.").arg(QDir::toNativeSeparators(target), out.errorString());
        left -= chunk.size();
    }
    if (!out.commit())
        return tr("%1 cannot be written: %2.").arg(QDir::toNativeSeparators(target), out.errorString());
    return {};
}

SandboxFolder::Usage SandboxFolder::usage(const FolderVisitor &visit) const
{
    Measurement measurement{{}, {}, visit};
    const int root = openRoot();
    if (root >= 0)
        measure(root, 0, measurement);
    return measurement.usage;
}

qint64 SandboxFolder::freeDiskBytes() const
{
    struct statvfs info;
    if (::statvfs(QFile::encodeName(m_root).constData(), &info) != 0)
        return -1;
    return qint64(info.f_bavail) * qint64(info.f_frsize);
}

bool SandboxFolder::removeAll(QString *error) const
{
    const QByteArray root = QFile::encodeName(m_root);
    struct stat st;
    if (::lstat(root.constData(), &st) != 0)
        return true; // nothing to remove
    if (!S_ISDIR(st.st_mode)) {
        if (::unlink(root.constData()) == 0)
            return true;
    } else {
        const int fd = ::open(root.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        // A sandbox still writing may add names while they go: a few passes empty it.
        bool empty = false;
        for (int pass = 0; fd >= 0 && pass < 3 && !empty; ++pass)
            empty = removeContents(::dup(fd), 0);
        if (fd >= 0)
            ::close(fd);
        if (::rmdir(root.constData()) == 0)
            return true;
    }
    *error = tr("%1 could not be removed completely: %2.")
                 .arg(QDir::toNativeSeparators(m_root), QString::fromLocal8Bit(std::strerror(errno)));
    return false;
}

std::unique_ptr<QFile> SandboxFolder::create(const QString &fileName, QString *error) const
{
    if (QString problem = nameProblem(fileName); !problem.isEmpty() || fileName.contains(QLatin1Char('/'))) {
        *error = tr("“%1” cannot be a file name in the conversation's folder: %2.")
                     .arg(printable(fileName), problem.isEmpty() ? tr("it contains “/”") : problem);
        return nullptr;
    }
    QDir().mkpath(m_root);
    const Descriptor root(openRoot());
    // O_EXCL with O_NOFOLLOW: a link planted under this name is never written through.
    Descriptor fd(root.fd < 0 ? -1
                              : ::openat(root.fd, QFile::encodeName(fileName).constData(),
                                         O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (fd.fd < 0) {
        *error = tr("%1 cannot be created: %2.")
                     .arg(QDir::toNativeSeparators(hostPath(fileName)), QString::fromLocal8Bit(std::strerror(errno)));
        return nullptr;
    }
    auto file = std::make_unique<QFile>();
    if (!file->open(fd.fd, QIODevice::WriteOnly, QFileDevice::AutoCloseHandle)) {
        *error = file->errorString();
        return nullptr;
    }
    fd.release();
    return file;
}

bool SandboxFolder::contains(const QString &fileName) const
{
    const Descriptor root(openRoot());
    struct stat st;
    return root.fd >= 0 && ::fstatat(root.fd, QFile::encodeName(fileName).constData(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

QString SandboxFolder::formatBytes(qint64 bytes)
{
    qint64 unit = 1;
    while (unit < (qint64(1) << 60) && bytes >= unit * 1024)
        unit *= 1024;
    return QLocale().formattedDataSize(bytes, bytes % unit == 0 ? 0 : 1, QLocale::DataSizeIecFormat);
}

} // namespace Sandpiper
