#pragma once

#include <mcp/mcpconfigfile.h>
#include <mcp/mcpserverstatus.h>
#include <tools/tool.h>

#include <QHash>
#include <QSet>
#include <QWidget>

#include <QCoroTask>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTreeWidget;

namespace Sandpiper {

class McpServerRegistry;
class Settings;

// The settings' MCP tab: the servers of mcp.json with their live state (starting, running with N
// tools, stopped, failed with the end of its stderr); add, edit, remove, enable, restart and Test;
// the selected server's tools with ask, auto or never each, and the "Always allow" chosen on
// approval cards, which can be taken back. Says that servers run with the user's own rights.
// Changes to servers and policies are written by save() (the dialog's OK); Restart and Test act
// at once.
class McpSettingsPage : public QWidget
{
    Q_OBJECT

public:
    McpSettingsPage(Settings *settings, McpServerRegistry *registry, QWidget *parent = nullptr);

    // Writes mcp.json and the tools' policies, then has the registry read the file again. False
    // (with the reason shown) when the file could not be written.
    bool save();

    QTreeWidget *serverList() const { return m_list; }
    QTableWidget *toolTable() const { return m_tools; }
    QLabel *fileNote() const { return m_fileNote; }
    QPushButton *testButton() const { return m_testButton; }
    QSpinBox *timeoutField() const { return m_timeout; }

private:
    void load();
    void showServers();
    void showSelected();
    void showTools(const McpServerConfig &config, const QList<McpToolInfo> &tools);
    int selectedRow() const;
    McpServerStatus liveStatus(const QString &name) const;
    QString stateText(const McpServerConfig &config) const;
    void addServer();
    void editServer();
    void removeServer();
    void importServers(const QString &path);
    QCoro::Task<> runTest(McpServerConfig config);

    Settings *m_settings;
    McpServerRegistry *m_registry;
    McpConfigFile m_file;
    QList<McpServerConfig> m_servers;          // as edited
    QHash<QString, ApprovalPolicy> m_policies; // SERVER__TOOL, as edited
    QSet<QString> m_takenBack;
    QHash<QString, McpServerStatus> m_tested; // by server name
    bool m_changed = false;

    QSpinBox *m_timeout;
    QLabel *m_fileNote;
    QWidget *m_importBanner;
    QLabel *m_importText;
    QPushButton *m_importButton;
    QTreeWidget *m_list;
    QPushButton *m_addButton;
    QPushButton *m_editButton;
    QPushButton *m_removeButton;
    QPushButton *m_restartButton;
    QPushButton *m_testButton;
    QLabel *m_details;
    QPlainTextEdit *m_stderr;
    QTableWidget *m_tools;
};

} // namespace Sandpiper
