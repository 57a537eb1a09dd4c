#include "session/modeldownloads.h"

#include "llm/apikeystore.h"
#include "localmodels/hubclient.h"
#include "session/localmodelhost.h"
#include "settings/settings.h"

#include <QDir>
#include <QFile>
#include <QLocale>

namespace Sandpiper {

namespace {

// "owner/name:QUANTIZATION" of the download that has not finished (set while one runs, so that a
// crash leaves it too).
const QString unfinishedKey = QStringLiteral("local/unfinished_download");

bool running(ModelDownload::State state)
{
    return state == ModelDownload::State::Idle || state == ModelDownload::State::Checking ||
           state == ModelDownload::State::Downloading;
}

} // namespace

ModelDownloads::ModelDownloads(Settings *settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_hub(new HubClient(HubClient::defaultEndpoint(), this))
{}

ModelDownloads::~ModelDownloads()
{
    // Sandpiper quits: what came stays as .part files, and the settings name the download, so the
    // next start goes on from there when asked.
    if (m_current && (running(m_current->state()) || m_current->state() == ModelDownload::State::Paused)) {
        // Nobody is told: the windows that show it may be going too (or be half gone already).
        m_current->blockSignals(true);
        m_current->pause();
    }
}

bool ModelDownloads::busy() const
{
    if (m_preparing)
        return true;
    return m_current && m_current->state() != ModelDownload::State::Finished &&
           m_current->state() != ModelDownload::State::Failed && m_current->state() != ModelDownload::State::Canceled;
}

QCoro::Task<Result<ModelDownload *>> ModelDownloads::download(QString repository, QString quantization, QString token)
{
    if (busy())
        co_return tr("One download at a time: pause or cancel the one under way first.");
    QPointer<ModelDownloads> self(this);
    m_preparing = true;
    const auto prepared =
        co_await LocalModelHost::prepareDownload(m_hub, m_settings, repository, quantization, token, this);
    if (!self)
        co_return tr("The download was closed.");
    m_preparing = false;
    if (!prepared)
        co_return prepared.error();
    if (m_current)
        m_current->deleteLater();
    m_current = *prepared;
    m_repository = repository;
    remember(repository, quantization);
    connect(m_current, &ModelDownload::progressed, this, &ModelDownloads::changed);
    connect(m_current, &ModelDownload::stateChanged, this, [this](ModelDownload::State state) {
        if (state == ModelDownload::State::Finished || state == ModelDownload::State::Canceled)
            forget();
        Q_EMIT changed();
    });
    Q_EMIT started(m_current);
    m_current->start();
    co_return m_current.data();
}

QString ModelDownloads::unfinished() const
{
    return busy() ? QString() : m_settings->string(unfinishedKey);
}

QCoro::Task<Result<ModelDownload *>> ModelDownloads::resumeUnfinished()
{
    const QString which = unfinished();
    if (which.isEmpty())
        co_return tr("There is no unfinished download.");
    QPointer<ModelDownloads> self(this);
    const QString token = (co_await ApiKeyStore::read(QStringLiteral("huggingface"), QStringLiteral("HF_TOKEN"))).key;
    if (!self)
        co_return tr("The download was closed.");
    co_return co_await download(which.section(QLatin1Char(':'), 0, 0), which.section(QLatin1Char(':'), 1), token);
}

QFileInfoList ModelDownloads::unfinishedParts() const
{
    const QString which = unfinished();
    if (which.isEmpty())
        return {};
    return QDir(ModelDownload::folderFor(m_settings->localModelsFolder(), which.section(QLatin1Char(':'), 0, 0)))
        .entryInfoList({QStringLiteral("*.part")}, QDir::Files);
}

qint64 ModelDownloads::unfinishedBytes() const
{
    qint64 bytes = 0;
    for (const QFileInfo &part : unfinishedParts())
        bytes += part.size();
    return bytes;
}

void ModelDownloads::discardUnfinished()
{
    if (unfinished().isEmpty())
        return;
    for (const QFileInfo &part : unfinishedParts())
        QFile::remove(part.filePath());
    forget();
    Q_EMIT changed();
}

QString ModelDownloads::displayName(const QString &repository)
{
    return repository.section(QLatin1Char('/'), 1).remove(QLatin1String("-GGUF"));
}

double ModelDownloads::fraction() const
{
    if (!m_current || !running(m_current->state()) || m_current->bytesTotal() <= 0)
        return -1;
    return double(m_current->bytesDone()) / double(m_current->bytesTotal());
}

QString ModelDownloads::summary() const
{
    if (m_current) {
        const QString name = displayName(m_repository);
        switch (m_current->state()) {
        case ModelDownload::State::Idle:
        case ModelDownload::State::Checking:
        case ModelDownload::State::Downloading:
            return tr("Downloading %1… %2%").arg(name).arg(int(std::max(0.0, fraction()) * 100));
        case ModelDownload::State::Paused:
            return tr("The download of %1 is paused.").arg(name);
        case ModelDownload::State::Failed:
            return tr("The download of %1 stopped: %2").arg(name, m_current->message());
        case ModelDownload::State::Finished:
        case ModelDownload::State::Canceled:
            return {};
        }
    }
    if (m_preparing)
        return {};
    const QString which = unfinished();
    return which.isEmpty() ? QString()
                           : tr("The download of %1 stopped when Sandpiper quit: resume it in Settings › Models.")
                                 .arg(displayName(which.section(QLatin1Char(':'), 0, 0)));
}

void ModelDownloads::remember(const QString &repository, const QString &quantization)
{
    m_settings->setValue(unfinishedKey, QStringLiteral("%1:%2").arg(repository, quantization));
}

void ModelDownloads::forget()
{
    m_settings->setValue(unfinishedKey, QString());
}

} // namespace Sandpiper
