#include "welcomepage.h"

#include "flowlayout.h"
#include "settingspages/modeldownloadpanel.h"

#include <llm/apikeystore.h>
#include <llm/providerpresets.h>
#include <localmodels/backgroundwork.h>
#include <localmodels/localrunner.h>
#include <localmodels/modeldownload.h>
#include <localmodels/runnercontainer.h>
#include <localmodels/runnerimage.h>
#include <session/localmodelhost.h>
#include <session/modeldownloads.h>
#include <settings/settings.h>

#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace Sandpiper {

WelcomePage::WelcomePage(Settings *settings, ModelDownloads *downloads, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_candidates(ProviderDetector::localCandidates())
    , m_reason(new QLabel)
    , m_scanStatus(new QLabel)
    , m_serverList(new QVBoxLayout)
    , m_rescan(new QPushButton(tr("&Look again")))
    , m_apiKey(new QLineEdit)
    , m_saveKey(new QPushButton(tr("&Use OpenAI")))
    , m_openSettings(new QPushButton(tr("Open &settings…")))
    , m_back(new QPushButton(tr("&Back to the chat")))
    , m_downloads(downloads ? downloads : new ModelDownloads(settings, this))
    , m_downloadProgress(new QProgressBar)
    , m_downloadNote(new QLabel)
    , m_cancelDownload(new QPushButton(tr("&Cancel the download")))
    , m_runnerImage(new RunnerImage(this))
{
    setAccessibleName(tr("Welcome"));
    auto *title = new QLabel(tr("Welcome to Sandpiper"));
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    titleFont.setBold(true);
    title->setFont(titleFont);
    title->setWordWrap(true);
    m_reason->setWordWrap(true);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_scanStatus->setWordWrap(true);
    m_rescan->setAccessibleName(tr("Look for local servers again"));
    m_rescan->setToolTip(tr("Looks again for model servers on this computer (Ollama, LM Studio, a llama.cpp "
                            "server) and for the models and llama-server Sandpiper can run itself."));
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_apiKey->setPlaceholderText(tr("sk-…"));
    m_apiKey->setAccessibleName(tr("OpenAI API key"));
    m_saveKey->setAccessibleName(tr("Use OpenAI with this key"));
    m_saveKey->setEnabled(false);
    m_openSettings->setAccessibleName(tr("Open settings"));
    m_back->setAccessibleName(tr("Back to the chat"));
    m_back->setVisible(false);

    auto *local = new QGroupBox(tr("A model on this computer"));
    auto *localLayout = new QVBoxLayout(local);
    localLayout->addWidget(m_scanStatus);
    localLayout->addLayout(m_serverList);
    m_downloadProgress->setAccessibleName(tr("Download progress"));
    m_downloadProgress->setRange(0, 1000);
    m_downloadProgress->setVisible(false);
    m_downloadNote->setWordWrap(true);
    m_downloadNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_downloadNote->setAccessibleName(tr("Download status"));
    m_downloadNote->setVisible(false);
    m_cancelDownload->setAccessibleName(tr("Cancel the download"));
    m_cancelDownload->setVisible(false);
    connect(m_cancelDownload, &QPushButton::clicked, this, [this] {
        if (m_download)
            m_download->cancel();
    });
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_downloadProgress, 1);
    progressRow->addWidget(m_cancelDownload);
    localLayout->addLayout(progressRow);
    localLayout->addWidget(m_downloadNote);
    auto *rescanRow = new QHBoxLayout;
    rescanRow->addWidget(m_rescan);
    rescanRow->addStretch(1);
    localLayout->addLayout(rescanRow);

    auto *openai = new QGroupBox(tr("Or OpenAI"));
    auto *openaiLayout = new QVBoxLayout(openai);
    auto *keyHint = new QLabel(tr("Paste an API key from platform.openai.com. It is kept in the system keychain."));
    keyHint->setWordWrap(true);
    openaiLayout->addWidget(keyHint);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_apiKey, 1);
    keyRow->addWidget(m_saveKey);
    openaiLayout->addLayout(keyRow);

    auto *otherRow = new FlowLayout;
    otherRow->addWidget(new QLabel(tr("Another provider or your own server?")));
    otherRow->addWidget(m_openSettings);
    otherRow->addWidget(m_back);

    auto *column = new QWidget;
    column->setMaximumWidth(640);
    auto *columnLayout = new QVBoxLayout(column);
    columnLayout->setSpacing(14);
    columnLayout->addWidget(title);
    columnLayout->addWidget(m_reason);
    columnLayout->addWidget(local);
    columnLayout->addWidget(openai);
    columnLayout->addLayout(otherRow);

    // A low window scrolls the page instead of growing to its height; one narrower than a button
    // scrolls sideways rather than cutting it off.
    auto *page = new QWidget;
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(page);
    scroll->setAccessibleName(tr("Set up a provider"));
    auto *scrollLayout = new QVBoxLayout(this);
    scrollLayout->setContentsMargins(0, 0, 0, 0);
    scrollLayout->addWidget(scroll);
    auto *outer = new QHBoxLayout(page);
    outer->addStretch(1);
    auto *middle = new QVBoxLayout;
    middle->addStretch(1);
    middle->addWidget(column);
    middle->addStretch(2);
    outer->addLayout(middle, 4);
    outer->addStretch(1);

    connect(m_rescan, &QPushButton::clicked, this, &WelcomePage::scan);
    connect(m_openSettings, &QPushButton::clicked, this, &WelcomePage::settingsRequested);
    connect(m_back, &QPushButton::clicked, this, &WelcomePage::backRequested);
    connect(m_apiKey, &QLineEdit::textChanged, this,
            [this](const QString &text) { m_saveKey->setEnabled(!text.trimmed().isEmpty()); });
    const auto saveKey = [this] {
        if (!m_apiKey->text().trimmed().isEmpty())
            QCoro::connect(saveApiKey(), this, [] {});
    };
    connect(m_saveKey, &QPushButton::clicked, this, saveKey);
    connect(m_apiKey, &QLineEdit::returnPressed, this, saveKey);
}

