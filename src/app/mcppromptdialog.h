#pragma once

#include <mcp/mcpserverstatus.h>

#include <QDialog>
#include <QJsonObject>

class QLineEdit;
class QPushButton;

namespace Sandpiper {

// Asks for the arguments of an MCP prompt before it is fetched: one field per argument, the
// required ones marked; OK waits until they are filled.
class McpPromptDialog : public QDialog
{
    Q_OBJECT

public:
    explicit McpPromptDialog(const McpPromptInfo &prompt, QWidget *parent = nullptr);

    QJsonObject arguments() const;

private:
    void check();

    McpPromptInfo m_prompt;
    QList<QLineEdit *> m_fields;
    QPushButton *m_ok;
};

} // namespace Sandpiper
