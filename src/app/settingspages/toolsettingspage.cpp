#include "toolsettingspage.h"

#include "settingsform.h"

#include <settings/settings.h>
#include <tools/charttool.h>
#include <tools/fetchtool.h>
#include <tools/pythontool.h>
#include <tools/searchtool.h>

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

namespace Sandpiper {

using SettingsForm::selectData;

ToolSettingsPage::ToolSettingsPage(Settings *settings, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_maxRounds(new QSpinBox)
    , m_resultChars(new QSpinBox)
    , m_searchBackend(new QComboBox)
    , m_searxngUrl(new QLineEdit)
{
    QFormLayout *form = SettingsForm::formOn(this);
    const QList<std::pair<QString, QString>> tools = {
        {PythonTool::toolName(), tr("Run &Python:")},
        {SearchTool::toolName(), tr("Search the &web:")},
        {FetchTool::toolName(), tr("&Fetch pages:")},
        {ChartTool::toolName(), tr("Draw &charts:")},
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
    m_maxRounds->setRange(1, 200);
    m_maxRounds->setAccessibleName(tr("Maximum tool rounds per answer"));
    form->addRow(tr("Maximum tool &rounds:"), m_maxRounds);
    // 0 is "automatic"; a budget below the smallest one is raised to it when it is used.
    m_resultChars->setRange(0, 1000000);
    m_resultChars->setSingleStep(1000);
    m_resultChars->setSpecialValueText(tr("Automatic (from the model's context window)"));
    m_resultChars->setSuffix(tr(" characters"));
    m_resultChars->setAccessibleName(tr("Longest tool result for the model"));
    m_resultChars->setToolTip(tr("Everything a tool's result tells the model (output, displays, file names, "
                                 "errors) shares this many characters; what is left out is counted."));
    form->addRow(tr("Longest tool r&esult:"), m_resultChars);
    m_searchBackend->addItem(QStringLiteral("DuckDuckGo"), QStringLiteral("duckduckgo"));
    m_searchBackend->addItem(QStringLiteral("SearXNG"), QStringLiteral("searxng"));
    m_searchBackend->addItem(QStringLiteral("Brave"), QStringLiteral("brave"));
    m_searchBackend->addItem(QStringLiteral("Tavily"), QStringLiteral("tavily"));
    m_searchBackend->setAccessibleName(tr("Web search backend"));
    form->addRow(tr("Search &backend:"), m_searchBackend);
    m_searxngUrl->setAccessibleName(tr("SearXNG URL"));
    form->addRow(tr("Sear&XNG URL:"), m_searxngUrl);
    connect(m_searchBackend, &QComboBox::currentIndexChanged, this, &ToolSettingsPage::enableSearxngUrl);
    load();
}

void ToolSettingsPage::load()
{
    for (const auto &[tool, combo] : std::as_const(m_approvals))
        selectData(combo, m_settings->string(QStringLiteral("approval/") + tool));
    m_maxRounds->setValue(m_settings->integer(QStringLiteral("agent/max_tool_rounds")));
    m_resultChars->setValue(m_settings->integer(QStringLiteral("agent/result_chars")));
    selectData(m_searchBackend, m_settings->string(QStringLiteral("search/backend")));
    m_searxngUrl->setText(m_settings->string(QStringLiteral("search/searxng_url")));
    enableSearxngUrl();
}

void ToolSettingsPage::enableSearxngUrl()
{
    m_searxngUrl->setEnabled(m_searchBackend->currentData().toString() == QLatin1String("searxng"));
}

void ToolSettingsPage::save()
{
    for (const auto &[tool, combo] : std::as_const(m_approvals))
        m_settings->setValue(QStringLiteral("approval/") + tool, combo->currentData());
    m_settings->setValue(QStringLiteral("agent/max_tool_rounds"), m_maxRounds->value());
    m_settings->setValue(QStringLiteral("agent/result_chars"), m_resultChars->value());
    m_settings->setValue(QStringLiteral("search/backend"), m_searchBackend->currentData());
    m_settings->setValue(QStringLiteral("search/searxng_url"), m_searxngUrl->text().trimmed());
}

} // namespace Sandpiper
