#include "settingsdialog.h"

#include "appearance.h"
#include "mcpsettingspage.h"

#include <llm/apikeystore.h>
#include <llm/providerdetector.h>
#include <llm/providerpresets.h>
#include <sandbox/enginestatus.h>
#include <sandbox/imagemanager.h>
#include <sandbox/sandboxsession.h>
#include <settings/settings.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
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
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

const QString errorStyle = QStringLiteral("color: #b3261e;");

QString providerKey(const QString &providerId, const char *field)
{
    return QStringLiteral("providers/%1/%2").arg(providerId, QLatin1String(field));
}

void selectData(QComboBox *combo, const QString &value)
{
    const int index = combo->findData(value);
    combo->setCurrentIndex(index >= 0 ? index : 0);
}

// The folder with the sandbox's Dockerfile: installed next to the program, or the source
// tree's while developing.
QString sandboxBuildContext()
{
    const QStringList folders = {
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/sandpiper/sandbox"),
        QStringLiteral(SANDPIPER_SOURCE_DIR "/sandbox"),
    };
    for (const QString &folder : folders) {
        if (QFileInfo::exists(folder + QStringLiteral("/Dockerfile")))
            return QDir::cleanPath(folder);
    }
    return {};
}

} // namespace

SettingsDialog::SettingsDialog(Settings *settings, QWidget *parent, McpServerRegistry *mcp)
    : QDialog(parent)
    , m_settings(settings)
    , m_images(new ImageManager(this))
    , m_tabs(new QTabWidget)
    , m_note(new QLabel(tr("Changes apply to new conversations; the theme changes at once.")))
    , m_mcpPage(new McpSettingsPage(settings, mcp))
{
    setWindowTitle(tr("Settings"));
    m_tabs->setAccessibleName(tr("Settings sections"));
    m_tabs->tabBar()->setAccessibleName(tr("Settings sections"));
    m_tabs->addTab(buildProvidersTab(), tr("&Providers"));
    m_tabs->addTab(buildSandboxTab(), tr("&Sandbox"));
    m_tabs->addTab(buildToolsTab(), tr("&Tools"));
    m_tabs->addTab(m_mcpPage, tr("&MCP"));
    m_tabs->addTab(buildAppearanceTab(), tr("&Appearance"));
    m_tabs->addTab(buildSystemPromptTab(), tr("System p&rompt"));

    m_note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_note);
    layout->addWidget(buttons);
    resize(680, 560);
    load();
}

SettingsDialog::~SettingsDialog() = default;

