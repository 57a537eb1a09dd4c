#include "providersettingspage.h"

#include "settingsform.h"

#include <llm/apikeystore.h>
#include <llm/modelprobe.h>
#include <llm/providerdetector.h>
#include <llm/providerpresets.h>
#include <session/localmodelhost.h>
#include <settings/modelreports.h>
#include <settings/settings.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>

namespace Sandpiper {

using SettingsForm::errorStyle;
using SettingsForm::selectData;

namespace {

QString providerKey(const QString &providerId, const char *field)
{
    return QStringLiteral("providers/%1/%2").arg(providerId, QLatin1String(field));
}

} // namespace

ProviderSettingsPage::ProviderSettingsPage(Settings *settings, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_preset(new QComboBox)
    , m_baseUrl(new QLineEdit)
    , m_baseUrlError(new QLabel)
    , m_apiKey(new QLineEdit)
    , m_apiKeyNote(new QLabel)
    , m_model(new QComboBox)
    , m_headers(new QPlainTextEdit)
    , m_contextWindow(new QSpinBox)
    , m_modelImages(new QComboBox)
    , m_imageSide(new QSpinBox)
    , m_textToolCalls(new QCheckBox(tr("Run tool &calls the model writes as text")))
    , m_reasoningBack(new QCheckBox(tr("Send the model's reas&oning back between tool rounds")))
    , m_testButton(new QPushButton(tr("T&est connection")))
    , m_testResult(new QLabel)
    , m_modelVerdict(new QLabel)
    , m_probeButton(new QPushButton(tr("Test this mo&del")))
    , m_probeCancel(new QPushButton(tr("Ca&ncel test")))
    , m_probeStatus(new QLabel)
    , m_reportCard(new QPlainTextEdit)
{
    buildForm();
    connect(m_preset, &QComboBox::currentIndexChanged, this,
            [this] { loadProvider(m_preset->currentData().toString()); });
    connect(m_testButton, &QPushButton::clicked, this, &ProviderSettingsPage::testConnection);
    connect(m_probeButton, &QPushButton::clicked, this, &ProviderSettingsPage::probeModel);
    connect(m_probeCancel, &QPushButton::clicked, this, &ProviderSettingsPage::cancelProbe);
    connect(m_baseUrl, &QLineEdit::editingFinished, this, &ProviderSettingsPage::showVerdict);
    connect(m_baseUrl, &QLineEdit::textEdited, m_baseUrlError, &QWidget::hide);
    connect(m_model, &QComboBox::editTextChanged, this, &ProviderSettingsPage::loadModelChoices);

    selectData(m_preset, m_settings->string(QStringLiteral("provider")));
    loadProvider(currentProviderId());
    m_imageSide->setValue(m_settings->integer(QStringLiteral("images/max_side")));
}

void ProviderSettingsPage::buildForm()
{
    for (const ProviderPreset &preset : providerPresets())
        m_preset->addItem(preset.name, preset.id);
    m_preset->setAccessibleName(tr("Provider"));
    m_baseUrl->setAccessibleName(tr("Base URL"));
    m_baseUrlError->setStyleSheet(errorStyle());
    m_baseUrlError->setWordWrap(true);
    m_baseUrlError->setVisible(false);
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_apiKey->setAccessibleName(tr("API key"));
    m_apiKey->setPlaceholderText(tr("Leave empty to keep the current key"));
    m_apiKeyNote->setWordWrap(true);
    m_apiKeyNote->setVisible(false);
    m_model->setEditable(true);
    m_model->setAccessibleName(tr("Default model"));
    m_model->lineEdit()->setAccessibleName(tr("Default model"));
    m_headers->setAccessibleName(tr("Extra headers"));
    m_headers->setPlaceholderText(tr("One per line, such as\nX-Title: Sandpiper"));
    m_headers->setTabChangesFocus(true);
    m_headers->setMaximumHeight(80);
    m_contextWindow->setRange(0, 100'000'000);
    m_contextWindow->setSingleStep(1024);
    m_contextWindow->setSpecialValueText(tr("As the server says"));
    m_contextWindow->setSuffix(tr(" tokens"));
    m_contextWindow->setAccessibleName(tr("Context window of this model"));
    m_contextWindow->setToolTip(tr("How many tokens this model can take in. Sandpiper asks the server; set it here "
                                   "when the server does not say, or says more than it uses (Ollama without "
                                   "num_ctx). Longer conversations are shortened to fit, never changed."));
    m_modelImages->addItem(tr("As the server says"), QString());
    m_modelImages->addItem(tr("This model takes images"), QStringLiteral("yes"));
    m_modelImages->addItem(tr("Text only"), QStringLiteral("no"));
    m_modelImages->setAccessibleName(tr("Whether this model takes images"));
    m_modelImages->setToolTip(tr("Sandpiper asks llama.cpp (/props), Ollama (/api/show) and LM Studio whether a "
                                 "model has vision. Say it here for other servers, or when the answer is wrong. A "
                                 "message with images to a text-only model is not sent."));
    m_imageSide->setRange(64, 8192);
    m_imageSide->setSingleStep(128);
    m_imageSide->setSuffix(tr(" px"));
    m_imageSide->setAccessibleName(tr("Longest side of images sent to the model, in pixels"));
    m_imageSide->setToolTip(tr("Larger images are scaled down to this before they are sent; the files in the "
                               "conversation's folder stay as they are."));
    m_textToolCalls->setAccessibleName(tr("Run tool calls written as text"));
    m_textToolCalls->setToolTip(tr("Local servers often pass a model's tool calls on as text (<tool_call>, "
                                   "[TOOL_CALLS], …). Sandpiper recognises them and runs them like any other call."));
    m_reasoningBack->setAccessibleName(tr("Send reasoning back between tool rounds"));
    m_reasoningBack->setToolTip(tr("Some models (gpt-oss on llama.cpp or vLLM) need their earlier reasoning of the "
                                   "same answer; some providers (DeepSeek) refuse it."));
    m_testButton->setAccessibleName(tr("Test connection"));
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_modelVerdict->setAccessibleName(tr("What the model's report card says"));
    m_modelVerdict->setWordWrap(true);
    m_modelVerdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_probeButton->setAccessibleName(tr("Test this model"));
    m_probeButton->setToolTip(tr("A few short requests to the model in the field: a plain answer, a tool call, two "
                                 "parallel calls, an answer after a tool result, a long prompt near its context window "
                                 "(up to 16k tokens) and an image where the server says it takes them. The report "
                                 "card says what really happens, what it cost in tokens, and which settings above it "
                                 "set."));
    m_probeCancel->setAccessibleName(tr("Cancel the model test"));
    m_probeCancel->setVisible(false);
    m_probeStatus->setAccessibleName(tr("Model test progress"));
    m_probeStatus->setWordWrap(true);
    m_reportCard->setAccessibleName(tr("Report card"));
    m_reportCard->setReadOnly(true);
    m_reportCard->setTabChangesFocus(true);
    m_reportCard->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_reportCard->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_reportCard->setMinimumHeight(120);
    m_reportCard->setVisible(false);

    QFormLayout *form = SettingsForm::formOn(this);
    form->addRow(tr("Pro&vider:"), m_preset);
    form->addRow(tr("&Base URL:"), m_baseUrl);
    form->addRow(QString(), m_baseUrlError);
    form->addRow(tr("API &key:"), m_apiKey);
    form->addRow(QString(), m_apiKeyNote);
    form->addRow(tr("Default &model:"), m_model);
    form->addRow(QString(), m_modelVerdict);
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
    auto *probeRow = new QHBoxLayout;
    probeRow->addWidget(m_probeButton);
    probeRow->addWidget(m_probeCancel);
    probeRow->addWidget(m_probeStatus, 1);
    form->addRow(QString(), probeRow);
    form->addRow(m_reportCard);
    m_form = form;
    m_serverRows = {m_baseUrl, m_apiKey, m_headers, testRow, probeRow};
}

void ProviderSettingsPage::showServerRows(bool shown)
{
    for (QObject *row : std::as_const(m_serverRows)) {
        if (auto *widget = qobject_cast<QWidget *>(row))
            m_form->setRowVisible(widget, shown);
        else
            m_form->setRowVisible(qobject_cast<QLayout *>(row), shown);
    }
    m_reportCard->setVisible(shown && !m_reportCard->toPlainText().isEmpty());
    // A row shown shows all its widgets: "Cancel test" only while a test runs.
    m_probeCancel->setVisible(shown && m_probing);
}

QString ProviderSettingsPage::currentProviderId() const
{
    return m_preset->currentData().toString();
}

void ProviderSettingsPage::loadProvider(const QString &providerId)
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
    const bool local = providerId == LocalModelHost::providerId();
    if (local) {
        // The models on this computer, by the name the runner takes.
        for (const ModelFile &file : modelsOnThisComputer(*m_settings)) {
            if (file.runnable() && m_model->findText(QFileInfo(file.path).completeBaseName()) < 0)
                m_model->addItem(QFileInfo(file.path).completeBaseName());
        }
    }
    showServerRows(!local);
    m_model->setEditText(model);
    m_model->lineEdit()->setCursorPosition(0); // a long name shows its beginning
    m_headers->setPlainText(m_settings->string(providerKey(providerId, "headers")));
    // The switches as this provider has them, its preset's choice where the user made none.
    const ProviderConfig config = m_settings->provider(providerId);
    m_textToolCalls->setChecked(config.recoverTextToolCalls);
    m_reasoningBack->setChecked(config.sendReasoningBack);
    loadModelChoices();
    m_testResult->clear();
}

void ProviderSettingsPage::loadModelChoices()
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
    showVerdict();
}

