#include "mcpsettingspage.h"

#include "mcpserverdialog.h"
#include "settingsform.h"

#include <mcp/mcpserverregistry.h>
#include <mcp/mcptoolname.h>
#include <mcp/mcptrust.h>
#include <settings/settings.h>

#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

const QString errorStyle = SettingsForm::errorStyle();

QPushButton *button(const QString &text, const QString &accessibleName)
{
    auto *made = new QPushButton(text);
    made->setAccessibleName(accessibleName);
    return made;
}

} // namespace

McpSettingsPage::McpSettingsPage(Settings *settings, McpServerRegistry *registry, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_registry(registry)
    , m_timeout(new QSpinBox)
    , m_fileNote(new QLabel)
    , m_importBanner(new QWidget)
    , m_importText(new QLabel)
    , m_importButton(button(tr("&Import them"), tr("Import the servers of another app")))
    , m_list(new QTreeWidget)
    , m_addButton(button(tr("&Add…"), tr("Add an MCP server")))
    , m_editButton(button(tr("&Edit…"), tr("Edit the MCP server")))
    , m_removeButton(button(tr("Re&move"), tr("Remove the MCP server")))
    , m_restartButton(button(tr("Re&start"), tr("Restart the MCP server")))
    , m_testButton(button(tr("&Test"), tr("Test the MCP server: connect and list its tools")))
    , m_details(new QLabel)
    , m_stderr(new QPlainTextEdit)
    , m_tools(new QTableWidget(0, 3))
{
    auto *trust = new QLabel(tr("MCP servers are programs that run on this computer with your own rights, or "
                                "services that act in your name: they can read and change whatever you can. Add only "
                                "servers you trust. Every tool asks before it runs unless you choose otherwise."));
    trust->setWordWrap(true);
    m_fileNote->setWordWrap(true);
    m_fileNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_importText->setWordWrap(true);
    auto *banner = new QHBoxLayout(m_importBanner);
    banner->setContentsMargins(0, 0, 0, 0);
    banner->addWidget(m_importText, 1);
    banner->addWidget(m_importButton);

    m_list->setHeaderLabels({tr("Server"), tr("State")});
    m_list->setRootIsDecorated(false);
    m_list->setAccessibleName(tr("MCP servers"));
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_list->setMinimumHeight(110);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stderr->setReadOnly(true);
    m_stderr->setAccessibleName(tr("The server's last lines on stderr"));
    m_stderr->setMaximumHeight(90);
    m_stderr->setTabChangesFocus(true);
    m_stderr->setVisible(false);
    m_tools->setHorizontalHeaderLabels({tr("Tool"), tr("Description"), tr("Approval")});
    m_tools->setAccessibleName(tr("Tools of the selected server"));
    m_tools->verticalHeader()->setVisible(false);
    m_tools->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_tools->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tools->setSelectionMode(QAbstractItemView::NoSelection);

    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : {m_addButton, m_editButton, m_removeButton, m_restartButton, m_testButton})
        buttons->addWidget(b);
    buttons->addStretch(1);
    auto *openFile = button(tr("Open mcp.&json"), tr("Open mcp.json in another program"));
    auto *openLogs = button(tr("&Logs"), tr("Open the folder of the servers' logs"));
    buttons->addWidget(openFile);
    buttons->addWidget(openLogs);
    m_timeout->setRange(1, 3600);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setAccessibleName(tr("Default timeout per MCP request in seconds"));
    m_timeout->setValue(m_settings->integer(QStringLiteral("mcp/timeout_seconds")));
    auto *timeoutRow = new QHBoxLayout;
    auto *timeoutLabel = new QLabel(tr("Default time&out per request:"));
    timeoutLabel->setBuddy(m_timeout);
    timeoutRow->addWidget(timeoutLabel);
    timeoutRow->addWidget(m_timeout);
    timeoutRow->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(trust);
    layout->addWidget(m_fileNote);
    layout->addWidget(m_importBanner);
    layout->addWidget(m_list);
    layout->addLayout(buttons);
    layout->addWidget(m_details);
    layout->addWidget(m_stderr);
    layout->addWidget(m_tools, 1);
    layout->addLayout(timeoutRow);

    connect(m_list, &QTreeWidget::currentItemChanged, this, &McpSettingsPage::showSelected);
    connect(m_list, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem *item) {
        const int row = m_list->indexOfTopLevelItem(item);
        if (row < 0 || row >= m_servers.size())
            return;
        const bool enabled = item->checkState(0) == Qt::Checked;
        if (m_servers[row].enabled != enabled) {
            m_servers[row].enabled = enabled;
            m_changed = true;
            showServers();
        }
    });
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, &McpSettingsPage::editServer);
    connect(m_addButton, &QPushButton::clicked, this, &McpSettingsPage::addServer);
    connect(m_editButton, &QPushButton::clicked, this, &McpSettingsPage::editServer);
    connect(m_removeButton, &QPushButton::clicked, this, &McpSettingsPage::removeServer);
    connect(m_restartButton, &QPushButton::clicked, this, [this] {
        if (const int row = selectedRow(); row >= 0 && m_registry)
            m_registry->restart(m_servers.at(row).name);
    });
    connect(m_testButton, &QPushButton::clicked, this, [this] {
        if (const int row = selectedRow(); row >= 0)
            QCoro::connect(runTest(m_servers.at(row)), this, [] {});
    });
    connect(m_importButton, &QPushButton::clicked, this, [this] {
        const QStringList candidates = McpConfigFile::importCandidates();
        if (!candidates.isEmpty())
            importServers(candidates.first());
    });
    connect(openFile, &QPushButton::clicked, this,
            [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_settings->mcpConfigFile())); });
    connect(openLogs, &QPushButton::clicked, this, [this] {
        QDir().mkpath(m_settings->mcpLogFolder());
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_settings->mcpLogFolder()));
    });
    if (m_registry)
        connect(m_registry, &McpServerRegistry::serversChanged, this, &McpSettingsPage::showServers,
                Qt::QueuedConnection);
    load();
}

