#pragma once

#include "chat/markdowncontext.h"

#include <llm/callkey.h>

#include <QHash>
#include <QStackedWidget>

namespace Sandpiper {

class ChatPage;
class ConversationSession;
class MathRenderer;
class MessageWidget;
class ToolCallCard;

// The conversation area: shows the session it is given. Each open session keeps its page (its
// widgets, its scroll position) for as long as the session lives, so that switching between
// conversations shows another page instead of building one again. Its pages draw their Markdown
// with one MarkdownContext: the window's math renderer and the remote images of the view.
class ChatView : public QStackedWidget
{
    Q_OBJECT

public:
    explicit ChatView(QWidget *parent = nullptr);

    // The renderer of the formulas of every message shown after this (none: shown as TeX).
    void setMathRenderer(MathRenderer *renderer);
    const MarkdownContext &markdownContext() const { return m_markdown; }

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
    // A message was edited in place and sent (see ChatPage::editSent).
    void editSent();

private:
    QWidget *m_empty;
    MarkdownContext m_markdown;
    QHash<ConversationSession *, ChatPage *> m_pages;
};

} // namespace Sandpiper
