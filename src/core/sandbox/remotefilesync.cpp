#include "sandbox/remotefilesync.h"

#include "logging.h"
#include "sandbox/enginefiles.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QPointer>

namespace Sandpiper {

namespace {

// Host files looked at for sending into the container.
constexpr int maxSentFiles = 10000;

} // namespace

RemoteFileSync::RemoteFileSync(const SandboxConfig &config, SandboxFolder folder, QObject *parent)
    : QObject(parent)
    , m_dataDirectory(config.dataDirectory)
    , m_diskLimitBytes(config.diskLimitBytes)
    , m_fetchLimitBytes(config.remoteFetchLimitBytes)
    , m_folder(std::move(folder))
{}

void RemoteFileSync::reset(const ContainerFiles::Container &container)
{
    m_container = container;
    m_inContainer.clear();
}

QCoro::Task<QStringList> RemoteFileSync::sendChanges()
{
    QPointer<RemoteFileSync> self(this);
    const QString removeError = co_await removeDeletedFiles();
    if (!self)
        co_return {};
    const QString sendError = co_await sendNewFiles();
    QStringList errors;
    for (const QString &error : {removeError, sendError})
        if (!error.isEmpty())
            errors << error;
    co_return errors;
}

QCoro::Task<QString> RemoteFileSync::removeDeletedFiles()
{
    QPointer<RemoteFileSync> self(this);
    // Deleted here (in the app or the file manager): there too, or the code would still see them
    // and the disk limit count them.
    const auto isGone = [this](const QString &name) {
        const QFileInfo here(m_folder.hostPath(name));
        return !here.exists() && !here.isSymLink();
    };
    QStringList deleted;
    for (auto file = m_inContainer.cbegin(); file != m_inContainer.cend(); ++file)
        if (isGone(file.key()))
            deleted << file.key();
    // And those the engine kept, that the user fetched and then deleted.
    QStringList fetched = EngineFiles::keptIn(m_dataDirectory, m_container.name, true);
    fetched.removeIf([&isGone](const QString &name) { return !isGone(name); });
    deleted += fetched;
    if (deleted.isEmpty())
        co_return QString();
    const QString error = co_await ContainerFiles::remove(m_container, deleted, copyTimeout);
    if (!self)
        co_return QString();
    if (!error.isEmpty())
        co_return tr("Files deleted from the conversation may still be in the sandbox: %1").arg(error);
    for (const QString &name : std::as_const(deleted)) {
        m_inContainer.remove(name);
        EngineFiles::drop(m_dataDirectory, name);
    }
    co_return QString();
}

QCoro::Task<QString> RemoteFileSync::sendNewFiles()
{
    QPointer<RemoteFileSync> self(this);
    // The files of the conversation's folder the container lacks, or has in another version:
    // uploads, and everything there after a fresh start. Figures stay here: code does not read them.
    QStringList names;
    QHash<QString, QPair<qint64, qint64>> versions;
    const QDir root(m_dataDirectory);
    QDirIterator it(m_dataDirectory, QDir::Files | QDir::Hidden | QDir::NoSymLinks | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext() && names.size() < maxSentFiles) {
        const QFileInfo info = it.nextFileInfo();
        const QString name = root.relativeFilePath(info.filePath());
        if (name.startsWith(QLatin1String("figures/")) || name.startsWith(QLatin1String(".sandpiper/")))
            continue;
        const QPair<qint64, qint64> version{info.size(), info.lastModified().toMSecsSinceEpoch()};
        if (m_inContainer.value(name) != version && EngineFiles::fetchedVersion(m_dataDirectory, name) == version) {
            m_inContainer.insert(name, version); // fetched from there when the user opened it
            EngineFiles::drop(m_dataDirectory, name);
        } else if (m_inContainer.value(name) != version) {
            names << name;
            versions.insert(name, version);
        }
    }
    if (names.isEmpty())
        co_return QString();
    const QString error = co_await ContainerFiles::upload(m_container, m_folder, names, copyTimeout);
    if (!self)
        co_return QString();
    if (!error.isEmpty())
        co_return tr("Not every file of the conversation reached the sandbox: %1").arg(error);
    for (auto version = versions.cbegin(); version != versions.cend(); ++version)
        m_inContainer.insert(version.key(), version.value());
    co_return QString();
}

QCoro::Task<QMap<QString, qint64>> RemoteFileSync::largeFiles(QStringList names)
{
    QMap<QString, qint64> large;
    if (m_fetchLimitBytes <= 0 || names.isEmpty())
        co_return large;
    const ContainerFiles::Listing listing = co_await ContainerFiles::list(m_container, names, copyTimeout);
    // A listing that failed leaves every file to the copy, which says what went wrong.
    for (auto file = listing.regularFiles.cbegin(); file != listing.regularFiles.cend(); ++file)
        if (file.value() > m_fetchLimitBytes)
            large.insert(file.key(), file.value());
    co_return large;
}

void RemoteFileSync::leaveOnEngine(const QString &name, qint64 size)
{
    EngineFiles::keep(m_dataDirectory, name, {.container = m_container, .size = size, .diskLimit = m_diskLimitBytes});
    // A copy here is of an older version: it goes, as it would be overwritten in a shared folder,
    // and this one is fetched when asked for.
    if (m_inContainer.remove(name))
        removeHostCopy(name);
}

QCoro::Task<ContainerFiles::Fetched> RemoteFileSync::fetch(QStringList names)
{
    QPointer<RemoteFileSync> self(this);
    const ContainerFiles::Fetched fetched = co_await ContainerFiles::fetch(
        m_container, m_dataDirectory, names, ContainerFiles::room(m_folder, names, m_diskLimitBytes), copyTimeout);
    if (!self)
        co_return fetched;
    for (const QString &name : fetched.written) {
        const QFileInfo info(m_folder.hostPath(name));
        m_inContainer.insert(name, {info.size(), info.lastModified().toMSecsSinceEpoch()});
    }
    co_return fetched;
}

void RemoteFileSync::removeHostCopies(const QJsonArray &removed)
{
    // Only copies of files the container had from here or sent here: the code deleted them there,
    // as it could delete them in a local folder.
    for (const QJsonValue &value : removed) {
        const QString name = value.toString();
        EngineFiles::drop(m_dataDirectory, name);
        if (!SandboxFolder::nameProblem(name).isEmpty() || !m_inContainer.remove(name))
            continue;
        removeHostCopy(name);
    }
}

void RemoteFileSync::removeHostCopy(const QString &name)
{
    // Never through a link, never a folder.
    QString path = m_dataDirectory;
    bool safe = true;
    for (const QString &part : name.split(QLatin1Char('/'))) {
        path += QLatin1Char('/') + part;
        safe = safe && !QFileInfo(path).isSymLink();
    }
    if (safe && QFileInfo(path).isFile() && !QFile::remove(path))
        qCWarning(lcSandbox) << "cannot remove the copy of" << name;
}

QCoro::Task<QStringList> RemoteFileSync::fetchKept()
{
    // The files the engine kept would go with its container: they come here first.
    const QString folder = m_dataDirectory; // this may go while they come
    const QStringList kept = EngineFiles::keptIn(folder, m_container.name);
    QStringList lost;
    for (const QString &name : kept)
        if (const QString error = co_await EngineFiles::fetch(folder, name); !error.isEmpty())
            lost << error;
    co_return lost;
}

} // namespace Sandpiper
