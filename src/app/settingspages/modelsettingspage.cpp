#include "modelsettingspage.h"

#include "modeldownloadpanel.h"
#include "settingsform.h"

#include <localmodels/backgroundwork.h>
#include <localmodels/localrunner.h>
#include <localmodels/runnercontainer.h>
#include <localmodels/runnerimage.h>
#include <session/localmodelhost.h>
#include <settings/settings.h>

#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QThread>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

enum Column { Name, Quantization, Parameters, Context, Tools, Size, Source, ColumnCount };

QString modelName(const ModelFile &model)
{
    return QFileInfo(model.path).completeBaseName();
}

} // namespace

ModelSettingsPage::ModelSettingsPage(Settings *settings, ModelDownloads *downloads, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_list(new QTreeWidget)
    , m_use(new QPushButton(tr("&Use for new conversations")))
    , m_add(new QPushButton(tr("Add a &GGUF file…")))
    , m_openFolder(new QPushButton(tr("Open the models &folder")))
    , m_problem(new QLabel)
    , m_server(new QLineEdit)
    , m_runnerReference(new QLineEdit)
    , m_getRunner(new QPushButton(tr("Get llama-server for &Docker")))
    , m_stopRunner(new QPushButton(tr("Sto&p")))
    , m_runnerResult(new QLabel)
    , m_runnerLog(new QPlainTextEdit)
    , m_runnerImage(new RunnerImage(this))
    , m_idleMinutes(new QSpinBox)
    , m_parallel(new QSpinBox)
    , m_flags(new QLabel)
    , m_downloads(new ModelDownloadPanel(settings, downloads))
{
    m_list->setColumnCount(ColumnCount);
    m_list->setHeaderLabels({tr("Model"), tr("Quantization"), tr("Parameters"), tr("Trained context"), tr("Tools"),
                             tr("Size"), tr("From")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAccessibleName(tr("Models on this computer"));
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);
    m_list->setMinimumHeight(fontMetrics().height() * 4);
    m_use->setAccessibleName(tr("Use the selected model for new conversations"));
    m_add->setAccessibleName(tr("Add a GGUF file"));
    m_add->setToolTip(tr("A model file already on this computer: it stays where it is, and its folder is looked in "
                         "from now on."));
    m_openFolder->setAccessibleName(tr("Open Sandpiper's models folder"));
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setAccessibleName(tr("Why no model can run"));
    m_server->setAccessibleName(tr("llama-server program"));
    m_runnerReference->setAccessibleName(tr("Image of llama.cpp's server to pull"));
    m_runnerReference->setPlaceholderText(RunnerImage::defaultReference());
    m_runnerReference->setToolTip(tr("What “Get llama-server for Docker” pulls first: a mirror of it, or another "
                                     "variant (:server-vulkan, :server-cuda). Without a registry, the image is built "
                                     "from Debian's llama.cpp-tools with mmdebstrap."));
    m_getRunner->setAccessibleName(tr("Get llama-server for Docker"));
    m_getRunner->setToolTip(tr("Pulls llama.cpp's server image, or builds one from Debian's packages, so that the "
                               "models run in a container on this computer's Docker engine."));
    m_stopRunner->setAccessibleName(tr("Stop getting llama-server"));
    m_stopRunner->setVisible(false);
    m_runnerResult->setWordWrap(true);
    m_runnerResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runnerResult->setAccessibleName(tr("Where llama-server comes from"));
    m_runnerResult->setVisible(false);
    m_runnerLog->setReadOnly(true);
    m_runnerLog->setAccessibleName(tr("Output of getting llama-server"));
    m_runnerLog->setMaximumBlockCount(2000);
    m_runnerLog->setMaximumHeight(fontMetrics().height() * 8);
    m_runnerLog->setVisible(false);
    m_idleMinutes->setRange(0, 24 * 60);
    m_idleMinutes->setSpecialValueText(tr("Never"));
    m_idleMinutes->setSuffix(tr(" min"));
    m_idleMinutes->setAccessibleName(tr("Stop the model after this many minutes without use"));
    m_idleMinutes->setToolTip(tr("The model's memory is given back when no conversation used it for this long; the "
                                 "next message starts it again."));
    m_parallel->setRange(1, 8);
    m_parallel->setAccessibleName(tr("Conversations answered at once"));
    m_parallel->setToolTip(tr("Each one has a context of its own, so more of them leave each a shorter one."));
    m_flags->setWordWrap(true);
    m_flags->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_flags->setAccessibleName(tr("The flags the selected model runs with"));
    m_flags->setForegroundRole(QPalette::PlaceholderText);

    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Models run by llama-server on this computer: nothing leaves it. Models that LM "
                                "Studio, llama.cpp and Hugging Face downloaded are offered where they are."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    // The two lists share the height the dialog has: a low screen drags the line between them.
    auto *here = new QWidget;
    auto *hereLayout = new QVBoxLayout(here);
    hereLayout->setContentsMargins(0, 0, 0, 0);
    hereLayout->addWidget(m_list, 1);
    hereLayout->addWidget(m_problem);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_use);
    buttons->addWidget(m_add);
    buttons->addWidget(m_openFolder);
    buttons->addStretch(1);
    hereLayout->addLayout(buttons);
    auto *downloadBox = new QGroupBox(tr("Download from Hugging Face"));
    auto *downloadsLayout = new QVBoxLayout(downloadBox);
    downloadsLayout->addWidget(m_downloads);
    auto *split = new QSplitter(Qt::Vertical);
    split->setChildrenCollapsible(false);
    split->addWidget(here);
    split->addWidget(downloadBox);
    layout->addWidget(split, 1);
    auto *form = new QFormLayout;
    form->addRow(tr("llama-ser&ver:"), m_server);
    auto *runnerRow = new QHBoxLayout;
    runnerRow->addWidget(m_getRunner);
    runnerRow->addWidget(m_stopRunner);
    runnerRow->addWidget(m_runnerReference, 1);
    form->addRow(QString(), runnerRow);
    form->addRow(QString(), m_runnerResult);
    form->addRow(QString(), m_runnerLog);
    form->addRow(tr("Stop when &idle after:"), m_idleMinutes);
    form->addRow(tr("Answer at &once:"), m_parallel);
    form->addRow(tr("Runs with:"), m_flags);
    layout->addLayout(form);

    connect(m_list, &QTreeWidget::currentItemChanged, this, &ModelSettingsPage::showFlags);
    connect(m_list, &QTreeWidget::itemActivated, m_use, &QPushButton::click);
    connect(m_parallel, &QSpinBox::valueChanged, this, &ModelSettingsPage::showFlags);
    connect(m_use, &QPushButton::clicked, this, [this] {
        if (const QTreeWidgetItem *item = m_list->currentItem())
            Q_EMIT modelChosen(item->text(Name));
    });
    connect(m_add, &QPushButton::clicked, this, &ModelSettingsPage::chooseFile);
    connect(m_getRunner, &QPushButton::clicked, this, [this] { QCoro::connect(getRunner(), this, [] {}); });
    connect(m_stopRunner, &QPushButton::clicked, m_runnerImage, &RunnerImage::cancel);
    connect(m_runnerImage, &RunnerImage::step, this, [this](const QString &text) {
        m_runnerResult->setStyleSheet(QString());
        m_runnerResult->setText(text);
        m_runnerLog->appendPlainText(text);
    });
    connect(m_runnerImage, &RunnerImage::output, m_runnerLog, &QPlainTextEdit::appendPlainText);
    connect(m_server, &QLineEdit::editingFinished, this, &ModelSettingsPage::showServer);
    // A model downloaded whole joins the list, chosen.
    connect(m_downloads, &ModelDownloadPanel::downloaded, this, [this](const QString &path) {
        refresh();
        for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
            if (m_list->topLevelItem(i)->data(Name, Qt::UserRole).toString() == path)
                m_list->setCurrentItem(m_list->topLevelItem(i));
        }
    });
    connect(m_openFolder, &QPushButton::clicked, this, [this] {
        QDir().mkpath(m_settings->localModelsFolder());
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_settings->localModelsFolder()));
    });

    m_server->setText(m_settings->string(QStringLiteral("local/server")));
    m_runnerReference->setText(m_settings->string(QStringLiteral("local/runner_image")));
    showServer();
    m_idleMinutes->setValue(m_settings->integer(QStringLiteral("local/idle_minutes")));
    m_parallel->setValue(std::clamp(m_settings->integer(QStringLiteral("local/parallel")), 1, 8));
    refresh();
}

