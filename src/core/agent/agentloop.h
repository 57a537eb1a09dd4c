#pragma once

#include "agent/agentconfig.h"
#include "agent/agentevent.h"
#include "tools/toolregistry.h"

#include <QObject>
#include <QPointer>

#include <QCoroTask>

namespace Sandpiper {

class AttachmentPreparer;
class ChatClient;
class KernelRestorer;
class McpToolbox;
class ContextBudget;
class ConversationStore;
class SandboxSession;
class StreamingWriter;
class TitleWriter;
class ToolCallRunner;

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
    // Sends TEXT with ATTACHMENTS and IMAGES as sendWithAttachments() does, stored as a new version
    // of the user's message VERSIONOF (an edit); the history (replaceHistory()) ends before it.
    void sendVersion(const QString &text, const QStringList &attachments, const QStringList &images, qint64 versionOf);
    // Asks for a new answer to the history, which ends with the user's message: the answer is
    // stored as a new version beside the ones there are.
    void answerAgain();
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
    // The conversation's branch the model reads changed from outside (another version shown, an
    // edit or a new answer that goes on from an earlier message): the kernel's restorer learns the
    // branch's runs of code (KernelRestorer::setBranch).
    void replaceHistory(const QList<Sandpiper::ChatMessage> &history);
    // Brings the kernel to the branch of the history when it holds another one's variables, with
    // RestoreProgress, RestoreFinished and TurnFinished (or, with the network on, RestoreOffered
    // only); cancel() stops it.
    void followBranch();
    // Cancels what runs, lets the sandbox go (its container is removed in the background) and
    // deletes the loop once control is back in the event loop.
    void shutdown();

Q_SIGNALS:
    void event(const Sandpiper::AgentEvent &event);

private:
    // A turn: the user's TEXT with ATTACHMENTS and IMAGES (a new version of VERSIONOF when that is
    // not 0), or with AGAIN no new message, a new answer to the history as it is.
    QCoro::Task<> runTurn(QString text, QStringList attachments = {}, QStringList images = {}, qint64 versionOf = 0,
                          bool again = false);
    QCoro::Task<> exportTableTask(QString requestId, QString tableId, QString format, QString fileName);
    QCoro::Task<> runUserCodeTask(QString code);
    QCoro::Task<> restoreKernelTask(bool rerunWritingCells);
    QCoro::Task<> followBranchTask();
    QList<ChatMessage> requestMessages();
    // Returns the message as the history holds it (with its row in the store).
    // Stores MESSAGE (as a new version of VERSIONOF when that is not 0, else after the history's
    // last message) unless it is stored, and adds it to the history.
    const ChatMessage &addMessage(ChatMessage message, qint64 versionOf = 0);
    void save(ChatMessage &message, qint64 versionOf = 0);
    void reportStoreError(const QString &message);
    void emitEvent(AgentEvent::Kind kind, QString text = {});

    AgentConfig m_config;
    ConversationStore *m_store;
    qint64 m_conversationId;
    ChatClient *m_client;
    ContextBudget *m_budget;            // fits every request into the model's context window
    QPointer<StreamingWriter> m_writer; // the answer streaming in, when there is a store
    QPointer<SandboxSession> m_sandbox;
    KernelRestorer *m_restorer = nullptr; // with the sandbox
    McpToolbox *m_mcp = nullptr;
    TitleWriter *m_titles = nullptr; // when the model writes titles of stored conversations
    ToolRegistry m_tools;
    ToolCallRunner *m_runner;
    AttachmentPreparer *m_attachments;
    QList<ChatMessage> m_history;
    bool m_busy = false;
    bool m_cancelled = false;
    bool m_storeErrorShown = false;
};

} // namespace Sandpiper
