#include "chat/chatview.h"

#include "chat/chatpage.h"
#include "chat/remoteimages.h"

#include <math/mathrenderer.h>
#include <session/conversationsession.h>

namespace Sandpiper {

ChatView::ChatView(QWidget *parent)
    : QStackedWidget(parent)
    , m_empty(new QWidget)
{
    setAccessibleName(tr("Conversation"));
    m_empty->setBackgroundRole(QPalette::Base);
    m_empty->setAutoFillBackground(true);
    addWidget(m_empty);
    m_markdown.remoteImages = new RemoteImages(this);
}

void ChatView::setMathRenderer(MathRenderer *renderer)
{
    m_markdown.math = renderer;
}

void ChatView::setSession(ConversationSession *session)
{
    if (!session) {
        setCurrentWidget(m_empty);
        return;
    }
    ChatPage *page = m_pages.value(session);
    if (!page) {
        page = new ChatPage(session, m_markdown);
        m_pages.insert(session, page);
        connect(page, &ChatPage::toolCallActivated, this, &ChatView::toolCallActivated);
        connect(page, &ChatPage::imageShowRequested, this, &ChatView::imageShowRequested);
        connect(page, &ChatPage::editSent, this, &ChatView::editSent);
        // The page goes with its session.
        connect(session, &QObject::destroyed, this, [this, session] { delete m_pages.take(session); });
        addWidget(page);
    }
    setCurrentWidget(page);
}

ChatPage *ChatView::page() const
{
    return qobject_cast<ChatPage *>(currentWidget());
}

ConversationSession *ChatView::session() const
{
    return page() ? page()->session() : nullptr;
}

ToolCallCard *ChatView::card(const CallKey &key) const
{
    return page() ? page()->card(key) : nullptr;
}

QList<ToolCallCard *> ChatView::cards() const
{
    return page() ? page()->cards() : QList<ToolCallCard *>();
}

QList<MessageWidget *> ChatView::messageWidgets() const
{
    return page() ? page()->messageWidgets() : QList<MessageWidget *>();
}

bool ChatView::followsBottom() const
{
    return !page() || page()->followsBottom();
}

void ChatView::selectToolCall(const CallKey &key)
{
    if (page())
        page()->selectToolCall(key);
}

void ChatView::scrollToMessage(qint64 messageId)
{
    if (page())
        page()->scrollToMessage(messageId);
}

} // namespace Sandpiper
