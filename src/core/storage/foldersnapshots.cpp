#include "storage/foldersnapshots.h"

#include "logging.h"
#include "sandbox/sandboxfolder.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSet>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <functional>
#include <limits>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#if __has_include(<linux/fs.h>)
#include <linux/fs.h>
#endif

namespace Sandpiper {

namespace {

constexpr int maxDepth = 128; // as deep as SandboxFolder measures
constexpr size_t bufferBytes = 1 << 20;
const QLatin1String restorePrefix(".sandpiper-restore-");

// A descriptor this scope owns.
class OwnedFd
{
public:
    explicit OwnedFd(int fd = -1)
        : m_fd(fd)
    {}
    OwnedFd(OwnedFd &&other) noexcept
        : m_fd(std::exchange(other.m_fd, -1))
    {}
    OwnedFd &operator=(OwnedFd &&other) noexcept
    {
        std::swap(m_fd, other.m_fd);
        return *this;
    }
    ~OwnedFd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }

private:
    int m_fd;
};

QString systemError(int error = errno)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

qint64 nowNs()
{
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

qint64 nanoseconds(const timespec &time)
{
    return qint64(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

// What tells a later change of the file ST describes, or nothing when its last change is too
// recent for its times to tell (the next change may fall in the same tick).
QByteArray statKeyOf(const struct stat &st, qint64 checkedNs)
{
    if (nanoseconds(st.st_ctim) + FolderSnapshots::RacyMarginNs >= checkedNs)
        return {};
    return QByteArray::number(qint64(st.st_size)) + ':' + QByteArray::number(nanoseconds(st.st_mtim)) + ':' +
           QByteArray::number(nanoseconds(st.st_ctim)) + ':' + QByteArray::number(quint64(st.st_ino));
}

QByteArray currentStatKey(const struct stat &st)
{
    return statKeyOf(st, std::numeric_limits<qint64>::max());
}

bool isExecutable(mode_t mode)
{
    return (mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0;
}

// One entry of the folder as the walk found it, not followed.
struct Entry {
    QString name; // relative to the folder
    struct stat st;
};

void listEntries(int dirFd, const QString &prefix, int depth, QList<Entry> &entries)
{
    DIR *dir = ::fdopendir(dirFd);
    if (!dir) {
        ::close(dirFd);
        return;
    }
    while (const dirent *found = ::readdir(dir)) {
        if (std::strcmp(found->d_name, ".") == 0 || std::strcmp(found->d_name, "..") == 0)
            continue;
        Entry entry{prefix + QFile::decodeName(found->d_name), {}};
        if (::fstatat(::dirfd(dir), found->d_name, &entry.st, AT_SYMLINK_NOFOLLOW) != 0)
            continue; // gone meanwhile
        entries.append(entry);
        if (S_ISDIR(entry.st.st_mode) && depth + 1 < maxDepth) {
            const int child = ::openat(::dirfd(dir), found->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child >= 0)
                listEntries(child, entry.name + QLatin1Char('/'), depth + 1, entries);
        }
    }
    ::closedir(dir);
}

QList<Entry> listFolder(int rootFd)
{
    QList<Entry> entries;
    const int dup = rootFd >= 0 ? ::fcntl(rootFd, F_DUPFD_CLOEXEC, 0) : -1;
    if (dup >= 0) {
        ::lseek(dup, 0, SEEK_SET);
        listEntries(dup, {}, 0, entries);
    }
    return entries;
}

// Removes NAME in DIRFD and, when it is a folder, everything in it; links are removed, not
// followed. Adds the names removed to REMOVED; false when something stayed.
bool removeTree(int dirFd, const QByteArray &name, int depth, int &removed)
{
    const int child =
        depth < maxDepth ? ::openat(dirFd, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (child < 0) {
        if (::unlinkat(dirFd, name.constData(), 0) == 0) {
            ++removed;
            return true;
        }
        return errno == ENOENT;
    }
    DIR *dir = ::fdopendir(child);
    if (!dir) {
        ::close(child);
        return false;
    }
    QList<QByteArray> names;
    while (const dirent *found = ::readdir(dir)) {
        if (std::strcmp(found->d_name, ".") != 0 && std::strcmp(found->d_name, "..") != 0)
            names << QByteArray(found->d_name);
    }
    bool ok = true;
    for (const QByteArray &inner : std::as_const(names))
        ok = removeTree(::dirfd(dir), inner, depth + 1, removed) && ok;
    ::closedir(dir);
    return ::unlinkat(dirFd, name.constData(), AT_REMOVEDIR) == 0 && ok;
}

// The folder PATH beneath ROOTFD, made where it is missing; what stands in its way (a file, a
// link the sandbox put there) is removed first, never followed.
OwnedFd makeFolders(int rootFd, const QString &path, QString *error)
{
    OwnedFd current(::fcntl(rootFd, F_DUPFD_CLOEXEC, 0));
    if (path.isEmpty())
        return current;
    for (const QByteArray &part : QFile::encodeName(path).split('/')) {
        int next = ::openat(current.get(), part.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0) {
            int removed = 0;
            if (errno != ENOENT)
                removeTree(current.get(), part, maxDepth, removed); // not a folder: unlinked, not entered
            if (::mkdirat(current.get(), part.constData(), 0755) != 0 && errno != EEXIST) {
                *error = systemError();
                return OwnedFd();
            }
            next = ::openat(current.get(), part.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (next < 0) {
                *error = systemError();
                return OwnedFd();
            }
        }
        current = OwnedFd(next);
    }
    return current;
}

bool writeAll(int fd, const char *data, qint64 size)
{
    while (size > 0) {
        const ssize_t written = ::write(fd, data, size_t(size));
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return false;
        data += written;
        size -= written;
    }
    return true;
}

struct Copied {
    QByteArray sha256; // hex
    qint64 bytes = 0;
    QString error;
};

// Copies FROM into TO (new and empty, open for reading and writing), as a reflink where the
// filesystem can (never a hard link), and hashes what TO then holds: the hash always names what
// was copied, however the source changes meanwhile. At most MAXBYTES.
Copied copyAndHash(int from, int to, qint64 maxBytes, std::atomic<qint64> &hashed)
{
    Copied copied;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    std::vector<char> buffer(bufferBytes);
    bool cloned = false;
#ifdef FICLONE
    cloned = ::ioctl(to, FICLONE, from) == 0;
#endif
    const int source = cloned ? to : from;
    qint64 offset = 0;
    for (;;) {
        const ssize_t got = ::pread(source, buffer.data(), buffer.size(), offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            copied.error = systemError();
            return copied;
        }
        if (got == 0)
            break;
        offset += got;
        if (offset > maxBytes) {
            copied.error = FolderSnapshots::tr("it grew past %1").arg(SandboxFolder::formatBytes(maxBytes));
            return copied;
        }
        if (!cloned && !writeAll(to, buffer.data(), got)) {
            copied.error = systemError();
            return copied;
        }
        hash.addData(QByteArrayView(buffer.data(), got));
    }
    hashed += offset;
    copied.bytes = offset;
    copied.sha256 = hash.result().toHex();
    return copied;
}

// Hashes what FD holds, at most MAXBYTES; empty when it could not be read or is larger.
QByteArray hashOf(int fd, qint64 maxBytes, std::atomic<qint64> &hashed)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    std::vector<char> buffer(bufferBytes);
    qint64 offset = 0;
    for (;;) {
        const ssize_t got = ::pread(fd, buffer.data(), buffer.size(), offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return {};
        if (got == 0)
            break;
        offset += got;
        if (offset > maxBytes)
            return {};
        hash.addData(QByteArrayView(buffer.data(), got));
    }
    hashed += offset;
    return hash.result().toHex();
}

qint64 freeBytes(const QString &path)
{
    struct statvfs info;
    if (::statvfs(QFile::encodeName(path).constData(), &info) != 0)
        return -1;
    return qint64(info.f_bavail) * qint64(info.f_frsize);
}

QString randomName(const QString &prefix)
{
    return prefix + QString::number(QRandomGenerator::global()->generate64(), 36);
}

// A new file NAME in DIRFD, for reading and writing, never through a link.
OwnedFd createNew(int dirFd, const QString &name, mode_t mode)
{
    return OwnedFd(
        ::openat(dirFd, QFile::encodeName(name).constData(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
}

QString parentOf(const QString &name)
{
    const qsizetype slash = name.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : name.left(slash);
}

QString leafOf(const QString &name)
{
    return name.mid(name.lastIndexOf(QLatin1Char('/')) + 1);
}

} // namespace

struct FolderSnapshots::Manifest {
    Files files;
    QStringList leftOut; // a sentence for each file that was not recorded

    QString toJson() const
    {
        QJsonArray entries;
        QStringList names = files.keys();
        names.sort();
        for (const QString &name : std::as_const(names)) {
            const FileState &state = files.value(name);
            QJsonObject entry{{QStringLiteral("name"), name},
                              {QStringLiteral("sha256"), QString::fromLatin1(state.sha256)},
                              {QStringLiteral("size"), state.size},
                              {QStringLiteral("executable"), state.executable}};
            if (!state.statKey.isEmpty())
                entry.insert(QStringLiteral("stat"), QString::fromLatin1(state.statKey));
            entries.append(entry);
        }
        QJsonObject manifest{{QStringLiteral("files"), entries}};
        if (!leftOut.isEmpty())
            manifest.insert(QStringLiteral("left_out"), QJsonArray::fromStringList(leftOut));
        return QString::fromUtf8(QJsonDocument(manifest).toJson(QJsonDocument::Compact));
    }

    static Manifest fromJson(const QString &text)
    {
        Manifest manifest;
        const QJsonObject object = QJsonDocument::fromJson(text.toUtf8()).object();
        for (const QJsonValue value : object.value(QStringLiteral("files")).toArray()) {
            const QJsonObject entry = value.toObject();
            const QString name = entry.value(QStringLiteral("name")).toString();
            const QByteArray sha = entry.value(QStringLiteral("sha256")).toString().toLatin1();
            if (!SandboxFolder::nameProblem(name).isEmpty() || sha.size() != 64)
                continue;
            manifest.files.insert(name, {sha, entry.value(QStringLiteral("size")).toInteger(),
                                         entry.value(QStringLiteral("executable")).toBool(),
                                         entry.value(QStringLiteral("stat")).toString().toLatin1()});
        }
        for (const QJsonValue value : object.value(QStringLiteral("left_out")).toArray())
            manifest.leftOut << value.toString();
        return manifest;
    }
};

FolderSnapshots::FolderSnapshots(StoreDatabase &database)
    : m_db(database)
{}

QString FolderSnapshots::storeFolder() const
{
    return m_db.snapshotsFolder();
}

QString FolderSnapshots::blobPath(const QByteArray &sha256) const
{
    return storeFolder() + QStringLiteral("/sha256/") + QString::fromLatin1(sha256.left(2)) + QLatin1Char('/') +
           QString::fromLatin1(sha256.mid(2));
}

bool FolderSnapshots::blobPresent(const FileState &state) const
{
    struct stat st;
    return ::lstat(QFile::encodeName(blobPath(state.sha256)).constData(), &st) == 0 && S_ISREG(st.st_mode) &&
           st.st_size == state.size;
}

FolderSnapshots::Files FolderSnapshots::knownFiles(qint64 conversationId)
{
    if (const auto known = m_known.constFind(conversationId); known != m_known.cend())
        return *known;
    // After a restart: the conversation's newest manifest.
    auto rows = m_db.selectRows<QString>(
        QStringLiteral("SELECT f.manifest FROM folder_states f JOIN executions e ON e.id = f.execution_id"
                       " WHERE e.conversation_id = ? ORDER BY f.execution_id DESC LIMIT 1"),
        {conversationId}, tr("The recorded files could not be read."),
        [](const QSqlQuery &query) { return query.value(0).toString(); });
    Files files;
    if (rows && !rows->isEmpty())
        files = Manifest::fromJson(rows->constFirst()).files;
    m_known.insert(conversationId, files);
    return files;
}

StoreResult<FolderSnapshots::Manifest> FolderSnapshots::manifestOf(qint64 conversationId, qint64 executionId)
{
    if (executionId == 0)
        return Manifest{};
    struct Row {
        qint64 conversationId;
        QVariant manifest;
    };
    auto rows =
        m_db.selectRows<Row>(QStringLiteral("SELECT e.conversation_id, f.manifest FROM executions e"
                                            " LEFT JOIN folder_states f ON f.execution_id = e.id WHERE e.id = ?"),
                             {executionId}, tr("The recorded files could not be read."), [](const QSqlQuery &query) {
                                 return Row{query.value(0).toLongLong(), query.value(1)};
                             });
    if (!rows)
        return rows.error();
    if (rows->isEmpty() || rows->constFirst().conversationId != conversationId) {
        return StoreError{StoreError::Kind::NotFound,
                          tr("The conversation has no run of code with the id %1.").arg(executionId)};
    }
    if (rows->constFirst().manifest.isNull()) {
        return StoreError{StoreError::Kind::NotFound,
                          tr("The files of this branch were not recorded: its code ran before Sandpiper kept the "
                             "conversation's files with each branch. The folder is left as it is.")};
    }
    return Manifest::fromJson(rows->constFirst().manifest.toString());
}

StoreResult<QStringList> FolderSnapshots::attachedNames(qint64 conversationId)
{
    return m_db.selectRows<QString>(QStringLiteral("SELECT file_name FROM attachments WHERE conversation_id = ?"),
                                    {conversationId}, tr("The attachments could not be read."),
                                    [](const QSqlQuery &query) { return query.value(0).toString(); });
}

StoreResult<void> FolderSnapshots::record(qint64 conversationId, qint64 executionId, qint64 fileLimitBytes,
                                          qint64 minFreeDiskBytes)
{
    const QString failed = tr("The files of the conversation's folder could not be recorded.");
    QMutexLocker locker(&m_mutex);
    auto owner =
        m_db.selectRows<qint64>(QStringLiteral("SELECT conversation_id FROM executions WHERE id = ?"), {executionId},
                                failed, [](const QSqlQuery &query) { return query.value(0).toLongLong(); });
    if (!owner)
        return owner.error();
    if (owner->isEmpty() || owner->constFirst() != conversationId) {
        return StoreError{StoreError::Kind::NotFound,
                          tr("The conversation has no run of code with the id %1.").arg(executionId)};
    }
    const QString temporary = storeFolder() + QStringLiteral("/tmp");
    if (!QDir().mkpath(temporary)) {
        return StoreError{StoreError::Kind::WriteFailed,
                          failed + QLatin1Char(' ') +
                              tr("The folder %1 cannot be created.").arg(QDir::toNativeSeparators(temporary))};
    }
    const OwnedFd temporaryFd(
        ::open(QFile::encodeName(temporary).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    const Files known = knownFiles(conversationId);
    const SandboxFolder folder(m_db.conversationFolder(conversationId));
    const OwnedFd rootFd(
        ::open(QFile::encodeName(folder.root()).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    const qint64 limit = fileLimitBytes > 0 ? fileLimitBytes : std::numeric_limits<qint64>::max() - 1;

    Manifest manifest;
    for (const Entry &entry : listFolder(rootFd.get())) {
        if (!S_ISREG(entry.st.st_mode) || entry.name.startsWith(restorePrefix))
            continue; // folders are walked; links and special files are not the sandbox's files to keep
        if (const auto was = known.constFind(entry.name); was != known.cend() && !was->statKey.isEmpty() &&
                                                          was->statKey == currentStatKey(entry.st) &&
                                                          blobPresent(*was)) {
            manifest.files.insert(entry.name, {was->sha256, was->size, isExecutable(entry.st.st_mode), was->statKey});
            continue;
        }
        if (entry.st.st_size > limit) {
            manifest.leftOut << tr("“%1” (%2) was not kept: it is larger than the sandbox's limit of %3.")
                                    .arg(entry.name, SandboxFolder::formatBytes(entry.st.st_size),
                                         SandboxFolder::formatBytes(fileLimitBytes));
            continue;
        }
        if (const qint64 free = freeBytes(temporary);
            free >= 0 && free - entry.st.st_size < std::max<qint64>(minFreeDiskBytes, 0)) {
            manifest.leftOut << tr("“%1” (%2) was not kept: the disk that holds Sandpiper's data has %3 free.")
                                    .arg(entry.name, SandboxFolder::formatBytes(entry.st.st_size),
                                         SandboxFolder::formatBytes(free));
            continue;
        }
        const qint64 checkedNs = nowNs();
        const SandboxFolder::Opened opened = folder.open(entry.name, limit);
        struct stat st;
        if (!opened || ::fstat(opened.file->handle(), &st) != 0) {
            manifest.leftOut << tr("“%1” was not kept: %2").arg(entry.name, opened.error);
            continue;
        }
        // A file known by its name and size whose times could not tell (it changed just before the
        // last look, or was just put back) most likely holds what a kept copy holds: hashed where it
        // is, it needs no second copy.
        if (const auto was = known.constFind(entry.name); was != known.cend() && was->size == st.st_size) {
            FileState state{hashOf(opened.file->handle(), limit, m_hashedBytes), st.st_size, opened.executable, {}};
            struct stat after;
            if (!state.sha256.isEmpty() && blobPresent(state) && ::fstat(opened.file->handle(), &after) == 0 &&
                currentStatKey(after) == currentStatKey(st)) {
                state.statKey = statKeyOf(st, checkedNs);
                manifest.files.insert(entry.name, state);
                continue;
            }
        }
        const QString temporaryName = randomName(QStringLiteral("copy-"));
        const OwnedFd copy = createNew(temporaryFd.get(), temporaryName, 0600);
        const QString temporaryPath = temporary + QLatin1Char('/') + temporaryName;
        const Copied copied = copy.valid() ? copyAndHash(opened.file->handle(), copy.get(), limit, m_hashedBytes)
                                           : Copied{{}, 0, systemError()};
        struct stat after;
        const bool unchanged = ::fstat(opened.file->handle(), &after) == 0 &&
                               currentStatKey(after) == currentStatKey(st) && copied.bytes == st.st_size;
        const QString blob = blobPath(copied.sha256);
        if (copied.error.isEmpty() && !QFileInfo::exists(blob)) {
            ::fchmod(copy.get(), 0444); // a kept copy never changes
            if (!QDir().mkpath(QFileInfo(blob).path()) ||
                ::rename(QFile::encodeName(temporaryPath).constData(), QFile::encodeName(blob).constData()) != 0) {
                manifest.leftOut << tr("“%1” was not kept: %2").arg(entry.name, systemError());
                QFile::remove(temporaryPath);
                continue;
            }
        } else {
            QFile::remove(temporaryPath);
        }
        if (!copied.error.isEmpty()) {
            manifest.leftOut << tr("“%1” was not kept: %2").arg(entry.name, copied.error);
            continue;
        }
        manifest.files.insert(entry.name, {copied.sha256, copied.bytes, opened.executable,
                                           unchanged ? statKeyOf(st, checkedNs) : QByteArray()});
    }
    for (const QString &note : std::as_const(manifest.leftOut))
        qCInfo(lcStorage).noquote() << note;

    auto db = m_db.connection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    if (!StoreDatabase::run(
            query, QStringLiteral("INSERT OR REPLACE INTO folder_states (execution_id, manifest) VALUES (?, ?)"),
            {executionId, manifest.toJson()}))
        return m_db.sqlError(query, failed);
    m_known.insert(conversationId, manifest.files);
    return {};
}

StoreResult<FolderRestore> FolderSnapshots::restore(qint64 conversationId, qint64 executionId, qint64 folderLimitBytes,
                                                    qint64 minFreeDiskBytes)
{
    const QString failed = tr("The files of this branch could not be put back.");
    QMutexLocker locker(&m_mutex);
    auto target = manifestOf(conversationId, executionId);
    if (!target)
        return target.error();
    auto attachedList = attachedNames(conversationId);
    if (!attachedList)
        return attachedList.error();
    const QSet<QString> attached(attachedList->cbegin(), attachedList->cend());

    const SandboxFolder folder(m_db.conversationFolder(conversationId));
    QDir().mkpath(folder.root());
    const OwnedFd rootFd(
        ::open(QFile::encodeName(folder.root()).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!rootFd.valid()) {
        return StoreError{
            StoreError::Kind::WriteFailed,
            failed + QLatin1Char(' ') +
                tr("The folder %1 cannot be opened: %2.").arg(QDir::toNativeSeparators(folder.root()), systemError())};
    }
    const QList<Entry> current = listFolder(rootFd.get());
    QHash<QString, struct stat> regular;
    for (const Entry &entry : current) {
        if (S_ISREG(entry.st.st_mode))
            regular.insert(entry.name, entry.st);
    }

    qint64 total = 0;
    for (const FileState &state : std::as_const(target->files))
        total += state.size;
    for (const QString &name : attached) {
        if (!target->files.contains(name) && regular.contains(name))
            total += regular.value(name).st_size;
    }
    if (folderLimitBytes > 0 && total > folderLimitBytes) {
        return StoreError{StoreError::Kind::InvalidInput,
                          tr("This branch's files take %1; the sandbox may hold %2.")
                              .arg(SandboxFolder::formatBytes(total), SandboxFolder::formatBytes(folderLimitBytes))};
    }

    // What is right already stays; the rest is written.
    FolderRestore outcome;
    const Files known = knownFiles(conversationId);
    Files now;
    QStringList toWrite;
    qint64 bytesToWrite = 0;
    for (auto file = target->files.cbegin(); file != target->files.cend(); ++file) {
        const auto found = regular.constFind(file.key());
        bool right = false;
        QByteArray statKey;
        if (found != regular.cend() && found->st_size == file->size) {
            const auto was = known.constFind(file.key());
            const qint64 checkedNs = nowNs();
            if (was != known.cend() && !was->statKey.isEmpty() && was->statKey == currentStatKey(*found)) {
                right = was->sha256 == file->sha256;
                statKey = was->statKey;
            } else if (const SandboxFolder::Opened opened = folder.open(file.key(), file->size); opened) {
                right = hashOf(opened.file->handle(), file->size, m_hashedBytes) == file->sha256;
                statKey = statKeyOf(*found, checkedNs);
            }
        }
        if (right) {
            ++outcome.kept;
            if (isExecutable(found->st_mode) != file->executable) {
                const OwnedFd fd(::openat(rootFd.get(), QFile::encodeName(file.key()).constData(),
                                          O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
                struct stat st;
                if (fd.valid() && ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode))
                    ::fchmod(fd.get(), file->executable ? (st.st_mode | 0111) : (st.st_mode & ~mode_t(0111)));
            }
            now.insert(file.key(), {file->sha256, file->size, file->executable, statKey});
        } else {
            toWrite << file.key();
            bytesToWrite += file->size;
        }
    }
    if (const qint64 free = folder.freeDiskBytes();
        free >= 0 && free - bytesToWrite < std::max<qint64>(minFreeDiskBytes, 0)) {
        return StoreError{StoreError::Kind::WriteFailed,
                          tr("This branch's files need %1 more on the disk that holds the conversation's folder, "
                             "which has %2 free.")
                              .arg(SandboxFolder::formatBytes(bytesToWrite), SandboxFolder::formatBytes(free))};
    }

    // Every file to write is copied beside the folder's files first, checked against its hash: a
    // copy missing or damaged in the store leaves the folder as it was.
    struct Staged {
        QString name;
        QString temporary;
        OwnedFd fd;
    };
    std::vector<Staged> staged;
    auto dropStaged = [&] {
        for (const Staged &file : staged)
            ::unlinkat(rootFd.get(), QFile::encodeName(file.temporary).constData(), 0);
        staged.clear();
    };
    for (const QString &name : std::as_const(toWrite)) {
        const FileState &state = target->files[name];
        const QString blob = blobPath(state.sha256);
        const OwnedFd source(::open(QFile::encodeName(blob).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        if (!source.valid()) {
            dropStaged();
            return StoreError{StoreError::Kind::NotFound,
                              failed + QLatin1Char(' ') +
                                  tr("The kept copy of “%1” is missing (%2); the folder is left as it was.")
                                      .arg(name, QDir::toNativeSeparators(blob))};
        }
        const QString temporary = randomName(restorePrefix);
        OwnedFd copy = createNew(rootFd.get(), temporary, state.executable ? 0755 : 0644);
        if (!copy.valid()) {
            const QString why = systemError();
            dropStaged();
            return StoreError{
                StoreError::Kind::WriteFailed,
                failed + QLatin1Char(' ') +
                    tr("%1 cannot be written: %2.").arg(QDir::toNativeSeparators(folder.hostPath(temporary)), why)};
        }
        staged.push_back({name, temporary, std::move(copy)});
        const Copied copied = copyAndHash(source.get(), staged.back().fd.get(), state.size, m_hashedBytes);
        if (!copied.error.isEmpty() || copied.sha256 != state.sha256) {
            dropStaged();
            const QString why = copied.error.isEmpty() ? tr("its content does not match its hash") : copied.error;
            return StoreError{
                StoreError::Kind::Database,
                failed + QLatin1Char(' ') +
                    tr("The kept copy of “%1” is damaged (%2); the folder is left as it was.").arg(name, why)};
        }
        ::fchmod(staged.back().fd.get(), state.executable ? 0755 : 0644);
    }

    // What the branch did not have goes: files, links, special files, folders that hold none of
    // its files. Files the user attached stay.
    QSet<QString> keepFolders;
    for (const QString &name : target->files.keys() + attached.values()) {
        for (QString parent = parentOf(name); !parent.isEmpty(); parent = parentOf(parent))
            keepFolders.insert(parent);
    }
    QSet<QString> stagedNames;
    for (const Staged &file : staged)
        stagedNames.insert(file.temporary);
    QStringList problems;
    std::function<void(int, const QString &, int)> prune = [&](int dirFd, const QString &prefix, int depth) {
        const int dup = ::fcntl(dirFd, F_DUPFD_CLOEXEC, 0);
        DIR *dir = dup >= 0 ? ::fdopendir(dup) : nullptr;
        if (!dir) {
            if (dup >= 0)
                ::close(dup);
            return;
        }
        ::rewinddir(dir);
        QList<QByteArray> names;
        while (const dirent *found = ::readdir(dir)) {
            if (std::strcmp(found->d_name, ".") != 0 && std::strcmp(found->d_name, "..") != 0)
                names << QByteArray(found->d_name);
        }
        ::closedir(dir);
        for (const QByteArray &raw : std::as_const(names)) {
            const QString name = prefix + QFile::decodeName(raw);
            struct stat st;
            if ((prefix.isEmpty() && stagedNames.contains(name)) ||
                ::fstatat(dirFd, raw.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
            if (S_ISDIR(st.st_mode) && keepFolders.contains(name) && depth + 1 < maxDepth) {
                const OwnedFd child(::openat(dirFd, raw.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
                if (child.valid()) {
                    prune(child.get(), name + QLatin1Char('/'), depth + 1);
                    continue;
                }
            }
            if (S_ISREG(st.st_mode) && (target->files.contains(name) || attached.contains(name)))
                continue;
            if (!removeTree(dirFd, raw, depth + 1, outcome.removed))
                problems << tr("“%1” could not be removed: %2.").arg(name, systemError());
        }
    };
    prune(rootFd.get(), {}, 0);

    // The copies take their names; what stands in the way (a link, a folder) goes first.
    for (Staged &file : staged) {
        const FileState &state = target->files[file.name];
        QString why;
        const OwnedFd parent = makeFolders(rootFd.get(), parentOf(file.name), &why);
        const QByteArray leaf = QFile::encodeName(leafOf(file.name));
        struct stat st;
        if (parent.valid() && ::fstatat(parent.get(), leaf.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISDIR(st.st_mode)) {
            int removed = 0;
            removeTree(parent.get(), leaf, 0, removed);
            outcome.removed += removed;
        }
        if (!parent.valid() || ::renameat(rootFd.get(), QFile::encodeName(file.temporary).constData(), parent.get(),
                                          leaf.constData()) != 0) {
            problems << tr("“%1” could not be written: %2.").arg(file.name, why.isEmpty() ? systemError() : why);
            ::unlinkat(rootFd.get(), QFile::encodeName(file.temporary).constData(), 0);
            continue;
        }
        ++outcome.written;
        outcome.bytesWritten += state.size;
        struct stat written;
        const bool stated = ::fstat(file.fd.get(), &written) == 0;
        now.insert(file.name,
                   {state.sha256, state.size, state.executable, stated ? statKeyOf(written, nowNs()) : QByteArray()});
    }
    m_known.insert(conversationId, now);
    if (!target->leftOut.isEmpty())
        problems << tr("Some files of this branch were not kept when its code ran:") << target->leftOut;
    outcome.problem = problems.join(QLatin1Char(' '));
    return outcome;
}

void FolderSnapshots::sweep()
{
    QMutexLocker locker(&m_mutex);
    auto used = m_db.selectRows<QString>(
        QStringLiteral("SELECT DISTINCT json_extract(f.value, '$.sha256') FROM folder_states s,"
                       " json_each(s.manifest, '$.files') f"),
        {}, tr("The recorded files could not be read."),
        [](const QSqlQuery &query) { return query.value(0).toString(); });
    if (!used) {
        qCWarning(lcStorage).noquote() << used.error().message;
        return; // nothing is removed that may still be named
    }
    const QSet<QString> named(used->cbegin(), used->cend());
    QDirIterator blobs(storeFolder() + QStringLiteral("/sha256"), QDir::Files | QDir::Hidden | QDir::System,
                       QDirIterator::Subdirectories);
    while (blobs.hasNext()) {
        const QFileInfo blob = blobs.nextFileInfo();
        const QString sha = blob.dir().dirName() + blob.fileName();
        if (!named.contains(sha) && !QFile::remove(blob.filePath()))
            qCWarning(lcStorage) << "cannot remove" << blob.filePath();
    }
    QDir(storeFolder() + QStringLiteral("/tmp")).removeRecursively();
}

void FolderSnapshots::forget(qint64 conversationId)
{
    QMutexLocker locker(&m_mutex);
    m_known.remove(conversationId);
}

} // namespace Sandpiper
