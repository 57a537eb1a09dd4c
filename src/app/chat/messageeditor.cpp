#include "chat/messageeditor.h"

#include "flowlayout.h"

#include <QAbstractTextDocumentLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

constexpr int fewestLines = 3;
constexpr int mostLines = 12;

} // namespace

MessageEditor::MessageEditor(const QString &text, QWidget *parent)
    : QWidget(parent)
    , m_text(new QPlainTextEdit)
    , m_note(new QLabel)
    , m_send(new QPushButton(tr("Send")))
    , m_cancel(new QPushButton(tr("Cancel")))
{
    setObjectName(QStringLiteral("messageEditor"));
    m_text->setPlainText(text);
    m_text->setAccessibleName(tr("Edited message"));
    m_text->setAccessibleDescription(
        tr("Enter sends it as a new version, Esc keeps the message as it is; Shift+Enter starts a new line."));
    m_text->setPlaceholderText(tr("The message to send instead"));
    // Tab goes on to the buttons, as in a form: a message has no use for a tab character.
    m_text->setTabChangesFocus(true);
    m_text->installEventFilter(this);
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setVisible(false);
    m_send->setAccessibleName(tr("Send the edited message"));
    m_send->setDefault(true);
    m_send->setToolTip(
        tr("Send it as a new version (Enter); this version and what followed it are kept, a click away"));
    m_cancel->setAccessibleName(tr("Cancel editing"));
    m_cancel->setToolTip(tr("Keep the message as it is (Esc)"));

    auto *buttons = new FlowLayout;
    buttons->addWidget(m_send);
    buttons->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setSpacing(4);
    layout->addWidget(m_text);
    layout->addWidget(m_note);
    layout->addLayout(buttons);

    connect(m_send, &QPushButton::clicked, this, [this] {
        if (!m_text->toPlainText().trimmed().isEmpty() && !m_answerRunning)
            Q_EMIT sendRequested(m_text->toPlainText());
    });
    connect(m_cancel, &QPushButton::clicked, this, &MessageEditor::cancelled);
    connect(m_text, &QPlainTextEdit::textChanged, this, &MessageEditor::updateSend);
    connect(m_text->document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &MessageEditor::fitHeight);
    fitHeight();
    updateSend();
}

QString MessageEditor::text() const
{
    return m_text->toPlainText();
}

void MessageEditor::setAnswerRunning(bool running)
{
    m_answerRunning = running;
    updateSend();
}

void MessageEditor::showError(const QString &error)
{
    m_error = error;
    updateSend();
}

void MessageEditor::updateSend()
{
    const bool empty = m_text->toPlainText().trimmed().isEmpty();
    m_send->setEnabled(!empty && !m_answerRunning);
    // What keeps Send from sending is said beside it, not only in a tooltip of a greyed button.
    QString why = m_error;
    if (m_answerRunning)
        why = tr("An answer is being written: stop it or let it finish, then send the edited message.");
    else if (empty)
        why = tr("Write something to send, or cancel to keep the message as it is.");
    m_note->setText(why);
    m_note->setVisible(!why.isEmpty());
    m_note->setForegroundRole(m_error.isEmpty() || m_answerRunning ? QPalette::PlaceholderText : QPalette::Text);
    m_send->setAccessibleDescription(why);
}

void MessageEditor::focusText()
{
    m_text->moveCursor(QTextCursor::End);
    m_text->setFocus(Qt::OtherFocusReason);
}

QList<QWidget *> MessageEditor::focusChain() const
{
    return {m_text, m_send, m_cancel};
}

void MessageEditor::fitHeight()
{
    // The text's own lines (wrapped ones counted), between a few and a dozen; more scroll.
    const int lines =
        std::clamp(int(m_text->document()->documentLayout()->documentSize().height()), fewestLines, mostLines);
    const QMargins margins = m_text->contentsMargins();
    const int height = lines * m_text->fontMetrics().lineSpacing() + 2 * int(m_text->document()->documentMargin()) +
                       margins.top() + margins.bottom();
    m_text->setFixedHeight(height);
}

bool MessageEditor::isSendKey(const QKeyEvent *event)
{
    // As in the message box: Enter sends, Shift+Enter starts a new line (Ctrl+Enter sends too).
    return (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
           !(event->modifiers() & Qt::ShiftModifier);
}

bool MessageEditor::isCancelKey(const QKeyEvent *event)
{
    return event->key() == Qt::Key_Escape && event->modifiers() == Qt::NoModifier;
}

bool MessageEditor::event(QEvent *event)
{
    // Esc and Enter belong to the edit while the focus is in it, not to the window's
    // shortcuts (Esc also stops an answer).
    if (event->type() == QEvent::ShortcutOverride) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (isSendKey(key) || isCancelKey(key)) {
            event->accept();
            return true;
        }
    }
    return QWidget::event(event);
}

bool MessageEditor::eventFilter(QObject *watched, QEvent *event)
{
    // The text box would start a new line on Enter: it sends instead.
    if (watched == m_text && event->type() == QEvent::KeyPress && isSendKey(static_cast<QKeyEvent *>(event))) {
        m_send->click();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void MessageEditor::keyPressEvent(QKeyEvent *event)
{
    if (isSendKey(event))
        m_send->click();
    else if (isCancelKey(event))
        m_cancel->click();
    else
        QWidget::keyPressEvent(event);
}

} // namespace Sandpiper
