#pragma once

#include "chat/markdowncontext.h"

#include <llm/chatmessage.h>

#include <QFrame>

class QLabel;
class QPushButton;
class QToolButton;
class QVBoxLayout;

namespace Sandpiper {

class MarkdownView;
class MessageEditor;

// One user or assistant message: its Markdown, the model's reasoning in a collapsed
// "Thinking" section, its state (streaming, cancelled, interrupted, error) and its actions.
// Edit turns a message of the user's into a MessageEditor in its place, its images and files
// kept below it; Send asks for the edited text as a new version.
//
// While an answer streams, finished paragraphs are rendered once and stay; only the open
// paragraph is rendered again as text arrives (see MarkdownView), so a long answer costs
// little to stream.
class MessageWidget : public QFrame
{
    Q_OBJECT

public:
    // MARKDOWN: what its text is drawn with (see MarkdownView).
    MessageWidget(const ChatMessage &message, const QString &conversationFolder, const MarkdownContext &markdown = {},
                  QWidget *parent = nullptr);

    const ChatMessage &message() const { return m_message; }
    // Shows MESSAGE as the conversation has it now. While it streams, its text comes through
    // appendStreamed, not from here: only its error and its end are taken from MESSAGE. Anything
    // else is rendered anew where it changed.
    void showMessage(const ChatMessage &message);
    // TEXT and REASONING came to the answer that is streaming: both are appended and rendered.
    void appendStreamed(const QString &text, const QString &reasoning);
    void setMessage(const ChatMessage &message);
    // The streamed answer is complete as MESSAGE: what already shows stays as it is unless the
    // text differs from what streamed in.
    void finishStreaming(const ChatMessage &message);
    void appendText(const QString &text);
    void appendReasoning(const QString &text);
    // Renders what was appended since the last call.
    void flush();
    void setError(const QString &error);
    // LASTANSWER: this is the conversation's last answer and nothing runs, so it may be asked
    // again (Retry after an error, else Regenerate); EDIT: the message may be edited and resent.
    void setActionsVisible(bool lastAnswer, bool edit);
    // While an answer runs, "< 2 / 3 >" does not switch to another version and an edit waits to
    // be sent.
    void setAnswerRunning(bool running);
    // The button of the switcher that goes STEP versions on (-1: previous, 1: next).
    QToolButton *versionButton(int step) const { return step < 0 ? m_previousVersion : m_nextVersion; }
    QLabel *versionLabel() const { return m_versionLabel; }
    QPushButton *deleteVersionButton() const { return m_deleteVersion; }
    QPushButton *editButton() const { return m_editButton; }
    // The editor that Edit put in place of the text; null while the message is not edited.
    MessageEditor *editor() const { return m_editor; }
    // Sending the edit did not work: ERROR shows in the editor, which stays open.
    void showEditError(const QString &error);
    // The widgets that take the focus, in reading order.
    QList<QWidget *> focusChain() const;
    QString plainText() const;

Q_SIGNALS:
    // Edit put the editor in place, with the focus in it.
    void editingStarted();
    // Send in the editor: TEXT goes as a new version of the message MESSAGEID.
    void editRequested(qint64 messageId, const QString &text);
    void regenerateRequested();
    void retryRequested();
    // "< 2 / 3 >": show the version STEP places after this one (-1: the one before).
    void versionRequested(qint64 messageId, int step);
    // The user confirmed "Delete this version": MESSAGEID goes with everything below it.
    void deleteVersionRequested(qint64 messageId);

private:
    void renderComplete();
    void updateState();
    void updateVersions();
    // What showMessage() shows but the versions.
    void showContent(const ChatMessage &message);
    void startEditing();
    void stopEditing();

    ChatMessage m_message;
    QString m_folder;
    QLabel *m_roleLabel;
    QLabel *m_stateLabel;
    QToolButton *m_thinkingButton;
    QLabel *m_thinking;
    MarkdownView *m_view;
    QString m_unshownText; // appended since the last flush
    bool m_reasoningChanged = false;
    QLabel *m_error;
    QPushButton *m_copyButton;
    QPushButton *m_editButton;
    QPushButton *m_regenerateButton;
    QPushButton *m_retryButton;
    QToolButton *m_previousVersion;
    QLabel *m_versionLabel;
    QToolButton *m_nextVersion;
    QPushButton *m_deleteVersion;
    MessageEditor *m_editor = nullptr;
    bool m_answerRunning = false;
    bool m_versionFocusParked = false; // the switcher had the focus when it was disabled
    bool m_editable = false;
};

} // namespace Sandpiper
