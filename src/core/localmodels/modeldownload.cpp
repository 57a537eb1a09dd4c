#include "localmodels/modeldownload.h"

#include "localmodels/ggufheader.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QStorageInfo>

namespace Sandpiper {

namespace {

Q_LOGGING_CATEGORY(lcDownload, "sandpiper.download", QtInfoMsg)

constexpr int mostRedirects = 10;
constexpr qint64 hashStep = 8 << 20;         // of a .part read again, between two turns of the event loop
constexpr qint64 spaceCheckEvery = 16 << 20; // bytes written between two looks at the free space
constexpr qint64 speedWindowMs = 5000;
constexpr qint64 reportEveryMs = 200;
constexpr qint64 retryEarned = 1 << 20; // bytes after a retry that earn the retries back
constexpr qint64 replyBuffer = 16 << 20;
constexpr qsizetype bufferBytes = 2 << 20; // of m_buffers, each
constexpr qsizetype bufferCount = 16;

QString formatBytes(qint64 bytes)
{
    return QLocale::system().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

// A file of the hub kept under its own name alone: no folder, nothing hidden, nothing odd.
bool acceptableFileName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._+-]*\\.gguf$"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern.match(name).hasMatch();
}

// "sha256" from an ETag-like header: W/"…" or "…".
QString unquoted(const QByteArray &value)
{
    QString text = QString::fromLatin1(value).trimmed();
    if (text.startsWith(QLatin1String("W/")))
        text = text.mid(2);
    if (text.size() >= 2 && text.startsWith(QLatin1Char('"')) && text.endsWith(QLatin1Char('"')))
        text = text.mid(1, text.size() - 2);
    return text.toLower();
}

bool isSha256(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^[0-9a-f]{64}$"));
    return pattern.match(text).hasMatch();
}

} // namespace

ModelDownload::ModelDownload(QUrl endpoint, QString repository, HubModel model, QString modelsFolder,
                             DownloadOptions options, QObject *parent)
    : QObject(parent)
    , m_endpoint(std::move(endpoint))
    , m_repository(std::move(repository))
    , m_model(std::move(model))
    , m_folder(folderFor(modelsFolder, m_repository))
    , m_options(std::move(options))
    , m_network(new QNetworkAccessManager(this))
{
    m_hashWait.setSingleShot(true);
    m_hashWait.setInterval(2);
    connect(&m_hashWait, &QTimer::timeout, this, [this] {
        bytesArrived();
        if (m_reply && m_reply->isFinished() && !m_hashWait.isActive())
            replyFinished();
    });
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this,
            [this] { request(HubClient::fileUrl(m_endpoint, m_repository, m_model.files.value(m_index).path)); });
    m_clock.start();
}

