#pragma once

#include "agent/agentconfig.h"
#include "agent/agentevent.h"
#include "session/sessionstate.h"
#include "session/transcript.h"
#include "storage/storeresult.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>

namespace Sandpiper {

class AgentThread;
class ConversationStore;
class ExecutionModel;
class LocalModelHost;
class MessageModel;

// One open conversation: its agent (a worker thread with its sandbox), the message model the
// chat shows, the execution model the inspector shows, and its state (busy and what it does,
// tokens, title). It takes in every event of its agent and is the only place any of that
// changes (the models through its Transcript, which applies streamed text once per frame);
// views show it and send the user's intents to its slots. Lives on the GUI thread.
class ConversationSession : public QObject
{
    Q_OBJECT

public:
    // CONFIG makes the agent when it is first needed; the conversation is read from STORE.
    ConversationSession(qint64 conversationId, ConversationStore *store, AgentConfig config, QObject *parent = nullptr);
    // Returns at once: the agent shuts down in the background (see AgentThread).
    ~ConversationSession() override;

    qint64 id() const { return m_id; }
    QString folder() const;
    MessageModel *messages() const { return m_messages; }
    ExecutionModel *executions() const { return m_executions; }
    const SessionState &state() const { return m_state; }
    bool isBusy() const { return m_state.busy(); }
    // The text of the last answer, empty when there is none.
    QString lastAnswer() const;

    // Reads the conversation from the store into the models.
    StoreResult<void> load();

    void send(const QString &text);
    void stop();
    // The user's decisions on the call KEY that waits for approval (see CallKey).
    void approve(const Sandpiper::CallKey &key);
    // Runs the call with ARGUMENTS (the tool's JSON arguments) instead of the model's.
    void approveEdited(const Sandpiper::CallKey &key, const QString &arguments);
    void alwaysAllow(const Sandpiper::CallKey &key);
    void deny(const Sandpiper::CallKey &key, const QString &reason);
    // Runs CODE in the conversation's sandbox; it shows as a call of its own in the chat and in
    // the inspector, and the model is told about it.
    void runUserCode(const QString &code);
    void restartKernel();
    // Runs the conversation's successful cells again in a fresh kernel (see KernelRestore);
    // those that write into /mnt/data only with RERUNWRITINGCELLS. stop() stops it.
    void restoreVariables(bool rerunWritingCells);
    // The user does not want the variables back now; the offer comes again when a kernel is lost.
    void dismissRestore();

    StoreResult<void> rename(const QString &title);
    // This conversation's model, from its next request on.
    StoreResult<void> setModel(const QString &model);
    // Takes effect in a fresh sandbox: a running one is replaced.
    StoreResult<void> setNetworkAllowed(bool allowed);
    // Copies PATH into the conversation's folder; it goes with the next message, and the model is
    // told what it is. Refused when the folder would pass its disk limit.
    StoreResult<void> attach(const QString &path);
    // Copies the image PATH into the folder like attach(); it goes with the next message as an
    // image for a model that takes images, and as a file for the code. Refused when it is no
    // image Qt reads (or too large), as attach() is.
    StoreResult<void> attachImage(const QString &path);
    // Shows NAME, an image already in the folder (a figure), to the model with the next message.
    StoreResult<void> showImage(const QString &name);
    // Takes NAME off the next message's images; the file stays in the folder.
    void removePendingImage(const QString &name);
    // Takes the file NAME off the next message and out of the folder (it was copied there for it).
    StoreResult<void> removePendingAttachment(const QString &name);
    // Asks the sandbox to write all of table TABLEINDEX of call KEY (as "csv" or "xlsx") into the
    // folder; tableExported() tells how it went.
    void exportTable(const Sandpiper::CallKey &key, int tableIndex, const QString &format);
    // Sends TEXT as a new version of the user's message MESSAGEID (an edit), with its images and
    // files: the model reads the branch up to it, and MESSAGEID with what followed it stays, a
    // version beside the new one. TEXT is taken by value: the model it comes from is reloaded.
    StoreResult<void> resendFrom(qint64 messageId, QString text);
    // Asks again for the answer to the last question; the old answer stays, a version beside it.
    StoreResult<void> regenerate();
    // Asks again for the answer to QUESTIONID, a user's message of the branch shown.
    StoreResult<void> answerAgain(qint64 questionId);
    // Shows the version MESSAGEID (or a message on another branch): the branch through it, below it
    // the versions shown there last; the model reads that branch from the next request on.
    StoreResult<void> showVersion(qint64 messageId);
    // The version STEP places after MESSAGEID among its versions (-1: the one before), oldest
    // first; an error when there is none there.
    StoreResult<qint64> siblingVersion(qint64 messageId, int step) const;
    // Sends TEXT as the next message after MESSAGEID, any message of the conversation on any
    // branch: the model reads the branch down to it, and the new branch is the one shown.
    StoreResult<void> sendAfter(qint64 messageId, const QString &text);
    // Deletes the version MESSAGEID with everything below it; the branch shown falls back to the
    // version shown last beside it.
    StoreResult<void> deleteVersion(qint64 messageId);