QString ProviderSettingsPage::effectiveBaseUrl() const
{
    QString baseUrl = m_baseUrl->text().trimmed();
    const auto preset = findProviderPreset(currentProviderId());
    if (baseUrl.isEmpty() && preset)
        baseUrl = preset->baseUrl;
    const BaseUrl normalized = normalizeBaseUrl(baseUrl);
    return normalized.error.isEmpty() ? normalized.url : baseUrl;
}

void ProviderSettingsPage::showVerdict()
{
    const auto report =
        ModelReports::find(*m_settings, currentProviderId(), effectiveBaseUrl(), m_model->currentText().trimmed());
    m_modelVerdict->setText(
        report ? tr("Tested %1: %2")
                     .arg(QLocale().toString(report->probedAt.toLocalTime().date(), QLocale::ShortFormat),
                          report->verdict())
               : QString());
    m_modelVerdict->setVisible(report.has_value());
}

bool ProviderSettingsPage::check()
{
    const QString baseUrl = m_baseUrl->text().trimmed();
    // An empty field means the preset's own address; Custom has none to fall back on.
    if (baseUrl.isEmpty() && currentProviderId() != QLatin1String("custom"))
        return true;
    const BaseUrl normalized = normalizeBaseUrl(baseUrl);
    if (!normalized.error.isEmpty()) {
        m_baseUrlError->setText(normalized.error);
        m_baseUrlError->show();
        Q_EMIT needsAttention();
        m_baseUrl->setFocus();
        return false;
    }
    m_baseUrl->setText(normalized.url);
    return true;
}