ModelDownload::~ModelDownload()
{
    // What was downloaded stays for the next ModelDownload of this model.
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

QString ModelDownload::folderFor(const QString &modelsFolder, const QString &repository)
{
    return QDir::cleanPath(modelsFolder + QLatin1Char('/') + repository);
}

bool ModelDownload::hostAllowed(const QUrl &endpoint, const QString &host, const QStringList &extraHosts)
{
    const QString wanted = host.toLower();
    if (wanted.isEmpty())
        return false;
    if (wanted == endpoint.host().toLower())
        return true;
    const auto under = [&](const QString &domain) {
        return wanted == domain || wanted.endsWith(QLatin1Char('.') + domain);
    };
    // The hub's own file hosts: cdn-lfs*.hf.co, cas-bridge.xethub.hf.co, *.huggingface.co.
    const QString hub = endpoint.host().toLower();
    if ((hub == QLatin1String("huggingface.co") || hub == QLatin1String("hf.co")) &&
        (under(QStringLiteral("hf.co")) || under(QStringLiteral("huggingface.co"))))
        return true;
    for (const QString &extra : extraHosts) {
        const QString allowed = extra.trimmed().toLower();
        if (allowed.startsWith(QLatin1String("*.")) ? wanted.endsWith(allowed.mid(1)) : wanted == allowed) {
            if (!allowed.isEmpty())
                return true;
        }
    }
    return false;
}

QString ModelDownload::partName() const
{
    return m_model.files.value(m_index).path.section(QLatin1Char('/'), -1);
}

QString ModelDownload::finalPath(int index) const
{
    return m_folder + QLatin1Char('/') + m_model.files.value(index).path.section(QLatin1Char('/'), -1);
}

QString ModelDownload::partPath(int index) const
{
    return finalPath(index) + QStringLiteral(".part");
}

QString ModelDownload::modelPath() const
{
    return finalPath(0);
}

QString ModelDownload::checkFreeSpace(qint64 needed) const
{
    QStorageInfo storage(m_folder);
    storage.refresh();
    const qint64 free = storage.bytesAvailable();
    if (!storage.isValid() || free < 0 || free >= needed + m_options.diskMargin)
        return {};
    return tr("The disk is full: %1 needs %2 more, and %3 is free in %4. What was downloaded is kept; free some "
              "space, then resume.")
        .arg(m_model.name, formatBytes(needed + m_options.diskMargin), formatBytes(free), m_folder);
}

void ModelDownload::setState(State state, const QString &message)
{
    m_state = state;
    m_message = message;
    Q_EMIT stateChanged(state, message);
    if (state == State::Finished || state == State::Failed || state == State::Canceled)
        Q_EMIT finished();
}

void ModelDownload::fail(const QString &message)
{
    qCInfo(lcDownload) << "download failed:" << message;
    m_retry.stop();
    if (m_reply)
        abortReply(Stop::Fail);
    setState(State::Failed, message);
}

void ModelDownload::abortReply(Stop why)
{
    m_stop = why;
    m_hashWait.stop();
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    if (reply) {
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
    m_receiving = false;
}

void ModelDownload::start()
{
    if (m_state == State::Checking || m_state == State::Downloading || m_state == State::Finished)
        return;
    if (!HubClient::validRepository(m_repository))
        return fail(tr("\"%1\" is not the name of a repository of the hub.").arg(m_repository));
    if (m_model.files.isEmpty() || !m_model.complete())
        return fail(tr("The hub does not list every file of %1.").arg(m_model.name));
    for (const HubFile &file : std::as_const(m_model.files)) {
        if (!acceptableFileName(file.path.section(QLatin1Char('/'), -1)))
            return fail(tr("The hub's file name \"%1\" is not one Sandpiper saves.").arg(file.path));
    }
    // A model gets its name only once checked: one that is here whole needs nothing.
    bool here = m_index == 0 && m_hashed < 0;
    for (int i = 0; here && i < m_model.files.size(); ++i)
        here = QFileInfo(finalPath(i)).size() == m_model.files[i].size && !QFileInfo::exists(partPath(i));
    if (here)
        return setState(State::Finished, tr("%1 is already here.").arg(m_model.name));
    if (!QDir().mkpath(m_folder))
        return fail(tr("The folder %1 cannot be made.").arg(m_folder));
    // What is still to come: the parts not downloaded yet, less what their .part files hold.
    qint64 needed = 0;
    for (int i = m_index; i < m_model.files.size(); ++i) {
        const qint64 have = i == m_index && m_hashed >= 0 ? m_partDone : QFileInfo(partPath(i)).size();
        needed += std::max<qint64>(0, m_model.files[i].size - have);
    }
    if (const QString problem = checkFreeSpace(needed); !problem.isEmpty())
        return fail(problem);
    m_retriesLeft = m_options.retries;
    m_retriesMade = 0;
    m_stop = Stop::None;
    // After a pause the hash holds what the .part holds: go on from there.
    if (m_file.isOpen() && m_hashed == m_partDone) {
        setState(State::Downloading, tr("Downloading %1…").arg(m_model.name));
        request(HubClient::fileUrl(m_endpoint, m_repository, m_model.files[m_index].path));
        return;
    }
    beginPart();
}

void ModelDownload::beginPart()
{
    if (m_index >= m_model.files.size())
        return complete();
    const HubFile &file = m_model.files[m_index];
    m_expectedSize = file.size;
    m_expectedSha = file.sha256;
    m_redirects = 0;
    m_restartedOnce = false;
    m_hash.reset();
    m_hashed = 0;
    m_partDone = 0;
    m_file.close();
    m_file.setFileName(partPath(m_index));
    if (!m_file.open(QIODevice::ReadWrite | QIODevice::Unbuffered))
        return fail(tr("%1 cannot be written: %2").arg(m_file.fileName(), m_file.errorString()));
    if (m_file.size() > m_expectedSize)
        m_file.resize(0);
    if (m_file.size() == 0)
        return hashExisting();
    setState(State::Checking, tr("Checking what was downloaded of %1 before…").arg(partName()));
    hashExisting();
}

// What an earlier download left in the .part goes into the hash first, a step at a time.
void ModelDownload::hashExisting()
{
    if (m_stop == Stop::Pause || m_stop == Stop::Cancel)
        return;
    const qint64 size = m_file.size();
    if (m_hash.pending() > m_options.hashBacklog) {
        QTimer::singleShot(2, this, &ModelDownload::hashExisting);
        return;
    }
    if (m_hashed < size) {
        m_file.seek(m_hashed);
        const QByteArray bytes = m_file.read(std::min(hashStep, size - m_hashed));
        if (bytes.isEmpty())
            return fail(tr("%1 cannot be read: %2").arg(m_file.fileName(), m_file.errorString()));
        m_hash.addData(bytes);
        m_hashed += bytes.size();
        m_partDone = m_hashed;
        QTimer::singleShot(0, this, &ModelDownload::hashExisting);
        return;
    }
    m_file.seek(size);
    m_partDone = size;
    reportProgress(true);
    m_lastReport = -1; // the first bytes are said at once
    if (m_partDone == m_expectedSize && m_expectedSize > 0)
        return partComplete();
    setState(State::Downloading, tr("Downloading %1…").arg(m_model.name));
    request(HubClient::fileUrl(m_endpoint, m_repository, m_model.files[m_index].path));
}

void ModelDownload::request(const QUrl &url)
{
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    // Bytes as they are on the hub: a compressed answer would not resume at a byte.
    request.setRawHeader("Accept-Encoding", "identity");
    if (m_partDone > 0)
        request.setRawHeader("Range", "bytes=" + QByteArray::number(m_partDone) + '-');
    if (!m_options.token.isEmpty() && url.host() == m_endpoint.host())
        request.setRawHeader("Authorization", "Bearer " + m_options.token.toUtf8());
    request.setTransferTimeout(int(m_options.stallTimeout.count()));
    m_stop = Stop::None;
    m_receiving = false;
    m_reply = m_network->get(request);
    m_reply->setReadBufferSize(replyBuffer);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &ModelDownload::headersArrived);
    connect(m_reply, &QNetworkReply::readyRead, this, &ModelDownload::bytesArrived);
    connect(m_reply, &QNetworkReply::finished, this, &ModelDownload::replyFinished);
}

void ModelDownload::headersArrived()
{
    QNetworkReply *reply = m_reply;
    if (!reply || m_receiving)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 206) {
        // bytes START-END/TOTAL: it must go on where the .part ends.
        static const QRegularExpression range(QStringLiteral("^bytes (\\d+)-(\\d+)/(\\d+|\\*)$"));
        const auto match = range.match(QString::fromLatin1(reply->rawHeader("Content-Range")).trimmed());
        if (!match.hasMatch() || match.captured(1).toLongLong() != m_partDone) {
            qCInfo(lcDownload) << "the server's range" << reply->rawHeader("Content-Range") << "is not from"
                               << m_partDone << "; starting the file again";
            return startOver();
        }
        m_receiving = true;
    } else if (status == 200) {
        if (m_partDone > 0) {
            // The server ignored the Range: the body is the whole file, so is the .part again.
            qCInfo(lcDownload) << "the server sent the whole file instead of a range; starting it again";
            m_file.resize(0);
            m_file.seek(0);
            m_hash.reset();
            m_hashed = 0;
            m_partDone = 0;
        }
        m_receiving = true;
    }
}