QWidget *SettingsDialog::buildProvidersTab()
{
    m_preset = new QComboBox;
    for (const ProviderPreset &preset : providerPresets())
        m_preset->addItem(preset.name, preset.id);
    m_preset->setAccessibleName(tr("Provider"));
    m_baseUrl = new QLineEdit;
    m_baseUrl->setAccessibleName(tr("Base URL"));
    m_baseUrlError = new QLabel;
    m_baseUrlError->setStyleSheet(errorStyle);
    m_baseUrlError->setWordWrap(true);
    m_baseUrlError->setVisible(false);
    m_apiKey = new QLineEdit;
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_apiKey->setAccessibleName(tr("API key"));
    m_apiKey->setPlaceholderText(tr("Leave empty to keep the current key"));
    m_apiKeyNote = new QLabel;
    m_apiKeyNote->setWordWrap(true);
    m_apiKeyNote->setVisible(false);
    m_model = new QComboBox;
    m_model->setEditable(true);
    m_model->setAccessibleName(tr("Default model"));
    m_model->lineEdit()->setAccessibleName(tr("Default model"));
    m_headers = new QPlainTextEdit;
    m_headers->setAccessibleName(tr("Extra headers"));
    m_headers->setPlaceholderText(tr("One per line, such as\nX-Title: Sandpiper"));
    m_headers->setTabChangesFocus(true);
    m_headers->setMaximumHeight(80);
    m_contextWindow = new QSpinBox;
    m_contextWindow->setRange(0, 100'000'000);
    m_contextWindow->setSingleStep(1024);
    m_contextWindow->setSpecialValueText(tr("As the server says"));
    m_contextWindow->setSuffix(tr(" tokens"));
    m_contextWindow->setAccessibleName(tr("Context window of this model"));
    m_contextWindow->setToolTip(tr("How many tokens this model can take in. Sandpiper asks the server; set it here "
                                   "when the server does not say, or says more than it uses (Ollama without "
                                   "num_ctx). Longer conversations are shortened to fit, never changed."));
    m_modelImages = new QComboBox;
    m_modelImages->addItem(tr("As the server says"), QString());
    m_modelImages->addItem(tr("This model takes images"), QStringLiteral("yes"));
    m_modelImages->addItem(tr("Text only"), QStringLiteral("no"));
    m_modelImages->setAccessibleName(tr("Whether this model takes images"));
    m_modelImages->setToolTip(tr("Sandpiper asks llama.cpp (/props), Ollama (/api/show) and LM Studio whether a "
                                 "model has vision. Say it here for other servers, or when the answer is wrong. A "
                                 "message with images to a text-only model is not sent."));
    m_imageSide = new QSpinBox;
    m_imageSide->setRange(64, 8192);
    m_imageSide->setSingleStep(128);
    m_imageSide->setSuffix(tr(" px"));
    m_imageSide->setAccessibleName(tr("Longest side of images sent to the model, in pixels"));
    m_imageSide->setToolTip(tr("Larger images are scaled down to this before they are sent; the files in the "
                               "conversation's folder stay as they are."));
    m_textToolCalls = new QCheckBox(tr("Run tool &calls the model writes as text"));
    m_textToolCalls->setAccessibleName(tr("Run tool calls written as text"));
    m_textToolCalls->setToolTip(tr("Local servers often pass a model's tool calls on as text (<tool_call>, "
                                   "[TOOL_CALLS], …). Sandpiper recognises them and runs them like any other call."));
    m_reasoningBack = new QCheckBox(tr("Send the model's reas&oning back between tool rounds"));
    m_reasoningBack->setAccessibleName(tr("Send reasoning back between tool rounds"));
    m_reasoningBack->setToolTip(tr("Some models (gpt-oss on llama.cpp or vLLM) need their earlier reasoning of the "
                                   "same answer; some providers (DeepSeek) refuse it."));
    m_testButton = new QPushButton(tr("T&est connection"));
    m_testButton->setAccessibleName(tr("Test connection"));
    m_testResult = new QLabel;
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *tab = new QWidget;
    auto *tabLayout = new QVBoxLayout(tab);
    auto *form = new QFormLayout;
    tabLayout->addLayout(form);
    tabLayout->addStretch(1);
    form->addRow(tr("Pro&vider:"), m_preset);
    form->addRow(tr("&Base URL:"), m_baseUrl);
    form->addRow(QString(), m_baseUrlError);
    form->addRow(tr("API &key:"), m_apiKey);
    form->addRow(QString(), m_apiKeyNote);
    form->addRow(tr("Default &model:"), m_model);
    form->addRow(tr("Extra &headers:"), m_headers);
    form->addRow(tr("Context &window:"), m_contextWindow);
    form->addRow(tr("I&mages:"), m_modelImages);
    form->addRow(tr("Images &up to:"), m_imageSide);
    form->addRow(QString(), m_textToolCalls);
    form->addRow(QString(), m_reasoningBack);
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_testButton);
    testRow->addWidget(m_testResult, 1);
    form->addRow(QString(), testRow);

    connect(m_preset, &QComboBox::currentIndexChanged, this,
            [this] { loadProvider(m_preset->currentData().toString()); });
    connect(m_testButton, &QPushButton::clicked, this, &SettingsDialog::testConnection);
    connect(m_baseUrl, &QLineEdit::textEdited, m_baseUrlError, &QWidget::hide);
    connect(m_model, &QComboBox::editTextChanged, this, &SettingsDialog::loadModelChoices);
    return tab;
}

