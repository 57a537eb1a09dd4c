#pragma once

#include <mcp/mcpserverconfig.h>

#include <QDialog>

#include <QCoroTask>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QStackedWidget;

namespace Sandpiper {

// Adds or edits one MCP server: a program (command, arguments, environment, folder) or a remote
// server (URL, headers), its timeout, whether it is on. Secrets for ${keychain:NAME} can be put
// into the keychain from here, so they need not stand in mcp.json.
class McpServerDialog : public QDialog
{
    Q_OBJECT

public:
    // TAKEN: the names of the other servers, which this one may not use.
    McpServerDialog(const McpServerConfig &config, QStringList taken, QWidget *parent = nullptr);

    McpServerConfig config() const;
    void accept() override;

private:
    QCoro::Task<> storeSecret();

    QStringList m_taken;
    QLineEdit *m_name;
    QComboBox *m_kind;
    QStackedWidget *m_pages;
    QLineEdit *m_command;
    QPlainTextEdit *m_args;
    QPlainTextEdit *m_env;
    QLineEdit *m_cwd;
    QLineEdit *m_url;
    QPlainTextEdit *m_headers;
    QSpinBox *m_timeout;
    QCheckBox *m_enabled;
    QLabel *m_error;
    QLabel *m_secretResult;
};

} // namespace Sandpiper
