#include "chat/chatview.h"

#include "chat/messagewidget.h"
#include "chat/toolcallcard.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// The code of a python call for display, whatever shape the model sent it in.
QString codeOf(const ToolCall &call)
{
    const QJsonObject arguments = QJsonDocument::fromJson(call.arguments.toUtf8()).object();
    const QString code = arguments.value(QLatin1String("code")).toString();
    return code.isEmpty() ? call.arguments : code;
}

} // namespace

ChatView::ChatView(QWidget *parent)
    : QScrollArea(parent)
    , m_content(new QWidget)
    , m_layout(new QVBoxLayout(m_content))
    , m_earlierButton(new QPushButton(tr("Show earlier messages")))
    , m_frameTimer(this)
{
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    setAccessibleName(tr("Conversation"));
    m_content->setBackgroundRole(QPalette::Base);
    m_content->setAutoFillBackground(true);
    m_layout->setContentsMargins(12, 8, 12, 8);
    m_layout->setSpacing(8);
    m_earlierButton->setAccessibleName(tr("Show earlier messages"));
    m_earlierButton->setVisible(false);
    m_layout->addWidget(m_earlierButton, 0, Qt::AlignHCenter);
    m_layout->addStretch(1);
    setWidget(m_content);
    connect(m_earlierButton, &QPushButton::clicked, this, &ChatView::showEarlier);

    // Follow the bottom while the user is there; stay put once they scroll up.
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this](int value) { m_followBottom = value >= verticalScrollBar()->maximum() - 24; });
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, [this](int, int maximum) {
        if (m_followBottom)
            verticalScrollBar()->setValue(maximum);
    });

    // 20 frames a second while an answer streams, whatever the number of deltas: smooth to
    // read, and cheap enough to leave the machine to the model.
    m_frameTimer.setInterval(50ms);
    connect(&m_frameTimer, &QTimer::timeout, this, &ChatView::flushFrame);
}

void ChatView::clear()
{
    while (m_layout->count() > 2) {
        QLayoutItem *item = m_layout->takeAt(1);
        delete item->widget();
        delete item;
    }
    m_cards.clear();
    m_messages.clear();
    m_executionsByCall.clear();
    m_firstShown = 0;
    m_streaming = nullptr;
    m_followBottom = true;
    m_earlierButton->setVisible(false);
}

void ChatView::insertWidget(QWidget *widget, int insertAt)
{
    // After the "earlier" button, before the stretch.
    const int position = insertAt < 0 ? m_layout->count() - 1 : 1 + insertAt;
    m_layout->insertWidget(position, widget);
}

void ChatView::showConversation(const QList<ChatMessage> &messages, const QList<StoredExecution> &executions,
                                const QString &folder)
{
    setUpdatesEnabled(false);
    clear();
    m_folder = folder;
    m_messages = messages;
    for (const StoredExecution &execution : executions) {
        if (!execution.toolCallId.isEmpty())
            m_executionsByCall.insert(execution.toolCallId, execution);
    }
    m_firstShown = int(std::max<qsizetype>(0, messages.size() - pageSize));
    int position = 0;
    for (int i = m_firstShown; i < messages.size(); ++i)
        position += widgetsFor(messages.at(i), position);
    m_earlierButton->setVisible(m_firstShown > 0);
    updateActions();
    setUpdatesEnabled(true);
    m_followBottom = true;
}

void ChatView::showEarlier()
{
    const int from = std::max(0, m_firstShown - pageSize);
    int position = 0;
    for (int i = from; i < m_firstShown; ++i)
        position += widgetsFor(m_messages.at(i), position);
    m_firstShown = from;
    m_earlierButton->setVisible(m_firstShown > 0);
}

