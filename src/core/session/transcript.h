#pragma once

#include "agent/agentevent.h"
#include "session/turnitem.h"

#include <QList>
#include <QObject>
#include <QTimer>

#include <chrono>

namespace Sandpiper {

class ExecutionModel;
class MessageModel;
struct StoredExecution;

// What the chat and the inspector show of one conversation, written from its agent's events:
// the turn items of its MessageModel and the runs of its ExecutionModel. Its ConversationSession
// owns it and is the only caller, so each model has one writer. Streamed text, reasoning and
// output collect and are applied once per frame; any other event applies them first, so that
// what came before it shows before it.
class Transcript : public QObject
{
    Q_OBJECT

public:
    // How long streamed text collects before the models show it.
    static constexpr std::chrono::milliseconds frameInterval{50};

    Transcript(MessageModel *messages, ExecutionModel *executions, QObject *parent = nullptr);

    // The stored conversation, as it was left.
    void reset(const QList<ChatMessage> &messages, const QList<StoredExecution> &executions);
    // The user's MESSAGE shows at once, until the agent's stored copy takes its place
    // (applyMessage) or it was not kept (dropUnsent).
    void showSent(const ChatMessage &message);
    void dropUnsent();

    // Collected until the frame. Text or reasoning means the request answered: its "trying
    // again" notices go.
    void collectText(const QString &text);
    void collectReasoning(const QString &text);
    void collectOutput(const CallKey &call, const QString &stream, const QString &text);
    // Applies what collected since the last frame.
    void flushFrame();

    void proposeCall(const CallKey &key, const ToolCall &call);
    void askApproval(const CallKey &key, const QString &preview);
    // The run of EVENT started; a run of the user's own shows as a call of its own.
    void startRun(const AgentEvent &event);
    void showProgress(const AgentEvent &event);
    void finishRun(const AgentEvent &event);
    // TEXT on the answer that was streaming, else as a notice (once: the failed answer that came
    // before carries it already).
    void showError(const QString &text);
    // MESSAGE joined the history: a stored message takes the place of what showed for it.
    void applyMessage(const ChatMessage &message);
    // Returns the notice's key.
    qint64 addNotice(TurnItem::NoticeLevel level, const QString &text);
    // A "trying again" notice: it goes when the retried request answers or the turn completes.
    void addRetryNotice(const QString &text);
    // The turn ENDed: the answer that streamed ends (or goes, when it said nothing), calls that
    // never finished are interrupted. A turn that failed keeps its retry notices: they tell how
    // often it was tried.
    void finishTurn(AgentEvent::End end);

private:
    void dropRetryNotices();
    // The row of the call that the tool message MESSAGE answers, -1 if none.
    int answeredCall(const ChatMessage &message) const;

    MessageModel *m_messages;
    ExecutionModel *m_executions;
    // The item of the user's message, shown at showSent() until the agent keeps it.
    qint64 m_sentKey = 0;
    // The "trying again" notices of this turn, by key.
    QList<qint64> m_retryNotices;

    struct PendingOutput {
        CallKey call;
        QString stream;
        QString text;
    };
    QString m_pendingText;
    QString m_pendingReasoning;
    QList<PendingOutput> m_pendingOutput;
    QTimer m_frame;
};

} // namespace Sandpiper