    // The provider (URL, key, headers) and model this conversation's requests go to; the
    // SessionManager sets them from the conversation's own choice and the provider's settings.
    const ProviderConfig &provider() const { return m_config.provider; }
    // From the next request on.
    void setProvider(const ProviderConfig &provider);
    // The server of the provider "This computer": asked for its address before each turn.
    void setLocalModels(LocalModelHost *host);
    // The approval policies of the settings, from the next call on.
    void setApprovals(const QHash<QString, ApprovalPolicy> &approval);
    // Whether a new kernel gets its variables back before the model's code, from the next call on.
    void setRestoreAutomatically(bool automatic);
    // Whether the model is offered Python, for an agent not started yet.
    void setPythonEnabled(bool enabled);

    // Takes in an event of the agent. Public so that tests and benchmarks can play a scripted
    // stream into a session without a model.
    void handle(const Sandpiper::AgentEvent &event);

    // How long the text of a streaming answer collects before the model shows it.
    static constexpr std::chrono::milliseconds frameInterval = Transcript::frameInterval;

Q_SIGNALS:
    void stateChanged();
    void titleChanged(const QString &title);
    // A message joined the conversation (its place in the conversation list may change).
    void historyChanged();
    void turnFinished(Sandpiper::AgentEvent::End end, qint64 durationMs);
    // An exportTable() ended: FILENAME is in the folder, or ERROR says why not.
    void tableExported(const Sandpiper::CallKey &key, int tableIndex, const QString &fileName, const QString &error);
    // Every event of the agent, after the models took it in (the terminal prints them).
    void agentEvent(const Sandpiper::AgentEvent &event);
    // "Always allow" for an MCP tool: the settings keep it for every conversation (see McpTrust).
    void toolAllowedAlways(const QString &tool);
    // A message the model could not take came back (see AgentEvent::SendRefused): TEXT goes back
    // into the message box, its images and files are pending again.
    void draftReturned(const QString &text);

private:
    AgentThread *agent();
    // Sends TEXT, as a new version of the user's message VERSIONOF when that is not 0.
    void sendAs(const QString &text, qint64 versionOf);
    // The branch shown down to MESSAGEID, WITHIT or not.
    StoreResult<QList<ChatMessage>> pathTo(qint64 messageId, bool withIt) const;
    // Shows PATH (with its runs) and has the agent read it, made now when MAKEAGENT (a turn on PATH
    // follows, or the kernel is to follow it).
    void showPath(const QList<ChatMessage> &path, bool makeAgent);
    // Makes CHANGE to the store's branches unless an answer runs (WHENBUSY says so), then shows the
    // branch shown there.
    StoreResult<void> changeBranch(const QString &whenBusy, const std::function<StoreResult<void>()> &change);
    // Copies PATH into the folder and adds its name there to the list PENDING of the state.
    StoreResult<void> attachTo(const QString &path, QStringList SessionState::*pending);
    // Once the first message is stored, the title the store gave the conversation.
    void takeStoredTitle();
    void setPhase(SessionState::Phase phase);
    void changeState(const std::function<void(SessionState &)> &change);
    void finishTurn(const AgentEvent &event);
    // A message shown in the chat and not yet handed to the agent.
    struct Draft {
        QString text;
        QStringList attachments;
        QStringList images;
    };
    // Hands the turn of DRAFT to the agent (POST); with the provider "This computer", once its
    // server answers. When it cannot, the draft goes back to the message box with why.
    void startTurn(const Draft &draft, const std::function<void()> &post);
    // The unsent DRAFT leaves the chat and goes back to the message box with its files and images.
    void returnDraft(const Draft &draft);

    const qint64 m_id;
    ConversationStore *m_store;
    AgentConfig m_config;
    std::unique_ptr<AgentThread> m_agent;
    MessageModel *m_messages;
    ExecutionModel *m_executions;
    Transcript *m_transcript;
    SessionState m_state;
    QElapsedTimer m_turnTimer;
    // Since the last turn with the model on this computer ended on an error: its server's exit may
    // be noticed only after the broken stream ended the turn, and is still told then.
    QElapsedTimer m_localTurnFailed;
    // After a switch of branch the kernel follows once the user stays on the branch a moment:
    // paging through versions to read them runs nothing.
    QTimer *m_followDelay;
    struct PendingExport {
        CallKey call;
        int tableIndex = 0;
    };
    QHash<QString, PendingExport> m_exports; // by request
    int m_nextExport = 0;
    QPointer<LocalModelHost> m_local;
    Draft m_waiting; // while the model on this computer loads for it
    // Counts the turns started; a stop while the local model loads makes its wait stale.
    int m_turnsStarted = 0;
};

} // namespace Sandpiper