void ModelSettingsPage::showServer()
{
    // Docker may be asked for its images: off the GUI thread.
    const QString configured = m_server->text().trimmed();
    QCoro::connect(
        awaited(inBackground([configured] {
            return std::pair{RunnerProgram::find(QString()), RunnerProgram::find(configured)};
        })),
        this, [this](const std::pair<RunnerProgram, RunnerProgram> &found) {
            const auto &[onPath, used] = found;
            m_server->setPlaceholderText(
                onPath.program.isEmpty() ? tr("None found: not on PATH, and no llama-server image for Docker yet")
                : onPath.isContainer()   ? onPath.describe()
                                         : tr("The one on PATH: %1").arg(QDir::toNativeSeparators(onPath.program)));
            // Offered while the models would run in a container or not at all; a
            // llama-server of the computer's own comes first anyway.
            const bool offered = used.program.isEmpty() || used.isContainer();
            m_getRunner->setVisible(offered);
            m_runnerReference->setVisible(offered);
        });
}

QCoro::Task<> ModelSettingsPage::getRunner()
{
    QPointer<ModelSettingsPage> self(this);
    m_getRunner->setEnabled(false);
    m_stopRunner->show();
    m_runnerLog->clear();
    m_runnerLog->show();
    m_runnerResult->show();
    const RunnerImage::Outcome outcome = co_await m_runnerImage->provide(m_runnerReference->text().trimmed());
    if (!self)
        co_return;
    m_stopRunner->hide();
    m_getRunner->setEnabled(true);
    m_runnerResult->setText(outcome.message);
    m_runnerResult->setStyleSheet(outcome.ready ? QString() : SettingsForm::errorStyle());
    m_runnerLog->appendPlainText(outcome.message);
    if (outcome.ready) {
        // The runner looks for its image afresh: the new source shows at once.
        RunnerContainer::forgetImage();
        showServer();
        showFlags();
        m_getRunner->setFocus();
    }
}

