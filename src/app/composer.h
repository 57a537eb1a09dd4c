#pragma once

#include <mcp/mcpserverstatus.h>

#include <QPlainTextEdit>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QCompleter;
class QStandardItemModel;
class QLabel;
class QPushButton;

namespace Sandpiper {

// The message box: Enter sends, Shift+Enter starts a new line; files are attached with the
// button or by dropping them; the model and the sandbox network switch sit beside it. A "/" at
// the start offers the MCP servers' prompts as templates.
class Composer : public QWidget
{
    Q_OBJECT

public:
    explicit Composer(QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_editor; }
    QComboBox *modelPicker() const { return m_models; }
    QCheckBox *networkToggle() const { return m_network; }
    void setBusy(bool busy);
    void setModels(const QStringList &models, const QString &current);
    void setAttachments(const QStringList &names);
    void setNetworkAllowed(bool allowed);
    // The prompt templates "/" offers.
    void setPrompts(const QList<McpPromptInfo> &prompts);
    QCompleter *promptCompleter() const { return m_completer; }
    // Puts TEXT in place of the "/..." that chose a prompt, for the user to read and send.
    void insertTemplate(const QString &text);

Q_SIGNALS:
    void sendRequested(const QString &text);
    void stopRequested();
    void filesDropped(const QStringList &paths);
    void attachRequested();
    void modelChosen(const QString &model);
    void networkToggled(bool allowed);
    // The user typed "/": the servers with prompts should start if they have not.
    void promptsWanted();
    void promptChosen(const Sandpiper::McpPromptInfo &prompt);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void send();
    void offerPrompts();

    QPlainTextEdit *m_editor;
    QPushButton *m_sendButton;
    QPushButton *m_stopButton;
    QPushButton *m_attachButton;
    QComboBox *m_models;
    QCheckBox *m_network;
    QLabel *m_attachments;
    QCompleter *m_completer;
    QStandardItemModel *m_promptModel;
    QList<McpPromptInfo> m_prompts;
    bool m_busy = false;
};

} // namespace Sandpiper
