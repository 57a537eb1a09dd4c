#include "session/conversationsession.h"

#include "agent/agentthread.h"
#include "llm/modelimage.h"
#include "mcp/mcptoolname.h"
#include "sandbox/sandboxfolder.h"
#include "session/executionmodel.h"
#include "session/localmodelhost.h"
#include "session/messagemodel.h"
#include "session/transcript.h"
#include "storage/conversationstore.h"

#include <QFile>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace Sandpiper {

namespace {

// How long a branch is shown before the kernel follows it.
constexpr std::chrono::milliseconds followDelay{700};

bool isAnswer(const TurnItem &item)
{
    return item.kind == TurnItem::Kind::Message && item.message.role == ChatMessage::Role::Assistant;
}

// FIRST, then what of LATER is not in it.
QStringList joined(QStringList first, const QStringList &later)
{
    for (const QString &name : later) {
        if (!first.contains(name))
            first << name;
    }
    return first;
}

} // namespace

ConversationSession::ConversationSession(qint64 conversationId, ConversationStore *store, AgentConfig config,
                                         QObject *parent)
    : QObject(parent)
    , m_id(conversationId)
    , m_store(store)
    , m_config(std::move(config))
    , m_messages(new MessageModel(this))
    , m_executions(new ExecutionModel(this))
    , m_transcript(new Transcript(m_messages, m_executions, this))
    , m_followDelay(new QTimer(this))
{
    m_followDelay->setSingleShot(true);
    m_followDelay->setInterval(followDelay);
    // A turn begun meanwhile brings the kernel to its branch before the model's code runs.
    connect(m_followDelay, &QTimer::timeout, this, [this] {
        if (m_agent && !isBusy())
            m_agent->post(&AgentLoop::followBranch);
    });
    qRegisterMetaType<Sandpiper::AgentEvent::End>(); // turnFinished() crosses queued connections and spies
    m_state.providerId = m_config.provider.id;
    m_state.model = m_config.provider.model;
    m_state.networkAllowed = m_config.sandbox.network;
}

ConversationSession::~ConversationSession()
{
    if (m_local)
        m_local->setAnswering(this, false);
}

QString ConversationSession::folder() const
{
    return m_store->conversationFolder(m_id);
}

QString ConversationSession::lastAnswer() const
{
    for (int row = m_messages->rowCount() - 1; row >= 0; --row) {
        const TurnItem &item = m_messages->item(row);
        if (isAnswer(item) && !item.message.content.isEmpty())
            return item.message.content;
    }
    return {};
}

StoreResult<void> ConversationSession::load()
{
    const auto conversation = m_store->conversation(m_id);
    if (!conversation)
        return conversation.error();
    const auto messages = m_store->messages(m_id);
    if (!messages)
        return messages.error();
    const auto executions = m_store->executions(m_id);
    if (!executions)
        return executions.error();
    m_transcript->reset(*messages, *executions);
    m_config.sandbox.network =
        conversation->settings.value(QLatin1String("sandbox_network")).toBool(m_config.sandbox.network);
    qint64 tokens = 0;
    for (const ChatMessage &message : *messages)
        tokens += message.usage.totalTokens;
    // No kernel runs for a conversation just opened: what its cells defined is gone.
    const QList<StoredExecution> replayable =
        m_config.pythonEnabled && !m_agent ? KernelRestore::replayable(*executions) : QList<StoredExecution>();
    changeState([&](SessionState &state) {
        state.title = conversation->title;
        state.networkAllowed = m_config.sandbox.network;
        state.tokens = tokens;
        state.restoreOffered = !replayable.isEmpty();
        if (state.restoreOffered)
            state.restore = KernelRestore::offer(replayable, KernelRestore::reopenedReason());
    });
    return {};
}

AgentThread *ConversationSession::agent()
{
    if (!m_agent) {
        const auto history = m_store->messages(m_id);
        m_agent = std::make_unique<AgentThread>(m_config, m_store, m_id, history ? *history : QList<ChatMessage>());
        connect(m_agent.get(), &AgentThread::event, this, &ConversationSession::handle);
    }
    return m_agent.get();
}

void ConversationSession::send(const QString &text)
{
    sendAs(text, 0);
}

