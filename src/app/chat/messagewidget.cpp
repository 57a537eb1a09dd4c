#include "chat/messagewidget.h"

#include "attachmentchip.h"
#include "chat/figureview.h"
#include "chat/markdownview.h"
#include "chat/messageeditor.h"
#include "flowlayout.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

QPushButton *smallButton(const QString &text, const QString &accessibleName)
{
    auto *button = new QPushButton(text);
    button->setFlat(true);
    button->setAccessibleName(accessibleName);
    button->setCursor(Qt::PointingHandCursor);
    // Flat, it hugs its text: the style's least width of a button would leave gaps in the header.
    button->setMaximumWidth(button->fontMetrics().horizontalAdvance(text) +
                            4 * button->fontMetrics().averageCharWidth());
    return button;
}

QToolButton *switchButton(const QString &text, const QString &accessibleName)
{
    auto *button = new QToolButton;
    button->setText(text);
    button->setAccessibleName(accessibleName);
    button->setToolTip(accessibleName);
    button->setAutoRaise(true);
    button->setFocusPolicy(Qt::StrongFocus);
    button->setCursor(Qt::PointingHandCursor);
    return button;
}

} // namespace

MessageWidget::MessageWidget(const ChatMessage &message, const QString &conversationFolder,
                             const MarkdownContext &markdown, QWidget *parent)
    : QFrame(parent)
    , m_message(message)
    , m_folder(conversationFolder)
    , m_roleLabel(new QLabel)
    , m_stateLabel(new QLabel)
    , m_thinkingButton(new QToolButton)
    , m_thinking(new QLabel)
    , m_view(new MarkdownView(markdown))
    , m_error(new QLabel)
    , m_copyButton(smallButton(tr("Copy"), tr("Copy message")))
    , m_editButton(smallButton(tr("Edit"), tr("Edit and resend")))
    , m_regenerateButton(smallButton(tr("Regenerate"), tr("Regenerate answer")))
    , m_retryButton(smallButton(tr("Retry"), tr("Retry after the error")))
    , m_previousVersion(switchButton(tr("‹"), tr("Previous version")))
    , m_versionLabel(new QLabel)
    , m_nextVersion(switchButton(tr("›"), tr("Next version")))
    , m_deleteVersion(smallButton(tr("Delete version"), tr("Delete this version")))
{
    const bool isUser = message.role == ChatMessage::Role::User;
    setObjectName(isUser ? QStringLiteral("userMessage") : QStringLiteral("assistantMessage"));
    setFrameShape(QFrame::NoFrame);
    // Growing at the bottom while an answer streams repaints only what is new.
    setAttribute(Qt::WA_StaticContents);
    setAutoFillBackground(isUser);
    if (isUser)
        setBackgroundRole(QPalette::AlternateBase);

    m_roleLabel->setText(isUser ? tr("You") : tr("Assistant"));
    QFont bold = m_roleLabel->font();
    bold.setBold(true);
    m_roleLabel->setFont(bold);
    m_stateLabel->setForegroundRole(QPalette::PlaceholderText);

    m_thinkingButton->setText(tr("Thinking"));
    m_thinkingButton->setAccessibleName(tr("Show the model's reasoning"));
    m_thinkingButton->setCheckable(true);
    m_thinkingButton->setArrowType(Qt::RightArrow);
    m_thinkingButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_thinkingButton->setAutoRaise(true);
    m_thinking->setTextFormat(Qt::PlainText);
    m_thinking->setWordWrap(true);
    m_thinking->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_thinking->setForegroundRole(QPalette::PlaceholderText);
    m_thinking->setVisible(false);
    connect(m_thinkingButton, &QToolButton::toggled, this, [this](bool open) {
        m_thinking->setVisible(open);
        m_thinkingButton->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });

    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->setVisible(false);

    m_copyButton->setToolTip(tr("Copy this message's text"));
    m_editButton->setToolTip(tr("Change this message and ask again; this version and what followed it are kept"));
    m_regenerateButton->setToolTip(tr("Ask the model for another answer to the same question"));
    m_retryButton->setToolTip(tr("Send the question again after the error"));
    // The buttons wrap under the name in a narrow window rather than widening it.
    auto *header = new FlowLayout;
    header->addWidget(m_roleLabel);
    header->addWidget(m_previousVersion);
    header->addWidget(m_versionLabel);
    header->addWidget(m_nextVersion);
    header->addWidget(m_stateLabel);
    header->addWidget(m_copyButton);
    header->addWidget(m_editButton);
    header->addWidget(m_regenerateButton);
    header->addWidget(m_retryButton);
    header->addWidget(m_deleteVersion);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(m_thinkingButton, 0, Qt::AlignLeft);
    layout->addWidget(m_thinking);
    m_view->setConversationFolder(m_folder);
    // The user's words as typed: lines stay lines, and code typed without fences is not read as
    // Markdown or math ("$E = mc^2$" inside a print() is code). Answers are Markdown.
    m_view->setTextIsMarkdown(!isUser);
    m_view->setAccessibleName(isUser ? tr("Your message") : tr("Answer"));
    // Tab goes on to the next message's actions instead of from link to link inside this one.
    m_view->setTabChangesFocus(true);
    layout->addWidget(m_view);
    if (!message.images.isEmpty()) {
        // The images that went with the message, small; a click opens one at full size.
        auto *images = new QHBoxLayout;
        for (const QString &image : message.images)
            images->addWidget(new FigureView(m_folder, image, 160), 0, Qt::AlignLeft | Qt::AlignTop);
        images->addStretch(1);
        layout->addLayout(images);
    }
    if (!message.attachments.isEmpty()) {
        // The files that went with it, as they were in the message box; what the model was told
        // about them is not the user's words and is not shown here.
        auto *files = new QWidget;
        files->setAccessibleName(tr("Attached files"));
        auto *chips = new FlowLayout(files);
        for (const AttachedFile &file : message.attachments)
            chips->addWidget(new AttachmentChip(file.name, file.size, false));
        layout->addWidget(files);
    }
    layout->addWidget(m_error);

    connect(m_copyButton, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_message.content); });
    connect(m_editButton, &QPushButton::clicked, this, &MessageWidget::startEditing);
    connect(m_regenerateButton, &QPushButton::clicked, this, &MessageWidget::regenerateRequested);
    connect(m_previousVersion, &QToolButton::clicked, this, [this] { Q_EMIT versionRequested(m_message.id, -1); });
    connect(m_nextVersion, &QToolButton::clicked, this, [this] { Q_EMIT versionRequested(m_message.id, 1); });
    m_deleteVersion->setToolTip(tr("Delete this version and everything that followed it; the other versions stay"));
    connect(m_deleteVersion, &QPushButton::clicked, this, [this] {
        QMessageBox ask(QMessageBox::Question, tr("Delete this version"),
                        tr("Delete this version and everything that followed it? The other versions stay."),
                        QMessageBox::Yes | QMessageBox::No, this);
        ask.setDefaultButton(QMessageBox::No);
        if (ask.exec() == QMessageBox::Yes)
            Q_EMIT deleteVersionRequested(m_message.id);
    });
    connect(m_retryButton, &QPushButton::clicked, this, &MessageWidget::retryRequested);

    m_regenerateButton->setVisible(false);
    m_retryButton->setVisible(false);
    m_editable = isUser;
    m_editButton->setVisible(isUser);
    renderComplete();
    updateState();
    updateVersions();
}

