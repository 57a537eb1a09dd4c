#include "modelsettingspage.h"

#include "modeldownloadpanel.h"
#include "settingsform.h"

#include <localmodels/localrunner.h>
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
    const RunnerProgram found = RunnerProgram::find(QString());
    m_server->setPlaceholderText(
        found.program.isEmpty() ? tr("Not found on PATH, and no runner image for Docker: install llama.cpp's "
                                     "server")
        : found.isContainer()   ? found.describe()
                                : tr("The one on PATH: %1").arg(QDir::toNativeSeparators(found.program)));
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
    m_idleMinutes->setValue(m_settings->integer(QStringLiteral("local/idle_minutes")));
    m_parallel->setValue(std::clamp(m_settings->integer(QStringLiteral("local/parallel")), 1, 8));
    refresh();
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
    RunnerPlan plan = RunnerPlan::forModel(model->path, *model->info, RunnerPlan::availableMemory(),
                                           QThread::idealThreadCount(), m_parallel->value());
    const RunnerProgram program = RunnerProgram::find(m_server->text().trimmed());
    plan.offloadTo(DeviceProbe::cached(program));
    m_flags->setText(
        tr("%1 tokens of context for each of %n conversation(s), %2 threads, %3; by %4; %5", nullptr, plan.parallel)
            .arg(QLocale().toString(plan.contextSize))
            .arg(plan.threads)
            .arg(plan.offload, program.program.isEmpty() ? tr("no llama-server found yet") : program.describe(),
                 plan.arguments(0).mid(6).join(QLatin1Char(' '))));
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
    m_settings->setValue(QStringLiteral("local/idle_minutes"), m_idleMinutes->value());
    m_settings->setValue(QStringLiteral("local/parallel"), m_parallel->value());
}

} // namespace Sandpiper