void McpSettingsPage::load()
{
    const QString path = m_settings->mcpConfigFile();
    m_file = McpConfigFile::read(path);
    m_servers = m_file.servers();
    QStringList notes;
    for (const McpConfigFile::Problem &problem : m_file.problems())
        notes << problem.describe(QDir::toNativeSeparators(path));
    if (m_file.isBroken())
        notes << tr("Nothing is changed in it until it is corrected; the servers read before go on.");
    m_fileNote->setText(notes.join(QLatin1Char('\n')));
    m_fileNote->setStyleSheet(notes.isEmpty() ? QString() : errorStyle);
    m_fileNote->setVisible(!notes.isEmpty());
    for (QPushButton *b : {m_addButton, m_editButton, m_removeButton})
        b->setEnabled(!m_file.isBroken());
    // On first use, the servers people already keep for another app.
    const QStringList candidates = m_file.exists() ? QStringList() : McpConfigFile::importCandidates();
    if (!candidates.isEmpty()) {
        const int count = int(McpConfigFile::read(candidates.first()).servers().size());
        m_importText->setText(tr("%n MCP server(s) are set up in %1. Use them in Sandpiper too?", "", count)
                                  .arg(QDir::toNativeSeparators(candidates.first())));
    }
    m_importBanner->setVisible(!candidates.isEmpty());
    showServers();
}

McpServerStatus McpSettingsPage::liveStatus(const QString &name) const
{
    if (m_registry) {
        for (const McpServerStatus &status : m_registry->servers()) {
            if (status.config.name == name)
                return status;
        }
    }
    McpServerStatus none;
    none.state = McpServerStatus::State::Stopped;
    return none;
}

QString McpSettingsPage::stateText(const McpServerConfig &config) const
{
    const McpServerStatus live = liveStatus(config.name);
    if (!config.enabled)
        return tr("off");
    if (live.config != config)
        return tr("changed: applies with OK");
    switch (live.state) {
    case McpServerStatus::State::Stopped:
        return tr("not started (starts when first needed)");
    case McpServerStatus::State::Starting:
        return tr("starting…");
    case McpServerStatus::State::Running:
        return tr("running with %n tool(s)", "", int(live.tools.size()));
    case McpServerStatus::State::Failed:
        return tr("failed: %1").arg(live.error);
    }
    return {};
}