void ModelDownload::startOver()
{
    abortReply(Stop::Restart);
    if (m_restartedOnce)
        return fail(tr("The server of %1 does not send the part of the file that was asked for.").arg(partName()));
    m_restartedOnce = true;
    m_file.resize(0);
    m_file.seek(0);
    m_hash.reset();
    m_hashed = 0;
    m_partDone = 0;
    request(HubClient::fileUrl(m_endpoint, m_repository, m_model.files[m_index].path));
}

void ModelDownload::bytesArrived()
{
    QNetworkReply *reply = m_reply;
    if (!reply || !m_receiving)
        return;
    while (m_reply == reply && m_receiving && reply->bytesAvailable() > 0) {
        // The hash keeps up, or the network waits (the reply's buffer is bounded, TCP holds the rest).
        QByteArray *buffer = m_hash.pending() > m_options.hashBacklog ? nullptr : freeBuffer();
        if (!buffer) {
            if (!m_hashWait.isActive())
                m_hashWait.start();
            return;
        }
        const qint64 read = reply->read(buffer->data(), buffer->size());
        if (read <= 0)
            return;
        if (!keep(*buffer, read))
            return;
    }
}

QByteArray *ModelDownload::freeBuffer()
{
    for (QByteArray &buffer : m_buffers) {
        if (buffer.isDetached())
            return &buffer;
    }
    if (m_buffers.size() >= bufferCount)
        return nullptr;
    m_buffers.append(QByteArray(bufferBytes, Qt::Uninitialized));
    return &m_buffers.last();
}