// Builds the widgets of a stored message at layout position INSERTAT and returns how many
// it made: tool results show in their cards, not on their own.
int ChatView::widgetsFor(const ChatMessage &message, int insertAt)
{
    switch (message.role) {
    case ChatMessage::Role::System:
        return 0;
    case ChatMessage::Role::Tool:
        if (ToolCallCard *card = m_cards.value(message.toolCallId);
            card && !m_executionsByCall.contains(message.toolCallId))
            card->setFinished(message.content, std::nullopt);
        return 0;
    case ChatMessage::Role::User:
        addMessage(message, insertAt);
        return 1;
    case ChatMessage::Role::Assistant:
        break;
    }
    int made = 0;
    if (!message.content.isEmpty() || !message.reasoning.isEmpty() || !message.error.isEmpty() ||
        message.toolCalls.isEmpty())
        addMessage(message, insertAt + made++);
    for (const ToolCall &call : message.toolCalls) {
        ToolCallCard *card = addCard(call, insertAt + made++);
        if (call.name == QLatin1String("create_chart"))
            card->showChart(call.arguments);
        const auto execution = m_executionsByCall.constFind(call.id);
        if (execution != m_executionsByCall.cend()) {
            card->setCode(execution->code);
            card->setFinished(QString(), execution->result);
        }
    }
    return made;
}

MessageWidget *ChatView::addMessage(const ChatMessage &message, int insertAt)
{
    auto *widget = new MessageWidget(message, m_folder);
    connect(widget, &MessageWidget::editRequested, this, &ChatView::editMessage);
    connect(widget, &MessageWidget::regenerateRequested, this, &ChatView::regenerate);
    connect(widget, &MessageWidget::retryRequested, this, &ChatView::retry);
    insertWidget(widget, insertAt);
    return widget;
}

ToolCallCard *ChatView::addCard(const ToolCall &call, int insertAt)
{
    auto *card = new ToolCallCard(call, m_folder);
    if (call.name == QLatin1String("execute_python_code"))
        card->setCode(codeOf(call));
    connect(card, &ToolCallCard::approved, this, &ChatView::approve);
    connect(card, &ToolCallCard::approvedEdited, this, [this](const QString &callId, const QString &code) {
        Q_EMIT approveEdited(
            callId, QString::fromUtf8(
                        QJsonDocument(QJsonObject{{QStringLiteral("code"), code}}).toJson(QJsonDocument::Compact)));
    });
    connect(card, &ToolCallCard::alwaysAllowed, this, &ChatView::alwaysAllow);
    connect(card, &ToolCallCard::denied, this, &ChatView::deny);
    connect(card, &ToolCallCard::activated, this, [this](const QString &callId) {
        selectToolCall(callId);
        Q_EMIT toolCallActivated(callId);
    });
    m_cards.insert(call.id, card);
    insertWidget(card, insertAt);
    return card;
}

void ChatView::addNotice(const QString &text, bool error)
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAccessibleName(error ? tr("Error") : tr("Notice"));
    label->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
    label->setForegroundRole(error ? QPalette::Text : QPalette::PlaceholderText);
    insertWidget(label, -1);
}

MessageWidget *ChatView::streamingMessage()
{
    if (!m_streaming) {
        ChatMessage message;
        message.role = ChatMessage::Role::Assistant;
        message.status = ChatMessage::Status::Streaming;
        m_streaming = addMessage(message);
        m_frameTimer.start();
    }
    return m_streaming;
}

void ChatView::flushFrame()
{
    if (m_streaming)
        m_streaming->flush();
}

