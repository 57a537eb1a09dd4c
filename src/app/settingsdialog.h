#pragma once

#include "settingspages/providersettingspage.h"

#include <QDialog>

#include <QCoroTask>

class QTabWidget;

namespace Sandpiper {

class AppearanceSettingsPage;
class McpServerRegistry;
class McpSettingsPage;
class ModelDownloads;
class ModelSettingsPage;
class SandboxSettingsPage;
class Settings;
class SystemPromptSettingsPage;
class ToolSettingsPage;

// Every setting a user is expected to change, in tabs: providers, the models on this computer,
// sandbox, tools, MCP servers, appearance and the system prompt, one page class each (settingspages/). OK has every
// page write to Settings, the typed key going to the keychain; Cancel forgets them. They take effect for new
// conversations; the theme applies at once.
class SettingsDialog : public QDialog
{
    Q_OBJECT

public:
    // With MCP, the MCP tab shows the servers' live state and can test and restart them; with
    // DOWNLOADS (the app's), the Models tab shows the download under way, which outlives the dialog.
    explicit SettingsDialog(Settings *settings, QWidget *parent = nullptr, McpServerRegistry *mcp = nullptr,
                            ModelDownloads *downloads = nullptr);
    ~SettingsDialog() override;

    QTabWidget *tabs() const { return m_tabs; }
    // Brings PAGE's tab to the front (each page is in a scroll area of its tab).
    void showPage(QWidget *page);
    QWidget *currentPage() const;
    // The fields of the Providers page.
    QComboBox *presetPicker() const { return m_providers->presetPicker(); }
    QLineEdit *baseUrlField() const { return m_providers->baseUrlField(); }
    QLineEdit *apiKeyField() const { return m_providers->apiKeyField(); }
    QComboBox *modelPicker() const { return m_providers->modelPicker(); }
    QPlainTextEdit *headersField() const { return m_providers->headersField(); }
    QPushButton *testButton() const { return m_providers->testButton(); }
    QLabel *testResult() const { return m_providers->testResult(); }
    QLabel *baseUrlError() const { return m_providers->baseUrlError(); }
    QLabel *apiKeyNote() const { return m_providers->apiKeyNote(); }
    McpSettingsPage *mcpPage() const { return m_mcpPage; }
    ModelSettingsPage *modelsPage() const { return m_models; }

    void accept() override;
    void testConnection();

Q_SIGNALS:
    // A key was typed in for PROVIDERID; REMEMBERED is false when the keychain refused it and
    // it lives in memory for this session only.
    void apiKeyEntered(const QString &providerId, const QString &key, bool remembered);
    void connectionTested(bool ok);

private:
    void addPage(QWidget *page, const QString &title);
    // Shows PAGE when it says something needs the user.
    template<typename Page> void showWhenAsked(Page *page);
    bool save();
    QCoro::Task<> storeKeyAndClose();

    QTabWidget *m_tabs;
    ProviderSettingsPage *m_providers;
    ModelSettingsPage *m_models;
    SandboxSettingsPage *m_sandbox;
    ToolSettingsPage *m_tools;
    McpSettingsPage *m_mcpPage;
    AppearanceSettingsPage *m_appearance;
    SystemPromptSettingsPage *m_systemPrompt;
};

} // namespace Sandpiper