void MessageWidget::setAnswerRunning(bool running)
{
    m_answerRunning = running;
    if (m_editor)
        m_editor->setAnswerRunning(running);
    updateVersions();
}

void MessageWidget::startEditing()
{
    if (m_editor)
        return;
    m_editor = new MessageEditor(m_message.content);
    m_editor->setAnswerRunning(m_answerRunning);
    connect(m_editor, &MessageEditor::sendRequested, this,
            [this](const QString &text) { Q_EMIT editRequested(m_message.id, text); });
    connect(m_editor, &MessageEditor::cancelled, this, &MessageWidget::stopEditing);
    // In the text's place, as wide as it was; the images and files below stay and go with it.
    auto *box = static_cast<QVBoxLayout *>(layout());
    box->insertWidget(box->indexOf(m_view) + 1, m_editor);
    m_editor->show();
    // Tab goes from the text to Send and Cancel, then on through the chat.
    QWidget *previous = m_view;
    for (QWidget *next : m_editor->focusChain())
        setTabOrder(std::exchange(previous, next), next);
    // The focus goes in before Edit hides: hidden with the focus, Edit would hand it on down the
    // chat, which would scroll to it.
    m_editor->focusText();
    m_view->setVisible(false);
    m_editButton->setVisible(false);
    m_copyButton->setVisible(false);
    updateVersions();
    Q_EMIT editingStarted();
}