bool ModelDownload::keep(const QByteArray &buffer, qint64 size)
{
    const QByteArrayView bytes(buffer.constData(), size);
    if (m_partDone + bytes.size() > m_expectedSize) {
        abortReply(Stop::Fail);
        m_file.close();
        QFile::remove(partPath(m_index));
        m_hashed = -1;
        fail(tr("The hub sent more of %1 than the %2 it lists; what came was deleted.")
                 .arg(partName(), formatBytes(m_expectedSize)));
        return false;
    }
    m_sinceSpaceCheck += bytes.size();
    QString full;
    if (m_sinceSpaceCheck >= spaceCheckEvery) {
        m_sinceSpaceCheck = 0;
        full = checkFreeSpace(m_expectedSize - m_partDone - bytes.size());
    }
    const qint64 written = full.isEmpty() ? m_file.write(bytes.data(), bytes.size()) : -1;
    if (written != bytes.size()) {
        const QString error = m_file.errorString();
        // The .part keeps only what the hash has seen.
        m_file.resize(m_partDone);
        m_file.seek(m_partDone);
        abortReply(Stop::Fail);
        if (full.isEmpty()) {
            QStorageInfo storage(m_folder);
            full = storage.bytesAvailable() < bytes.size() + (1 << 20)
                       ? tr("The disk is full: %1 could not be written further in %2. What was downloaded is kept; "
                            "free some space, then resume.")
                             .arg(partName(), m_folder)
                       : tr("%1 could not be written: %2. What was downloaded is kept; resume to try again.")
                             .arg(m_file.fileName(), error);
        }
        fail(full);
        return false;
    }
    m_hash.addData(buffer, size);
    m_partDone += bytes.size();
    m_hashed = m_partDone;
    m_sinceRetry += bytes.size();
    if (m_retriesMade > 0 && m_sinceRetry >= retryEarned) {
        // The connection carries again: a later drop gets every retry again.
        m_retriesMade = 0;
        m_retriesLeft = m_options.retries;
    }
    reportProgress(false);
    return true;
}

