#pragma once

#include "chat/markdowncontext.h"

#include <llm/callkey.h>

#include <QPointer>
#include <QWidget>

class QLabel;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTextBrowser;
class QVBoxLayout;

namespace Sandpiper {

class CodeEditor;
class ConversationSession;
class ExecutionModel;
class ExecutionResultView;
struct ExecutionResult;

// The side panel: every piece of code that ran in the conversation and what it printed,
// newest first, live while it runs (the session's execution model); "Edit and run" sends a
// changed version to the same sandbox, "Restart kernel" starts afresh. Before any code ran it
// says what will appear here; a run shows only the parts it has (output, errors, value, and
// what it produced: see ExecutionResultView).
class CodeInspector : public QWidget
{
    Q_OBJECT

public:
    explicit CodeInspector(QWidget *parent = nullptr);

    // Shows SESSION's executions; null shows none.
    void setSession(ConversationSession *session);
    // What the Markdown a run produced is drawn with, from the next run shown on (see MarkdownView).
    void setMarkdownContext(const MarkdownContext &markdown) { m_markdown = markdown; }
    ExecutionModel *model() const;
    void selectCall(const Sandpiper::CallKey &key);
    CallKey selectedCall() const;
    CodeEditor *codeEditor() const { return m_code; }
    QPlainTextEdit *standardOutput() const { return m_stdout; }
    QPlainTextEdit *standardError() const { return m_stderr; }
    QLabel *statusLabel() const { return m_status; }
    int figureCount() const;

Q_SIGNALS:
    void callActivated(const Sandpiper::CallKey &key);
    // "Show to the model" on figure NAME of the conversation's folder.
    void imageShowRequested(const QString &name);

private:
    void showRow(int row);
    // Selects ROW without telling the chat: only the user's choice of a run scrolls the chat to it.
    void selectQuietly(int row);
    void refreshSelected();
    // What the run produced (tables, figures, files, notices), as its card in the chat shows it.
    void showProduced(const ExecutionResult &result, const CallKey &key);
    // Shows the parts that have something to show, and the empty state when nothing ran.
    void showParts();

    QPointer<ConversationSession> m_session;
    MarkdownContext m_markdown;
    QWidget *m_emptyState; // what the panel says while no code has run
    QSplitter *m_splitter; // the executions above the selected one's parts
    QListView *m_list;
    QLabel *m_status;
    CodeEditor *m_code;
    QPlainTextEdit *m_stdout;
    QPlainTextEdit *m_stderr;
    QTextBrowser *m_value;
    QWidget *m_codePart; // each part with its caption
    QWidget *m_outputPart;
    QWidget *m_errorPart;
    QWidget *m_valuePart;
    QVBoxLayout *m_producedArea;
    ExecutionResultView *m_produced = nullptr; // of the selected execution, once it finished
    QPushButton *m_editButton;
    QPushButton *m_restartButton;
    int m_row = -1;
    bool m_editing = false;
    bool m_selectingQuietly = false;
};

} // namespace Sandpiper
