#pragma once

#include "agent/agentconfig.h"
#include "agent/agentevent.h"
#include "agent/agentloop.h"

#include <QObject>

#include <chrono>

class QThread;

namespace Sandpiper {

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
    // Returns at once: the loop shuts down on its own thread (cancelling what runs, letting its
    // sandbox go), and the thread ends after it. See waitForRetiredThreads().
    ~AgentThread() override;

    // Calls COMMAND (an AgentLoop slot) with ARGUMENTS on the loop's thread, e.g.
    // agent.post(&AgentLoop::send, text). The arguments are copied across.
    template<typename... Parameters, typename... Arguments>
    void post(void (AgentLoop::*command)(Parameters...), Arguments &&...arguments)
    {
        QMetaObject::invokeMethod(
            m_loop,
            [loop = m_loop, command, ... values = std::decay_t<Parameters>(std::forward<Arguments>(arguments))] {
                (loop->*command)(values...);
            },
            Qt::QueuedConnection);
    }

    // Waits, up to TIMEOUT in all, for the threads of agents that were destroyed to end; for the
    // end of the program, once the window is gone. Returns whether they all ended.
    static bool waitForRetiredThreads(std::chrono::milliseconds timeout);

Q_SIGNALS:
    void event(const Sandpiper::AgentEvent &event);

private:
    QThread *m_thread;
    AgentLoop *m_loop = nullptr; // lives on m_thread; only touched there
};

} // namespace Sandpiper
