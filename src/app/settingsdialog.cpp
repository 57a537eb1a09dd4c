#include "settingsdialog.h"

#include "settingspages/appearancesettingspage.h"
#include "settingspages/mcpsettingspage.h"
#include "settingspages/modelsettingspage.h"
#include "settingspages/sandboxsettingspage.h"
#include "settingspages/systempromptsettingspage.h"
#include "settingspages/toolsettingspage.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPointer>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace Sandpiper {

SettingsDialog::SettingsDialog(Settings *settings, QWidget *parent, McpServerRegistry *mcp)
    : QDialog(parent)
    , m_tabs(new QTabWidget)
    , m_providers(new ProviderSettingsPage(settings))
    , m_models(new ModelSettingsPage(settings))
    , m_sandbox(new SandboxSettingsPage(settings))
    , m_tools(new ToolSettingsPage(settings))
    , m_mcpPage(new McpSettingsPage(settings, mcp))
    , m_appearance(new AppearanceSettingsPage(settings))
    , m_systemPrompt(new SystemPromptSettingsPage(settings))
{
    setWindowTitle(tr("Settings"));
    m_tabs->setAccessibleName(tr("Settings sections"));
    m_tabs->tabBar()->setAccessibleName(tr("Settings sections"));
    m_tabs->addTab(m_providers, tr("&Providers"));
    m_tabs->addTab(m_models, tr("Mode&ls"));
    m_tabs->addTab(m_sandbox, tr("&Sandbox"));
    m_tabs->addTab(m_tools, tr("&Tools"));
    m_tabs->addTab(m_mcpPage, tr("&MCP"));
    m_tabs->addTab(m_appearance, tr("&Appearance"));
    m_tabs->addTab(m_systemPrompt, tr("System p&rompt"));
    showWhenAsked(m_providers);
    showWhenAsked(m_sandbox);
    connect(m_providers, &ProviderSettingsPage::apiKeyEntered, this, &SettingsDialog::apiKeyEntered);
    connect(m_providers, &ProviderSettingsPage::connectionTested, this, &SettingsDialog::connectionTested);
    // A model chosen on this computer becomes the provider "This computer" with that model.
    connect(m_models, &ModelSettingsPage::modelChosen, this, [this](const QString &name) {
        m_providers->chooseLocalModel(name);
        m_tabs->setCurrentWidget(m_providers);
    });

    auto *note = new QLabel(tr("Changes apply to new conversations; the theme changes at once."));
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(note);
    layout->addWidget(buttons);
    resize(680, 560);
}

SettingsDialog::~SettingsDialog() = default;

template<typename Page> void SettingsDialog::showWhenAsked(Page *page)
{
    connect(page, &Page::needsAttention, this, [this, page] { m_tabs->setCurrentWidget(page); });
}

void SettingsDialog::testConnection()
{
    m_providers->testConnection();
}

bool SettingsDialog::save()
{
    // mcp.json first: it is a file of its own, which may refuse to be written.
    if (!m_mcpPage->save()) {
        m_tabs->setCurrentWidget(m_mcpPage);
        return false;
    }
    // Nothing goes to the settings while a field is wrong.
    if (!m_providers->check() || !m_sandbox->check())
        return false;
    m_providers->save();
    m_models->save();
    m_sandbox->save();
    m_tools->save();
    m_systemPrompt->save();
    // Last: it applies the theme of the settings at once.
    m_appearance->save();
    return true;
}

void SettingsDialog::accept()
{
    if (!save())
        return;
    if (!m_providers->hasNewKey()) {
        QDialog::accept();
        return;
    }
    QCoro::connect(storeKeyAndClose(), this, [] {});
}

QCoro::Task<> SettingsDialog::storeKeyAndClose()
{
    QPointer<SettingsDialog> self(this);
    setEnabled(false);
    const bool stored = co_await m_providers->storeKey();
    if (!self)
        co_return;
    setEnabled(true);
    if (stored)
        QDialog::accept();
}

} // namespace Sandpiper