void ProviderSettingsPage::save()
{
    const QString providerId = currentProviderId();
    m_settings->setValue(QStringLiteral("provider"), providerId);
    m_settings->setValue(providerKey(providerId, "base_url"), m_baseUrl->text().trimmed());
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
}

bool ProviderSettingsPage::hasNewKey() const
{
    const QString key = m_apiKey->text().trimmed();
    return !key.isEmpty() && key != m_keyHandled;
}

QCoro::Task<bool> ProviderSettingsPage::storeKey()
{
    QPointer<ProviderSettingsPage> self(this);
    const QString providerId = currentProviderId();
    const QString key = m_apiKey->text().trimmed();
    const QString error = co_await ApiKeyStore::write(providerId, key);
    if (!self)
        co_return false;
    m_keyHandled = key;
    Q_EMIT apiKeyEntered(providerId, key, error.isEmpty());
    if (error.isEmpty())
        co_return true;
    // The user must see this before the dialog goes; the next OK closes it.
    m_apiKeyNote->setText(tr("The keychain is not available (%1): the key is used until you quit Sandpiper and "
                             "will not be remembered. Press OK to continue.")
                              .arg(error));
    m_apiKeyNote->setStyleSheet(errorStyle());
    m_apiKeyNote->show();
    Q_EMIT needsAttention();
    co_return false;
}

void ProviderSettingsPage::chooseLocalModel(const QString &name)
{
    selectData(m_preset, LocalModelHost::providerId());
    m_model->setEditText(name);
}

void ProviderSettingsPage::testConnection()
{
    QCoro::connect(runConnectionTest(), this, [] {});
}

QCoro::Task<ProviderConfig> ProviderSettingsPage::configFromFields()
{
    QPointer<ProviderSettingsPage> self(this);
    const QString providerId = currentProviderId();
    const auto preset = findProviderPreset(providerId);
    ProviderConfig config = m_settings->provider(providerId);
    config.baseUrl = effectiveBaseUrl();
    config.model = m_model->currentText().trimmed();
    config.extraHeaders.clear();
    for (const QString &line : m_headers->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon > 0)
            config.extraHeaders.append({line.left(colon).trimmed().toUtf8(), line.mid(colon + 1).trimmed().toUtf8()});
    }
    config.apiKey = m_apiKey->text().trimmed();
    if (config.apiKey.isEmpty()) {
        const QString variable = m_settings->string(providerKey(providerId, "api_key_env"));
        const auto lookup = co_await ApiKeyStore::read(
            providerId,
            !variable.isEmpty() ? variable : (preset ? preset->apiKeyVariable : QStringLiteral("SANDPIPER_API_KEY")));
        if (!self)
            co_return config;
        config.apiKey = lookup.key;
    }
    co_return config;
}