void McpSettingsPage::showServers()
{
    const int selected = std::max(0, selectedRow());
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (const McpServerConfig &config : std::as_const(m_servers)) {
        auto *item = new QTreeWidgetItem(m_list, {config.name, stateText(config)});
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(0, config.enabled ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(0, config.summary());
        item->setToolTip(1, item->text(1));
        if (liveStatus(config.name).state == McpServerStatus::State::Failed && config.enabled)
            item->setForeground(1, QColor(0xb3, 0x26, 0x1e));
    }
    if (m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(std::min(selected, m_list->topLevelItemCount() - 1)));
    showSelected();
}

int McpSettingsPage::selectedRow() const
{
    return m_list->currentItem() ? m_list->indexOfTopLevelItem(m_list->currentItem()) : -1;
}

void McpSettingsPage::showSelected()
{
    const int row = selectedRow();
    m_editButton->setEnabled(row >= 0 && !m_file.isBroken());
    m_removeButton->setEnabled(row >= 0 && !m_file.isBroken());
    m_testButton->setEnabled(row >= 0 && m_registry);
    if (row < 0) {
        m_details->setText(m_servers.isEmpty() ? tr("No MCP servers yet: add one, or write them into %1 as Claude "
                                                    "Desktop does.")
                                                     .arg(QDir::toNativeSeparators(m_settings->mcpConfigFile()))
                                               : QString());
        m_stderr->setVisible(false);
        showTools({}, {});
        return;
    }
    const McpServerConfig &config = m_servers.at(row);
    const McpServerStatus live = liveStatus(config.name);
    m_restartButton->setEnabled(m_registry && config.enabled && live.config == config);
    QStringList lines{config.summary().toHtmlEscaped()};
    if (live.state == McpServerStatus::State::Running)
        lines << tr("%1, MCP %2").arg(live.serverInfo.toHtmlEscaped(), live.protocolVersion);
    if (live.state == McpServerStatus::State::Failed)
        lines << QStringLiteral("<span style=\"%1\">%2</span>").arg(errorStyle, live.error.toHtmlEscaped());
    for (const QString &problem : live.problems)
        lines << tr("Note: %1").arg(problem.toHtmlEscaped());
    const McpServerStatus tested = m_tested.value(config.name);
    if (tested.state == McpServerStatus::State::Running)
        lines << tr("Test: connected, %n tool(s).", "", int(tested.tools.size()));
    else if (tested.state == McpServerStatus::State::Failed)
        lines << QStringLiteral("<span style=\"%1\">%2</span>")
                     .arg(errorStyle, tr("Test failed: %1").arg(tested.error).toHtmlEscaped());
    m_details->setText(lines.join(QStringLiteral("<br>")));
    const QStringList tail = tested.state == McpServerStatus::State::Failed ? tested.stderrTail : live.stderrTail;
    m_stderr->setPlainText(tail.join(QLatin1Char('\n')));
    m_stderr->setVisible(!tail.isEmpty() && (live.state == McpServerStatus::State::Failed ||
                                             tested.state == McpServerStatus::State::Failed));
    showTools(config, live.state == McpServerStatus::State::Running ? live.tools : tested.tools);
}

void McpSettingsPage::showTools(const McpServerConfig &config, const QList<McpToolInfo> &tools)
{
    m_tools->setRowCount(0);
    if (config.name.isEmpty())
        return;
    // The live tools, and those that have a policy while the server is not running.
    QList<std::pair<QString, QString>> rows; // exposed name, description
    for (const McpToolInfo &tool : tools)
        rows << std::pair{tool.exposedName, tool.description.simplified()};
    const QString prefix = McpToolName::serverPart(config.name) + QStringLiteral("__");
    for (const QString &name : m_settings->mcpToolsWithPolicy()) {
        if (name.startsWith(prefix) &&
            std::none_of(rows.begin(), rows.end(), [&name](const auto &row) { return row.first == name; }))
            rows << std::pair{name, tr("(not listed by the server now)")};
    }
    for (const auto &[name, description] : rows) {
        const int row = m_tools->rowCount();
        m_tools->insertRow(row);
        m_tools->setItem(row, 0, new QTableWidgetItem(McpToolName::toolOf(name)));
        m_tools->setItem(row, 1, new QTableWidgetItem(description));
        m_tools->item(row, 1)->setToolTip(description);
        auto *cell = new QWidget;
        auto *cellLayout = new QHBoxLayout(cell);
        cellLayout->setContentsMargins(2, 0, 2, 0);
        auto *combo = new QComboBox;
        combo->addItem(tr("Ask every time"), QStringLiteral("ask"));
        combo->addItem(tr("Run without asking"), QStringLiteral("auto"));
        combo->addItem(tr("Never"), QStringLiteral("never"));
        combo->setAccessibleName(tr("Approval for %1").arg(name));
        const ApprovalPolicy policy = m_policies.value(name, McpTrust::policy(*m_settings, name));
        combo->setCurrentIndex(combo->findData(approvalPolicyName(policy)));
        cellLayout->addWidget(combo);
        connect(combo, &QComboBox::currentIndexChanged, this, [this, name, combo] {
            m_policies.insert(name,
                              approvalPolicyFromName(combo->currentData().toString()).value_or(ApprovalPolicy::Ask));
        });
        const QDateTime since = McpTrust::allowedAlwaysSince(*m_settings, name);
        if (since.isValid() && !m_takenBack.contains(name) && !m_policies.contains(name)) {
            auto *takeBack = new QPushButton(tr("Take back"));
            takeBack->setToolTip(tr("Always allowed from a chat on %1")
                                     .arg(QLocale().toString(since.toLocalTime(), QLocale::ShortFormat)));
            takeBack->setAccessibleName(tr("Take back \"Always allow\" for %1").arg(name));
            cellLayout->addWidget(takeBack);
            connect(takeBack, &QPushButton::clicked, this, [this, name, combo, takeBack] {
                m_takenBack.insert(name);
                m_policies.insert(name, ApprovalPolicy::Ask);
                combo->setCurrentIndex(combo->findData(QStringLiteral("ask")));
                takeBack->setEnabled(false);
                takeBack->setText(tr("Taken back"));
            });
        }
        m_tools->setCellWidget(row, 2, cell);
    }
    m_tools->resizeColumnToContents(0);
    m_tools->resizeColumnToContents(2);
    m_tools->resizeRowsToContents();
}

void McpSettingsPage::addServer()
{
    McpServerConfig config;
    QStringList taken;
    for (const McpServerConfig &server : std::as_const(m_servers))
        taken << server.name;
    McpServerDialog dialog(config, taken, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_servers << dialog.config();
    m_changed = true;
    showServers();
    m_list->setCurrentItem(m_list->topLevelItem(m_list->topLevelItemCount() - 1));
}

void McpSettingsPage::editServer()
{
    const int row = selectedRow();
    if (row < 0 || m_file.isBroken())
        return;
    QStringList taken;
    for (int i = 0; i < m_servers.size(); ++i) {
        if (i != row)
            taken << m_servers.at(i).name;
    }
    McpServerDialog dialog(m_servers.at(row), taken, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_servers[row] = dialog.config();
    m_changed = true;
    showServers();
}

void McpSettingsPage::removeServer()
{
    const int row = selectedRow();
    if (row < 0 || m_file.isBroken())
        return;
    m_servers.removeAt(row);
    m_changed = true;
    showServers();
}

void McpSettingsPage::importServers(const QString &path)
{
    const McpConfigFile other = McpConfigFile::read(path);
    for (const McpServerConfig &server : other.servers()) {
        if (std::none_of(m_servers.begin(), m_servers.end(),
                         [&server](const McpServerConfig &known) { return known.name == server.name; }))
            m_servers << server;
    }
    m_changed = true;
    m_importBanner->setVisible(false);
    showServers();
}

QCoro::Task<> McpSettingsPage::runTest(McpServerConfig config)
{
    QPointer<McpSettingsPage> self(this);
    m_testButton->setEnabled(false);
    m_details->setText(tr("Testing %1…").arg(config.name));
    const McpServerStatus status = co_await m_registry->testServer(config);
    if (!self)
        co_return;
    m_tested.insert(config.name, status);
    m_testButton->setEnabled(true);
    showSelected();
}

bool McpSettingsPage::save()
{
    if (m_changed) {
        const QString error = m_file.write(m_settings->mcpConfigFile(), m_servers);
        if (!error.isEmpty()) {
            m_fileNote->setText(tr("mcp.json could not be written: %1").arg(error));
            m_fileNote->setStyleSheet(errorStyle);
            m_fileNote->setVisible(true);
            return false;
        }
        m_changed = false;
    }
    for (auto it = m_policies.begin(); it != m_policies.end(); ++it) {
        if (m_takenBack.contains(it.key()))
            McpTrust::takeBack(*m_settings, it.key());
        else if (it.value() != McpTrust::policy(*m_settings, it.key()))
            McpTrust::setPolicy(*m_settings, it.key(), it.value());
    }
    m_settings->setValue(QStringLiteral("mcp/timeout_seconds"), m_timeout->value());
    if (m_registry) {
        m_registry->setDefaultTimeout(std::chrono::seconds(m_timeout->value()));
        m_registry->reload();
    }
    return true;
}

} // namespace Sandpiper