void ChatView::handleEvent(const AgentEvent &event)
{
    using Kind = AgentEvent::Kind;
    switch (event.kind) {
    case Kind::TurnStarted:
        m_followBottom = true;
        break;
    case Kind::TextDelta:
        streamingMessage()->appendText(event.text);
        break;
    case Kind::ReasoningDelta:
        streamingMessage()->appendReasoning(event.text);
        break;
    case Kind::MessageAdded: {
        const ChatMessage &message = event.message;
        m_messages << message;
        if (message.role == ChatMessage::Role::User) {
            addMessage(message);
        } else if (message.role == ChatMessage::Role::Assistant) {
            if (m_streaming) {
                m_streaming->finishStreaming(message);
                m_streaming = nullptr;
            } else if (!message.content.isEmpty() || !message.error.isEmpty()) {
                addMessage(message);
            }
            m_frameTimer.stop();
        }
        updateActions();
        break;
    }
    case Kind::ToolCallProposed:
        if (!m_cards.contains(event.call.id))
            addCard(event.call);
        break;
    case Kind::ApprovalNeeded:
        if (ToolCallCard *card = m_cards.value(event.call.id))
            card->setAwaitingApproval(event.preview);
        break;
    case Kind::ToolStarted:
        if (ToolCallCard *card = m_cards.value(event.call.id))
            card->setRunning(event.preview);
        break;
    case Kind::ToolOutput:
        if (ToolCallCard *card = m_cards.value(event.call.id))
            card->appendOutput(event.stream, event.text);
        break;
    case Kind::ToolFinished:
        if (ToolCallCard *card = m_cards.value(event.call.id)) {
            card->setFinished(event.text, event.execution);
            card->setSources(event.sources, event.userNote);
            if (!event.chart.isEmpty())
                card->showChart(event.call.arguments);
        }
        break;
    case Kind::Error: {
        // A failed answer shows its error in place; other errors stand on their own.
        const QList<MessageWidget *> widgets = messageWidgets();
        if (m_streaming)
            m_streaming->setError(event.text);
        else if (widgets.isEmpty() || widgets.constLast()->message().error != event.text)
            addNotice(event.text, true);
        break;
    }
    case Kind::Retrying:
    case Kind::Notice:
        addNotice(event.text, false);
        break;
    case Kind::Usage:
        break;
    case Kind::TurnFinished:
        if (m_streaming) {
            m_streaming->flush();
            m_streaming = nullptr;
        }
        m_frameTimer.stop();
        for (ToolCallCard *card : std::as_const(m_cards)) {
            if (card->isAwaitingApproval())
                card->setInterrupted();
        }
        updateActions();
        break;
    }
}

void ChatView::updateActions()
{
    // Regenerate belongs to the last answer only.
    const QList<MessageWidget *> widgets = messageWidgets();
    for (MessageWidget *widget : widgets)
        widget->setActionsVisible(false, widget->message().role == ChatMessage::Role::User);
    for (auto it = widgets.crbegin(); it != widgets.crend(); ++it) {
        if ((*it)->message().role == ChatMessage::Role::Assistant) {
            (*it)->setActionsVisible(true, false);
            break;
        }
    }
}

QList<MessageWidget *> ChatView::messageWidgets() const
{
    QList<MessageWidget *> widgets;
    for (int i = 0; i < m_layout->count(); ++i) {
        if (auto *widget = qobject_cast<MessageWidget *>(m_layout->itemAt(i)->widget()))
            widgets << widget;
    }
    return widgets;
}

void ChatView::scrollToMessage(qint64 messageId)
{
    const bool known = std::any_of(m_messages.cbegin(), m_messages.cend(),
                                   [messageId](const ChatMessage &message) { return message.id == messageId; });
    if (!known)
        return;
    auto find = [this, messageId]() -> QWidget * {
        for (MessageWidget *widget : messageWidgets()) {
            if (widget->message().id == messageId)
                return widget;
        }
        return nullptr;
    };
    QWidget *target = find();
    while (!target && m_firstShown > 0) {
        showEarlier();
        target = find();
    }
    if (!target)
        return;
    m_followBottom = false;
    // The layout places new widgets on the next event loop pass; scroll once it has.
    QTimer::singleShot(0, this, [this, target = QPointer<QWidget>(target)] {
        if (target)
            ensureWidgetVisible(target, 0, 40);
    });
}

void ChatView::selectToolCall(const QString &callId)
{
    if (m_selectedCard)
        m_selectedCard->setSelected(false);
    m_selectedCard = m_cards.value(callId);
    if (m_selectedCard) {
        m_selectedCard->setSelected(true);
        ensureWidgetVisible(m_selectedCard);
    }
}

} // namespace Sandpiper
