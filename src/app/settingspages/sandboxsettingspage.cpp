#include "sandboxsettingspage.h"

#include "settingsform.h"

#include <sandbox/engineservice.h>
#include <settings/settings.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QToolButton>

namespace Sandpiper {

SandboxSettingsPage::SandboxSettingsPage(Settings *settings, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_engines(new EngineService(this))
    , m_engine(new QComboBox)
    , m_engineError(new QLabel)
    , m_engineStatus(new QLabel(tr("Not checked yet.")))
    , m_engineButton(new QPushButton(tr("Chec&k engine")))
    , m_image(new QLineEdit)
    , m_buildButton(new QPushButton(tr("&Build image")))
    , m_buildProgress(new QProgressBar)
    , m_buildResult(new QLabel)
    , m_logToggle(new QToolButton)
    , m_buildLog(new QPlainTextEdit)
    , m_memory(new QLineEdit)
    , m_cpus(new QDoubleSpinBox)
    , m_timeout(new QSpinBox)
    , m_network(new QCheckBox(tr("Allow &network access in new conversations")))
    , m_restoreVariables(new QCheckBox(tr("Restore variables a&utomatically when a kernel is new")))
    , m_idleStop(new QSpinBox)
    , m_diskLimit(new QSpinBox)
    , m_maxFigures(new QSpinBox)
    , m_removeButton(new QPushButton(tr("&Remove all sandbox containers")))
    , m_removeResult(new QLabel)
{
    buildForm();
    connect(m_logToggle, &QToolButton::toggled, this, [this](bool shown) {
        m_buildLog->setVisible(shown);
        m_logToggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
    });
    connect(m_buildButton, &QPushButton::clicked, this, [this] { QCoro::connect(provideImage(), this, [] {}); });
    connect(m_removeButton, &QPushButton::clicked, this, [this] { QCoro::connect(removeContainers(), this, [] {}); });
    connect(m_engineButton, &QPushButton::clicked, this, [this] { QCoro::connect(checkEngine(), this, [] {}); });
    connect(m_engine, &QComboBox::editTextChanged, m_engineError, &QWidget::hide);
    connect(m_engines, &EngineService::checking, m_engineStatus, &QLabel::setText);
    connect(m_engines, &EngineService::imageStep, this, &SandboxSettingsPage::showBuildStep);
    connect(m_engines, &EngineService::imageOutput, this, &SandboxSettingsPage::showBuildOutput);
    load();
    QCoro::connect(listEngineContexts(), this, [] {});
}

void SandboxSettingsPage::buildForm()
{
    m_image->setAccessibleName(tr("Sandbox image"));
    m_buildButton->setAccessibleName(tr("Build the sandbox image"));
    m_buildProgress->setAccessibleName(tr("Image build progress"));
    m_buildProgress->setVisible(false);
    m_buildResult->setWordWrap(true);
    m_logToggle->setText(tr("Show build &log"));
    m_logToggle->setAccessibleName(tr("Show build log"));
    m_logToggle->setCheckable(true);
    m_logToggle->setArrowType(Qt::RightArrow);
    m_logToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_logToggle->setFocusPolicy(Qt::StrongFocus);
    m_buildLog->setReadOnly(true);
    m_buildLog->setAccessibleName(tr("Image build log"));
    m_buildLog->setMaximumBlockCount(2000);
    m_buildLog->setVisible(false);
    m_memory->setAccessibleName(tr("Memory limit"));
    m_memory->setToolTip(tr("As Docker writes it, such as 512m or 2g."));
    m_memory->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]+[bkmgBKMG]?")), m_memory));
    m_cpus->setRange(0.1, 256);
    m_cpus->setSingleStep(0.5);
    m_cpus->setDecimals(1);
    m_cpus->setAccessibleName(tr("CPUs"));
    m_timeout->setRange(1, 24 * 3600);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setAccessibleName(tr("Execution timeout in seconds"));
    m_network->setAccessibleName(tr("Network access by default"));
    m_restoreVariables->setAccessibleName(tr("Restore variables automatically"));
    m_restoreVariables->setToolTip(tr("After a restart, an idle stop or a crash, the conversation's earlier "
                                      "successful cells run again before the model's next code. Cells that write "
                                      "files are left out; “Restore variables” asks about them."));
    m_idleStop->setRange(1, 24 * 60);
    m_idleStop->setSuffix(tr(" min"));
    m_idleStop->setAccessibleName(tr("Stop idle sandboxes after minutes"));
    m_diskLimit->setRange(0, 1024 * 1024);
    m_diskLimit->setSingleStep(256);
    m_diskLimit->setSuffix(tr(" MiB"));
    m_diskLimit->setSpecialValueText(tr("No limit"));
    m_diskLimit->setAccessibleName(tr("Disk space for a conversation's files in MiB"));
    m_diskLimit->setToolTip(tr("What the files of one conversation (uploads, figures, what the code writes) may "
                               "take. Code that writes more is stopped, and larger uploads are refused; the files "
                               "stay. 0 means no limit."));
    m_maxFigures->setRange(0, 500);
    m_maxFigures->setAccessibleName(tr("Figures kept per run"));
    m_maxFigures->setToolTip(tr("Figures beyond this number in one run are counted but neither saved nor shown."));
    m_engine->setEditable(true);
    m_engine->setInsertPolicy(QComboBox::NoInsert);
    m_engine->setAccessibleName(tr("Docker engine"));
    m_engine->setToolTip(tr("Where new sandboxes start: the engine the docker command is set up for (DOCKER_HOST, "
                            "\"docker context use\"), one of its contexts, or an address you type (ssh://user@host, "
                            "tcp://host:2376). A remote engine gets the conversation's files copied in and out; "
                            "sandboxes that run keep their engine."));
    m_engine->addItem(tr("As the docker command is set up"), QString());
    m_engineError->setStyleSheet(SettingsForm::errorStyle());
    m_engineError->setWordWrap(true);
    m_engineError->setVisible(false);
    m_engineStatus->setWordWrap(true);
    m_engineStatus->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_engineStatus->setAccessibleName(tr("Docker engine status"));
    m_engineButton->setAccessibleName(tr("Check the Docker engine"));
    m_removeButton->setAccessibleName(tr("Remove all sandbox containers"));
    m_removeResult->setWordWrap(true);

    QFormLayout *form = SettingsForm::formOn(this);
    auto *imageRow = new QHBoxLayout;
    imageRow->addWidget(m_image, 1);
    imageRow->addWidget(m_buildButton);
    form->addRow(tr("&Engine:"), m_engine);
    form->addRow(QString(), m_engineError);
    // The status has a row of its own: beside the button, its wrapped lines were cut off.
    auto *engineRow = new QHBoxLayout;
    engineRow->addWidget(m_engineButton);
    engineRow->addStretch(1);
    form->addRow(QString(), engineRow);
    form->addRow(QString(), m_engineStatus);
    // A row of several widgets has no buddy of its own: the label names the field.
    auto *imageLabel = new QLabel(tr("&Image:"));
    imageLabel->setBuddy(m_image);
    form->addRow(imageLabel, imageRow);
    form->addRow(QString(), m_buildProgress);
    form->addRow(QString(), m_buildResult);
    form->addRow(QString(), m_logToggle);
    form->addRow(m_buildLog);
    form->addRow(tr("&Memory:"), m_memory);
    form->addRow(tr("&CPUs:"), m_cpus);
    form->addRow(tr("&Timeout per run:"), m_timeout);
    form->addRow(QString(), m_network);
    form->addRow(QString(), m_restoreVariables);
    form->addRow(tr("Stop when idle &after:"), m_idleStop);
    form->addRow(tr("&Files per conversation:"), m_diskLimit);
    form->addRow(tr("Fi&gures per run:"), m_maxFigures);
    form->addRow(QString(), m_removeButton);
    form->addRow(QString(), m_removeResult);
}

void SandboxSettingsPage::load()
{
    m_image->setText(m_settings->string(QStringLiteral("sandbox/image")));
    selectEngine(m_settings->string(QStringLiteral("sandbox/engine")));
    m_memory->setText(m_settings->string(QStringLiteral("sandbox/memory")));
    m_cpus->setValue(m_settings->value(QStringLiteral("sandbox/cpus")).toDouble());
    m_timeout->setValue(m_settings->integer(QStringLiteral("sandbox/timeout_seconds")));
    m_network->setChecked(m_settings->boolean(QStringLiteral("sandbox/network")));
    m_restoreVariables->setChecked(m_settings->boolean(QStringLiteral("sandbox/restore_variables")));
    m_idleStop->setValue(m_settings->integer(QStringLiteral("sandbox/idle_stop_minutes")));
    m_diskLimit->setValue(m_settings->integer(QStringLiteral("sandbox/disk_limit_mb")));
    m_maxFigures->setValue(m_settings->integer(QStringLiteral("sandbox/max_figures")));
}

bool SandboxSettingsPage::check()
{
    const QString problem = DockerCli::Engine::settingProblem(engineSetting());
    if (problem.isEmpty())
        return true;
    m_engineError->setText(problem);
    m_engineError->show();
    Q_EMIT needsAttention();
    m_engine->setFocus();
    return false;
}

void SandboxSettingsPage::save()
{
    m_settings->setValue(QStringLiteral("sandbox/image"), m_image->text().trimmed());
    m_settings->setValue(QStringLiteral("sandbox/engine"), engineSetting());
    if (!m_memory->text().isEmpty())
        m_settings->setValue(QStringLiteral("sandbox/memory"), m_memory->text());
    m_settings->setValue(QStringLiteral("sandbox/cpus"), m_cpus->value());
    m_settings->setValue(QStringLiteral("sandbox/timeout_seconds"), m_timeout->value());
    m_settings->setValue(QStringLiteral("sandbox/network"), m_network->isChecked());
    m_settings->setValue(QStringLiteral("sandbox/restore_variables"), m_restoreVariables->isChecked());
    m_settings->setValue(QStringLiteral("sandbox/idle_stop_minutes"), m_idleStop->value());
    m_settings->setValue(QStringLiteral("sandbox/disk_limit_mb"), m_diskLimit->value());
    m_settings->setValue(QStringLiteral("sandbox/max_figures"), m_maxFigures->value());
}

QString SandboxSettingsPage::engineSetting() const
{
    const int index = m_engine->currentIndex();
    if (index >= 0 && m_engine->currentText() == m_engine->itemText(index))
        return m_engine->itemData(index).toString();
    return m_engine->currentText().trimmed();
}

DockerCli::Engine SandboxSettingsPage::engineInField() const
{
    const QString setting = engineSetting();
    return setting.isEmpty() ? DockerCli::Engine::cliChoice() : DockerCli::Engine::fromSetting(setting);
}

void SandboxSettingsPage::selectEngine(const QString &setting)
{
    const int index = m_engine->findData(setting);
    if (index >= 0)
        m_engine->setCurrentIndex(index);
    else
        m_engine->setEditText(setting);
}

QCoro::Task<> SandboxSettingsPage::listEngineContexts()
{
    QPointer<SandboxSettingsPage> self(this);
    const QList<EngineService::Context> contexts = co_await EngineService::contexts();
    // podman has none; an engine's address can still be typed.
    if (!self || contexts.isEmpty())
        co_return;
    const QString chosen = engineSetting();
    for (const EngineService::Context &context : contexts) {
        if (m_engine->findData(context.name) >= 0)
            continue;
        m_engine->addItem(context.endpoint.isEmpty() ? tr("Context %1").arg(context.name)
                                                     : tr("Context %1 (%2)").arg(context.name, context.endpoint),
                          context.name);
    }
    selectEngine(chosen);
}

QCoro::Task<> SandboxSettingsPage::checkEngine()
{
    QPointer<SandboxSettingsPage> self(this);
    m_engineButton->setEnabled(false);
    const EngineService::Check found = co_await m_engines->checkEngine(m_image->text().trimmed(), engineInField());
    if (!self)
        co_return;
    m_engineStatus->setText(found.summary());
    m_engineButton->setEnabled(true);
}

void SandboxSettingsPage::showBuildStep(const QString &text)
{
    m_buildButton->setEnabled(false);
    m_buildLog->clear();
    m_buildProgress->setRange(0, 0);
    m_buildProgress->show();
    m_buildResult->setStyleSheet(QString());
    m_buildResult->setText(text);
}

void SandboxSettingsPage::showBuildOutput(const QString &line)
{
    m_buildLog->appendPlainText(line);
    // Both the classic builder ("Step 3/9") and BuildKit ("[3/9]") count their steps.
    static const QRegularExpression step(QStringLiteral("(?:Step |\\[\\s*)(\\d+)/(\\d+)"));
    if (const auto match = step.match(line); match.hasMatch()) {
        m_buildProgress->setRange(0, match.captured(2).toInt());
        m_buildProgress->setValue(match.captured(1).toInt());
    }
}

QCoro::Task<> SandboxSettingsPage::provideImage()
{
    QPointer<SandboxSettingsPage> self(this);
    const EngineService::ImageOutcome outcome =
        co_await m_engines->provideImage(m_image->text().trimmed(), engineInField());
    if (!self)
        co_return;
    m_buildButton->setEnabled(true);
    m_buildProgress->hide();
    m_buildResult->setText(outcome.message);
    m_buildResult->setStyleSheet(outcome.ready ? QString() : SettingsForm::errorStyle());
    if (outcome.buildFailed && !m_logToggle->isChecked())
        m_logToggle->setChecked(true);
}

QCoro::Task<> SandboxSettingsPage::removeContainers()
{
    QPointer<SandboxSettingsPage> self(this);
    m_removeButton->setEnabled(false);
    m_removeResult->setText(tr("Removing…"));
    const int removed = co_await EngineService::removeAllContainers();
    if (!self)
        co_return;
    m_removeButton->setEnabled(true);
    m_removeResult->setText(tr("Sandbox containers removed: %1.").arg(removed));
}

} // namespace Sandpiper
