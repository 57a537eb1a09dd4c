#include "chat/chatpage.h"

#include "chat/messagewidget.h"
#include "chat/toolcallcard.h"

#include <session/conversationsession.h>
#include <session/messagemodel.h>

#include <QApplication>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace Sandpiper {

ChatPage::ChatPage(ConversationSession *session, const MarkdownContext &markdown, QWidget *parent)
    : QScrollArea(parent)
    , m_session(session)
    , m_model(session->messages())
    , m_markdown(markdown)
    , m_content(new QWidget)
    , m_layout(new QVBoxLayout(m_content))
    , m_earlierButton(new QPushButton(tr("Show earlier messages")))
    , m_working(new QWidget)
    , m_workingText(new QLabel)
{
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    setAccessibleName(tr("Conversation"));
    m_content->setBackgroundRole(QPalette::Base);
    m_content->setAutoFillBackground(true);
    // The items are laid out from the top: growing at the bottom repaints only what is new.
    m_content->setAttribute(Qt::WA_StaticContents);
    m_layout->setContentsMargins(12, 8, 12, 8);
    m_layout->setSpacing(8);
    m_earlierButton->setAccessibleName(tr("Show earlier messages"));
    m_earlierButton->setVisible(false);
    m_layout->addWidget(m_earlierButton, 0, Qt::AlignHCenter);
    auto *busy = new QProgressBar;
    busy->setRange(0, 0); // busy: it moves without saying how far
    busy->setTextVisible(false);
    busy->setFixedSize(fontMetrics().averageCharWidth() * 8, fontMetrics().height() / 2);
    busy->setAccessibleName(tr("The model is working"));
    auto *thinking = m_workingText;
    thinking->setText(tr("Thinking…"));
    thinking->setWordWrap(true);
    thinking->setForegroundRole(QPalette::PlaceholderText);
    thinking->setAccessibleName(tr("The model is working on the answer"));
    auto *working = new QHBoxLayout(m_working);
    working->setContentsMargins(10, 6, 10, 6);
    working->addWidget(busy);
    // The line takes the width there is: beside a stretch, a wrapped label was squeezed into a
    // narrow column ("Loading Qwen3-8B-" / "Q4_K_M.gguf… 1 s").
    working->addWidget(thinking, 1);
    m_working->setObjectName(QStringLiteral("workingIndicator"));
    m_working->setAccessibleName(tr("Thinking…"));
    m_working->setVisible(false);
    m_layout->addWidget(m_working);
    m_layout->addStretch(1);
    setWidget(m_content);
    connect(m_earlierButton, &QPushButton::clicked, this, &ChatPage::showEarlier);

    // Follow the bottom while the user is there; stay put once they scroll up.
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this](int value) { m_followBottom = value >= verticalScrollBar()->maximum() - 24; });
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, [this](int, int maximum) {
        if (!m_followBottom)
            return;
        // Qt scrolls by copying what is on screen only when none of it waits to be painted, else it
        // paints the whole view again. What changed (the paragraph being written) is painted first,
        // so that following an answer paints only the lines that scroll into view.
        QCoreApplication::sendPostedEvents(window(), QEvent::UpdateRequest);
        verticalScrollBar()->setValue(maximum);
    });

    connect(m_session, &ConversationSession::stateChanged, this, &ChatPage::updateActions);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ChatPage::rebuild);
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first, int last) { insertRows(first, last); });
    connect(m_model, &QAbstractItemModel::rowsRemoved, this,
            [this](const QModelIndex &, int first, int last) { removeRows(first, last); });
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                updateRows(topLeft.row(), bottomRight.row());
            });
    connect(m_model, &MessageModel::streamAppended, this, &ChatPage::appendToStream);
    rebuild();
}

void ChatPage::rebuild()
{
    setUpdatesEnabled(false);
    for (QWidget *widget : std::as_const(m_widgets))
        discard(widget);
    m_widgets.clear();
    m_firstShown = std::max(0, m_model->rowCount() - pageSize);
    for (int row = m_firstShown; row < m_model->rowCount(); ++row) {
        QWidget *widget = widgetFor(m_model->item(row));
        m_layout->insertWidget(endOfItems(), widget);
        m_widgets << widget;
    }
    m_earlierButton->setVisible(m_firstShown > 0);
    updateActions();
    updateTabOrder();
    setUpdatesEnabled(true);
    m_followBottom = true;
}