QStringList ModelSettingsPage::folders() const
{
    QStringList added =
        m_settings->string(QStringLiteral("local/model_folders")).split(QDir::listSeparator(), Qt::SkipEmptyParts);
    for (const QString &folder : m_addedFolders) {
        if (!added.contains(folder))
            added << folder;
    }
    return added;
}

void ModelSettingsPage::refresh()
{
    const QString chosen = m_list->currentItem() ? m_list->currentItem()->text(Name)
                                                 : m_settings->string(QStringLiteral("providers/local/model"));
    m_models = ModelShelf::scan(ModelShelf::folders(m_settings->localModelsFolder(), folders()));
    m_list->clear();
    const QLocale locale;
    for (const ModelFile &model : std::as_const(m_models)) {
        auto *item = new QTreeWidgetItem(m_list);
        item->setText(Name, modelName(model));
        item->setText(Size, locale.formattedDataSize(model.bytes, 1, QLocale::DataSizeSIFormat));
        item->setText(Source, ModelShelf::sourceName(model.source));
        if (model.info) {
            item->setText(Quantization, model.info->quantization);
            item->setText(Parameters, GgufInfo::parameterLabel(model.info->parameterCount));
            item->setText(Context, model.info->trainedContext > 0 ? locale.toString(model.info->trainedContext)
                                                                  : QStringLiteral("?"));
            item->setText(Tools, model.info->templateTakesTools ? tr("yes") : tr("no"));
        }
        // Names and paths come from files downloaded from anywhere: shown as plain text only.
        QString tip = QDir::toNativeSeparators(model.path);
        if (!model.problem.isEmpty()) {
            tip += QLatin1Char('\n') + model.problem;
            item->setForeground(Name, palette().brush(QPalette::Disabled, QPalette::Text));
        }
        item->setToolTip(Name, tip);
        item->setData(Name, Qt::UserRole, model.path);
        if (item->text(Name) == chosen)
            m_list->setCurrentItem(item);
    }
    if (!m_list->currentItem() && m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));
    const bool anyRunnable =
        std::any_of(m_models.cbegin(), m_models.cend(), [](const ModelFile &m) { return m.runnable(); });
    m_problem->setText(anyRunnable ? QString()
                                   : tr("No model on this computer yet. Add a GGUF file, or put one in %1.")
                                         .arg(QDir::toNativeSeparators(m_settings->localModelsFolder())));
    m_problem->setVisible(!anyRunnable);
    showFlags();
}

