#pragma once

#include <llm/callkey.h>

#include <QHash>
#include <QStackedWidget>

namespace Sandpiper {

class ChatPage;
class ConversationSession;
class MessageWidget;
class ToolCallCard;

// The conversation area: shows the session it is given. Each open session keeps its page (its
// widgets, its scroll position) for as long as the session lives, so that switching between
// conversations shows another page instead of building one again.
class ChatView : public QStackedWidget
{
    Q_OBJECT

public:
    explicit ChatView(QWidget *parent = nullptr);

    // Shows SESSION; null shows an empty page.
    void setSession(ConversationSession *session);
    ConversationSession *session() const;
    ChatPage *page() const;

    // Of the page on screen:
    ToolCallCard *card(const CallKey &key) const;
    QList<ToolCallCard *> cards() const;
    QList<MessageWidget *> messageWidgets() const;
    bool followsBottom() const;
    void selectToolCall(const Sandpiper::CallKey &key);
    void scrollToMessage(qint64 messageId);

Q_SIGNALS:
    void toolCallActivated(const Sandpiper::CallKey &key);
    void imageShowRequested(const QString &name);

private:
    QWidget *m_empty;
    QHash<ConversationSession *, ChatPage *> m_pages;
};

} // namespace Sandpiper