void ConversationSession::sendAs(const QString &text, qint64 versionOf)
{
    if (isBusy()) {
        m_transcript->addNotice(TurnItem::NoticeLevel::Error,
                                tr("Wait for the current answer to finish, or stop it, before sending."));
        return;
    }
    const QStringList attachments = m_state.pendingAttachments;
    const QStringList images = m_state.pendingImages;
    m_turnTimer.start();
    // The message shows at once; the agent's stored copy takes its place (MessageAdded).
    ChatMessage sent;
    sent.role = ChatMessage::Role::User;
    sent.content = text;
    sent.images = images;
    const SandboxFolder files(folder());
    for (const QString &name : attachments)
        sent.attachments.append({name, files.fileSize(name)});
    m_transcript->showSent(sent);
    changeState([](SessionState &state) {
        state.pendingAttachments.clear();
        state.pendingImages.clear();
        state.phase = SessionState::Phase::Waiting;
    });
    startTurn({text, attachments, images}, [this, text, attachments, images, versionOf] {
        if (versionOf != 0)
            agent()->post(&AgentLoop::sendVersion, text, attachments, images, versionOf);
        else if (attachments.isEmpty() && images.isEmpty())
            agent()->post(&AgentLoop::send, text);
        else
            agent()->post(&AgentLoop::sendWithAttachments, text, attachments, images);
    });
}

void ConversationSession::startTurn(const Draft &draft, const std::function<void()> &post)
{
    const int turn = ++m_turnsStarted;
    if (m_config.provider.id != LocalModelHost::providerId() || !m_local) {
        post();
        return;
    }
    m_waiting = draft;
    changeState([](SessionState &state) { state.preparing = tr("Starting the model on this computer…"); });
    QCoro::connect(m_local->address(m_config.provider.model), this, [this, turn, post](const Result<QUrl> &url) {
        if (turn != m_turnsStarted)
            return; // stopped while it loaded: the draft went back then
        if (!url) {
            returnDraft(std::exchange(m_waiting, {}));
            m_transcript->addNotice(TurnItem::NoticeLevel::Error, url.error());
            return;
        }
        m_waiting = {};
        changeState([](SessionState &state) { state.preparing.clear(); });
        m_config.provider.baseUrl = url->toString();
        agent()->post(&AgentLoop::setProvider, m_config.provider);
        post();
    });
}

void ConversationSession::returnDraft(const Draft &draft)
{
    changeState([&](SessionState &state) {
        state.phase = SessionState::Phase::Idle;
        state.preparing.clear();
        state.pendingImages = joined(draft.images, state.pendingImages);
        state.pendingAttachments = joined(draft.attachments, state.pendingAttachments);
    });
    m_transcript->dropUnsent();
    if (!draft.text.isEmpty())
        Q_EMIT draftReturned(draft.text);
    else if (auto loaded = load(); !loaded) // an answer asked again: the branch shows as the store has it
        m_transcript->addNotice(TurnItem::NoticeLevel::Error, loaded.error().message);
}

void ConversationSession::setLocalModels(LocalModelHost *host)
{
    if (m_local)
        disconnect(m_local, nullptr, this, nullptr);
    m_local = host;
    if (!host)
        return;
    connect(host, &LocalModelHost::stateChanged, this, [this](LocalRunner::State state, const QString &message) {
        if (m_config.provider.id != LocalModelHost::providerId())
            return;
        const bool justFailed = m_localTurnFailed.isValid() && m_localTurnFailed.elapsed() < 5000;
        if (!isBusy() && !justFailed)
            return;
        if (!m_state.preparing.isEmpty()) {
            // Loading for this message: the chat says how long it has taken.
            if (state == LocalRunner::State::Loading)
                changeState([&message](SessionState &changed) { changed.preparing = message; });
            return;
        }
        // The server stopped under an answer: why, beside the broken stream's own message.
        if (state == LocalRunner::State::Loading || state == LocalRunner::State::Failed) {
            m_localTurnFailed.invalidate();
            m_transcript->addNotice(state == LocalRunner::State::Failed ? TurnItem::NoticeLevel::Error
                                                                        : TurnItem::NoticeLevel::Info,
                                    message);
        }
    });
}

