#pragma once

#include <sandbox/dockercli.h>

#include <QDialog>

#include <QCoroTask>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QToolButton;

namespace Sandpiper {

class ImageManager;
class McpServerRegistry;
class McpSettingsPage;
class Settings;

// Every setting a user is expected to change, in tabs: providers, sandbox, tools, MCP servers,
// appearance and the system prompt. OK writes them to Settings; Cancel forgets them. They take effect
// for new conversations; the theme applies at once.
class SettingsDialog : public QDialog
{
    Q_OBJECT

public:
    // With MCP, the MCP tab shows the servers' live state and can test and restart them.
    explicit SettingsDialog(Settings *settings, QWidget *parent = nullptr, McpServerRegistry *mcp = nullptr);
    ~SettingsDialog() override;

    QTabWidget *tabs() const { return m_tabs; }
    QComboBox *presetPicker() const { return m_preset; }
    QLineEdit *baseUrlField() const { return m_baseUrl; }
    QLineEdit *apiKeyField() const { return m_apiKey; }
    QComboBox *modelPicker() const { return m_model; }
    QPlainTextEdit *headersField() const { return m_headers; }
    QPushButton *testButton() const { return m_testButton; }
    QLabel *testResult() const { return m_testResult; }
    QLabel *baseUrlError() const { return m_baseUrlError; }
    QLabel *apiKeyNote() const { return m_apiKeyNote; }
    McpSettingsPage *mcpPage() const { return m_mcpPage; }

    void accept() override;
    void testConnection();

Q_SIGNALS:
    // A key was typed in for PROVIDERID; REMEMBERED is false when the keychain refused it and
    // it lives in memory for this session only.
    void apiKeyEntered(const QString &providerId, const QString &key, bool remembered);
    void connectionTested(bool ok);

private:
    QWidget *buildProvidersTab();
    QWidget *buildSandboxTab();
    QWidget *buildToolsTab();
    QWidget *buildAppearanceTab();
    QWidget *buildSystemPromptTab();
    void loadProvider(const QString &providerId);
    // The context window and image choice of the model in the field, as set for it.
    void loadModelChoices();
    void load();
    bool save();
    QCoro::Task<> runConnectionTest();
    QCoro::Task<> storeKeyAndClose(QString providerId, QString key);
    QCoro::Task<> buildImage();
    QCoro::Task<> checkEngine();
    // The contexts of the docker command, offered as engines.
    QCoro::Task<> listEngineContexts();
    // What the engine field holds, as the setting stores it; and as the engine it names.
    QString engineSetting() const;
    DockerCli::Engine engineInDialog() const;
    void selectEngine(const QString &setting);
    QCoro::Task<> removeContainers();
    QString currentProviderId() const;

    Settings *m_settings;
    ImageManager *m_images;
    QTabWidget *m_tabs;
    QLabel *m_note;

    QComboBox *m_preset;
    QLineEdit *m_baseUrl;
    QLabel *m_baseUrlError;
    QLineEdit *m_apiKey;
    QLabel *m_apiKeyNote;
    QComboBox *m_model;
    QPlainTextEdit *m_headers;
    // Local models as they are (issue 12): the model's context window, tool calls written as
    // text, reasoning sent back between tool rounds.
    QSpinBox *m_contextWindow;
    QComboBox *m_modelImages;
    QSpinBox *m_imageSide;
    QCheckBox *m_textToolCalls;
    QCheckBox *m_reasoningBack;
    QPushButton *m_testButton;
    QLabel *m_testResult;
    // The key already handed over for this provider, so a second OK does not store it again.
    QString m_keyHandled;

    QLineEdit *m_image;
    QPushButton *m_buildButton;
    QProgressBar *m_buildProgress;
    QToolButton *m_logToggle;
    QPlainTextEdit *m_buildLog;
    QLabel *m_buildResult;
    QLineEdit *m_memory;
    QDoubleSpinBox *m_cpus;
    QSpinBox *m_timeout;
    QCheckBox *m_network;
    QCheckBox *m_restoreVariables;
    QSpinBox *m_idleStop;
    QSpinBox *m_diskLimit;
    QSpinBox *m_maxFigures;
    QPushButton *m_removeButton;
    // Which engine, local or remote, its health and round trip (issue 18).
    QComboBox *m_engine;
    QLabel *m_engineError;
    QWidget *m_sandboxTab = nullptr;
    QLabel *m_engineStatus;
    QPushButton *m_engineButton;
    QLabel *m_removeResult;

    QList<std::pair<QString, QComboBox *>> m_approvals;
    QSpinBox *m_maxRounds;
    QComboBox *m_searchBackend;
    QLineEdit *m_searxngUrl;

    QComboBox *m_theme;
    QSpinBox *m_fontSize;
    QComboBox *m_language;
    QCheckBox *m_notifications;

    McpSettingsPage *m_mcpPage;

    QPlainTextEdit *m_systemPrompt;
    QPushButton *m_resetPrompt;
};

} // namespace Sandpiper
