#pragma once

#include <QWidget>

class QKeyEvent;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace Sandpiper {

// A message of the user's, edited where it stands in the chat: its text in a box as wide as the
// message, and "Send" (Ctrl+Enter) and "Cancel" (Esc) below it. Enter starts a new line and Tab
// goes on to the buttons, as in any form. The box grows with the text up to a dozen lines.
class MessageEditor : public QWidget
{
    Q_OBJECT

public:
    explicit MessageEditor(const QString &text, QWidget *parent = nullptr);

    QPlainTextEdit *textEdit() const { return m_text; }
    QPushButton *sendButton() const { return m_send; }
    QPushButton *cancelButton() const { return m_cancel; }
    QString text() const;
    // While an answer runs, Send waits and says why; it sends again once the answer is done.
    void setAnswerRunning(bool running);
    // Sending did not work: ERROR says why, under the text, which stays for another try.
    void showError(const QString &error);
    // Puts the focus into the text, after its end.
    void focusText();
    // The widgets that take the focus, in reading order.
    QList<QWidget *> focusChain() const;

Q_SIGNALS:
    void sendRequested(const QString &text);
    void cancelled();

protected:
    bool event(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void fitHeight();
    void updateSend();
    // The key that sends (Ctrl+Enter) or cancels (Esc) the edit.
    static bool isSendKey(const QKeyEvent *event);
    static bool isCancelKey(const QKeyEvent *event);

    QPlainTextEdit *m_text;
    QLabel *m_note;
    QPushButton *m_send;
    QPushButton *m_cancel;
    bool m_answerRunning = false;
    QString m_error;
};

} // namespace Sandpiper
