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
#include <QScreen>
#include <QScrollArea>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace Sandpiper {

SettingsDialog::SettingsDialog(Settings *settings, QWidget *parent, McpServerRegistry *mcp, ModelDownloads *downloads)
    : QDialog(parent)
    , m_tabs(new QTabWidget)
    , m_providers(new ProviderSettingsPage(settings))
    , m_models(new ModelSettingsPage(settings, downloads))
    , m_sandbox(new SandboxSettingsPage(settings))
    , m_tools(new ToolSettingsPage(settings))
    , m_mcpPage(new McpSettingsPage(settings, mcp))
    , m_appearance(new AppearanceSettingsPage(settings))
    , m_systemPrompt(new SystemPromptSettingsPage(settings))
{
    setWindowTitle(tr("Settings"));
    m_tabs->setAccessibleName(tr("Settings sections"));
    m_tabs->tabBar()->setAccessibleName(tr("Settings sections"));
    addPage(m_providers, tr("&Providers"));
    addPage(m_models, tr("Mode&ls"));
    addPage(m_sandbox, tr("&Sandbox"));
    addPage(m_tools, tr("&Tools"));
    addPage(m_mcpPage, tr("&MCP"));
    addPage(m_appearance, tr("&Appearance"));
    addPage(m_systemPrompt, tr("System p&rompt"));
    showWhenAsked(m_providers);
    showWhenAsked(m_sandbox);
    connect(m_providers, &ProviderSettingsPage::apiKeyEntered, this, &SettingsDialog::apiKeyEntered);
    connect(m_providers, &ProviderSettingsPage::connectionTested, this, &SettingsDialog::connectionTested);
    // A model chosen on this computer becomes the provider "This computer" with that model.
    connect(m_models, &ModelSettingsPage::modelChosen, this, [this](const QString &name) {
        m_providers->chooseLocalModel(name);
        showPage(m_providers);
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
    // Room for the Models tab's two lists, within a small screen (the pages scroll there).
    const QSize available = screen() ? screen()->availableSize() : QSize(1280, 800);
    resize(QSize(760, 700).boundedTo(available * 9 / 10));
}

SettingsDialog::~SettingsDialog() = default;

void SettingsDialog::addPage(QWidget *page, const QString &title)
{
    // A page taller than a small screen scrolls, so that OK and Cancel stay on it.
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(page);
    scroll->setAccessibleName(QString(title).remove(QLatin1Char('&')));
    m_tabs->addTab(scroll, title);
}

QWidget *SettingsDialog::currentPage() const
{
    auto *scroll = qobject_cast<QScrollArea *>(m_tabs->currentWidget());
    return scroll ? scroll->widget() : nullptr;
}

void SettingsDialog::showPage(QWidget *page)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto *scroll = qobject_cast<QScrollArea *>(m_tabs->widget(i)); scroll && scroll->widget() == page)
            m_tabs->setCurrentIndex(i);
    }
}

template<typename Page> void SettingsDialog::showWhenAsked(Page *page)
{
    connect(page, &Page::needsAttention, this, [this, page] { showPage(page); });
}

void SettingsDialog::testConnection()
{
    m_providers->testConnection();
}

bool SettingsDialog::save()
{
    // mcp.json first: it is a file of its own, which may refuse to be written.
    if (!m_mcpPage->save()) {
        showPage(m_mcpPage);
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
