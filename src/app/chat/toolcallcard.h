#pragma once

#include "chat/markdowncontext.h"

#include <session/turnitem.h>

#include <QFrame>
#include <QTimer>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QShortcut;
class QToolButton;
class QVBoxLayout;
class QWidget;

namespace Sandpiper {

class CodeEditor;
class ToolPresenter;

// A tool call in the conversation: "Ran Python · 0.21 s · ok", expandable to its arguments and
// output, with what it produced below (figures, files, a chart, sources: see ToolPresenter).
// While the policy asks, it is the approval card: Run, Edit (where the tool allows it), Always
// allow (in this conversation; an MCP tool everywhere, until Settings take it back), Deny (with
// a reason).
class ToolCallCard : public QFrame
{
    Q_OBJECT

public:
    // MARKDOWN: what the Markdown its tool produced is drawn with (see MarkdownView).
    ToolCallCard(const TurnItem &item, const QString &conversationFolder, const MarkdownContext &markdown = {},
                 QWidget *parent = nullptr);

    // The call this card shows (see CallKey); its id is the server's, repeated across answers.
    const CallKey &callKey() const { return m_callKey; }
    const QString &callId() const { return m_callId; }
    // The conversation's folder on this machine, where the call's files are.
    const QString &conversationFolder() const { return m_folder; }
    const MarkdownContext &markdownContext() const { return m_markdown; }
    // Shows the call as ITEM has it now.
    void showItem(const TurnItem &item);
    void setExpanded(bool expanded);
    bool isExpanded() const;
    bool isAwaitingApproval() const { return m_state == TurnItem::ToolState::AwaitingApproval; }
    void setSelected(bool selected);
    // Adds WIDGET below the call, to what it produced (see ToolPresenter::addResultWidgets).
    void addResultWidget(QWidget *widget, Qt::Alignment alignment = {});
    // An export asked for with tableSaveRequested() ended (see DataTableView::showSaved).
    void showTableSaved(int tableIndex, const QString &fileName, const QString &error);
    // Run takes the focus unless the user is typing (see ChatPage: once the card is on the page).
    void takeFocusForApproval();
    // The widgets that take the focus, in reading order (what the call produced last).
    QList<QWidget *> focusChain() const;

Q_SIGNALS:
    void approved(const Sandpiper::CallKey &key);
    // ARGUMENTS: the tool's JSON arguments as the user edited them.
    void approvedEdited(const Sandpiper::CallKey &key, const QString &arguments);
    void alwaysAllowed(const Sandpiper::CallKey &key);
    void denied(const Sandpiper::CallKey &key, const QString &reason);
    void activated(const Sandpiper::CallKey &key);
    // Table TABLEINDEX of the result is to be written whole by the sandbox, as "csv" or "xlsx".
    void tableSaveRequested(const Sandpiper::CallKey &key, int tableIndex, const QString &format);
    // Figure NAME of the result is to go to the model with the next message.
    void imageShowRequested(const QString &name);

protected:
    void mousePressEvent(QMouseEvent *event) override;

private:
    void setHeader(const QString &text);
    void setOutput(const QString &text);
    void showApproval(bool visible);
    void showElapsed();
    void showLiveLine(const QString &output);
    void showProgress(const TurnItem &item);

    const ToolPresenter &m_presenter;
    CallKey m_callKey;
    QString m_callId;
    QString m_folder;
    MarkdownContext m_markdown;
    TurnItem::ToolState m_state = TurnItem::ToolState::Proposed;
    QToolButton *m_header;
    QWidget *m_details;
    CodeEditor *m_code;
    QPlainTextEdit *m_output;
    QLabel *m_liveLine;         // while it runs: the last line it printed (a progress bar), seen folded too
    QVBoxLayout *m_attachments; // what the call produced
    QWidget *m_approval;
    QPushButton *m_runButton;
    QPushButton *m_editButton;
    QLineEdit *m_denyReason;
    QProgressBar *m_progress; // while a tool that reports progress runs
    QShortcut *m_runShortcut = nullptr;
    QList<QWidget *> m_focusChain;
    QString m_shownOutput;
    bool m_editing = false;
    bool m_resultShown = false;
    QString m_title;
    qint64 m_startedMs = 0; // while it runs
    QTimer m_elapsed;       // ticks the running time in the header
};

} // namespace Sandpiper
