#include "sandbox/remotefilesync.h"

#include "logging.h"
#include "sandbox/enginefiles.h"
#include "sandbox/tarreader.h"

#include <QCoroSignal>
#include <QDeadlineTimer>
#include <QJsonDocument>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QPointer>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// Host files looked at for sending into the container.
constexpr int maxSentFiles = 10000;
// Uploads on the channel: files opened at a time (one request), bytes in a piece, bytes queued.
constexpr qsizetype filesPerRequest = 64;
constexpr qint64 chunkBytes = 256 * 1024;
constexpr qint64 maxQueuedBytes = 4 * 1024 * 1024;

} // namespace

RemoteFileSync::RemoteFileSync(const SandboxConfig &config, SandboxFolder folder, QObject *parent)
    : QObject(parent)
    , m_dataDirectory(config.dataDirectory)
    , m_diskLimitBytes(config.diskLimitBytes)
    , m_fetchLimitBytes(config.remoteFetchLimitBytes)
    , m_folder(std::move(folder))
{}

RemoteFileSync::~RemoteFileSync() = default;

void RemoteFileSync::reset(const ContainerFiles::Container &container, QProcess *kernel)
{
    m_container = container;
    m_inContainer.clear();
    m_kernel = qEnvironmentVariable("SANDPIPER_REMOTE_CHANNEL") == QLatin1String("0") ? nullptr : kernel;
    m_incoming.reset();
    // A fetch waiting on the channel learns at once that it is gone.
    if (m_kernel)
        connect(m_kernel, &QProcess::finished, this, [this] { Q_EMIT channelProgress(); });
}

bool RemoteFileSync::hasChannel() const
{
    return m_kernel && m_kernel->state() != QProcess::NotRunning;
}

QCoro::Task<QStringList> RemoteFileSync::sendChanges(QString id)
{
    QPointer<RemoteFileSync> self(this);
    QStringList errors;
    if (hasChannel() && !id.isEmpty()) {
        const QStringList deleted = deletedHere();
        Versions versions;
        const QStringList names = changedHere(versions);
        if (deleted.isEmpty() && names.isEmpty())
            co_return errors;
        const QString error = co_await sendOnChannel(id, deleted, names);
        if (!self)
            co_return {};
        if (!error.isEmpty())
            co_return QStringList{error};
        // Taken as sent: what the kernel could not write, it says (filesReceived()).
        forgetRemoved(deleted);
        for (auto version = versions.cbegin(); version != versions.cend(); ++version)
            m_inContainer.insert(version.key(), version.value());
        co_return errors;
    }
    const QString removeError = co_await removeDeletedFiles();
    if (!self)
        co_return {};
    const QString sendError = co_await sendNewFiles();
    for (const QString &error : {removeError, sendError})
        if (!error.isEmpty())
            errors << error;
    co_return errors;
}

QStringList RemoteFileSync::deletedHere() const
{
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
    return deleted + fetched;
}

void RemoteFileSync::forgetRemoved(const QStringList &names)
{
    for (const QString &name : names) {
        m_inContainer.remove(name);
        EngineFiles::drop(m_dataDirectory, name);
    }
}

QCoro::Task<QString> RemoteFileSync::removeDeletedFiles()
{
    QPointer<RemoteFileSync> self(this);
    const QStringList deleted = deletedHere();
    if (deleted.isEmpty())
        co_return QString();
    const QString error = co_await ContainerFiles::remove(m_container, deleted, copyTimeout);
    if (!self)
        co_return QString();
    if (!error.isEmpty())
        co_return tr("Files deleted from the conversation may still be in the sandbox: %1").arg(error);
    forgetRemoved(deleted);
    co_return QString();
}

QStringList RemoteFileSync::changedHere(Versions &versions)
{
    // The files of the conversation's folder the container lacks, or has in another version:
    // uploads, and everything there after a fresh start. Figures stay here: code does not read them.
    QStringList names;
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
    return names;
}