QWidget *SettingsDialog::buildSandboxTab()
{
    m_image = new QLineEdit;
    m_image->setAccessibleName(tr("Sandbox image"));
    m_buildButton = new QPushButton(tr("&Build image"));
    m_buildButton->setAccessibleName(tr("Build the sandbox image"));
    m_buildProgress = new QProgressBar;
    m_buildProgress->setAccessibleName(tr("Image build progress"));
    m_buildProgress->setVisible(false);
    m_buildResult = new QLabel;
    m_buildResult->setWordWrap(true);
    m_logToggle = new QToolButton;
    m_logToggle->setText(tr("Show build &log"));
    m_logToggle->setAccessibleName(tr("Show build log"));
    m_logToggle->setCheckable(true);
    m_logToggle->setArrowType(Qt::RightArrow);
    m_logToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_logToggle->setFocusPolicy(Qt::StrongFocus);
    m_buildLog = new QPlainTextEdit;
    m_buildLog->setReadOnly(true);
    m_buildLog->setAccessibleName(tr("Image build log"));
    m_buildLog->setMaximumBlockCount(2000);
    m_buildLog->setVisible(false);
    m_memory = new QLineEdit;
    m_memory->setAccessibleName(tr("Memory limit"));
    m_memory->setToolTip(tr("As Docker writes it, such as 512m or 2g."));
    m_memory->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]+[bkmgBKMG]?")), m_memory));
    m_cpus = new QDoubleSpinBox;
    m_cpus->setRange(0.1, 256);
    m_cpus->setSingleStep(0.5);
    m_cpus->setDecimals(1);
    m_cpus->setAccessibleName(tr("CPUs"));
    m_timeout = new QSpinBox;
    m_timeout->setRange(1, 24 * 3600);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setAccessibleName(tr("Execution timeout in seconds"));
    m_network = new QCheckBox(tr("Allow &network access in new conversations"));
    m_network->setAccessibleName(tr("Network access by default"));
    m_restoreVariables = new QCheckBox(tr("Restore variables a&utomatically when a kernel is new"));
    m_restoreVariables->setAccessibleName(tr("Restore variables automatically"));
    m_restoreVariables->setToolTip(tr("After a restart, an idle stop or a crash, the conversation's earlier "
                                      "successful cells run again before the model's next code. Cells that write "
                                      "files are left out; “Restore variables” asks about them."));
    m_idleStop = new QSpinBox;
    m_idleStop->setRange(1, 24 * 60);
    m_idleStop->setSuffix(tr(" min"));
    m_idleStop->setAccessibleName(tr("Stop idle sandboxes after minutes"));
    m_diskLimit = new QSpinBox;
    m_diskLimit->setRange(0, 1024 * 1024);
    m_diskLimit->setSingleStep(256);
    m_diskLimit->setSuffix(tr(" MiB"));
    m_diskLimit->setSpecialValueText(tr("No limit"));
    m_diskLimit->setAccessibleName(tr("Disk space for a conversation's files in MiB"));
    m_diskLimit->setToolTip(tr("What the files of one conversation (uploads, figures, what the code writes) may "
                               "take. Code that writes more is stopped, and larger uploads are refused; the files "
                               "stay. 0 means no limit."));
    m_maxFigures = new QSpinBox;
    m_maxFigures->setRange(0, 500);
    m_maxFigures->setAccessibleName(tr("Figures kept per run"));
    m_maxFigures->setToolTip(tr("Figures beyond this number in one run are counted but neither saved nor shown."));
    m_engine = new QComboBox;
    m_engine->setEditable(true);
    m_engine->setInsertPolicy(QComboBox::NoInsert);
    m_engine->setAccessibleName(tr("Docker engine"));
    m_engine->setToolTip(tr("Where new sandboxes start: the engine the docker command is set up for (DOCKER_HOST, "
                            "\"docker context use\"), one of its contexts, or an address you type (ssh://user@host, "
                            "tcp://host:2376). A remote engine gets the conversation's files copied in and out; "
                            "sandboxes that run keep their engine."));
    m_engine->addItem(tr("As the docker command is set up"), QString());
    m_engineError = new QLabel;
    m_engineError->setStyleSheet(errorStyle);
    m_engineError->setWordWrap(true);
    m_engineError->setVisible(false);
    m_engineStatus = new QLabel(tr("Not checked yet."));
    m_engineStatus->setWordWrap(true);
    m_engineStatus->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_engineStatus->setAccessibleName(tr("Docker engine status"));
    m_engineButton = new QPushButton(tr("Chec&k engine"));
    m_engineButton->setAccessibleName(tr("Check the Docker engine"));
    m_removeButton = new QPushButton(tr("&Remove all sandbox containers"));
    m_removeButton->setAccessibleName(tr("Remove all sandbox containers"));
    m_removeResult = new QLabel;
    m_removeResult->setWordWrap(true);

    auto *tab = new QWidget;
    m_sandboxTab = tab;
    auto *tabLayout = new QVBoxLayout(tab);
    auto *form = new QFormLayout;
    tabLayout->addLayout(form);
    tabLayout->addStretch(1);
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

    connect(m_logToggle, &QToolButton::toggled, this, [this](bool shown) {
        m_buildLog->setVisible(shown);
        m_logToggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
    });
    connect(m_buildButton, &QPushButton::clicked, this, [this] { QCoro::connect(buildImage(), this, [] {}); });
    connect(m_removeButton, &QPushButton::clicked, this, [this] { QCoro::connect(removeContainers(), this, [] {}); });
    connect(m_engineButton, &QPushButton::clicked, this, [this] { QCoro::connect(checkEngine(), this, [] {}); });
    connect(m_engine, &QComboBox::editTextChanged, m_engineError, &QWidget::hide);
    QCoro::connect(listEngineContexts(), this, [] {});
    connect(m_images, &ImageManager::progress, this, [this](const QString &line) {
        m_buildLog->appendPlainText(line);
        // Both the classic builder ("Step 3/9") and BuildKit ("[3/9]") count their steps.
        static const QRegularExpression step(QStringLiteral("(?:Step |\\[\\s*)(\\d+)/(\\d+)"));
        if (const auto match = step.match(line); match.hasMatch()) {
            m_buildProgress->setRange(0, match.captured(2).toInt());
            m_buildProgress->setValue(match.captured(1).toInt());
        }
    });
    return tab;
}