void ConversationSession::stop()
{
    if (!m_state.preparing.isEmpty()) {
        // The model on this computer still loads: the message has not gone to the agent yet.
        ++m_turnsStarted;
        returnDraft(std::exchange(m_waiting, {}));
        return;
    }
    if (m_agent)
        m_agent->post(&AgentLoop::cancel);
}

void ConversationSession::approve(const CallKey &key)
{
    agent()->post(&AgentLoop::approve, key);
}

void ConversationSession::approveEdited(const CallKey &key, const QString &arguments)
{
    agent()->post(&AgentLoop::approveEdited, key, arguments);
}

void ConversationSession::alwaysAllow(const CallKey &key)
{
    const int row = m_messages->rowOfCall(key);
    const QString tool = row >= 0 ? m_messages->item(row).call.name : QString();
    if (McpToolName::isMcp(tool)) {
        // An MCP tool is trusted everywhere, in the settings, where the user can take it back.
        Q_EMIT toolAllowedAlways(tool);
        agent()->post(&AgentLoop::approve, key);
        return;
    }
    agent()->post(&AgentLoop::alwaysAllow, key);
}

void ConversationSession::setApprovals(const QHash<QString, ApprovalPolicy> &approval)
{
    m_config.approval = approval;
    if (m_agent)
        m_agent->post(&AgentLoop::setApprovals, approval);
}

void ConversationSession::setRestoreAutomatically(bool automatic)
{
    m_config.restoreKernelAutomatically = automatic;
    if (m_agent)
        m_agent->post(&AgentLoop::setRestoreAutomatically, automatic);
}

void ConversationSession::deny(const CallKey &key, const QString &reason)
{
    agent()->post(&AgentLoop::deny, key, reason);
}

void ConversationSession::runUserCode(const QString &code)
{
    if (isBusy()) {
        m_transcript->addNotice(TurnItem::NoticeLevel::Error,
                                tr("Wait for the current answer to finish before running code."));
        return;
    }
    m_turnTimer.start();
    setPhase(SessionState::Phase::RunningTool);
    agent()->post(&AgentLoop::runUserCode, code);
}

void ConversationSession::restoreVariables(bool rerunWritingCells)
{
    if (isBusy()) {
        m_transcript->addNotice(TurnItem::NoticeLevel::Error,
                                tr("Wait for the current answer to finish before restoring the variables."));
        return;
    }
    m_turnTimer.start();
    changeState([](SessionState &state) {
        state.restoreOffered = false;
        state.restoring = true;
        state.restoringCell.clear();
        state.phase = SessionState::Phase::RunningTool;
    });
    agent()->post(&AgentLoop::restoreKernel, rerunWritingCells);
}

void ConversationSession::dismissRestore()
{
    changeState([](SessionState &state) { state.restoreOffered = false; });
}

void ConversationSession::restartKernel()
{
    // Without an agent there is no kernel to restart.
    if (m_agent)
        m_agent->post(&AgentLoop::restartSandbox);
}

StoreResult<void> ConversationSession::rename(const QString &title)
{
    if (auto renamed = m_store->renameConversation(m_id, title); !renamed)
        return renamed;
    changeState([&](SessionState &state) { state.title = title; });
    Q_EMIT titleChanged(title);
    return {};
}

StoreResult<void> ConversationSession::setModel(const QString &model)
{
    if (auto saved = m_store->setConversationModel(m_id, m_config.provider.id, model); !saved)
        return saved;
    m_config.provider.model = model;
    if (m_agent)
        m_agent->post(&AgentLoop::setModel, model);
    changeState([&](SessionState &state) { state.model = model; });
    return {};
}

StoreResult<void> ConversationSession::setNetworkAllowed(bool allowed)
{
    const auto conversation = m_store->conversation(m_id);
    if (!conversation)
        return conversation.error();
    QJsonObject choices = conversation->settings;
    choices.insert(QStringLiteral("sandbox_network"), allowed);
    if (auto saved = m_store->setConversationSettings(m_id, choices); !saved)
        return saved;
    m_config.sandbox.network = allowed;
    if (m_agent)
        m_agent->post(&AgentLoop::setSandboxNetwork, allowed);
    changeState([&](SessionState &state) { state.networkAllowed = allowed; });
    return {};
}

StoreResult<void> ConversationSession::attach(const QString &path)
{
    return attachTo(path, &SessionState::pendingAttachments);
}

