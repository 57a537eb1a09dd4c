#include "agent/toolcallrunner.h"

#include "agent/kernelrestorer.h"
#include "sandbox/sandboxsession.h"
#include "storage/conversationstore.h"
#include "tools/toolregistry.h"

#include <QCoroSignal>
#include <QPointer>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

QString cancelledText()
{
    return QStringLiteral("Cancelled: the user stopped the answer before this call ran.");
}

} // namespace

ToolCallRunner::ToolCallRunner(ToolRegistry *tools, SandboxSession *sandbox, KernelRestorer *restorer,
                               ModelTextLimits limits, ConversationStore *store, qint64 conversationId, QObject *parent)
    : QObject(parent)
    , m_tools(tools)
    , m_sandbox(sandbox)
    , m_restorer(restorer)
    , m_limits(std::move(limits))
    , m_store(store)
    , m_conversationId(conversationId)
{}

void ToolCallRunner::beginTurn()
{
    m_cancelled = false;
    m_decisions.clear();
}

AgentEvent ToolCallRunner::callEvent(AgentEvent::Kind kind, const CallKey &key, const ToolCall &call)
{
    AgentEvent made;
    made.kind = kind;
    made.key = key;
    made.call = call;
    return made;
}

void ToolCallRunner::showOutput(const QString &stream, const QString &text)
{
    if (m_restorer && m_restorer->isRestoring())
        return; // what a replay prints was shown when the cells first ran
    AgentEvent live = callEvent(AgentEvent::Kind::ToolOutput, m_running.key, m_running.call);
    live.stream = stream;
    live.text = text;
    Q_EMIT event(live);
}

void ToolCallRunner::showProgress(double progress, double total, const QString &message)
{
    AgentEvent live = callEvent(AgentEvent::Kind::ToolProgress, m_running.key, m_running.call);
    live.progress = progress;
    live.progressTotal = total;
    live.text = message;
    Q_EMIT event(live);
}

void ToolCallRunner::started(const CallKey &key, const ToolCall &call, RunOrigin origin, const QString &preview)
{
    AgentEvent started = callEvent(AgentEvent::Kind::ToolStarted, key, call);
    started.preview = preview;
    started.origin = origin;
    Q_EMIT event(started);
    m_running = {key, call};
}

ChatMessage ToolCallRunner::finished(const CallKey &key, const ToolCall &call, RunOrigin origin, const QString &content,
                                     std::optional<ToolOutcome> outcome)
{
    AgentEvent done = callEvent(AgentEvent::Kind::ToolFinished, key, call);
    done.origin = origin;
    done.text = content;
    done.ran = outcome.has_value();
    if (outcome) {
        done.success = outcome->success;
        done.result = std::move(outcome->result);
    }
    Q_EMIT event(done);
    return toolMessage(call, content);
}

ChatMessage ToolCallRunner::toolMessage(const ToolCall &call, const QString &content)
{
    ChatMessage message;
    message.role = ChatMessage::Role::Tool;
    message.toolCallId = call.id;
    message.toolName = call.name;
    message.content = content;
    return message;
}

void ToolCallRunner::saveExecution(const CallKey &key, const ToolCall &call, RunOrigin origin, const QString &code,
                                   const ExecutionResult &result)
{
    StoredExecution execution;
    execution.conversationId = m_conversationId;
    execution.call = key;
    execution.toolCallId = origin == RunOrigin::Model ? call.id : QString();
    execution.code = code;
    execution.origin = origin;
    execution.result = result;
    // Stored first: the restorer knows the kernel's cells by their rows.
    if (m_store) {
        if (auto stored = m_store->addExecution(execution); !stored) {
            Q_EMIT storeFailed(stored.error().message);
        } else {
            execution.id = stored->id;
            // The folder as this run left it, so that its branch gets its files back (issue 27).
            const qint64 diskLimit = m_sandbox ? m_sandbox->config().diskLimitBytes : 0;
            const qint64 minFree = m_sandbox ? m_sandbox->config().minFreeDiskBytes : 0;
            if (auto recorded = m_store->recordFolder(m_conversationId, stored->id, diskLimit, minFree); !recorded)
                Q_EMIT storeFailed(recorded.error().message);
        }
    }
    if (m_restorer)
        m_restorer->record(execution);
}