void ModelSettingsPage::showFlags()
{
    const QTreeWidgetItem *item = m_list->currentItem();
    const int index = item ? m_list->indexOfTopLevelItem(const_cast<QTreeWidgetItem *>(item)) : -1;
    const ModelFile *model = index >= 0 && index < m_models.size() ? &m_models.at(index) : nullptr;
    m_use->setEnabled(model && model->runnable());
    if (!model || !model->runnable()) {
        m_flags->setText(model ? model->problem : tr("Choose a model to see how it runs."));
        return;
    }
    const RunnerPlan plan = RunnerPlan::forModel(model->path, *model->info, RunnerPlan::availableMemory(),
                                                 QThread::idealThreadCount(), m_parallel->value());
    // At once what the model alone decides; which llama-server runs it and where its layers go
    // once the server is found and has listed its devices, off the GUI thread.
    showPlan(plan, std::nullopt);
    QCoro::connect(
        awaited(RunnerDiscovery::start(m_server->text().trimmed(), LocalModelHost::deviceCacheFile(*m_settings))), this,
        [this, plan, asked = ++m_flagsAsked](const RunnerDiscovery &found) {
            if (asked == m_flagsAsked)
                showPlan(plan, found);
        });
}

void ModelSettingsPage::showPlan(RunnerPlan plan, const std::optional<RunnerDiscovery> &found)
{
    QString program = tr("looking for llama-server…");
    if (found) {
        plan.offloadTo(found->devices);
        program = found->program.program.isEmpty() ? tr("no llama-server found yet") : found->program.describe();
    } else {
        plan.offload = tr("its devices not known yet");
    }
    m_flags->setText(
        tr("%1 tokens of context for each of %n conversation(s), %2 threads, %3; by %4; %5", nullptr, plan.parallel)
            .arg(QLocale().toString(plan.contextSize))
            .arg(plan.threads)
            .arg(plan.offload, program, plan.arguments(0).mid(6).join(QLatin1Char(' '))));
}

bool ModelSettingsPage::addModelFile(const QString &path)
{
    const Result<GgufInfo> header = GgufHeader::read(path);
    if (!header) {
        m_problem->setText(tr("%1 cannot be added: %2").arg(QDir::toNativeSeparators(path), header.error()));
        m_problem->setStyleSheet(SettingsForm::errorStyle());
        m_problem->show();
        return false;
    }
    m_problem->setStyleSheet(QString());
    const QString folder = QFileInfo(path).absolutePath();
    if (!folders().contains(folder))
        m_addedFolders << folder;
    refresh();
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->data(Name, Qt::UserRole).toString() == QFileInfo(path).absoluteFilePath())
            m_list->setCurrentItem(m_list->topLevelItem(i));
    }
    return true;
}

void ModelSettingsPage::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Add a GGUF model"), QDir::homePath(),
                                                      tr("GGUF models (*.gguf);;All files (*)"));
    if (!path.isEmpty())
        addModelFile(path);
}

void ModelSettingsPage::save()
{
    m_settings->setValue(QStringLiteral("local/model_folders"), folders().join(QDir::listSeparator()));
    m_settings->setValue(QStringLiteral("local/server"), m_server->text().trimmed());
    m_settings->setValue(QStringLiteral("local/runner_image"), m_runnerReference->text().trimmed());
    m_settings->setValue(QStringLiteral("local/idle_minutes"), m_idleMinutes->value());
    m_settings->setValue(QStringLiteral("local/parallel"), m_parallel->value());
}

} // namespace Sandpiper
