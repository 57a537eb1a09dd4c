#pragma once

#include "agent/agentconfig.h"
#include "agent/agentevent.h"

#include <QObject>
#include <QThread>

namespace Sandpiper {

class AgentLoop;
class ConversationStore;

// Runs an AgentLoop on a worker thread of its own. Commands cross over as queued calls,
// events come back as queued signals; the two sides share no mutable state.
class AgentThread : public QObject
{
    Q_OBJECT

public:
    // STORE (optional, shared across threads) keeps conversation CONVERSATIONID; HISTORY is
    // what the conversation already holds.
    explicit AgentThread(AgentConfig config, ConversationStore *store = nullptr, qint64 conversationId = 0,
                         QList<ChatMessage> history = {}, QObject *parent = nullptr);
    // Stops the loop (cancelling what runs) and waits for the thread.
    ~AgentThread() override;

    void send(const QString &text);
    void approve(const QString &callId);
    void approveEdited(const QString &callId, const QString &arguments);
    void deny(const QString &callId, const QString &reason);
    void alwaysAllow(const QString &callId);
    void cancel();
    void runUserCode(const QString &code);
    void restartSandbox();
    void setModel(const QString &model);
    void setSandboxNetwork(bool enabled);
    void replaceHistory(const QList<ChatMessage> &history);

Q_SIGNALS:
    void event(const Sandpiper::AgentEvent &event);

private:
    template<typename Command> void post(Command command);

    QThread m_thread;
    AgentLoop *m_loop = nullptr; // lives on m_thread; only touched there
};

} // namespace Sandpiper