QCoro::Task<ChatMessage> ToolCallRunner::run(ToolCall call, CallKey key)
{
    QPointer<ToolCallRunner> self(this);
    Q_EMIT event(callEvent(AgentEvent::Kind::ToolCallProposed, key, call));

    const RunOrigin model = RunOrigin::Model;
    if (m_cancelled)
        co_return finished(key, call, model, cancelledText());
    Tool *tool = m_tools->find(call.name);
    if (!tool) {
        const QStringList names = m_tools->names();
        co_return finished(
            key, call, model,
            names.isEmpty() ? QStringLiteral("Error: there is no tool \"%1\"; no tools are available.").arg(call.name)
                            : QStringLiteral("Error: there is no tool \"%1\". Available tools: %2.")
                                  .arg(call.name, names.join(QStringLiteral(", "))));
    }
    PreparedCall prepared = tool->prepare(call);
    if (!prepared.ok())
        co_return finished(key, call, model, QStringLiteral("Error: %1").arg(prepared.error));

    QString note;
    switch (policyFor(*tool)) {
    case ApprovalPolicy::Never:
        co_return finished(key, call, model,
                           QStringLiteral("Not run: the user does not allow %1 in this conversation. Do not call it "
                                          "again; answer without it.")
                               .arg(call.name));
    case ApprovalPolicy::Auto:
        break;
    case ApprovalPolicy::Ask: {
        AgentEvent approval = callEvent(AgentEvent::Kind::ApprovalNeeded, key, call);
        approval.preview = prepared.preview;
        Q_EMIT event(approval);
        const std::optional<Decision> decision = co_await waitForDecision(key);
        if (!self)
            co_return {};
        if (!decision)
            co_return finished(key, call, model, cancelledText());
        if (decision->kind == Decision::Kind::Deny) {
            co_return finished(
                key, call, model,
                decision->reason.isEmpty()
                    ? QStringLiteral("Not run: the user declined to run this.")
                    : QStringLiteral("Not run: the user declined to run this. Their reason: %1").arg(decision->reason));
        }
        if (decision->editedArguments) {
            ToolCall edited = call;
            edited.arguments = *decision->editedArguments;
            prepared = tool->prepare(edited);
            if (!prepared.ok())
                co_return finished(key, call, model,
                                   QStringLiteral("Error in the user's edit: %1").arg(prepared.error));
            note =
                QStringLiteral("Note: the user edited the call before it ran. What ran:\n%1\n\n").arg(prepared.preview);
        }
        break;
    }
    }

    // Code about to run in a new kernel: its variables come back first when the user wants that,
    // and the model is told either way.
    if (call.name == PythonTool::toolName() && m_restorer) {
        note += co_await m_restorer->noteBeforeCode();
        if (!self)
            co_return {};
        if (m_cancelled)
            co_return finished(key, call, model, cancelledText());
    }

    started(key, call, model, prepared.preview);
    prepared.resultChars = m_limits.resultBudget(m_window);
    ToolOutcome outcome = co_await tool->run(prepared);
    if (!self)
        co_return {};
    m_running = {};
    if (const auto *execution = std::get_if<ExecutionResult>(&outcome.result))
        saveExecution(key, call, model, prepared.preview, *execution);
    const QString content = note + outcome.modelText;
    co_return finished(key, call, model, content, std::move(outcome));
}

QCoro::Task<QString> ToolCallRunner::runUserCode(QString code, CallKey key)
{
    QPointer<ToolCallRunner> self(this);
    ToolCall call;
    call.name = PythonTool::toolName();
    started(key, call, RunOrigin::User, code);
    const ExecutionResult result = co_await m_sandbox->execute(code);
    if (!self)
        co_return {};
    m_running = {};
    const QString report = PythonTool::reportForModel(result, m_limits, m_limits.resultBudget(m_window));
    finished(
        key, call, RunOrigin::User, report,
        ToolOutcome{.modelText = report, .success = result.status == ExecutionResult::Status::Ok, .result = result});
    saveExecution(key, call, RunOrigin::User, code, result);
    co_return report;
}

void ToolCallRunner::approve(const CallKey &key)
{
    m_decisions.insert(key, Decision{});
    Q_EMIT decisionMade();
}

void ToolCallRunner::approveEdited(const CallKey &key, const QString &arguments)
{
    m_decisions.insert(key, Decision{.kind = Decision::Kind::Approve, .reason = {}, .editedArguments = arguments});
    Q_EMIT decisionMade();
}

void ToolCallRunner::deny(const CallKey &key, const QString &reason)
{
    m_decisions.insert(key, Decision{.kind = Decision::Kind::Deny, .reason = reason, .editedArguments = {}});
    Q_EMIT decisionMade();
}

void ToolCallRunner::alwaysAllow(const CallKey &key, const QString &toolName)
{
    if (!toolName.isEmpty())
        m_alwaysAllowed.insert(toolName);
    approve(key);
}

void ToolCallRunner::cancel()
{
    m_cancelled = true;
    m_tools->cancelAll();
    Q_EMIT decisionMade();
}

ApprovalPolicy ToolCallRunner::policyFor(const Tool &tool) const
{
    if (m_alwaysAllowed.contains(tool.name()))
        return ApprovalPolicy::Auto;
    return m_approval.value(tool.name(), tool.defaultApproval());
}

QCoro::Task<std::optional<ToolCallRunner::Decision>> ToolCallRunner::waitForDecision(CallKey key)
{
    QPointer<ToolCallRunner> self(this);
    // The user may take their time; the wait wakes at every decision and every minute.
    while (!m_decisions.contains(key)) {
        if (m_cancelled)
            co_return std::nullopt;
        co_await qCoro(this, &ToolCallRunner::decisionMade, 60s);
        if (!self)
            co_return std::nullopt;
    }
    if (m_cancelled)
        co_return std::nullopt;
    co_return m_decisions.take(key);
}

} // namespace Sandpiper