void ModelDownload::replyFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    bytesArrived(); // what is still buffered
    if (m_reply != reply || m_hashWait.isActive())
        return; // it failed, or the rest is read once the hash caught up
    m_reply = nullptr;
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError error = reply->error();
    m_receiving = false;
    if (status >= 300 && status < 400 && reply->hasRawHeader("Location"))
        return followRedirect(reply);
    if (status == 200 || status == 206) {
        if (m_partDone == m_expectedSize)
            return partComplete();
        return retryOrFail(
            error != QNetworkReply::NoError
                ? reply->errorString()
                : tr("the connection ended after %1 of %2").arg(formatBytes(m_partDone), formatBytes(m_expectedSize)));
    }
    if (status == 416) {
        // The .part is as long as the file, or the server knows the file otherwise.
        if (m_partDone == m_expectedSize)
            return partComplete();
        return startOver();
    }
    if (status == 0 || status == 408 || status == 429 || status >= 500)
        return retryOrFail(status == 0 ? reply->errorString() : tr("the server answered %1").arg(status));
    fail(HubClient::statusProblem(status, tr("file %1 of %2").arg(partName(), m_repository), reply->read(64 * 1024),
                                  !m_options.token.isEmpty()));
}

void ModelDownload::followRedirect(QNetworkReply *reply)
{
    const QUrl from = reply->url();
    const QUrl to = from.resolved(QUrl::fromEncoded(reply->rawHeader("Location")));
    // The hub's own answer says which file it is, before any file host does.
    if (from.host() == m_endpoint.host()) {
        bool numeric = false;
        const qint64 size = reply->rawHeader("X-Linked-Size").toLongLong(&numeric);
        const QString sha = unquoted(reply->rawHeader("X-Linked-Etag"));
        if (numeric && size > 0 && size != m_expectedSize) {
            return fail(tr("The hub lists %1 as %2 but now serves it as %3: the repository changed. Look at its "
                           "files again.")
                            .arg(partName(), formatBytes(m_expectedSize), formatBytes(size)));
        }
        if (isSha256(sha) && !m_expectedSha.isEmpty() && sha != m_expectedSha) {
            return fail(tr("The hub lists %1 with another SHA-256 than the file it now serves: the repository "
                           "changed. Look at its files again.")
                            .arg(partName()));
        }
        if (isSha256(sha) && m_expectedSha.isEmpty())
            m_expectedSha = sha;
    }
    if (++m_redirects > mostRedirects)
        return fail(tr("The hub sent the download of %1 through too many redirects.").arg(partName()));
    if (!to.isValid() || (to.scheme() != QLatin1String("https") && to.scheme() != QLatin1String("http")) ||
        (from.scheme() == QLatin1String("https") && to.scheme() != QLatin1String("https")))
        return fail(tr("The hub sent the download of %1 to an address Sandpiper does not follow: %2.")
                        .arg(partName(), to.toDisplayString(QUrl::RemoveQuery | QUrl::RemoveUserInfo)));
    if (!hostAllowed(m_endpoint, to.host(), m_options.extraHosts))
        return fail(tr("The hub sent the download of %1 to %2, which is neither the hub nor one of its file hosts; "
                       "Sandpiper did not follow it.")
                        .arg(partName(), to.host()));
    request(to);
}

void ModelDownload::retryOrFail(const QString &problem)
{
    if (m_retriesLeft <= 0)
        return fail(tr("The download of %1 stopped: %2. What was downloaded is kept; resume to go on from there.")
                        .arg(partName(), problem));
    --m_retriesLeft;
    m_sinceRetry = 0;
    const auto delay = m_options.firstRetryDelay * (1 << std::min(m_retriesMade, 6));
    ++m_retriesMade;
    qCInfo(lcDownload) << "download interrupted:" << problem << "; again in" << delay.count() << "ms";
    setState(State::Downloading, tr("The connection dropped (%1); trying again in %2 s.")
                                     .arg(problem)
                                     .arg(QString::number(double(delay.count()) / 1000.0, 'f', 1)));
    m_redirects = 0;
    m_retry.start(delay);
}