QWidget *SettingsDialog::buildToolsTab()
{
    auto *tab = new QWidget;
    auto *tabLayout = new QVBoxLayout(tab);
    auto *form = new QFormLayout;
    tabLayout->addLayout(form);
    tabLayout->addStretch(1);
    const QList<std::pair<QString, QString>> tools = {
        {QStringLiteral("execute_python_code"), tr("Run &Python:")},
        {QStringLiteral("search_web"), tr("Search the &web:")},
        {QStringLiteral("fetch_url"), tr("&Fetch pages:")},
        {QStringLiteral("create_chart"), tr("Draw &charts:")},
    };
    for (const auto &[tool, label] : tools) {
        auto *combo = new QComboBox;
        combo->addItem(tr("Ask every time"), QStringLiteral("ask"));
        combo->addItem(tr("Run without asking"), QStringLiteral("auto"));
        combo->addItem(tr("Never"), QStringLiteral("never"));
        combo->setAccessibleName(tr("Approval for %1").arg(tool));
        form->addRow(label, combo);
        m_approvals.append({tool, combo});
    }
    m_maxRounds = new QSpinBox;
    m_maxRounds->setRange(1, 200);
    m_maxRounds->setAccessibleName(tr("Maximum tool rounds per answer"));
    form->addRow(tr("Maximum tool &rounds:"), m_maxRounds);
    m_searchBackend = new QComboBox;
    m_searchBackend->addItem(QStringLiteral("DuckDuckGo"), QStringLiteral("duckduckgo"));
    m_searchBackend->addItem(QStringLiteral("SearXNG"), QStringLiteral("searxng"));
    m_searchBackend->addItem(QStringLiteral("Brave"), QStringLiteral("brave"));
    m_searchBackend->addItem(QStringLiteral("Tavily"), QStringLiteral("tavily"));
    m_searchBackend->setAccessibleName(tr("Web search backend"));
    form->addRow(tr("Search &backend:"), m_searchBackend);
    m_searxngUrl = new QLineEdit;
    m_searxngUrl->setAccessibleName(tr("SearXNG URL"));
    form->addRow(tr("Sear&XNG URL:"), m_searxngUrl);
    connect(m_searchBackend, &QComboBox::currentIndexChanged, this, [this] {
        m_searxngUrl->setEnabled(m_searchBackend->currentData().toString() == QLatin1String("searxng"));
    });
    return tab;
}

QWidget *SettingsDialog::buildAppearanceTab()
{
    m_theme = new QComboBox;
    m_theme->addItem(tr("Follow the system"), QStringLiteral("system"));
    m_theme->addItem(tr("Light"), QStringLiteral("light"));
    m_theme->addItem(tr("Dark"), QStringLiteral("dark"));
    m_theme->setAccessibleName(tr("Theme"));
    m_fontSize = new QSpinBox;
    m_fontSize->setRange(0, 48);
    m_fontSize->setSpecialValueText(tr("System size"));
    m_fontSize->setSuffix(tr(" pt"));
    m_fontSize->setAccessibleName(tr("Chat font size"));
    m_language = new QComboBox;
    m_language->addItem(tr("Follow the system"), QStringLiteral("system"));
    // Each language is named in itself, so that a user can find theirs whatever is showing.
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_language->setAccessibleName(tr("Language"));

    auto *tab = new QWidget;
    auto *tabLayout = new QVBoxLayout(tab);
    auto *form = new QFormLayout;
    tabLayout->addLayout(form);
    tabLayout->addStretch(1);
    form->addRow(tr("&Theme:"), m_theme);
    form->addRow(tr("Chat &font size:"), m_fontSize);
    form->addRow(tr("&Language:"), m_language);
    m_notifications = new QCheckBox(tr("&Notify me when an answer that took over 10 s ends in the background"));
    m_notifications->setAccessibleName(tr("Desktop notifications"));
    form->addRow(QString(), m_notifications);
    auto *restartNote = new QLabel(tr("A new language shows after a restart."));
    restartNote->setWordWrap(true);
    form->addRow(QString(), restartNote);
    return tab;
}

