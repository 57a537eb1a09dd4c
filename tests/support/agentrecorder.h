#pragma once

#include "fakellmserver.h"

#include <agent/agentconfig.h>
#include <agent/agentevent.h>

#include <QEventLoop>
#include <QObject>

#include <functional>

namespace Sandpiper {
class AgentLoop;
}

namespace Sandpiper::Test {

// Collects an agent loop's events; ONEVENT may answer them (approvals, cancels) as they come.
class AgentRecorder : public QObject
{
public:
    explicit AgentRecorder(AgentLoop *loop);

    QList<AgentEvent> events;
    std::function<void(const AgentEvent &)> onEvent;

    QList<AgentEvent> ofKind(AgentEvent::Kind kind) const;
    // Waits, with the event loop running, until TURNS turns have finished; returns as soon as
    // the last one has.
    bool waitForTurn(int turns = 1, int timeoutMs = 60000);
    AgentEvent::End end() const;

private:
    QEventLoop *m_waiting = nullptr;
};

// The content of the tool message answering CALLID in a request the model server received.
QString toolMessageIn(const RecordedRequest &request, const QString &callId);
// {"code": CODE} as compact JSON text, as a model sends it.
QString jsonCode(const QString &code);
// A message of ROLE saying CONTENT.
ChatMessage chatMessage(ChatMessage::Role role, const QString &content);
// An agent for the model server at BASEURL ("test-model", a one-line system prompt) that offers
// only Python, with APPROVAL for it; its sandbox, where one starts, keeps its files in FOLDER.
AgentConfig agentConfig(const QUrl &baseUrl, ApprovalPolicy approval, const QString &folder);

} // namespace Sandpiper::Test