StoreResult<void> ConversationSession::attachImage(const QString &path)
{
    if (const QString problem = ModelImage::check(path); !problem.isEmpty())
        return StoreError{StoreError::Kind::InvalidInput, problem};
    return attachTo(path, &SessionState::pendingImages);
}

StoreResult<void> ConversationSession::attachTo(const QString &path, QStringList SessionState::*pending)
{
    // Uploads count against the same limits as what the sandbox writes.
    const auto attached =
        m_store->attachFile(m_id, path, m_config.sandbox.diskLimitBytes, m_config.sandbox.minFreeDiskBytes);
    if (!attached)
        return attached.error();
    changeState([&](SessionState &state) { (state.*pending) << attached->fileName; });
    return {};
}

StoreResult<void> ConversationSession::showImage(const QString &name)
{
    const SandboxFolder folder(this->folder());
    const SandboxFolder::Opened opened = SandboxFolder::nameProblem(name).isEmpty()
                                             ? folder.open(name, ModelImage::MaxFileBytes)
                                             : SandboxFolder::Opened{};
    if (!opened)
        return StoreError{StoreError::Kind::NotFound, opened.error.isEmpty()
                                                          ? tr("There is no image %1 in this conversation.").arg(name)
                                                          : opened.error};
    if (!m_state.pendingImages.contains(name))
        changeState([&](SessionState &state) { state.pendingImages << name; });
    return {};
}

void ConversationSession::removePendingImage(const QString &name)
{
    changeState([&](SessionState &state) { state.pendingImages.removeAll(name); });
}

StoreResult<void> ConversationSession::removePendingAttachment(const QString &name)
{
    if (!m_state.pendingAttachments.contains(name))
        return {};
    changeState([&](SessionState &state) { state.pendingAttachments.removeAll(name); });
    const auto attachments = m_store->attachments(m_id);
    if (!attachments)
        return attachments.error();
    // Names in the folder are unique: the newest record of NAME is the file attached for this message.
    for (auto it = attachments->crbegin(); it != attachments->crend(); ++it) {
        if (it->fileName == name)
            return m_store->removeAttachment(it->id);
    }
    return {};
}

void ConversationSession::exportTable(const CallKey &key, int tableIndex, const QString &format)
{
    const int row = m_messages->rowOfCall(key);
    const auto *result = row < 0 ? nullptr : std::get_if<ExecutionResult>(&m_messages->item(row).result);
    if (!result || tableIndex < 0 || tableIndex >= result->tables.size() || !result->tables.at(tableIndex).exportable) {
        Q_EMIT tableExported(key, tableIndex, {}, tr("This table cannot be saved from the sandbox."));
        return;
    }
    // The kernel makes the name its own ("table-1 (2).csv" when that one is taken), so that saving
    // twice keeps both files; it creates the file without following links, which only it can do
    // at the moment it writes.
    const QString extension = format == QLatin1String("xlsx") ? QStringLiteral("xlsx") : QStringLiteral("csv");
    const QString fileName = QStringLiteral("table-%1.%2").arg(tableIndex + 1).arg(extension);
    const QString requestId = QStringLiteral("export-%1").arg(++m_nextExport);
    m_exports.insert(requestId, {key, tableIndex});
    agent()->post(&AgentLoop::exportTable, requestId, result->tables.at(tableIndex).tableId, extension, fileName);
}

StoreResult<QList<ChatMessage>> ConversationSession::pathTo(qint64 messageId, bool withIt) const
{
    auto path = m_store->messages(m_id);
    if (!path)
        return path;
    for (qsizetype i = 0; i < path->size(); ++i) {
        if (path->at(i).id == messageId)
            return path->first(withIt ? i + 1 : i);
    }
    return StoreError{StoreError::Kind::NotFound, tr("The message is not on the branch shown.")};
}

void ConversationSession::showPath(const QList<ChatMessage> &path, bool makeAgent)
{
    const auto shown = m_store->executionsOf(m_id, path);
    m_transcript->reset(path, shown ? *shown : QList<StoredExecution>());
    // An agent made later reads the branch shown in the store, which may go on below PATH.
    if (AgentThread *reader = makeAgent ? agent() : m_agent.get())
        reader->post(&AgentLoop::replaceHistory, path);
}