QWidget *SettingsDialog::buildSystemPromptTab()
{
    m_systemPrompt = new QPlainTextEdit;
    m_systemPrompt->setAccessibleName(tr("System prompt"));
    m_systemPrompt->setPlaceholderText(tr("Empty: the default system prompt"));
    m_systemPrompt->setTabChangesFocus(true);
    m_resetPrompt = new QPushButton(tr("Reset to &default"));
    m_resetPrompt->setAccessibleName(tr("Reset the system prompt to the default"));
    connect(m_resetPrompt, &QPushButton::clicked, this,
            [this] { m_systemPrompt->setPlainText(m_settings->defaultSystemPrompt()); });

    auto *tab = new QWidget;
    auto *layout = new QVBoxLayout(tab);
    layout->addWidget(m_systemPrompt, 1);
    auto *row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(m_resetPrompt);
    layout->addLayout(row);
    return tab;
}

QString SettingsDialog::currentProviderId() const
{
    return m_preset->currentData().toString();
}

void SettingsDialog::loadProvider(const QString &providerId)
{
    const auto preset = findProviderPreset(providerId);
    m_baseUrl->setText(m_settings->string(providerKey(providerId, "base_url")));
    m_baseUrl->setPlaceholderText(preset && !preset->baseUrl.isEmpty() ? preset->baseUrl
                                                                       : tr("https://example.com/v1"));
    m_baseUrlError->hide();
    m_apiKey->clear();
    m_apiKeyNote->hide();
    m_keyHandled.clear();
    QString model = m_settings->string(providerKey(providerId, "model"));
    if (model.isEmpty() && preset)
        model = preset->defaultModel;
    m_model->clear();
    m_model->setEditText(model);
    m_headers->setPlainText(m_settings->string(providerKey(providerId, "headers")));
    // The switches as this provider has them, its preset's choice where the user made none.
    const ProviderConfig config = m_settings->provider(providerId);
    m_textToolCalls->setChecked(config.recoverTextToolCalls);
    m_reasoningBack->setChecked(config.sendReasoningBack);
    loadModelChoices();
    m_testResult->clear();
}

void SettingsDialog::loadModelChoices()
{
    const auto windows =
        Settings::parseContextWindows(m_settings->string(providerKey(currentProviderId(), "context_windows")));
    m_contextWindow->setValue(int(std::min<qint64>(windows.value(m_model->currentText().trimmed()), 100'000'000)));
    const auto images =
        Settings::parseImageModels(m_settings->string(providerKey(currentProviderId(), "image_models")));
    const auto chosen = images.constFind(m_model->currentText().trimmed());
    selectData(m_modelImages, chosen == images.cend() ? QString()
                              : *chosen               ? QStringLiteral("yes")
                                                      : QStringLiteral("no"));
}

void SettingsDialog::load()
{
    selectData(m_preset, m_settings->string(QStringLiteral("provider")));
    loadProvider(currentProviderId());

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
    m_imageSide->setValue(m_settings->integer(QStringLiteral("images/max_side")));

    for (const auto &[tool, combo] : std::as_const(m_approvals))
        selectData(combo, m_settings->string(QStringLiteral("approval/") + tool));
    m_maxRounds->setValue(m_settings->integer(QStringLiteral("agent/max_tool_rounds")));
    selectData(m_searchBackend, m_settings->string(QStringLiteral("search/backend")));
    m_searxngUrl->setText(m_settings->string(QStringLiteral("search/searxng_url")));
    m_searxngUrl->setEnabled(m_searchBackend->currentData().toString() == QLatin1String("searxng"));

    selectData(m_theme, m_settings->string(QStringLiteral("appearance/theme")));
    m_fontSize->setValue(m_settings->integer(QStringLiteral("appearance/chat_font_size")));
    selectData(m_language, m_settings->string(QStringLiteral("appearance/language")));
    m_notifications->setChecked(m_settings->boolean(QStringLiteral("notifications/enabled")));

    // The prompt the model gets, the default one too: it can be read and edited from there.
    const QString prompt = m_settings->string(QStringLiteral("agent/system_prompt"));
    m_systemPrompt->setPlainText(prompt.isEmpty() ? m_settings->defaultSystemPrompt() : prompt);
}

