#pragma once

#include <llm/chatmessage.h>
#include <sandbox/executionresult.h>
#include <tools/websource.h>

#include <QFrame>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QToolButton;
class QVBoxLayout;
class QWidget;

namespace Sandpiper {

class CodeEditor;

// A tool call in the conversation: "Ran Python · 0.21 s · ok", expandable to the code and its
// output, with the figures it drew and the files it wrote below. While the policy asks, it is
// the approval card: Run, Edit, Always allow in this conversation, Deny (with a reason).
class ToolCallCard : public QFrame
{
    Q_OBJECT

public:
    ToolCallCard(const ToolCall &call, const QString &conversationFolder, QWidget *parent = nullptr);

    QString callId() const { return m_call.id; }
    void setCode(const QString &code);
    void setAwaitingApproval(const QString &code);
    void setRunning(const QString &code);
    void appendOutput(const QString &stream, const QString &text);
    // The call ended: EXECUTION for code that ran, else TEXT is what the model was told.
    void setFinished(const QString &text, const std::optional<ExecutionResult> &execution);
    void setInterrupted();
    // search_web and fetch_url: the sources the model may cite, as links.
    void setSources(const QList<WebSource> &sources, const QString &note);
    // create_chart: the interactive chart, from the call's arguments.
    void showChart(const QString &arguments);
    void setExpanded(bool expanded);
    bool isExpanded() const;
    bool isAwaitingApproval() const;
    void setSelected(bool selected);

Q_SIGNALS:
    void approved(const QString &callId);
    void approvedEdited(const QString &callId, const QString &code);
    void alwaysAllowed(const QString &callId);
    void denied(const QString &callId, const QString &reason);
    void activated(const QString &callId);

protected:
    void mousePressEvent(QMouseEvent *event) override;

private:
    void setHeader(const QString &text);
    void showApproval(bool visible);
    void addFiles(const QStringList &files);
    QString toolLabel() const;

    ToolCall m_call;
    QString m_folder;
    QToolButton *m_header;
    QWidget *m_details;
    CodeEditor *m_code;
    QPlainTextEdit *m_output;
    QVBoxLayout *m_attachments; // figures and files
    QWidget *m_approval;
    QPushButton *m_runButton;
    QPushButton *m_editButton;
    QLineEdit *m_denyReason;
    bool m_editing = false;
    bool m_awaiting = false;
};

} // namespace Sandpiper
