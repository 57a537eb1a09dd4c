#pragma once

#include <llm/chatmessage.h>

#include <QFrame>

class QLabel;
class QPushButton;
class QToolButton;
class QVBoxLayout;

namespace Sandpiper {

class MarkdownView;

// One user or assistant message: its Markdown, the model's reasoning in a collapsed
// "Thinking" section, its state (streaming, cancelled, interrupted, error) and its actions.
//
// While an answer streams, finished paragraphs are rendered once and stay; only the open
// paragraph is rendered again as text arrives (see MarkdownView), so a long answer costs
// little to stream.
class MessageWidget : public QFrame
{
    Q_OBJECT

public:
    MessageWidget(const ChatMessage &message, const QString &conversationFolder, QWidget *parent = nullptr);

    const ChatMessage &message() const { return m_message; }
    // Shows MESSAGE as the conversation has it now: an answer that is still streaming grows by
    // what was added; anything else is rendered anew where it changed.
    void showMessage(const ChatMessage &message);
    void setMessage(const ChatMessage &message);
    // The streamed answer is complete as MESSAGE: what already shows stays as it is unless the
    // text differs from what streamed in.
    void finishStreaming(const ChatMessage &message);
    void appendText(const QString &text);
    void appendReasoning(const QString &text);
    // Renders what arrived since the last call (the chat view calls it once per frame).
    void flush();
    void setError(const QString &error);
    // LASTANSWER: this is the conversation's last answer and nothing runs, so it may be asked
    // again (Retry after an error, else Regenerate); EDIT: the message may be edited and resent.
    void setActionsVisible(bool lastAnswer, bool edit);
    // The widgets that take the focus, in reading order.
    QList<QWidget *> focusChain() const;
    QString plainText() const;

Q_SIGNALS:
    void editRequested(qint64 messageId, const QString &text);
    void regenerateRequested();
    void retryRequested();

private:
    void renderComplete();
    void updateState();

    ChatMessage m_message;
    QString m_folder;
    QLabel *m_roleLabel;
    QLabel *m_stateLabel;
    QToolButton *m_thinkingButton;
    QLabel *m_thinking;
    MarkdownView *m_view;
    bool m_dirty = false;
    QLabel *m_error;
    QPushButton *m_copyButton;
    QPushButton *m_editButton;
    QPushButton *m_regenerateButton;
    QPushButton *m_retryButton;
};

} // namespace Sandpiper
