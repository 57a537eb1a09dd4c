#pragma once

#include "agent/agentevent.h"
#include "tools/pythontool.h"
#include "tools/tool.h"

#include <QHash>
#include <QObject>
#include <QSet>

#include <QCoroTask>

namespace Sandpiper {

class ConversationStore;
class KernelRestorer;
class SandboxSession;
class ToolRegistry;

// Runs the tool calls of one conversation: asks for approval where the policy says so, waits for
// the user's decision, runs the tool, saves what code ran, and reports each call as AgentEvents
// (ToolCallProposed, ApprovalNeeded, ToolStarted, ToolOutput, ToolProgress, ToolFinished). The
// model's calls and the user's own code end in the same ToolFinished, built in one place.
class ToolCallRunner : public QObject
{
    Q_OBJECT

public:
    // The tools are those of TOOLS at the time of each call; the user's own code runs in SANDBOX
    // (none when Python is off), whose kernel RESTORER brings back before the model's code.
    // Executions are saved for conversation CONVERSATIONID in STORE when there is one.
    ToolCallRunner(ToolRegistry *tools, SandboxSession *sandbox, KernelRestorer *restorer, ModelTextLimits limits,
                   ConversationStore *store = nullptr, qint64 conversationId = 0, QObject *parent = nullptr);

    // The approval policies of the settings; tools not named use their own default.
    void setApprovals(const QHash<QString, ApprovalPolicy> &approval) { m_approval = approval; }
    // The model's context window in tokens, which sets how long a tool's result may be.
    void setContextWindow(qint64 tokens) { m_window = tokens; }
    // A new turn: the decisions and the stop of the last one are forgotten.
    void beginTurn();
    // Runs CALL, the model's, known as KEY; returns the tool message that answers it.
    QCoro::Task<ChatMessage> run(ToolCall call, CallKey key);
    // Runs the user's own CODE in the sandbox as the run KEY; returns what the model is told.
    QCoro::Task<QString> runUserCode(QString code, CallKey key);

    // The decisions on the call KEY that waits for approval.
    void approve(const CallKey &key);
    // Runs the call with ARGUMENTS (JSON text) instead of the model's.
    void approveEdited(const CallKey &key, const QString &arguments);
    void deny(const CallKey &key, const QString &reason);
    // Approves the call and every later call of TOOLNAME in this conversation.
    void alwaysAllow(const CallKey &key, const QString &toolName);
    // Stops the tool that runs and the wait for a decision; later calls of the turn do not run.
    void cancel();

    // The tool message that answers CALL with CONTENT.
    static ChatMessage toolMessage(const ToolCall &call, const QString &content);

    // What the running tool prints or reports as progress, for its card.
    void showOutput(const QString &stream, const QString &text);
    void showProgress(double progress, double total, const QString &message);

Q_SIGNALS:
    void event(const Sandpiper::AgentEvent &event);
    // Saving an execution failed, in words for the user.
    void storeFailed(const QString &message);
    // Internal: wakes the approval wait.
    void decisionMade();

private:
    struct Decision {
        enum class Kind { Approve, Deny } kind = Kind::Approve;
        QString reason;
        std::optional<QString> editedArguments;
    };

    static AgentEvent callEvent(AgentEvent::Kind kind, const CallKey &key, const ToolCall &call);
    QCoro::Task<std::optional<Decision>> waitForDecision(CallKey key);
    ApprovalPolicy policyFor(const Tool &tool) const;
    void started(const CallKey &key, const ToolCall &call, RunOrigin origin, const QString &preview);
    // Reports the end of CALL, whose model is told CONTENT; without an OUTCOME the call did not
    // run (refused, denied, cancelled or invalid). Returns the tool message for the model.
    ChatMessage finished(const CallKey &key, const ToolCall &call, RunOrigin origin, const QString &content,
                         std::optional<ToolOutcome> outcome = std::nullopt);
    void saveExecution(const CallKey &key, const ToolCall &call, RunOrigin origin, const QString &code,
                       const ExecutionResult &result);

    ToolRegistry *m_tools;
    SandboxSession *m_sandbox;
    KernelRestorer *m_restorer;
    ModelTextLimits m_limits;
    qint64 m_window = 0;
    ConversationStore *m_store;
    qint64 m_conversationId;
    QHash<QString, ApprovalPolicy> m_approval;
    QHash<CallKey, Decision> m_decisions;
    QSet<QString> m_alwaysAllowed;
    bool m_cancelled = false;
    // The call whose tool runs now, for its live output and progress.
    struct Running {
        CallKey key;
        ToolCall call;
    } m_running;
};

} // namespace Sandpiper