StoreResult<void> ConversationSession::resendFrom(qint64 messageId, QString text)
{
    if (isBusy())
        return StoreError{StoreError::Kind::InvalidInput,
                          tr("Wait for the current answer to finish, or stop it, before resending.")};
    // The images and files of the message go again with its new text.
    QStringList images;
    QStringList files;
    for (int row = 0; row < m_messages->rowCount(); ++row) {
        const TurnItem &item = m_messages->item(row);
        if (item.kind != TurnItem::Kind::Message || item.message.id != messageId)
            continue;
        images = item.message.images;
        for (const AttachedFile &file : item.message.attachments)
            files << file.name;
    }
    // The new text is a version of the message beside it: the model reads what came before it.
    const auto before = pathTo(messageId, false);
    if (!before)
        return before.error();
    showPath(*before, true);
    changeState([&](SessionState &state) {
        state.pendingImages = joined(images, state.pendingImages);
        state.pendingAttachments = joined(files, state.pendingAttachments);
    });
    sendAs(text, messageId);
    return {};
}

StoreResult<void> ConversationSession::regenerate()
{
    for (int row = m_messages->rowCount() - 1; row >= 0; --row) {
        const TurnItem &item = m_messages->item(row);
        if (item.kind == TurnItem::Kind::Message && item.message.role == ChatMessage::Role::User &&
            item.message.id != 0)
            return answerAgain(item.message.id);
    }
    return StoreError{StoreError::Kind::NotFound, tr("There is no question to answer again.")};
}

StoreResult<void> ConversationSession::answerAgain(qint64 questionId)
{
    if (isBusy())
        return StoreError{StoreError::Kind::InvalidInput,
                          tr("Wait for the current answer to finish, or stop it, before asking again.")};
    // The new answer is a version beside the old one, under the question; the old one stays.
    const auto upToQuestion = pathTo(questionId, true);
    if (!upToQuestion)
        return upToQuestion.error();
    if (upToQuestion->constLast().role != ChatMessage::Role::User)
        return StoreError{StoreError::Kind::InvalidInput, tr("Only a question can be answered again.")};
    showPath(*upToQuestion, true);
    m_turnTimer.start();
    setPhase(SessionState::Phase::Waiting);
    startTurn({}, [this] { agent()->post(&AgentLoop::answerAgain); });
    return {};
}

StoreResult<void> ConversationSession::showVersion(qint64 messageId)
{
    return changeBranch(tr("Stop the answer, or wait for it to finish, before switching to another version."),
                        [&] { return m_store->showMessage(m_id, messageId); });
}

StoreResult<qint64> ConversationSession::siblingVersion(qint64 messageId, int step) const
{
    const auto versions = m_store->messageVersions(messageId);
    if (!versions)
        return versions.error();
    const qsizetype at = versions->indexOf(messageId) + step;
    if (at < 0 || at >= versions->size())
        return StoreError{StoreError::Kind::NotFound, tr("The message has no version there.")};
    return versions->at(at);
}

StoreResult<void> ConversationSession::sendAfter(qint64 messageId, const QString &text)
{
    if (isBusy())
        return StoreError{StoreError::Kind::InvalidInput,
                          tr("Wait for the current answer to finish, or stop it, before sending.")};
    const auto tree = m_store->allMessages(m_id);
    if (!tree)
        return tree.error();
    const auto message = std::find_if(tree->cbegin(), tree->cend(),
                                      [messageId](const ChatMessage &each) { return each.id == messageId; });
    if (message == tree->cend())
        return StoreError{StoreError::Kind::NotFound,
                          tr("The conversation has no message with the id %1.").arg(messageId)};
    // Its calls wait for their results: a message after it would leave them unanswered.
    if (!message->toolCalls.isEmpty())
        return StoreError{StoreError::Kind::InvalidInput,
                          tr("The message %1 calls tools; continue from their results instead.").arg(messageId)};
    if (auto shown = m_store->showMessage(m_id, messageId); !shown)
        return shown;
    const auto upToIt = pathTo(messageId, true);
    if (!upToIt)
        return upToIt.error();
    showPath(*upToIt, true);
    send(text);
    return {};
}