bool SettingsDialog::save()
{
    if (!m_mcpPage->save()) {
        m_tabs->setCurrentWidget(m_mcpPage);
        return false;
    }
    const QString providerId = currentProviderId();
    QString baseUrl = m_baseUrl->text().trimmed();
    // An empty field means the preset's own address; Custom has none to fall back on.
    if (!baseUrl.isEmpty() || providerId == QLatin1String("custom")) {
        const BaseUrl normalized = normalizeBaseUrl(baseUrl);
        if (!normalized.error.isEmpty()) {
            m_baseUrlError->setText(normalized.error);
            m_baseUrlError->show();
            m_tabs->setCurrentIndex(0);
            m_baseUrl->setFocus();
            return false;
        }
        baseUrl = normalized.url;
        m_baseUrl->setText(baseUrl);
    }
    if (const QString problem = DockerCli::Engine::settingProblem(engineSetting()); !problem.isEmpty()) {
        m_engineError->setText(problem);
        m_engineError->show();
        m_tabs->setCurrentIndex(m_tabs->indexOf(m_sandboxTab));
        m_engine->setFocus();
        return false;
    }

    m_settings->setValue(QStringLiteral("provider"), providerId);
    m_settings->setValue(providerKey(providerId, "base_url"), baseUrl);
    m_settings->setValue(providerKey(providerId, "model"), m_model->currentText().trimmed());
    m_settings->setValue(providerKey(providerId, "headers"), m_headers->toPlainText().trimmed());
    // A switch left as the preset has it stays empty, so that it follows the preset.
    const auto preset = findProviderPreset(providerId);
    const auto choice = [](bool value, bool presetValue) {
        return value == presetValue ? QString() : value ? QStringLiteral("true") : QStringLiteral("false");
    };
    m_settings->setValue(providerKey(providerId, "text_tool_calls"), choice(m_textToolCalls->isChecked(), true));
    m_settings->setValue(providerKey(providerId, "reasoning_back"),
                         choice(m_reasoningBack->isChecked(), preset && preset->sendReasoningBack));
    auto windows = Settings::parseContextWindows(m_settings->string(providerKey(providerId, "context_windows")));
    const QString model = m_model->currentText().trimmed();
    if (m_contextWindow->value() > 0 && !model.isEmpty())
        windows.insert(model, m_contextWindow->value());
    else
        windows.remove(model);
    m_settings->setValue(providerKey(providerId, "context_windows"), Settings::formatContextWindows(windows));
    auto images = Settings::parseImageModels(m_settings->string(providerKey(providerId, "image_models")));
    if (const QString takes = m_modelImages->currentData().toString(); !takes.isEmpty() && !model.isEmpty())
        images.insert(model, takes == QLatin1String("yes"));
    else
        images.remove(model);
    m_settings->setValue(providerKey(providerId, "image_models"), Settings::formatImageModels(images));
    m_settings->setValue(QStringLiteral("images/max_side"), m_imageSide->value());

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

    for (const auto &[tool, combo] : std::as_const(m_approvals))
        m_settings->setValue(QStringLiteral("approval/") + tool, combo->currentData());
    m_settings->setValue(QStringLiteral("agent/max_tool_rounds"), m_maxRounds->value());
    m_settings->setValue(QStringLiteral("search/backend"), m_searchBackend->currentData());
    m_settings->setValue(QStringLiteral("search/searxng_url"), m_searxngUrl->text().trimmed());

    m_settings->setValue(QStringLiteral("appearance/theme"), m_theme->currentData());
    m_settings->setValue(QStringLiteral("appearance/chat_font_size"), m_fontSize->value());
    m_settings->setValue(QStringLiteral("appearance/language"), m_language->currentData());
    m_settings->setValue(QStringLiteral("notifications/enabled"), m_notifications->isChecked());

    // The default prompt saved word for word would freeze it; empty follows future defaults.
    const QString prompt = m_systemPrompt->toPlainText().trimmed();
    m_settings->setValue(QStringLiteral("agent/system_prompt"),
                         prompt == m_settings->defaultSystemPrompt() ? QString() : prompt);

    applyAppearance(*qApp, *m_settings);
    return true;
}