void MessageWidget::stopEditing()
{
    if (!m_editor)
        return;
    MessageEditor *editor = std::exchange(m_editor, nullptr);
    m_editButton->setVisible(m_editable);
    renderComplete();
    updateState();
    updateVersions();
    // The focus goes back to Edit before the editor goes: hidden with the focus, the editor would
    // hand it on down the chat, which would scroll to it.
    if (editor->isAncestorOf(QApplication::focusWidget()))
        (m_editable ? static_cast<QWidget *>(m_editButton) : m_view)->setFocus(Qt::OtherFocusReason);
    editor->hide();
    editor->deleteLater();
}

void MessageWidget::showEditError(const QString &error)
{
    if (m_editor)
        m_editor->showError(error);
}

void MessageWidget::updateVersions()
{
    const bool several = m_message.versionCount > 1 && m_message.id != 0;
    m_previousVersion->setVisible(several);
    m_versionLabel->setVisible(several);
    m_nextVersion->setVisible(several);
    // Another version would take the edit away: the switcher waits for it as for an answer.
    const bool switchable = !m_answerRunning && !m_editor;
    // Disabled under the keyboard's focus (the sandbox following the branch just switched to), the
    // switcher would hand the focus on down the chat: it waits on the version's figure instead,
    // and comes back to the switcher after.
    if (!switchable && (m_previousVersion->hasFocus() || m_nextVersion->hasFocus())) {
        m_versionFocusParked = true;
        m_versionLabel->setFocus(Qt::OtherFocusReason);
    }
    m_deleteVersion->setVisible(several && !m_editor);
    m_deleteVersion->setEnabled(switchable);
    if (!several)
        return;
    const int version = m_message.version;
    const int count = m_message.versionCount;
    m_versionLabel->setText(tr("%1 / %2").arg(version).arg(count));
    m_versionLabel->setAccessibleName(tr("Version %1 of %2").arg(version).arg(count));
    // A screen reader says where the user is as it reads the button.
    m_previousVersion->setAccessibleName(tr("Version %1 of %2, previous").arg(version).arg(count));
    m_nextVersion->setAccessibleName(tr("Version %1 of %2, next").arg(version).arg(count));
    m_previousVersion->setEnabled(switchable && version > 1);
    m_nextVersion->setEnabled(switchable && version < count);
    if (switchable && std::exchange(m_versionFocusParked, false) && m_versionLabel->hasFocus())
        (m_nextVersion->isEnabled() ? m_nextVersion : m_previousVersion)->setFocus(Qt::OtherFocusReason);
}

void MessageWidget::setActionsVisible(bool lastAnswer, bool edit)
{
    // The last answer offers one way to ask again: Retry when it failed, Regenerate when it did not.
    const bool failed = m_message.status == ChatMessage::Status::Error;
    m_regenerateButton->setVisible(lastAnswer && !failed);
    m_retryButton->setVisible(lastAnswer && failed);
    m_editable = edit;
    m_editButton->setVisible(edit && !m_editor);
}

void MessageWidget::setMessage(const ChatMessage &message)
{
    m_message = message;
    renderComplete();
    updateState();
}

void MessageWidget::showMessage(const ChatMessage &message)
{
    showContent(message);
    // A message gets its versions once it is stored (an answer asked again is "2 / 2").
    m_message.version = message.version;
    m_message.versionCount = message.versionCount;
    updateVersions();
}

