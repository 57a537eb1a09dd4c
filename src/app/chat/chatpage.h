#pragma once

#include "chat/markdowncontext.h"

#include <llm/callkey.h>

#include <QPointer>
#include <QScrollArea>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace Sandpiper {

class ConversationSession;
class MessageModel;
class MessageWidget;
class ToolCallCard;
struct TurnItem;

// One conversation on screen: a widget per item of its session's message model (messages, tool
// cards, notices), newest at the bottom, kept in step with the model. The view follows the
// bottom unless the user scrolled up. Long conversations show their latest items first and
// earlier ones on demand. What the user asks for (approve, edit, resend) goes to the session.
class ChatPage : public QScrollArea
{
    Q_OBJECT

public:
    ChatPage(ConversationSession *session, const MarkdownContext &markdown, QWidget *parent = nullptr);

    ConversationSession *session() const { return m_session; }
    ToolCallCard *card(const CallKey &key) const;
    QList<ToolCallCard *> cards() const;
    // "Thinking…" with a busy bar where the answer will be, from Send until the model's first
    // text or tool call (and again while it works after a tool).
    QWidget *workingIndicator() const { return m_working; }
    QList<MessageWidget *> messageWidgets() const;
    bool followsBottom() const { return m_followBottom; }
    void selectToolCall(const Sandpiper::CallKey &key);
    // Brings message MESSAGEID into view (a search hit), loading earlier items as needed.
    void scrollToMessage(qint64 messageId);
    static constexpr int pageSize = 40;

Q_SIGNALS:
    void toolCallActivated(const Sandpiper::CallKey &key);
    // "Show to the model" on figure NAME of the conversation's folder.
    void imageShowRequested(const QString &name);
    // A message edited in place went as a new version: the message box may take the focus.
    void editSent();

private:
    void rebuild();
    void showEarlier();
    void insertRows(int first, int last);
    void removeRows(int first, int last);
    void updateRows(int first, int last);
    void appendToStream(int row, const QString &text, const QString &reasoning);
    // Lays out the rows that grew and the page with them at once (see updateRows).
    void layOutNow(QWidget *row);
    QWidget *widgetFor(const TurnItem &item);
    void discard(QWidget *widget);
    void updateActions();
    void updateTabOrder();
    void revealFocusIn(QWidget *widget);
    void updateWorking();
    // Where the next item's widget goes in the layout: after the shown items, before the indicator.
    int endOfItems() const { return 1 + int(m_widgets.size()); }
    // Send in the editor of WIDGET: TEXT as a new version of the message MESSAGEID.
    void editAndResend(MessageWidget *widget, qint64 messageId, const QString &text);
    void regenerate();
    // "< 2 / 3 >" of message MESSAGEID: shows the version STEP places after it.
    void switchVersion(qint64 messageId, int step);

    ConversationSession *m_session;
    MessageModel *m_model;
    MarkdownContext m_markdown;
    QWidget *m_content;
    QVBoxLayout *m_layout;
    QPushButton *m_earlierButton;
    QWidget *m_working;
    QLabel *m_workingText;
    QList<QWidget *> m_widgets; // one per model row from m_firstShown on
    int m_firstShown = 0;
    QPointer<ToolCallCard> m_selectedCard;
    bool m_followBottom = true;
};

} // namespace Sandpiper