StoreResult<void> ConversationSession::deleteVersion(qint64 messageId)
{
    return changeBranch(tr("Stop the answer, or wait for it to finish, before deleting a version."),
                        [&] { return m_store->deleteMessage(m_id, messageId); });
}

StoreResult<void> ConversationSession::changeBranch(const QString &whenBusy,
                                                    const std::function<StoreResult<void>()> &change)
{
    // Changing the branch under a running answer would send the model one branch and show another:
    // it waits.
    if (isBusy())
        return StoreError{StoreError::Kind::InvalidInput, whenBusy};
    if (auto changed = change(); !changed)
        return changed;
    const auto path = m_store->messages(m_id);
    if (!path)
        return path.error();
    // The kernel and the folder follow the branch shown (an agent is made for that: a kernel that
    // is gone still has files to put back and variables to offer).
    showPath(*path, m_config.pythonEnabled);
    if (m_agent)
        m_followDelay->start();
    Q_EMIT historyChanged();
    return {};
}

void ConversationSession::setProvider(const ProviderConfig &given)
{
    ProviderConfig provider = given;
    // The settings know no address for the model on this computer: the one its server answered
    // at stays until the next turn asks again.
    if (provider.id == LocalModelHost::providerId() && provider.baseUrl.isEmpty() &&
        m_config.provider.id == provider.id)
        provider.baseUrl = m_config.provider.baseUrl;
    m_config.provider = provider;
    if (m_agent)
        m_agent->post(&AgentLoop::setProvider, provider);
    changeState([&](SessionState &state) {
        state.providerId = provider.id;
        state.model = provider.model;
    });
}

void ConversationSession::setPythonEnabled(bool enabled)
{
    m_config.pythonEnabled = enabled;
    if (!enabled)
        dismissRestore();
}

void ConversationSession::changeState(const std::function<void(SessionState &)> &change)
{
    SessionState changed = m_state;
    change(changed);
    if (changed == m_state)
        return;
    m_state = std::move(changed);
    if (m_local)
        m_local->setAnswering(this, isBusy() && m_config.provider.id == LocalModelHost::providerId());
    Q_EMIT stateChanged();
}

void ConversationSession::setPhase(SessionState::Phase phase)
{
    if (m_state.phase != phase)
        changeState([phase](SessionState &state) { state.phase = phase; });
}