void WelcomePage::start(const QString &reason)
{
    m_reason->setText(reason + QLatin1Char(' ') +
                      tr("Choose where the answers should come from; you can change it later in Settings (Ctrl+,)."));
    scan();
}

void WelcomePage::setBackOffered(bool offered)
{
    m_back->setVisible(offered);
}

void WelcomePage::scan()
{
    if (!m_scanning)
        QCoro::connect(runScan(), this, [] {});
}

QCoro::Task<> WelcomePage::runScan()
{
    QPointer<WelcomePage> self(this);
    m_scanning = true;
    m_rescan->setEnabled(false);
    m_scanStatus->setText(tr("Looking for Ollama, LM Studio, llama.cpp and vLLM on this computer…"));
    while (QLayoutItem *item = m_serverList->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_useButtons.clear();
    const QFuture<LocalOffer> looking = lookHere();
    const auto found = co_await ProviderDetector::detect(m_candidates);
    if (!self)
        co_return;
    const LocalOffer here = co_await awaited(looking);
    if (!self)
        co_return;
    m_scanning = false;
    m_rescan->setEnabled(true);
    m_scanStatus->setText(found.isEmpty()
                              ? tr("No local server answered. Start Ollama, LM Studio, llama.cpp or vLLM and look "
                                   "again, or use a key below.")
                              : tr("Found on this computer:"));
    // Sandpiper's own llama-server with a model already here comes first: nothing else to start.
    const QList<ModelFile> &own = here.runnable;
    for (const ModelFile &model : own) {
        const QString name = QFileInfo(model.path).completeBaseName();
        auto *button = new QPushButton(tr("&Run %1 here").arg(name));
        button->setAccessibleName(tr("Run %1 on this computer").arg(name));
        connect(button, &QPushButton::clicked, this, [this, name] { useLocal(name); });
        auto *details = new QLabel(tr("%1 · %2 · %3")
                                       .arg(QLocale().formattedDataSize(model.bytes, 1, QLocale::DataSizeSIFormat),
                                            GgufInfo::parameterLabel(model.info->parameterCount),
                                            model.info->templateTakesTools ? tr("calls tools") : tr("no tool calls")));
        addServerRow(button, details);
    }
    if (found.isEmpty() && !own.isEmpty())
        m_scanStatus->setText(tr("On this computer:"));
    // None here yet: the model that suits this computer, downloaded and run in one click; without a
    // llama-server here, the same click gets one for Docker first.
    const bool runner = here.runner;
    if (own.isEmpty() && (runner || here.docker)) {
        const RecommendedModel best = RecommendedModels::best(RunnerPlan::totalMemory());
        const QString name = ModelDownloads::displayName(best.repository);
        auto *button = new QPushButton(tr("&Download %1 and run it here").arg(name));
        button->setAccessibleName(tr("Download %1 and run it on this computer").arg(name));
        connect(button, &QPushButton::clicked, this,
                [this, best, button] { QCoro::connect(downloadAndRun(best, button), this, [] {}); });
        QString text =
            tr("%1 to download, %2 of memory. %3")
                .arg(QLocale().formattedDataSize(best.downloadBytes, 1, QLocale::DataSizeSIFormat),
                     QLocale().formattedDataSize(best.memoryBytes, 1, QLocale::DataSizeSIFormat), best.reason);
        if (!runner)
            text += QLatin1Char(' ') + tr("llama-server, which runs it, comes first: llama.cpp's server image for "
                                          "Docker, or one built from Debian's packages.");
        auto *details = new QLabel(text);
        details->setWordWrap(true);
        addServerRow(button, details, DetailsPlace::Below);
        if (found.isEmpty())
            m_scanStatus->setText(tr("Sandpiper can run a model itself, without any other program:"));
    } else if (own.isEmpty() && found.isEmpty()) {
        m_scanStatus->setText(tr("No local server answered. To have Sandpiper run a model itself, install llama.cpp's "
                                 "server (llama-server) or Docker and look again; or use a key below."));
    }
    for (const ProviderDetector::Found &server : found) {
        const auto preset = findProviderPreset(server.presetId);
        const QString name = preset ? preset->name : server.presetId;
        auto *button = new QPushButton(tr("Us&e %1").arg(name));
        button->setAccessibleName(tr("Use %1").arg(name));
        button->setEnabled(!server.models.isEmpty());
        connect(button, &QPushButton::clicked, this, [this, server] { use(server); });
        addServerRow(button, new QLabel(tr("%1 · models: %2").arg(server.baseUrl).arg(server.models.size())));
    }
    Q_EMIT scanFinished();
}

void WelcomePage::addServerRow(QPushButton *button, QLabel *details, DetailsPlace place)
{
    auto *row = new QWidget;
    QBoxLayout *rowLayout = nullptr;
    if (place == DetailsPlace::Beside) {
        rowLayout = new QHBoxLayout(row);
        rowLayout->addWidget(button);
    } else {
        rowLayout = new QVBoxLayout(row);
        rowLayout->addWidget(button, 0, Qt::AlignLeft);
    }
    rowLayout->setContentsMargins(0, 0, 0, 0);
    rowLayout->addWidget(details, 1);
    m_serverList->addWidget(row);
    m_useButtons.append(button);
}

QFuture<WelcomePage::LocalOffer> WelcomePage::lookHere() const
{
    const QString configured = m_settings->string(QStringLiteral("local/server"));
    const QList<ModelFolder> folders =
        ModelShelf::folders(m_settings->localModelsFolder(),
                            m_settings->string(QStringLiteral("local/model_folders")).split(QDir::listSeparator()));
    return inBackground([configured, folders] {
        LocalOffer offer;
        offer.runner = !RunnerProgram::find(configured).program.isEmpty();
        offer.docker = !RunnerContainer::docker().isEmpty();
        if (offer.runner) {
            offer.runnable = ModelShelf::scan(folders);
            offer.runnable.removeIf([](const ModelFile &model) { return !model.runnable(); });
            offer.runnable = offer.runnable.mid(0, 3);
        }
        return offer;
    });
}

QCoro::Task<> WelcomePage::downloadAndRun(RecommendedModel model, QPushButton *offer)
{
    QPointer<WelcomePage> self(this);
    // "Look again" makes the page's buttons anew, this one too.
    const QPointer<QPushButton> button(offer);
    if (m_download && m_download->state() != ModelDownload::State::Failed) {
        m_download->resume();
        co_return;
    }
    const QString offered = button->text();
    // The keyboard stays on the page while the button waits (not on the next widget of the
    // window), then goes to Cancel the download, or back to the button when it did not start.
    const bool focused = button->hasFocus();
    if (focused)
        setFocus();
    button->setEnabled(false);
    m_downloadNote->show();
    const LocalOffer here = co_await awaited(lookHere());
    if (!self || !button)
        co_return;
    if (!here.runner) {
        const QMetaObject::Connection steps =
            connect(m_runnerImage, &RunnerImage::step, m_downloadNote, &QLabel::setText);
        const RunnerImage::Outcome runner =
            co_await m_runnerImage->provide(m_settings->string(QStringLiteral("local/runner_image")));
        if (!self || !button)
            co_return;
        disconnect(steps);
        if (!runner.ready) {
            m_downloadNote->setText(runner.message);
            button->setText(tr("&Try again"));
            button->setEnabled(true);
            if (focused)
                button->setFocus();
            co_return;
        }
        RunnerContainer::forgetImage();
    }
    m_downloadNote->setText(tr("Reading %1 on the Hugging Face hub…").arg(model.repository));
    const QString token = (co_await ApiKeyStore::read(QStringLiteral("huggingface"), QStringLiteral("HF_TOKEN"))).key;
    if (!self)
        co_return;
    // The app's downloads keep it: it goes on in Settings › Models when this page goes.
    const auto prepared = co_await m_downloads->download(model.repository, model.quantization, token);
    if (!self || !button)
        co_return;
    if (!prepared) {
        m_downloadNote->setText(prepared.error());
        button->setEnabled(true);
        if (focused)
            button->setFocus();
        co_return;
    }
    m_download = *prepared;
    m_downloadProgress->setValue(0);
    m_downloadProgress->show();
    m_cancelDownload->show();
    if (focused && hasFocus())
        m_cancelDownload->setFocus();
    connect(m_download, &ModelDownload::progressed, this,
            [this](qint64 done, qint64 total, double bytesPerSecond, qint64 secondsLeft) {
                m_downloadProgress->setValue(total > 0 ? int(done * 1000 / total) : 0);
                m_downloadNote->setText(ModelDownloadPanel::progressText(done, total, bytesPerSecond, secondsLeft));
            });
    connect(m_download, &ModelDownload::stateChanged, this,
            [this, button, offered](ModelDownload::State state, const QString &message) {
                const bool running = state == ModelDownload::State::Downloading ||
                                     state == ModelDownload::State::Checking || state == ModelDownload::State::Paused;
                m_cancelDownload->setVisible(running);
                if (state != ModelDownload::State::Downloading)
                    m_downloadNote->setText(message);
                if (state == ModelDownload::State::Finished) {
                    useLocal(QFileInfo(m_download->modelPath()).completeBaseName());
                    return;
                }
                if (state == ModelDownload::State::Canceled) {
                    // Nothing of it stays: the offer is as it was, to start anew.
                    m_download = nullptr;
                    m_downloadProgress->hide();
                }
                if (!button)
                    return;
                if (state == ModelDownload::State::Failed) // what came stays: the button goes on from there
                    button->setText(tr("&Try the download again"));
                else if (state == ModelDownload::State::Paused) // paused in Settings › Models
                    button->setText(tr("&Resume the download"));
                else if (state == ModelDownload::State::Canceled)
                    button->setText(offered);
                button->setEnabled(!running || state == ModelDownload::State::Paused);
                if (state == ModelDownload::State::Canceled || state == ModelDownload::State::Failed)
                    button->setFocus();
            });
    // A model already here whole is finished before anyone could hear it.
    if (m_download->state() == ModelDownload::State::Finished)
        useLocal(QFileInfo(m_download->modelPath()).completeBaseName());
}

void WelcomePage::useLocal(const QString &model)
{
    m_settings->setValue(QStringLiteral("provider"), LocalModelHost::providerId());
    m_settings->setValue(QStringLiteral("providers/local/model"), model);
    Q_EMIT providerChosen();
}

void WelcomePage::use(const ProviderDetector::Found &server)
{
    const QString prefix = QStringLiteral("providers/%1/").arg(server.presetId);
    const QString configured = m_settings->string(prefix + QStringLiteral("model"));
    const auto preset = findProviderPreset(server.presetId);
    QString model = configured.isEmpty() && preset ? preset->defaultModel : configured;
    if (!server.models.contains(model))
        model = server.models.value(0);
    m_settings->setValue(QStringLiteral("provider"), server.presetId);
    m_settings->setValue(prefix + QStringLiteral("base_url"), server.baseUrl);
    m_settings->setValue(prefix + QStringLiteral("model"), model);
    Q_EMIT providerChosen();
}

QCoro::Task<> WelcomePage::saveApiKey()
{
    QPointer<WelcomePage> self(this);
    const QString provider = QStringLiteral("openai");
    const QString key = m_apiKey->text().trimmed();
    m_saveKey->setEnabled(false);
    const QString error = co_await ApiKeyStore::write(provider, key);
    if (!self)
        co_return;
    m_apiKey->clear();
    m_settings->setValue(QStringLiteral("provider"), provider);
    Q_EMIT apiKeyEntered(provider, key, error.isEmpty());
    Q_EMIT providerChosen();
}

} // namespace Sandpiper