void SettingsDialog::accept()
{
    if (!save())
        return;
    const QString key = m_apiKey->text().trimmed();
    if (key.isEmpty() || key == m_keyHandled) {
        QDialog::accept();
        return;
    }
    QCoro::connect(storeKeyAndClose(currentProviderId(), key), this, [] {});
}

QCoro::Task<> SettingsDialog::storeKeyAndClose(QString providerId, QString key)
{
    QPointer<SettingsDialog> self(this);
    setEnabled(false);
    const QString error = co_await ApiKeyStore::write(providerId, key);
    if (!self)
        co_return;
    setEnabled(true);
    m_keyHandled = key;
    Q_EMIT apiKeyEntered(providerId, key, error.isEmpty());
    if (error.isEmpty()) {
        QDialog::accept();
        co_return;
    }
    // The user must see this before the dialog goes; the next OK closes it.
    m_apiKeyNote->setText(tr("The keychain is not available (%1): the key is used until you quit Sandpiper and "
                             "will not be remembered. Press OK to continue.")
                              .arg(error));
    m_apiKeyNote->setStyleSheet(errorStyle);
    m_apiKeyNote->show();
    m_tabs->setCurrentIndex(0);
}

void SettingsDialog::testConnection()
{
    QCoro::connect(runConnectionTest(), this, [] {});
}

QCoro::Task<> SettingsDialog::runConnectionTest()
{
    QPointer<SettingsDialog> self(this);
    const QString providerId = currentProviderId();
    const auto preset = findProviderPreset(providerId);
    ProviderConfig config;
    config.id = providerId;
    config.baseUrl = m_baseUrl->text().trimmed();
    if (config.baseUrl.isEmpty() && preset)
        config.baseUrl = preset->baseUrl;
    config.connectTimeout = std::chrono::seconds(10);
    for (const QString &line : m_headers->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon > 0)
            config.extraHeaders.append({line.left(colon).trimmed().toUtf8(), line.mid(colon + 1).trimmed().toUtf8()});
    }
    m_testButton->setEnabled(false);
    m_testResult->setStyleSheet(QString());
    m_testResult->setText(tr("Testing…"));
    config.apiKey = m_apiKey->text().trimmed();
    if (config.apiKey.isEmpty()) {
        const QString variable = m_settings->string(providerKey(providerId, "api_key_env"));
        const auto lookup = co_await ApiKeyStore::read(
            providerId,
            !variable.isEmpty() ? variable : (preset ? preset->apiKeyVariable : QStringLiteral("SANDPIPER_API_KEY")));
        if (!self)
            co_return;
        config.apiKey = lookup.key;
    }
    const auto verdict = co_await ProviderDetector::testConnection(config);
    if (!self)
        co_return;
    m_testButton->setEnabled(true);
    m_testResult->setText(verdict.message);
    m_testResult->setStyleSheet(verdict.ok() ? QString() : errorStyle);
    if (verdict.ok()) {
        const QString chosen = m_model->currentText();
        m_model->clear();
        m_model->addItems(verdict.models);
        const int index = m_model->findText(chosen);
        if (index >= 0)
            m_model->setCurrentIndex(index);
        else if (!chosen.isEmpty())
            m_model->setEditText(chosen);
    }
    Q_EMIT connectionTested(verdict.ok());
}

QCoro::Task<> SettingsDialog::checkEngine()
{
    QPointer<SettingsDialog> self(this);
    m_engineButton->setEnabled(false);
    const DockerCli::Engine engine = engineInDialog();
    m_engineStatus->setText(tr("Checking %1…").arg(EngineStatus::describeEngine(engine)));
    const QString image = m_image->text().trimmed();
    const EngineStatus status = co_await EngineStatus::check(image, engine);
    if (!self)
        co_return;
    QString text = status.summary();
    if (status.answers) {
        m_engineStatus->setText(text + QLatin1Char('.'));
        const qint64 trivial = co_await EngineStatus::trivialExecutionMs(image, engine);
        if (!self)
            co_return;
        text = trivial >= 0 ? tr("%1; a trivial execution in a fresh sandbox takes %2 ms.").arg(text).arg(trivial)
                            : tr("%1; no trivial execution ran (is the image there?).").arg(text);
    }
    m_engineStatus->setText(text);
    m_engineButton->setEnabled(true);
}

QString SettingsDialog::engineSetting() const
{
    const int index = m_engine->currentIndex();
    if (index >= 0 && m_engine->currentText() == m_engine->itemText(index))
        return m_engine->itemData(index).toString();
    return m_engine->currentText().trimmed();
}