QCoro::Task<QString> RemoteFileSync::sendNewFiles()
{
    QPointer<RemoteFileSync> self(this);
    Versions versions;
    const QStringList names = changedHere(versions);
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

QCoro::Task<QString> RemoteFileSync::sendOnChannel(QString id, QStringList removed, QStringList names)
{
    QPointer<RemoteFileSync> self(this);
    // In batches, each a request with its files' sizes and their bytes behind it: a file is
    // opened (without following links) when its batch goes, and what was opened is what is sent.
    for (qsizetype first = 0; first < std::max<qsizetype>(1, names.size()); first += filesPerRequest) {
        std::vector<SandboxFolder::Opened> opened;
        QJsonArray files;
        for (const QString &name : names.mid(first, filesPerRequest)) {
            SandboxFolder::Opened file = m_folder.open(name, std::numeric_limits<qint64>::max());
            if (!file) {
                qCWarning(lcSandbox) << "not sent into the sandbox:" << file.error;
                continue;
            }
            files.append(QJsonObject{
                {QStringLiteral("name"), name},
                {QStringLiteral("size"), double(file.size)},
                {QStringLiteral("mtime"), double(QFileInfo(*file.file).lastModified().toSecsSinceEpoch())}});
            opened.push_back(std::move(file));
        }
        const QJsonObject request{
            {QStringLiteral("id"), id},
            {QStringLiteral("op"), QStringLiteral("receive_files")},
            {QStringLiteral("remove"), QJsonArray::fromStringList(first == 0 ? removed : QStringList())},
            {QStringLiteral("files"), files}};
        if (!hasChannel())
            co_return tr("Not every file of the conversation reached the sandbox: it stopped.");
        m_kernel->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
        for (SandboxFolder::Opened &file : opened) {
            for (qint64 sent = 0; sent < file.size;) {
                QByteArray chunk = file.file->read(std::min(chunkBytes, file.size - sent));
                if (chunk.isEmpty()) // the file shrank since it was opened: the request said more
                    chunk = QByteArray(qsizetype(std::min(chunkBytes, file.size - sent)), '\0');
                sent += chunk.size();
                if (!hasChannel())
                    co_return tr("Not every file of the conversation reached the sandbox: it stopped.");
                m_kernel->write(chunk);
                if (!co_await drainChannel(maxQueuedBytes)) {
                    if (self)
                        Q_EMIT channelBroken(tr("The sandbox stopped reading the files sent to it and was replaced."));
                    co_return tr("Not every file of the conversation reached the sandbox: it stopped reading them.");
                }
            }
        }
    }
    co_return QString();
}

QCoro::Task<bool> RemoteFileSync::drainChannel(qint64 atMost)
{
    QPointer<RemoteFileSync> self(this);
    while (self && hasChannel() && m_kernel->bytesToWrite() > atMost) {
        QPointer<QProcess> kernel = m_kernel;
        const auto written = co_await qCoro(kernel.data(), &QIODevice::bytesWritten, channelStall);
        if (!written.has_value() && self && kernel == m_kernel && hasChannel() && kernel->bytesToWrite() > atMost)
            co_return false;
    }
    co_return true;
}

QCoro::Task<QMap<QString, qint64>> RemoteFileSync::largeFiles(QStringList names, QJsonObject sizes)
{
    QMap<QString, qint64> large;
    if (m_fetchLimitBytes <= 0 || names.isEmpty())
        co_return large;
    if (hasChannel()) {
        // The kernel's word, like the listing's: a size that lies only decides whether a file
        // comes now or when asked for; what comes is bounded by the disk limit all the same.
        for (const QString &name : std::as_const(names))
            if (const qint64 size = sizes.value(name).toInteger(-1); size > m_fetchLimitBytes)
                large.insert(name, size);
        co_return large;
    }
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

QCoro::Task<ContainerFiles::Fetched> RemoteFileSync::fetch(QStringList names, QString id, QJsonObject sizes)
{
    QPointer<RemoteFileSync> self(this);
    if (names.isEmpty())
        co_return {};
    qint64 claimed = 0;
    for (const QString &name : std::as_const(names))
        claimed += std::clamp<qint64>(sizes.value(name).toInteger(), 0, channelFetchBytes + 1);
    ContainerFiles::Fetched fetched;
    if (hasChannel() && !id.isEmpty() && claimed <= channelFetchBytes) {
        fetched = co_await fetchOnChannel(id, names, ContainerFiles::room(m_folder, names, m_diskLimitBytes));
        if (!self)
            co_return fetched;
        noteFetched(fetched.written);
        if (fetched.error.isEmpty())
            co_return fetched;
        // What did not come that way comes the old way.
        qCWarning(lcSandbox) << "the file channel of" << m_container.name << "failed:" << fetched.error;
        names.removeIf([&fetched](const QString &name) {
            return fetched.written.contains(name) || fetched.refusedNames.contains(name);
        });
        fetched.error.clear();
        if (names.isEmpty())
            co_return fetched;
    }
    const ContainerFiles::Fetched copied = co_await ContainerFiles::fetch(
        m_container, m_dataDirectory, names, ContainerFiles::room(m_folder, names, m_diskLimitBytes), copyTimeout);
    if (!self)
        co_return copied;
    noteFetched(copied.written);
    fetched.written += copied.written;
    fetched.refused += copied.refused;
    fetched.refusedNames += copied.refusedNames;
    fetched.error = copied.error;
    co_return fetched;
}

void RemoteFileSync::noteFetched(const QStringList &names)
{
    for (const QString &name : names) {
        const QFileInfo info(m_folder.hostPath(name));
        m_inContainer.insert(name, {info.size(), info.lastModified().toMSecsSinceEpoch()});
    }
}

QCoro::Task<ContainerFiles::Fetched> RemoteFileSync::fetchOnChannel(QString id, QStringList names, qint64 maxBytes)
{
    QPointer<RemoteFileSync> self(this);
    m_incoming.emplace();
    m_incoming->reader = std::make_unique<TarReader>(m_dataDirectory, maxBytes);
    m_incoming->reader->expectOnly(names);
    // The files asked for, their headers (a pax one each, for long names) and the padding.
    const qint64 overhead = (names.size() + 1) * 4 * 1024 + 64 * 1024;
    m_incoming->maxBytes = maxBytes > std::numeric_limits<qint64>::max() - overhead ? std::numeric_limits<qint64>::max()
                                                                                    : maxBytes + overhead;
    const QJsonObject request{{QStringLiteral("id"), id},
                              {QStringLiteral("op"), QStringLiteral("send_files")},
                              {QStringLiteral("files"), QJsonArray::fromStringList(names)}};
    m_kernel->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    const QDeadlineTimer deadline(copyTimeout);
    while (m_incoming->error.isEmpty() && !m_incoming->sent) {
        const auto wait = std::min<std::chrono::milliseconds>(
            channelStall, std::max(1ms, std::chrono::milliseconds(deadline.remainingTime())));
        const auto progressed = co_await qCoro(this, &RemoteFileSync::channelProgress, wait);
        if (!self)
            co_return {};
        if (!m_incoming)
            co_return {.error = tr("The sandbox went while its files came.")};
        if (!hasChannel() && !m_incoming->sent)
            m_incoming->error = tr("The sandbox went while its files came.");
        if (progressed.has_value())
            continue;
        if (deadline.hasExpired()) {
            m_incoming->error = tr("The files took longer than %1 s to come from the sandbox; the copy was stopped.")
                                    .arg(std::chrono::duration_cast<std::chrono::seconds>(copyTimeout).count());
        } else {
            // Not a word for so long: the kernel is not reading its channel (busy code, or none).
            m_incoming->error = tr("The sandbox did not send its files.");
            m_kernel = nullptr;
        }
    }
    Incoming incoming = std::move(*m_incoming);
    m_incoming.reset();
    TarReader &reader = *incoming.reader;
    reader.finish();
    co_return ContainerFiles::Fetched{.written = reader.written(),
                                      .refused = reader.refused(),
                                      .refusedNames = reader.refusedNames(),
                                      .error = incoming.error.isEmpty() ? reader.error() : incoming.error};
}

void RemoteFileSync::fileData(const QByteArray &base64)
{
    if (!m_incoming || m_incoming->sent || !m_incoming->error.isEmpty())
        return; // not asked for: forged, or late
    Incoming &incoming = *m_incoming;
    const auto decoded = QByteArray::fromBase64Encoding(base64, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        incoming.error = tr("The files from the sandbox arrived damaged (a piece that is not base64).");
    else if ((incoming.bytes += decoded.decoded.size()) > incoming.maxBytes)
        incoming.error = tr("The sandbox sent more than the files asked for can hold; the copy was stopped.");
    else if (!incoming.reader->feed(decoded.decoded))
        incoming.error = incoming.reader->error();
    Q_EMIT channelProgress();
}

void RemoteFileSync::filesSent()
{
    if (!m_incoming)
        return;
    m_incoming->sent = true;
    Q_EMIT channelProgress();
}

QStringList RemoteFileSync::filesReceived(const QJsonArray &failed, const QJsonArray &errors)
{
    // The kernel's word: a name it says failed is sent again next time, nothing more.
    for (const QJsonValue &name : failed)
        m_inContainer.remove(name.toString());
    QStringList reasons;
    for (const QJsonValue &error : errors)
        if (reasons.size() < 5)
            reasons << error.toString().left(200);
    if (reasons.isEmpty())
        return {};
    return {tr("Not every file of the conversation reached the sandbox: %1").arg(reasons.join(QLatin1String("; ")))};
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