void ChatPage::showEarlier()
{
    const int from = std::max(0, m_firstShown - pageSize);
    for (int row = m_firstShown - 1; row >= from; --row) {
        QWidget *widget = widgetFor(m_model->item(row));
        m_layout->insertWidget(1, widget);
        m_widgets.prepend(widget);
    }
    m_firstShown = from;
    m_earlierButton->setVisible(m_firstShown > 0);
    updateTabOrder();
}

void ChatPage::insertRows(int first, int last)
{
    // The user's own new message at the end: the chat follows what comes after it, wherever it
    // was left (a switch of versions leaves it at the switcher).
    const TurnItem &newest = m_model->item(last);
    if (last == m_model->rowCount() - 1 && newest.kind == TurnItem::Kind::Message &&
        newest.message.role == ChatMessage::Role::User)
        m_followBottom = true;
    if (last < m_firstShown) {
        m_firstShown += last - first + 1;
        return;
    }
    for (int row = std::max(first, m_firstShown); row <= last; ++row) {
        QWidget *widget = widgetFor(m_model->item(row));
        const int index = row - m_firstShown;
        m_layout->insertWidget(1 + index, widget);
        m_widgets.insert(index, widget);
        if (auto *card = qobject_cast<ToolCallCard *>(widget); card && card->isAwaitingApproval()) {
            card->takeFocusForApproval();
            revealFocusIn(card);
        }
    }
    updateActions();
    updateTabOrder();
}

void ChatPage::removeRows(int first, int last)
{
    for (int row = last; row >= first; --row) {
        if (row < m_firstShown) {
            --m_firstShown;
            continue;
        }
        discard(m_widgets.takeAt(row - m_firstShown));
    }
    updateActions();
}

void ChatPage::updateRows(int first, int last)
{
    for (int row = std::max(first, m_firstShown); row <= last; ++row) {
        const TurnItem &item = m_model->item(row);
        QWidget *widget = m_widgets.value(row - m_firstShown);
        if (auto *message = qobject_cast<MessageWidget *>(widget))
            message->showMessage(item.message);
        else if (auto *card = qobject_cast<ToolCallCard *>(widget)) {
            card->showItem(item);
            if (card->isAwaitingApproval())
                revealFocusIn(card);
        } else if (auto *notice = qobject_cast<QLabel *>(widget))
            notice->setText(item.text);
        layOutNow(widget);
    }
    updateActions();
}

void ChatPage::appendToStream(int row, const QString &text, const QString &reasoning)
{
    if (auto *message = qobject_cast<MessageWidget *>(m_widgets.value(row - m_firstShown)))
        message->appendStreamed(text, reasoning);
}

void ChatPage::layOutNow(QWidget *row)
{
    // A row that grew is laid out at once, not after its new text was painted where it was.
    if (row)
        QCoreApplication::sendPostedEvents(row, QEvent::LayoutRequest);
    // And so is the page with its scroll range: following the bottom, a frame of a streaming
    // answer paints its changed lines once before it scrolls and its new ones once after, not a
    // piece at each step of the layout.
    QCoreApplication::sendPostedEvents(m_content, QEvent::LayoutRequest);
    QCoreApplication::sendPostedEvents(viewport(), QEvent::LayoutRequest);
}

// A card that took the focus to ask is scrolled into view once it is laid out: the focus is
// where the person can see it.
void ChatPage::revealFocusIn(QWidget *widget)
{
    QTimer::singleShot(0, this, [this, widget = QPointer<QWidget>(widget)] {
        QWidget *focus = widget ? widget->window()->focusWidget() : nullptr;
        if (!focus || !widget->isAncestorOf(focus))
            return;
        ensureWidgetVisible(focus, 0, 40);
    });
}

void ChatPage::discard(QWidget *widget)
{
    // The model changes while a widget's own signal is delivered (Retry resends and reloads the
    // conversation from the click on its button): the widget goes once that signal is done.
    // The focus it holds (Retry, Regenerate, Edit were clicked) stays on the page: hidden, the
    // widget would hand it to the next in the chain, and the page would scroll up to that.
    if (widget->isAncestorOf(QApplication::focusWidget()))
        setFocus(Qt::OtherFocusReason);
    m_layout->removeWidget(widget);
    widget->hide();
    widget->setParent(nullptr);
    widget->deleteLater();
}

