#pragma once

#include <agent/agentevent.h>
#include <storage/storedexecution.h>

#include <QHash>
#include <QPointer>
#include <QScrollArea>
#include <QTimer>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace Sandpiper {

class MessageWidget;
class ToolCallCard;

// The conversation: messages, tool cards with their figures, approval cards and notices,
// newest at the bottom. Streaming text is rendered at a steady frame rate, and only the
// message being written is touched. The view follows the bottom unless the user scrolled up.
// Long conversations show their latest messages first and earlier ones on demand.
class ChatView : public QScrollArea
{
    Q_OBJECT

public:
    explicit ChatView(QWidget *parent = nullptr);

    void showConversation(const QList<ChatMessage> &messages, const QList<StoredExecution> &executions,
                          const QString &folder);
    void clear();
    void handleEvent(const AgentEvent &event);
    void selectToolCall(const QString &callId);
    // Brings message MESSAGEID into view (a search hit), loading earlier pages as needed.
    void scrollToMessage(qint64 messageId);
    ToolCallCard *card(const QString &callId) const { return m_cards.value(callId); }
    QList<MessageWidget *> messageWidgets() const;
    bool followsBottom() const { return m_followBottom; }
    static constexpr int pageSize = 40;

Q_SIGNALS:
    void approve(const QString &callId);
    void approveEdited(const QString &callId, const QString &arguments);
    void alwaysAllow(const QString &callId);
    void deny(const QString &callId, const QString &reason);
    void toolCallActivated(const QString &callId);
    void editMessage(qint64 messageId, const QString &text);
    void regenerate();
    void retry();

private:
    void showEarlier();
    int widgetsFor(const ChatMessage &message, int insertAt);
    MessageWidget *addMessage(const ChatMessage &message, int insertAt = -1);
    ToolCallCard *addCard(const ToolCall &call, int insertAt = -1);
    void addNotice(const QString &text, bool error);
    MessageWidget *streamingMessage();
    void insertWidget(QWidget *widget, int insertAt);
    void updateActions();
    void flushFrame();

    QWidget *m_content;
    QVBoxLayout *m_layout;
    QPushButton *m_earlierButton;
    QString m_folder;
    QList<ChatMessage> m_messages; // the whole conversation, for paging
    QHash<QString, StoredExecution> m_executionsByCall;
    int m_firstShown = 0; // index in m_messages of the first message with a widget
    QHash<QString, ToolCallCard *> m_cards;
    QPointer<MessageWidget> m_streaming;
    QPointer<ToolCallCard> m_selectedCard;
    QTimer m_frameTimer;
    bool m_followBottom = true;
};

} // namespace Sandpiper