void MessageWidget::showContent(const ChatMessage &message)
{
    if (m_message.status != ChatMessage::Status::Streaming) {
        if (message.content != m_message.content || message.reasoning != m_message.reasoning ||
            message.status != m_message.status || message.error != m_message.error || message.id != m_message.id)
            setMessage(message);
        return;
    }
    if (message.status != ChatMessage::Status::Streaming) {
        finishStreaming(message);
        return;
    }
    if (message.error != m_message.error)
        setError(message.error);
}

void MessageWidget::appendStreamed(const QString &text, const QString &reasoning)
{
    appendText(text);
    appendReasoning(reasoning);
    flush();
}

void MessageWidget::finishStreaming(const ChatMessage &message)
{
    flush();
    // The stored answer may differ from what streamed (markup of a call taken out of the text).
    if (message.content != m_message.content || message.reasoning != m_message.reasoning) {
        setMessage(message);
        return;
    }
    m_message = message;
    if (!m_message.error.isEmpty())
        setError(m_message.error);
    updateState();
}

void MessageWidget::appendText(const QString &text)
{
    m_message.content += text;
    m_unshownText += text;
}

void MessageWidget::appendReasoning(const QString &text)
{
    m_message.reasoning += text;
    m_reasoningChanged = m_reasoningChanged || !text.isEmpty();
}

void MessageWidget::flush()
{
    if (m_reasoningChanged) {
        m_reasoningChanged = false;
        m_thinkingButton->setVisible(!m_message.reasoning.isEmpty());
        m_thinking->setText(m_message.reasoning);
    }
    if (m_unshownText.isEmpty())
        return;
    m_view->appendStreamingMarkdown(m_unshownText);
    m_unshownText.clear();
    m_view->setVisible(true);
}

void MessageWidget::renderComplete()
{
    m_unshownText.clear();
    m_reasoningChanged = false;
    m_view->setMarkdownText(m_message.content);
    // While it is edited, the editor stands in its place.
    m_view->setVisible(!m_editor &&
                       (!m_message.content.isEmpty() || m_message.status == ChatMessage::Status::Streaming));
    m_thinkingButton->setVisible(!m_message.reasoning.isEmpty());
    m_thinking->setText(m_message.reasoning);
    if (!m_message.error.isEmpty())
        setError(m_message.error);
}

void MessageWidget::setError(const QString &error)
{
    m_message.error = error;
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
}

void MessageWidget::updateState()
{
    switch (m_message.status) {
    case ChatMessage::Status::Complete:
        // An answer of no words would show nothing at all (a model may end at its first token).
        if (m_message.role == ChatMessage::Role::Assistant && m_message.content.trimmed().isEmpty() &&
            m_message.toolCalls.isEmpty())
            m_stateLabel->setText(tr("no text: the model ended this answer without writing any"));
        else
            m_stateLabel->clear();
        break;
    case ChatMessage::Status::Error:
        m_stateLabel->clear();
        break;
    case ChatMessage::Status::Streaming:
        m_stateLabel->setText(tr("writing…"));
        break;
    case ChatMessage::Status::Cancelled:
        m_stateLabel->setText(tr("stopped"));
        break;
    case ChatMessage::Status::Interrupted:
        m_stateLabel->setText(tr("interrupted: Sandpiper stopped while this was written"));
        break;
    }
    // Empty, it takes no room in the header: the switcher and the actions stay together.
    m_stateLabel->setVisible(!m_stateLabel->text().isEmpty());
    m_copyButton->setVisible(!m_message.content.isEmpty() && !m_editor);
}

QList<QWidget *> MessageWidget::focusChain() const
{
    QList<QWidget *> chain{m_previousVersion, m_nextVersion,   m_copyButton,     m_editButton, m_regenerateButton,
                           m_retryButton,     m_deleteVersion, m_thinkingButton, m_view};
    if (m_editor)
        chain << m_editor->focusChain();
    return chain;
}

QString MessageWidget::plainText() const
{
    return m_message.content;
}

} // namespace Sandpiper