QWidget *ChatPage::widgetFor(const TurnItem &item)
{
    switch (item.kind) {
    case TurnItem::Kind::Message: {
        auto *widget = new MessageWidget(item.message, m_session->folder(), m_markdown);
        connect(widget, &MessageWidget::editRequested, this,
                [this, widget](qint64 messageId, const QString &text) { editAndResend(widget, messageId, text); });
        // The editor and its buttons are in view, wherever the message was.
        connect(widget, &MessageWidget::editingStarted, this, [this, widget] {
            m_followBottom = false;
            revealFocusIn(widget);
        });
        connect(widget, &MessageWidget::regenerateRequested, this, &ChatPage::regenerate);
        connect(widget, &MessageWidget::retryRequested, this, &ChatPage::regenerate);
        connect(widget, &MessageWidget::versionRequested, this, &ChatPage::switchVersion);
        connect(widget, &MessageWidget::deleteVersionRequested, this, [this](qint64 messageId) {
            if (auto deleted = m_session->deleteVersion(messageId); !deleted)
                QMessageBox::warning(this, tr("Delete this version"), deleted.error().message);
        });
        widget->setAnswerRunning(m_session->isBusy());
        return widget;
    }
    case TurnItem::Kind::ToolCall: {
        auto *card = new ToolCallCard(item, m_session->folder(), m_markdown);
        connect(card, &ToolCallCard::approved, m_session, &ConversationSession::approve);
        connect(card, &ToolCallCard::approvedEdited, m_session, &ConversationSession::approveEdited);
        connect(card, &ToolCallCard::alwaysAllowed, m_session, &ConversationSession::alwaysAllow);
        connect(card, &ToolCallCard::denied, m_session, &ConversationSession::deny);
        connect(card, &ToolCallCard::tableSaveRequested, m_session, &ConversationSession::exportTable);
        connect(card, &ToolCallCard::imageShowRequested, this, &ChatPage::imageShowRequested);
        connect(m_session, &ConversationSession::tableExported, card,
                [card](const CallKey &key, int tableIndex, const QString &fileName, const QString &error) {
                    if (key == card->callKey())
                        card->showTableSaved(tableIndex, fileName, error);
                });
        connect(card, &ToolCallCard::activated, this, [this](const CallKey &key) {
            selectToolCall(key);
            Q_EMIT toolCallActivated(key);
        });
        return card;
    }
    case TurnItem::Kind::Notice:
        break;
    }
    const bool error = item.level == TurnItem::NoticeLevel::Error;
    auto *label = new QLabel(item.text);
    // A notice may quote a server or the sandbox: as HTML, an <img> in it would have Qt open a file.
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAccessibleName(error ? tr("Error") : tr("Notice"));
    label->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
    label->setForegroundRole(error ? QPalette::Text : QPalette::PlaceholderText);
    return label;
}

void ChatPage::updateWorking()
{
    bool silent = m_session->state().phase == SessionState::Phase::Waiting;
    if (silent && m_model->rowCount() > 0) {
        // Until the answer or a call of the model shows: they say that it works.
        const TurnItem &last = m_model->item(m_model->rowCount() - 1);
        silent = !last.isStreaming() &&
                 !(last.kind == TurnItem::Kind::ToolCall && last.toolState == TurnItem::ToolState::Proposed);
    }
    m_working->setVisible(silent);
    // Before the request goes out, what it waits for (the model on this computer loading).
    const QString preparing = m_session->state().preparing;
    m_workingText->setText(preparing.isEmpty() ? tr("Thinking…") : preparing);
    m_working->setAccessibleName(m_workingText->text());
}

void ChatPage::updateActions()
{
    updateWorking();
    // Asking again (Retry, Regenerate) belongs to the last answer only, and only when nothing
    // runs: while an answer streams there is nothing to ask again yet.
    const QList<MessageWidget *> widgets = messageWidgets();
    const bool busy = m_session->isBusy();
    bool lastAnswerSeen = false;
    for (auto it = widgets.crbegin(); it != widgets.crend(); ++it) {
        const bool isAnswer = (*it)->message().role == ChatMessage::Role::Assistant;
        // A question is edited once it is stored (it shows from Send on, before).
        (*it)->setActionsVisible(isAnswer && !lastAnswerSeen && !busy,
                                 (*it)->message().role == ChatMessage::Role::User && (*it)->message().id != 0);
        lastAnswerSeen = lastAnswerSeen || isAnswer;
        // Another version shows another branch and an edit asks again: not under an answer that runs.
        (*it)->setAnswerRunning(busy);
    }
}

