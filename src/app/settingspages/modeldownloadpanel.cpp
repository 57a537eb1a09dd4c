#include "modeldownloadpanel.h"

#include "settingsform.h"

#include <llm/apikeystore.h>
#include <localmodels/localrunner.h>
#include <localmodels/modelshelf.h>
#include <localmodels/recommendedmodels.h>
#include <session/localmodelhost.h>
#include <session/modeldownloads.h>
#include <settings/settings.h>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

constexpr int RepositoryRole = Qt::UserRole;
constexpr int QuantizationRole = Qt::UserRole + 1; // empty: a repository, whose models are listed next
constexpr char tokenName[] = "huggingface";

QString sizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

} // namespace

ModelDownloadPanel::ModelDownloadPanel(Settings *settings, ModelDownloads *downloads, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_downloads(downloads ? downloads : new ModelDownloads(settings, this))
    , m_hub(new HubClient(HubClient::defaultEndpoint(), this))
    , m_find(new QLineEdit)
    , m_findButton(new QPushButton(tr("Fi&nd")))
    , m_choices(new QTreeWidget)
    , m_download(new QPushButton(tr("Do&wnload")))
    , m_token(new QLineEdit)
    , m_progress(new QProgressBar)
    , m_rate(new QLabel)
    , m_pause(new QPushButton(tr("Paus&e")))
    , m_cancel(new QPushButton(tr("&Cancel download")))
    , m_status(new QLabel)
{
    m_find->setPlaceholderText(tr("A repository (owner/name) or words to search the Hugging Face hub"));
    m_find->setAccessibleName(tr("Hugging Face repository or search"));
    m_findButton->setAccessibleName(tr("Find models on the Hugging Face hub"));
    m_choices->setColumnCount(3);
    m_choices->setHeaderLabels({tr("Model"), tr("Download"), tr("Why")});
    m_choices->setRootIsDecorated(false);
    m_choices->setAccessibleName(tr("Models to download"));
    m_choices->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_choices->setMinimumHeight(fontMetrics().height() * 5);
    m_download->setAccessibleName(tr("Download the selected model"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("Hugging Face token, for gated models only"));
    m_token->setAccessibleName(tr("Hugging Face token"));
    m_token->setToolTip(tr("Kept in the system keychain, like the API keys; sent to the hub alone."));
    m_progress->setAccessibleName(tr("Download progress"));
    m_rate->setAccessibleName(tr("Download speed and time left"));
    m_pause->setAccessibleName(tr("Pause or resume the download"));
    m_cancel->setAccessibleName(tr("Cancel the download and delete what came"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setAccessibleName(tr("Download status"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *findRow = new QHBoxLayout;
    findRow->addWidget(m_find, 1);
    findRow->addWidget(m_findButton);
    layout->addLayout(findRow);
    layout->addWidget(m_choices, 1);
    auto *downloadRow = new QHBoxLayout;
    downloadRow->addWidget(m_download);
    downloadRow->addWidget(m_token, 1);
    layout->addLayout(downloadRow);
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_pause);
    progressRow->addWidget(m_cancel);
    layout->addLayout(progressRow);
    // Below the bar, on lines of its own: beside it a narrow window cut it ("at 3.9 MB/").
    m_rate->setWordWrap(true);
    layout->addWidget(m_rate);
    layout->addWidget(m_status);
    showProgressRow(false);
    m_status->setVisible(false);

    connect(m_findButton, &QPushButton::clicked, this, [this] { QCoro::connect(find(), this, [] {}); });
    // Enter in the field finds; it must not also press the dialog's OK.
    m_find->installEventFilter(this);
    connect(m_choices, &QTreeWidget::itemActivated, this, &ModelDownloadPanel::activate);
    connect(m_download, &QPushButton::clicked, this, [this] {
        if (QTreeWidgetItem *item = m_choices->currentItem())
            activate(item);
    });
    connect(m_pause, &QPushButton::clicked, this, [this] {
        if (!m_current) {
            QCoro::connect(m_downloads->resumeUnfinished(), this, [this](const Result<ModelDownload *> &resumed) {
                if (!resumed)
                    say(resumed.error(), true);
            });
            return;
        }
        if (m_current->state() == ModelDownload::State::Paused || m_current->state() == ModelDownload::State::Failed)
            m_current->resume();
        else
            m_current->pause();
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_current) {
            m_current->cancel();
        } else {
            m_downloads->discardUnfinished();
            showProgressRow(false);
            say(QString());
        }
    });
    connect(m_downloads, &ModelDownloads::started, this, &ModelDownloadPanel::follow);
    showRecommended();
    // The download of another panel (or of the welcome page), unless it is over.
    if (m_downloads->current() && m_downloads->current()->state() != ModelDownload::State::Finished &&
        m_downloads->current()->state() != ModelDownload::State::Canceled)
        follow(m_downloads->current());
    else
        showUnfinished();
}

void ModelDownloadPanel::showProgressRow(bool visible)
{
    for (QWidget *widget : {static_cast<QWidget *>(m_progress), static_cast<QWidget *>(m_rate),
                            static_cast<QWidget *>(m_pause), static_cast<QWidget *>(m_cancel)})
        widget->setVisible(visible);
}

void ModelDownloadPanel::follow(ModelDownload *download)
{
    if (m_current)
        m_current->disconnect(this);
    m_current = download;
    connect(m_current, &ModelDownload::progressed, this, &ModelDownloadPanel::showProgress);
    connect(m_current, &ModelDownload::stateChanged, this, &ModelDownloadPanel::showState);
    m_progress->setRange(0, 1000);
    m_rate->clear();
    showProgressRow(true);
    const qint64 total = download->bytesTotal();
    m_progress->setValue(total > 0 ? int(download->bytesDone() * 1000 / total) : 0);
    // A download under way says so at its next progress; one that stopped says why now.
    if (download->state() != ModelDownload::State::Idle)
        showState(download->state(), download->message());
}

void ModelDownloadPanel::showUnfinished()
{
    const QString summary = m_downloads->summary();
    if (m_downloads->unfinished().isEmpty())
        return;
    showProgressRow(true);
    // How much of it there is only the hub's listing tells: what came so far, without a bar.
    m_progress->hide();
    m_rate->setText(tr("%1 downloaded so far").arg(sizeText(m_downloads->unfinishedBytes())));
    m_pause->setText(tr("Resum&e"));
    say(summary);
}

bool ModelDownloadPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_find && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            QCoro::connect(find(), this, [] {});
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ModelDownloadPanel::showRecommended(const QString &repository)
{
    m_choices->clear();
    m_choices->headerItem()->setText(2, tr("Why"));
    for (const RecommendedModel &model : RecommendedModels::fitting(RunnerPlan::totalMemory())) {
        auto *item = new QTreeWidgetItem(m_choices);
        item->setText(0,
                      QStringLiteral("%1 · %2").arg(model.repository.section(QLatin1Char('/'), 1), model.quantization));
        item->setText(1, tr("%1, needs %2 of memory").arg(sizeText(model.downloadBytes), sizeText(model.memoryBytes)));
        if (ModelShelf::downloaded(m_settings->localModelsFolder(), model.repository, model.quantization))
            item->setText(1, tr("On this computer already; needs %1 of memory").arg(sizeText(model.memoryBytes)));
        item->setText(2, model.reason);
        item->setToolTip(0, model.repository);
        item->setData(0, RepositoryRole, model.repository);
        item->setData(0, QuantizationRole, model.quantization);
        if (model.repository == repository)
            m_choices->setCurrentItem(item);
    }
    if (!m_choices->currentItem() && m_choices->topLevelItemCount() > 0)
        m_choices->setCurrentItem(m_choices->topLevelItem(0));
}

void ModelDownloadPanel::say(const QString &text, bool problem)
{
    m_status->setText(text);
    m_status->setStyleSheet(problem ? SettingsForm::errorStyle() : QString());
    m_status->setVisible(!text.isEmpty());
}

QCoro::Task<> ModelDownloadPanel::find()
{
    QPointer<ModelDownloadPanel> self(this);
    const QString text = m_find->text().trimmed();
    if (text.isEmpty()) {
        showRecommended();
        co_return;
    }
    if (HubClient::validRepository(text.section(QLatin1Char(':'), 0, 0))) {
        co_await listRepository(text.section(QLatin1Char(':'), 0, 0));
        co_return;
    }
    say(tr("Searching the hub for \"%1\"…").arg(text));
    const QString key = co_await token();
    if (!self) // the dialog closed meanwhile
        co_return;
    m_hub->setToken(key);
    const auto found = co_await m_hub->search(text, 20);
    if (!self)
        co_return;
    if (!found) {
        say(found.error(), true);
        co_return;
    }
    m_choices->clear();
    m_choices->headerItem()->setText(2, tr("Downloads"));
    for (const HubRepository &repository : *found) {
        auto *item = new QTreeWidgetItem(m_choices);
        item->setText(0, repository.id);
        item->setText(1, repository.gated ? tr("needs a token") : tr("choose a quantization"));
        item->setText(2, QLocale().toString(repository.downloads));
        item->setData(0, RepositoryRole, repository.id);
    }
    say(found->isEmpty() ? tr("No GGUF repository on the hub matches \"%1\".").arg(text)
                         : tr("Choose a repository to see its quantizations."));
    if (m_choices->topLevelItemCount() > 0)
        m_choices->setCurrentItem(m_choices->topLevelItem(0));
}

QCoro::Task<> ModelDownloadPanel::listRepository(QString repository)
{
    QPointer<ModelDownloadPanel> self(this);
    say(tr("Reading %1…").arg(repository));
    const QString key = co_await token();
    if (!self) // the dialog closed meanwhile
        co_return;
    m_hub->setToken(key);
    const auto models = co_await m_hub->models(repository);
    if (!self)
        co_return;
    if (!models) {
        say(models.error(), true);
        co_return;
    }
    m_choices->clear();
    m_choices->headerItem()->setText(2, tr("Files"));
    const qint64 memory = RunnerPlan::totalMemory();
    for (const HubModel &model : *models) {
        if (model.projector)
            continue;
        auto *item = new QTreeWidgetItem(m_choices);
        item->setText(0, model.name);
        item->setText(1, sizeText(model.bytes()));
        item->setText(2, model.complete()
                             ? QString::number(model.files.size())
                             : tr("%1 of %2 parts listed").arg(model.files.size()).arg(model.partsExpected));
        item->setData(0, RepositoryRole, repository);
        item->setData(0, QuantizationRole, model.quantization.isEmpty() ? model.name : model.quantization);
        // More than this computer's memory: listed, but said.
        if (memory > 0 && model.bytes() > memory)
            item->setToolTip(0, tr("Larger than this computer's memory (%1).").arg(sizeText(memory)));
    }
    say(m_choices->topLevelItemCount() > 0 ? tr("%1: choose a quantization to download.").arg(repository)
                                           : tr("%1 has no GGUF model.").arg(repository),
        m_choices->topLevelItemCount() == 0);
    if (m_choices->topLevelItemCount() > 0)
        m_choices->setCurrentItem(m_choices->topLevelItem(0));
}

void ModelDownloadPanel::activate(QTreeWidgetItem *item)
{
    const QString repository = item->data(0, RepositoryRole).toString();
    const QString quantization = item->data(0, QuantizationRole).toString();
    if (quantization.isEmpty())
        QCoro::connect(listRepository(repository), this, [] {});
    else
        QCoro::connect(download(repository, quantization), this, [] {});
}

QCoro::Task<QString> ModelDownloadPanel::token()
{
    QPointer<ModelDownloadPanel> self(this);
    const QString typed = m_token->text().trimmed();
    if (!typed.isEmpty()) {
        const QString notKept = co_await ApiKeyStore::write(QLatin1String(tokenName), typed);
        if (self && !notKept.isEmpty())
            say(tr("The keychain could not keep the token (%1): it is used until you quit.").arg(notKept), true);
        co_return typed;
    }
    co_return (co_await ApiKeyStore::read(QLatin1String(tokenName), QStringLiteral("HF_TOKEN"))).key;
}

QCoro::Task<> ModelDownloadPanel::download(QString repository, QString quantization)
{
    QPointer<ModelDownloadPanel> self(this);
    if (m_downloads->busy()) {
        say(tr("One download at a time: pause or cancel the one under way first."), true);
        co_return;
    }
    // The keyboard stays where the user is, not on the next field (the token) while Download waits;
    // once the download runs it goes to Pause.
    const bool focused = m_download->hasFocus();
    if (focused)
        m_choices->setFocus();
    m_download->setEnabled(false);
    say(tr("Reading %1…").arg(repository));
    const QString key = co_await token();
    if (!self)
        co_return;
    // The app's downloads keep it: it goes on when this panel closes (follow() shows it here).
    const auto started = co_await m_downloads->download(repository, quantization, key);
    if (!self)
        co_return;
    m_download->setEnabled(true);
    if (!started)
        say(started.error(), true);
    else if (focused && m_choices->hasFocus() && m_pause->isVisible())
        m_pause->setFocus();
}

QString ModelDownloadPanel::progressText(qint64 done, qint64 total, double bytesPerSecond, qint64 secondsLeft)
{
    const QString left = secondsLeft < 0    ? QString()
                         : secondsLeft < 60 ? tr("%n s left", nullptr, int(secondsLeft))
                                            : tr("%n min left", nullptr, int((secondsLeft + 59) / 60));
    const QString rate = tr("%1 of %2 at %3/s").arg(sizeText(done), sizeText(total), sizeText(qint64(bytesPerSecond)));
    return left.isEmpty() ? rate : tr("%1, %2").arg(rate, left);
}

void ModelDownloadPanel::showProgress(qint64 done, qint64 total, double bytesPerSecond, qint64 secondsLeft)
{
    m_progress->setValue(total > 0 ? int(done * 1000 / total) : 0);
    m_rate->setText(progressText(done, total, bytesPerSecond, secondsLeft));
}

void ModelDownloadPanel::showState(ModelDownload::State state, const QString &message)
{
    using State = ModelDownload::State;
    const bool going = state == State::Checking || state == State::Downloading;
    // Asked before the buttons are disabled: a disabled button hands its focus to the next field.
    const bool buttonFocused = m_pause->hasFocus() || m_cancel->hasFocus();
    m_pause->setText(going ? tr("Paus&e") : tr("Resum&e"));
    m_pause->setEnabled(state != State::Finished && state != State::Canceled);
    m_cancel->setEnabled(state != State::Finished && state != State::Canceled);
    say(message, state == State::Failed);
    if (state == State::Finished) {
        m_progress->setValue(m_progress->maximum());
        m_rate->clear();
        Q_EMIT downloaded(m_current->modelPath());
    } else if (state == State::Canceled) {
        // Nothing of it stays: no empty bar and no buttons for it; the keyboard goes back to Download.
        showProgressRow(false);
        m_progress->setValue(0);
        m_rate->clear();
        if (buttonFocused)
            m_download->setFocus();
    } else if (!going) { // paused or stopped: the message says where, and no speed is left from before
        m_rate->clear();
    }
}

} // namespace Sandpiper