void ConversationSession::handle(const AgentEvent &event)
{
    using Kind = AgentEvent::Kind;
    // The model on this computer is in use: its idle stop waits.
    if (m_local && m_config.provider.id == LocalModelHost::providerId())
        m_local->keepAlive();
    if (event.kind != Kind::TextDelta && event.kind != Kind::ReasoningDelta && event.kind != Kind::ToolOutput)
        m_transcript->flushFrame(); // what came before this event shows before it
    switch (event.kind) {
    case Kind::TurnStarted:
        setPhase(SessionState::Phase::Waiting);
        break;
    case Kind::TextDelta:
        m_transcript->collectText(event.text);
        setPhase(SessionState::Phase::Writing);
        break;
    case Kind::ReasoningDelta:
        m_transcript->collectReasoning(event.text);
        setPhase(SessionState::Phase::Thinking);
        break;
    case Kind::ToolOutput:
        m_transcript->collectOutput(event.key, event.stream, event.text);
        break;
    case Kind::ToolProgress:
        m_transcript->showProgress(event);
        break;
    case Kind::ToolCallProposed:
        m_transcript->proposeCall(event.key, event.call);
        break;
    case Kind::ApprovalNeeded:
        m_transcript->askApproval(event.key, event.preview);
        setPhase(SessionState::Phase::AwaitingApproval);
        break;
    case Kind::ToolStarted:
        m_transcript->startRun(event);
        setPhase(SessionState::Phase::RunningTool);
        break;
    case Kind::ToolFinished:
        m_transcript->finishRun(event);
        // The turn goes on with the next call or the next answer; a run of the user's ends here.
        if (event.origin == RunOrigin::Model)
            setPhase(SessionState::Phase::Waiting);
        break;
    case Kind::Usage:
        changeState([&event](SessionState &state) { state.tokens += event.usage.totalTokens; });
        break;
    case Kind::Context:
        changeState([&event](SessionState &state) {
            state.contextTokens = event.context.tokens;
            state.contextWindow = event.context.window;
        });
        // What was left out of this request to fit: the stored conversation keeps all of it.
        if (!event.context.leftOut.isEmpty())
            m_transcript->addNotice(TurnItem::NoticeLevel::Info, event.context.leftOut);
        break;
    case Kind::Retrying:
        m_transcript->addRetryNotice(event.text);
        setPhase(SessionState::Phase::Retrying);
        break;
    case Kind::Error:
        m_transcript->showError(event.text);
        if (m_config.provider.id == LocalModelHost::providerId())
            m_localTurnFailed.start();
        break;
    case Kind::Notice:
        m_transcript->addNotice(TurnItem::NoticeLevel::Info, event.text);
        break;
    case Kind::MessageAdded:
        m_transcript->applyMessage(event.message);
        if (event.message.role == ChatMessage::Role::User)
            takeStoredTitle();
        Q_EMIT historyChanged();
        break;
    case Kind::TitleChanged:
        changeState([&event](SessionState &state) { state.title = event.text; });
        Q_EMIT titleChanged(event.text);
        break;
    case Kind::KernelChanged:
        changeState([&event](SessionState &state) { state.kernelAlive = event.kernelAlive; });
        break;
    case Kind::TurnFinished:
        finishTurn(event);
        break;
    case Kind::SendRefused:
        changeState([&event](SessionState &state) {
            state.pendingImages = joined(event.message.images, state.pendingImages);
            state.pendingAttachments = joined(event.attachments, state.pendingAttachments);
        });
        m_transcript->dropUnsent();
        m_transcript->addNotice(TurnItem::NoticeLevel::Error, event.text);
        Q_EMIT draftReturned(event.message.content);
        break;
    case Kind::TableExported:
        if (const auto request = m_exports.take(event.call.id); request.call.isValid())
            Q_EMIT tableExported(request.call, request.tableIndex, event.success ? event.text : QString(),
                                 event.success ? QString() : event.text);
        break;
    case Kind::RestoreOffered:
        changeState([&event, this](SessionState &state) {
            state.restore = event.restore;
            state.restoreOffered = m_config.pythonEnabled && event.restore.cells > 0;
        });
        break;
    case Kind::RestoreProgress:
        // A replay the agent began itself (the kernel following the branch shown) makes the
        // conversation busy until its TurnFinished.
        if (!isBusy())
            m_turnTimer.start();
        changeState([&event](SessionState &state) {
            state.restore = event.restore;
            state.restoreOffered = false;
            state.restoring = true;
            state.restoringCell = event.text;
            if (state.phase == SessionState::Phase::Idle)
                state.phase = SessionState::Phase::RunningTool;
        });
        break;
    case Kind::RestoreFinished:
        changeState([&event](SessionState &state) {
            state.restore = event.restore;
            state.restoring = false;
            state.restoringCell.clear();
            // A replay that stopped can be tried again; on the way to a branch, only after a cell that
            // failed (stopped by the user, it goes on without, as the user chose).
            state.restoreOffered =
                event.restore.stopped && (!event.restore.branch || !event.restore.failures.isEmpty());
        });
        m_transcript->addNotice(
            event.restore.failures.isEmpty() ? TurnItem::NoticeLevel::Info : TurnItem::NoticeLevel::Error, event.text);
        break;
    }
    Q_EMIT agentEvent(event);
}

void ConversationSession::takeStoredTitle()
{
    // The store names a conversation after its first message.
    if (!m_state.title.isEmpty())
        return;
    if (const auto conversation = m_store->conversation(m_id); conversation && !conversation->title.isEmpty()) {
        changeState([&](SessionState &state) { state.title = conversation->title; });
        Q_EMIT titleChanged(conversation->title);
    }
}

void ConversationSession::finishTurn(const AgentEvent &event)
{
    m_transcript->finishTurn(event.end);
    // A restore that never began (the agent refused it) ends with the turn.
    changeState([](SessionState &state) {
        state.restoring = false;
        state.restoringCell.clear();
    });
    setPhase(SessionState::Phase::Idle);
    Q_EMIT turnFinished(event.end, m_turnTimer.isValid() ? m_turnTimer.elapsed() : 0);
}

} // namespace Sandpiper