// Tab goes through the conversation in reading order, whatever order its widgets were made in
// (earlier messages are made after the later ones they come before).
void ChatPage::updateTabOrder()
{
    QList<QWidget *> chain{m_earlierButton};
    for (QWidget *widget : std::as_const(m_widgets)) {
        if (auto *message = qobject_cast<MessageWidget *>(widget))
            chain << message->focusChain();
        else if (auto *card = qobject_cast<ToolCallCard *>(widget))
            chain << card->focusChain();
    }
    for (qsizetype index = 1; index < chain.size(); ++index)
        QWidget::setTabOrder(chain.at(index - 1), chain.at(index));
}

void ChatPage::editAndResend(MessageWidget *widget, qint64 messageId, const QString &text)
{
    // The edited text is a new version beside the old one, which stays (see resendFrom). The chat
    // shows the new branch, without the editor; one that could not send stays open and says why.
    if (auto resent = m_session->resendFrom(messageId, text); !resent) {
        widget->showEditError(resent.error().message);
        return;
    }
    Q_EMIT editSent();
}

void ChatPage::regenerate()
{
    if (auto regenerated = m_session->regenerate(); !regenerated)
        QMessageBox::warning(this, tr("Regenerate"), regenerated.error().message);
}

void ChatPage::switchVersion(qint64 messageId, int step)
{
    const auto sibling = m_session->siblingVersion(messageId, step);
    auto shown = sibling ? m_session->showVersion(*sibling) : StoreResult<void>(sibling.error());
    if (!shown) {
        QMessageBox::warning(this, tr("Switch version"), shown.error().message);
        return;
    }
    // The chat was made anew for the branch: the focus goes back to the switcher, on the version
    // now shown, so that the keyboard can go on switching.
    for (MessageWidget *widget : messageWidgets()) {
        if (widget->message().id != *sibling)
            continue;
        QWidget *button = widget->versionButton(step);
        if (!button->isEnabled())
            button = widget->versionButton(-step);
        button->setFocus(Qt::OtherFocusReason);
        m_followBottom = false;
        revealFocusIn(widget);
    }
}

ToolCallCard *ChatPage::card(const CallKey &key) const
{
    for (QWidget *widget : m_widgets) {
        if (auto *card = qobject_cast<ToolCallCard *>(widget); card && card->callKey() == key)
            return card;
    }
    return nullptr;
}

QList<ToolCallCard *> ChatPage::cards() const
{
    QList<ToolCallCard *> cards;
    for (QWidget *widget : m_widgets) {
        if (auto *card = qobject_cast<ToolCallCard *>(widget))
            cards << card;
    }
    return cards;
}

QList<MessageWidget *> ChatPage::messageWidgets() const
{
    QList<MessageWidget *> widgets;
    for (QWidget *widget : m_widgets) {
        if (auto *message = qobject_cast<MessageWidget *>(widget))
            widgets << message;
    }
    return widgets;
}

void ChatPage::selectToolCall(const CallKey &key)
{
    if (m_selectedCard)
        m_selectedCard->setSelected(false);
    m_selectedCard = card(key);
    if (m_selectedCard) {
        m_selectedCard->setSelected(true);
        ensureWidgetVisible(m_selectedCard);
    }
}

void ChatPage::scrollToMessage(qint64 messageId)
{
    int row = -1;
    for (int i = 0; i < m_model->rowCount(); ++i) {
        if (m_model->item(i).kind == TurnItem::Kind::Message && m_model->item(i).message.id == messageId)
            row = i;
    }
    if (row < 0)
        return;
    while (row < m_firstShown)
        showEarlier();
    QWidget *target = m_widgets.value(row - m_firstShown);
    m_followBottom = false;
    // The layout places new widgets on the next event loop pass; scroll once it has.
    QTimer::singleShot(0, this, [this, target = QPointer<QWidget>(target)] {
        if (target)
            ensureWidgetVisible(target, 0, 40);
    });
}

} // namespace Sandpiper