DockerCli::Engine SettingsDialog::engineInDialog() const
{
    const QString setting = engineSetting();
    return setting.isEmpty() ? DockerCli::Engine::cliChoice() : DockerCli::Engine::fromSetting(setting);
}

void SettingsDialog::selectEngine(const QString &setting)
{
    const int index = m_engine->findData(setting);
    if (index >= 0)
        m_engine->setCurrentIndex(index);
    else
        m_engine->setEditText(setting);
}

QCoro::Task<> SettingsDialog::listEngineContexts()
{
    QPointer<SettingsDialog> self(this);
    const auto listing =
        co_await DockerCli::run({QStringLiteral("context"), QStringLiteral("ls"), QStringLiteral("--format"),
                                 QStringLiteral("{{.Name}}\t{{.DockerEndpoint}}")},
                                {}, std::chrono::seconds(10));
    // podman has no contexts; an engine's address can still be typed.
    if (!self || !listing.ok())
        co_return;
    const QString chosen = engineSetting();
    for (const QString &line : QString::fromUtf8(listing.standardOutput).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString name = line.section(QLatin1Char('\t'), 0, 0).trimmed();
        const QString endpoint = line.section(QLatin1Char('\t'), 1).trimmed();
        if (name.isEmpty() || !DockerCli::Engine::settingProblem(name).isEmpty() || m_engine->findData(name) >= 0)
            continue;
        m_engine->addItem(endpoint.isEmpty() ? tr("Context %1").arg(name) : tr("Context %1 (%2)").arg(name, endpoint),
                          name);
    }
    selectEngine(chosen);
}

QCoro::Task<> SettingsDialog::buildImage()
{
    QPointer<SettingsDialog> self(this);
    // Another engine than this machine's own gets the image from this machine's when that has it
    // (ImageManager::send says when not): faster than a build there, and the same image.
    const QString wanted = m_image->text().trimmed();
    const DockerCli::Engine engine = engineInDialog();
    const QString where = EngineStatus::describeEngine(engine);
    if (!EngineStatus::isDefaultEngine(engine)) {
        m_buildButton->setEnabled(false);
        m_buildLog->clear();
        m_buildProgress->setRange(0, 0);
        m_buildProgress->show();
        m_buildResult->setStyleSheet(QString());
        m_buildResult->setText(
            tr("Sending %1 from this machine to %2 (docker save | docker load)…").arg(wanted, where));
        const bool sent = co_await m_images->send(wanted, engine);
        if (!self)
            co_return;
        m_buildButton->setEnabled(true);
        m_buildProgress->hide();
        if (sent) {
            m_buildResult->setText(tr("The image %1 was sent to %2 and is ready.").arg(wanted, where));
            co_return;
        }
        m_buildLog->appendPlainText(tr("Not sent: %1 Building it there instead.").arg(m_images->lastError()));
    }
    if (!self)
        co_return;
    const QString context = sandboxBuildContext();
    if (context.isEmpty()) {
        m_buildResult->setText(tr("No sandbox folder with a Dockerfile was found next to Sandpiper "
                                  "(../share/sandpiper/sandbox). Reinstall Sandpiper or build the image by hand."));
        m_buildResult->setStyleSheet(errorStyle);
        co_return;
    }
    const QString image = m_image->text().trimmed();
    m_buildButton->setEnabled(false);
    m_buildLog->clear();
    m_buildProgress->setRange(0, 0);
    m_buildProgress->show();
    m_buildResult->setStyleSheet(QString());
    m_buildResult->setText(tr("Building %1 from %2 on %3…").arg(image, QDir::toNativeSeparators(context), where));
    const bool built = co_await m_images->build(image, context, engine);
    if (!self)
        co_return;
    m_buildButton->setEnabled(true);
    m_buildProgress->hide();
    m_buildResult->setText(built ? tr("The image %1 is ready.").arg(image)
                                 : tr("The build failed: %1").arg(m_images->lastError()));
    m_buildResult->setStyleSheet(built ? QString() : errorStyle);
    if (!built && !m_logToggle->isChecked())
        m_logToggle->setChecked(true);
}

QCoro::Task<> SettingsDialog::removeContainers()
{
    QPointer<SettingsDialog> self(this);
    m_removeButton->setEnabled(false);
    m_removeResult->setText(tr("Removing…"));
    const int removed = co_await SandboxSession::removeAllContainers();
    if (!self)
        co_return;
    m_removeButton->setEnabled(true);
    m_removeResult->setText(tr("Sandbox containers removed: %1.").arg(removed));
}

} // namespace Sandpiper
