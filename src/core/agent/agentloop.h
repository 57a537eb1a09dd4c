#pragma once

#include "agent/agentconfig.h"
#include "agent/agentevent.h"
#include "agent/kernelrestore.h"
#include "tools/toolregistry.h"

#include <QObject>
#include <QPointer>
#include <QSet>

#include <QCoroTask>

namespace Sandpiper {

class ChatClient;
class McpToolbox;
class ContextBudget;
class ConversationStore;
class SandboxSession;
class StreamingWriter;

// The tool-calling loop of one conversation: sends the history with the tool declarations,
// streams the answer, runs the calls the model asks for (after approval where the policy
// says so), feeds the results back, and repeats up to the round limit.
//
// Lives on the agent's worker thread; front ends talk to it through AgentThread. Every
// command is a slot; everything it has to say is an AgentEvent.
class AgentLoop : public QObject
{
    Q_OBJECT

public:
    // With a STORE, every message and execution of conversation CONVERSATIONID is saved as it
    // happens (answers while they stream); without one the conversation lives in memory.
    explicit AgentLoop(AgentConfig config, ConversationStore *store = nullptr, qint64 conversationId = 0,
                       QObject *parent = nullptr);
    // Does not cancel: call shutdown() instead, which ends what runs while the loop is whole.
    ~AgentLoop() override;

    const QList<ChatMessage> &history() const { return m_history; }
    void setHistory(QList<ChatMessage> history);
    bool isBusy() const { return m_busy; }
    SandboxSession *sandbox() const;

public Q_SLOTS:
    void send(const QString &text);
    // Sends TEXT with the files ATTACHMENTS and the images IMAGES (names in the conversation's
    // folder): the model is told what each file is, with a short preview, before the text; the
    // images go as image parts to a model that takes them (SendRefused for one that does not).
    void sendWithAttachments(const QString &text, const QStringList &attachments, const QStringList &images);
    // Asks the sandbox to write the whole frame behind table TABLEID into the folder as FILENAME
    // ("csv" or "xlsx"); answers with a TableExported event for REQUESTID.
    void exportTable(const QString &requestId, const QString &tableId, const QString &format, const QString &fileName);
    // The decisions on the call KEY (see CallKey) that waits for approval.
    void approve(const Sandpiper::CallKey &key);
    // Runs the call with ARGUMENTS (JSON text, e.g. {"code": "..."}) instead of the model's.
    void approveEdited(const Sandpiper::CallKey &key, const QString &arguments);
    void deny(const Sandpiper::CallKey &key, const QString &reason);
    // Approves the call and every later call of the same tool in this conversation.
    void alwaysAllow(const Sandpiper::CallKey &key);
    void cancel();
    // Runs the user's own code (from the inspector) in the same sandbox; the model sees it,
    // and its result, in the next turn. The run's key is the user message that tells it so.
    void runUserCode(const QString &code);
    void restartSandbox();
    // Runs the conversation's successful cells again, in order, in a fresh kernel, to bring its
    // variables back; cells that write into /mnt/data run again only with RERUNWRITINGCELLS.
    // Progress comes as RestoreProgress, the end as RestoreFinished and TurnFinished; cancel()
    // stops it. The model is told what was restored with the next result of its code.
    void restoreKernel(bool rerunWritingCells);
    void setModel(const QString &model);
    // Takes effect at the next request (a new key, URL or model from the settings).
    void setProvider(const Sandpiper::ProviderConfig &provider);
    void setSandboxNetwork(bool enabled);
    // The approval policies of the settings (the MCP tools' change while conversations run).
    void setApprovals(const QHash<QString, Sandpiper::ApprovalPolicy> &approval);
    // The setting that restores a new kernel's variables before the model's code runs.
    void setRestoreAutomatically(bool automatic);
    // The conversation was changed from outside (an edit dropped later turns).
    void replaceHistory(const QList<Sandpiper::ChatMessage> &history);
    // Cancels what runs, lets the sandbox go (its container is removed in the background) and
    // deletes the loop once control is back in the event loop.
    void shutdown();

Q_SIGNALS:
    void event(const Sandpiper::AgentEvent &event);
    // Internal: wakes the approval wait.
    void decisionMade();

private:
    struct Decision {
        enum class Kind { Approve, Deny } kind = Kind::Approve;
        QString reason;
        std::optional<QString> editedArguments;
    };

    QCoro::Task<> runTurn(QString text, QStringList attachments = {}, QStringList images = {});
    // Why IMAGES cannot go to the current model, for the user; empty when they can.
    QCoro::Task<QString> imagesRefusal(QStringList images);
    // Image NAME of the conversation's folder as a data URL, prepared once per conversation;
    // empty with ERROR set when it cannot be sent.
    QString imageUrl(const QString &name, QString *error);
    QCoro::Task<QString> describeAttachments(QStringList attachments);
    QCoro::Task<> exportTableTask(QString requestId, QString tableId, QString format, QString fileName);
    QCoro::Task<> runUserCodeTask(QString code);
    QCoro::Task<> restoreKernelTask(bool rerunWritingCells);
    QCoro::Task<KernelRestore> replay(bool rerunWritingCells);
    // The kernel is gone: if earlier cells defined something, restoring it is offered.
    void kernelStopped();
    QCoro::Task<> improveTitle(ChatMessage question, QString answer);
    QCoro::Task<ChatMessage> runToolCall(ToolCall call, CallKey key);
    QCoro::Task<std::optional<Decision>> waitForDecision(CallKey key);
    ApprovalPolicy policyFor(const Tool &tool) const;
    QList<ChatMessage> requestMessages();
    // Returns the message as the history holds it (with its row in the store).
    const ChatMessage &addMessage(ChatMessage message);
    void save(ChatMessage &message);
    void saveExecution(const CallKey &key, const ToolCall &call, RunOrigin origin, const QString &code,
                       const ExecutionResult &result);
    void reportStoreError(const QString &message);
    void emitEvent(AgentEvent::Kind kind, QString text = {});
    ChatMessage toolMessage(const ToolCall &call, const QString &content) const;

    AgentConfig m_config;
    ConversationStore *m_store;
    qint64 m_conversationId;
    ChatClient *m_client;
    ChatClient *m_titleClient = nullptr; // created for the first model-written title
    ContextBudget *m_budget;             // fits every request into the model's context window
    QPointer<StreamingWriter> m_writer;  // the answer streaming in, when there is a store
    QPointer<SandboxSession> m_sandbox;
    McpToolbox *m_mcp = nullptr;
    ToolRegistry m_tools;
    QList<ChatMessage> m_history;
    QHash<CallKey, Decision> m_decisions;
    QHash<QString, QString> m_imageUrls; // by file name
    QSet<QString> m_alwaysAllowed;
    // The call whose tool runs now, for its live output and progress.
    struct Running {
        CallKey key;
        ToolCall call;
    } m_running;
    bool m_busy = false;
    bool m_cancelled = false;
    bool m_storeErrorShown = false;
    bool m_kernelAlive = false;
    // Restoring the kernel: the conversation's successful code, oldest first; whether the
    // kernel lacks what it defined, why, and what the model has been told.
    QList<StoredExecution> m_replayable;
    bool m_restorePending = false;
    bool m_restoring = false;
    bool m_ignoreNextStop = false; // the user restarted the kernel
    bool m_codeSinceNew = false;   // the kernel ran code since it started
    bool m_lossTold = false;       // the model knows the variables are gone
    QString m_lostReason;
    QString m_restoreNote; // a replay the user asked for, for the next result of code
};

} // namespace Sandpiper