void ModelDownload::partComplete()
{
    const QString sha = m_hash.hex();
    if (!m_expectedSha.isEmpty() && sha != m_expectedSha) {
        m_file.close();
        QFile::remove(partPath(m_index));
        m_hashed = -1;
        m_partDone = 0;
        return fail(tr("%1 does not match the SHA-256 that the hub publishes for it (%2…, it is %3…), so it was "
                       "deleted. Download it again; if this happens again, the hub's copy or something between "
                       "it and this computer is at fault.")
                        .arg(partName(), m_expectedSha.left(12), sha.left(12)));
    }
    if (m_expectedSha.isEmpty())
        qCInfo(lcDownload) << partName() << "has no published SHA-256; only its size was checked";
    m_file.close();
    m_doneBefore += m_partDone;
    m_partDone = 0;
    m_hashed = -1;
    ++m_index;
    reportProgress(true);
    if (m_state == State::Paused || m_state == State::Canceled)
        return; // while it was said
    beginPart();
}

void ModelDownload::complete()
{
    const auto header = GgufHeader::read(partPath(0));
    if (!header) {
        for (int i = 0; i < m_model.files.size(); ++i)
            QFile::remove(partPath(i));
        return fail(tr("%1 is not a GGUF model that Sandpiper can run (%2), so it was removed.")
                        .arg(m_model.name, header.error()));
    }
    for (int i = 0; i < m_model.files.size(); ++i) {
        QFile::remove(finalPath(i));
        if (!QFile::rename(partPath(i), finalPath(i)))
            return fail(tr("%1 could not be put in its place.").arg(finalPath(i)));
    }
    setState(State::Finished,
             tr("%1 is downloaded (%2), its SHA-256 checked.").arg(m_model.name, formatBytes(m_model.bytes())));
}

void ModelDownload::pause()
{
    if (m_state != State::Checking && m_state != State::Downloading)
        return;
    m_retry.stop();
    if (!m_reply && m_state == State::Downloading)
        m_file.close(); // between two parts: the next starts from its .part
    abortReply(Stop::Pause);
    setState(State::Paused, tr("Paused at %1 of %2.").arg(formatBytes(bytesDone()), formatBytes(bytesTotal())));
}

void ModelDownload::cancel()
{
    if (m_state == State::Finished || m_state == State::Canceled)
        return;
    m_retry.stop();
    abortReply(Stop::Cancel);
    m_file.close();
    for (int i = 0; i < m_model.files.size(); ++i)
        QFile::remove(partPath(i));
    // Nor the folders of its repository and owner, when nothing else is in them.
    QString folder = m_folder;
    for (qsizetype level = 0; level <= m_repository.count(QLatin1Char('/')) && QDir().rmdir(folder); ++level)
        folder = QFileInfo(folder).path();
    m_index = 0;
    m_doneBefore = 0;
    m_partDone = 0;
    m_hashed = -1;
    setState(State::Canceled, tr("The download of %1 was canceled.").arg(m_model.name));
}

void ModelDownload::reportProgress(bool now)
{
    const qint64 at = m_clock.elapsed();
    const qint64 done = bytesDone();
    if (!now && m_lastReport >= 0 && at - m_lastReport < reportEveryMs)
        return;
    m_lastReport = at;
    m_samples.append({at, done});
    while (m_samples.size() > 2 && m_samples.constFirst().first < at - speedWindowMs)
        m_samples.removeFirst();
    const auto &[firstAt, firstDone] = m_samples.constFirst();
    const double speed = at > firstAt ? double(done - firstDone) * 1000.0 / double(at - firstAt) : 0.0;
    const qint64 left = speed > 0 ? qint64(double(bytesTotal() - done) / speed) : -1;
    Q_EMIT progressed(done, bytesTotal(), speed, left);
}

} // namespace Sandpiper