QCoro::Task<> ProviderSettingsPage::runConnectionTest()
{
    QPointer<ProviderSettingsPage> self(this);
    m_testButton->setEnabled(false);
    m_testResult->setStyleSheet(QString());
    m_testResult->setText(tr("Testing…"));
    ProviderConfig config = co_await configFromFields();
    if (!self)
        co_return;
    config.connectTimeout = std::chrono::seconds(10);
    const auto verdict = co_await ProviderDetector::testConnection(config);
    if (!self)
        co_return;
    m_testButton->setEnabled(true);
    m_testResult->setText(verdict.message);
    m_testResult->setStyleSheet(verdict.ok() ? QString() : errorStyle());
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

void ProviderSettingsPage::probeModel()
{
    if (m_probe)
        return;
    QCoro::connect(runProbe(), this, [] {});
}

void ProviderSettingsPage::cancelProbe()
{
    if (m_probe)
        m_probe->cancel();
}

ModelReport ProviderSettingsPage::applySwitches(ModelReport report)
{
    using State = ModelReport::Switch::State;
    for (ModelReport::Switch &each : report.switches) {
        const bool on = each.value == QLatin1String("true");
        QCheckBox *box = each.key == QLatin1String("text_tool_calls")  ? m_textToolCalls
                         : each.key == QLatin1String("reasoning_back") ? m_reasoningBack
                                                                       : nullptr;
        if (box) {
            each.state = box->isChecked() == on ? State::AlreadySo : State::Set;
            box->setChecked(on);
        } else if (each.key == QLatin1String("context_windows")) {
            const int window = int(std::min<qint64>(each.value.toLongLong(), m_contextWindow->maximum()));
            each.state = m_contextWindow->value() == window ? State::AlreadySo : State::Set;
            m_contextWindow->setValue(window);
        }
    }
    return report;
}

QCoro::Task<> ProviderSettingsPage::runProbe()
{
    QPointer<ProviderSettingsPage> self(this);
    const QString providerId = currentProviderId();
    if (m_model->currentText().trimmed().isEmpty()) {
        m_probeStatus->setStyleSheet(errorStyle());
        m_probeStatus->setText(tr("Choose a model to test first."));
        m_model->setFocus();
        co_return;
    }
    m_probeButton->setEnabled(false);
    m_probing = true;
    m_probeCancel->setVisible(true);
    m_probeCancel->setEnabled(true);
    m_probeStatus->setStyleSheet(QString());
    m_probeStatus->setText(tr("Asking the server about the model…"));
    const ProviderConfig config = co_await configFromFields();
    if (!self)
        co_return;
    auto *probe = new ModelProbe(config, this);
    m_probe = probe;
    connect(probe, &ModelProbe::stepStarted, this, [this](int number, int count, const QString &title) {
        m_probeStatus->setText(tr("Step %1 of %2: %3…").arg(number).arg(count).arg(title));
    });
    ModelReport report = co_await probe->run();
    if (!self)
        co_return;
    probe->deleteLater();
    m_probe.clear();
    m_probeButton->setEnabled(true);
    m_probing = false;
    m_probeCancel->setVisible(false);
    if (report.answered()) {
        report = applySwitches(report);
        ModelReports::keep(*m_settings, providerId, report);
    }
    const QStringList set = report.switchesSet();
    m_probeStatus->setStyleSheet(report.answered() ? QString() : errorStyle());
    m_probeStatus->setText(!report.answered() ? tr("The model did not answer: %1").arg(report.verdict())
                           : set.isEmpty()
                               ? tr("Done: %1 tokens sent. Nothing above needed changing.").arg(report.tokensSent)
                               : tr("Done: %1 tokens sent. Set above (kept when you press OK): %2.")
                                     .arg(report.tokensSent)
                                     .arg(set.join(QStringLiteral(", "))));
    m_reportCard->setPlainText(report.card());
    m_reportCard->setVisible(true);
    showVerdict();
    Q_EMIT probeFinished(report);
}

} // namespace Sandpiper
