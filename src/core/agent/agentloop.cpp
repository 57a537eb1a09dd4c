#include "agent/agentloop.h"

#include "agent/attachmentpreparer.h"
#include "agent/kernelrestorer.h"
#include "agent/titlewriter.h"
#include "agent/toolcallrunner.h"
#include "llm/chatclient.h"
#include "llm/contextbudget.h"
#include "logging.h"
#include "mcp/mcptoolbox.h"
#include "sandbox/sandboxfolder.h"
#include "sandbox/sandboxsession.h"
#include "storage/conversationstore.h"
#include "storage/streamingwriter.h"
#include "tools/charttool.h"
#include "tools/citationindex.h"
#include "tools/fetchtool.h"
#include "tools/pythontool.h"
#include "tools/searchtool.h"

namespace Sandpiper {

AgentLoop::AgentLoop(AgentConfig config, ConversationStore *store, qint64 conversationId, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_store(store)
    , m_conversationId(conversationId)
    , m_client(new ChatClient(m_config.provider, this))
    , m_budget(new ContextBudget(m_client, this))
{
    connect(m_client, &ChatClient::textDelta, this, [this](const QString &text) {
        if (m_writer)
            m_writer->appendContent(text);
        emitEvent(AgentEvent::Kind::TextDelta, text);
    });
    connect(m_client, &ChatClient::reasoningDelta, this, [this](const QString &text) {
        if (m_writer)
            m_writer->appendReasoning(text);
        emitEvent(AgentEvent::Kind::ReasoningDelta, text);
    });
    connect(m_budget, &ContextBudget::contextUsed, this, [this](const ContextUse &use) {
        m_runner->setContextWindow(use.window);
        AgentEvent context;
        context.kind = AgentEvent::Kind::Context;
        context.context = use;
        Q_EMIT event(context);
    });
    connect(m_budget, &ContextBudget::warning, this,
            [this](const QString &text) { emitEvent(AgentEvent::Kind::Notice, text); });
    connect(m_client, &ChatClient::retrying, this,
            [this](int attempt, int maxAttempts, qint64 delayMs, const QString &reason) {
                emitEvent(AgentEvent::Kind::Retrying, tr("%1 Trying again in %2 s (%3 of %4).")
                                                          .arg(reason)
                                                          .arg(double(delayMs) / 1000.0, 0, 'f', 1)
                                                          .arg(attempt)
                                                          .arg(maxAttempts));
            });

    if (m_config.pythonEnabled) {
        m_sandbox = new SandboxSession(m_config.sandbox, this);
        // A new loop has a new kernel: what earlier cells defined is not in it.
        m_restorer =
            new KernelRestorer(m_sandbox, m_store, m_conversationId, m_config.restoreKernelAutomatically, this);
        connect(m_restorer, &KernelRestorer::event, this, &AgentLoop::event);
    }
    m_runner = new ToolCallRunner(&m_tools, m_sandbox, m_restorer, m_config.limits, m_store, m_conversationId, this);
    m_runner->setApprovals(m_config.approval);
    connect(m_runner, &ToolCallRunner::event, this, &AgentLoop::event);
    connect(m_runner, &ToolCallRunner::storeFailed, this, &AgentLoop::reportStoreError);
    m_attachments =
        new AttachmentPreparer(m_config.sandbox.dataDirectory, m_config.imageMaxSide, m_sandbox, m_budget, this);
    if (m_config.modelTitles && m_store) {
        m_titles = new TitleWriter(m_config.provider, m_store, m_conversationId, this);
        connect(m_titles, &TitleWriter::titleChanged, this,
                [this](const QString &title) { emitEvent(AgentEvent::Kind::TitleChanged, title); });
        connect(m_titles, &TitleWriter::storeFailed, this, &AgentLoop::reportStoreError);
    }

    if (m_sandbox) {
        connect(m_sandbox, &SandboxSession::output, m_runner, &ToolCallRunner::showOutput);
        // What the sandbox did while no execution ran, such as a background writer hitting
        // the disk limit: the user hears of it now, the model with the next execution.
        connect(m_sandbox, &SandboxSession::notice, this,
                [this](const QString &text) { emitEvent(AgentEvent::Kind::Notice, text); });
        m_tools.add(std::make_unique<PythonTool>(m_sandbox, m_config.limits));
        if (m_config.prewarmSandbox)
            m_sandbox->prewarm();
    }
    if (m_config.chartsEnabled)
        m_tools.add(std::make_unique<ChartTool>(m_config.chartLimits));
    if (m_config.mcp) {
        m_mcp = new McpToolbox(m_config.mcp, m_config.sandbox.dataDirectory, m_config.limits, this);
        connect(m_mcp, &McpToolbox::progressed, m_runner, &ToolCallRunner::showProgress);
    }
    if (m_config.webEnabled) {
        // One numbering of sources for both, so a page keeps its [n] from search to fetch.
        const auto citations = std::make_shared<CitationIndex>();
        m_tools.add(std::make_unique<SearchTool>(m_config.web, citations));
        m_tools.add(std::make_unique<FetchTool>(m_config.web, citations));
    }
}

AgentLoop::~AgentLoop() = default;

void AgentLoop::shutdown()
{
    // Everything that waits is woken here, while the loop is whole: the coroutines unwind now
    // instead of resuming inside a destructor.
    cancel();
    m_budget->cancel(); // the window may be asked for after the turn ended
    if (m_titles)
        m_titles->cancel();
    // The kernel that goes with the loop is not a kernel lost: nothing is offered or put back.
    if (m_sandbox && m_restorer)
        disconnect(m_sandbox, nullptr, m_restorer, nullptr);
    if (m_sandbox)
        m_sandbox->abandon();
    deleteLater();
}

SandboxSession *AgentLoop::sandbox() const
{
    return m_sandbox;
}

void AgentLoop::setHistory(QList<ChatMessage> history)
{
    m_history = std::move(history);
}

void AgentLoop::emitEvent(AgentEvent::Kind kind, QString text)
{
    AgentEvent e;
    e.kind = kind;
    e.text = std::move(text);
    Q_EMIT event(e);
}

void AgentLoop::reportStoreError(const QString &message)
{
    qCWarning(lcAgent) << "saving failed:" << message;
    // Once per turn is enough; the store retries on its own and the turn goes on.
    if (!std::exchange(m_storeErrorShown, true))
        emitEvent(AgentEvent::Kind::Notice, tr("This conversation could not be saved: %1").arg(message));
}

void AgentLoop::save(ChatMessage &message, qint64 versionOf)
{
    if (!m_store)
        return;
    // A conversation is a tree: the message goes under the last one the model reads, whichever
    // branch the window shows meanwhile.
    if (versionOf == 0 && message.parentId == 0 && !m_history.isEmpty())
        message.parentId = m_history.constLast().id;
    auto stored = versionOf != 0 ? m_store->addMessageVersion(m_conversationId, versionOf, message)
                                 : m_store->appendMessage(m_conversationId, message);
    if (stored)
        message = *stored;
    else
        reportStoreError(stored.error().message);
}

const ChatMessage &AgentLoop::addMessage(ChatMessage message, qint64 versionOf)
{
    message.created = message.updated = QDateTime::currentDateTimeUtc();
    // An answer that streamed into the store is already there; the writer finishes it.
    if (message.id == 0)
        save(message, versionOf);
    m_history.append(message);
    AgentEvent added;
    added.kind = AgentEvent::Kind::MessageAdded;
    added.message = std::move(message);
    Q_EMIT event(added);
    return m_history.constLast();
}

QList<ChatMessage> AgentLoop::requestMessages()
{
    QList<ChatMessage> messages;
    if (!m_config.systemPrompt.isEmpty()) {
        ChatMessage system;
        system.role = ChatMessage::Role::System;
        system.content = m_config.systemPrompt;
        messages << system;
    }
    for (const ChatMessage &message : m_history) {
        // An answer stopped before it said anything is nothing the server should see.
        if (message.role == ChatMessage::Role::Assistant && message.content.isEmpty() && message.toolCalls.isEmpty())
            continue;
        messages << message;
    }
    return m_attachments->withImages(messages, m_client->config().model);
}

void AgentLoop::send(const QString &text)
{
    if (m_busy) {
        emitEvent(AgentEvent::Kind::Error, tr("Wait for the current answer to finish, or stop it, before sending."));
        return;
    }
    QCoro::connect(runTurn(text), this, [] {});
}

void AgentLoop::sendWithAttachments(const QString &text, const QStringList &attachments, const QStringList &images)
{
    if (m_busy) {
        emitEvent(AgentEvent::Kind::Error, tr("Wait for the current answer to finish, or stop it, before sending."));
        return;
    }
    QCoro::connect(runTurn(text, attachments, images), this, [] {});
}

void AgentLoop::sendVersion(const QString &text, const QStringList &attachments, const QStringList &images,
                            qint64 versionOf)
{
    if (m_busy) {
        emitEvent(AgentEvent::Kind::Error, tr("Wait for the current answer to finish, or stop it, before sending."));
        return;
    }
    QCoro::connect(runTurn(text, attachments, images, versionOf), this, [] {});
}

void AgentLoop::answerAgain()
{
    if (m_busy) {
        emitEvent(AgentEvent::Kind::Error,
                  tr("Wait for the current answer to finish, or stop it, before asking again."));
        return;
    }
    if (m_history.isEmpty() || m_history.constLast().role != ChatMessage::Role::User) {
        emitEvent(AgentEvent::Kind::Error, tr("There is no question to answer again."));
        return;
    }
    QCoro::connect(runTurn({}, {}, {}, 0, true), this, [] {});
}

void AgentLoop::exportTable(const QString &requestId, const QString &tableId, const QString &format,
                            const QString &fileName)
{
    QCoro::connect(exportTableTask(requestId, tableId, format, fileName), this, [] {});
}

QCoro::Task<> AgentLoop::exportTableTask(QString requestId, QString tableId, QString format, QString fileName)
{
    QPointer<AgentLoop> self(this);
    AgentEvent done;
    done.kind = AgentEvent::Kind::TableExported;
    done.call.id = requestId;
    if (!m_sandbox) {
        done.text = tr("Python is not available: the sandbox is switched off.");
        Q_EMIT event(done);
        co_return;
    }
    const ExecutionResult result = co_await m_sandbox->exportTable(tableId, format, fileName);
    if (!self)
        co_return;
    // The name the kernel chose, believed only if it is a plain name the folder's checks passed.
    const QString written = result.value;
    done.success = result.status == ExecutionResult::Status::Ok && SandboxFolder::nameProblem(written).isEmpty() &&
                   result.files.contains(written);
    done.text = done.success                    ? written
                : result.errorMessage.isEmpty() ? tr("The sandbox did not write the file.")
                                                : result.errorMessage;
    Q_EMIT event(done);
}

void AgentLoop::approve(const CallKey &key)
{
    m_runner->approve(key);
}

void AgentLoop::approveEdited(const CallKey &key, const QString &arguments)
{
    m_runner->approveEdited(key, arguments);
}

void AgentLoop::deny(const CallKey &key, const QString &reason)
{
    m_runner->deny(key, reason);
}

void AgentLoop::alwaysAllow(const CallKey &key)
{
    // The newest answer of that row: without a store every message has row 0.
    QString toolName;
    for (auto message = m_history.crbegin(); message != m_history.crend(); ++message) {
        if (message->role == ChatMessage::Role::Assistant && message->id == key.messageId &&
            key.index < message->toolCalls.size()) {
            toolName = message->toolCalls.at(key.index).name;
            break;
        }
    }
    m_runner->alwaysAllow(key, toolName);
}

void AgentLoop::cancel()
{
    if (!m_busy)
        return;
    m_cancelled = true;
    if (m_restorer)
        m_restorer->cancel();
    m_client->cancel();
    m_runner->cancel();
}

void AgentLoop::restartSandbox()
{
    if (m_restorer)
        m_restorer->restartKernel();
}

void AgentLoop::restoreKernel(bool rerunWritingCells)
{
    if (m_busy) {
        emitEvent(AgentEvent::Kind::Error, tr("Wait for the current answer to finish before restoring the variables."));
        return;
    }
    if (!m_restorer) {
        emitEvent(AgentEvent::Kind::Error, tr("Python is not available: the sandbox is switched off."));
        AgentEvent done;
        done.kind = AgentEvent::Kind::TurnFinished;
        done.end = AgentEvent::End::Failed;
        Q_EMIT event(done);
        return;
    }
    QCoro::connect(restoreKernelTask(rerunWritingCells), this, [] {});
}

QCoro::Task<> AgentLoop::restoreKernelTask(bool rerunWritingCells)
{
    QPointer<AgentLoop> self(this);
    m_busy = true;
    m_cancelled = false;
    const KernelRestore restore = co_await m_restorer->restore(rerunWritingCells);
    if (!self)
        co_return;
    m_busy = false;
    AgentEvent done;
    done.kind = AgentEvent::Kind::TurnFinished;
    done.end = restore.stopped ? AgentEvent::End::Cancelled : AgentEvent::End::Completed;
    Q_EMIT event(done);
}

void AgentLoop::setModel(const QString &model)
{
    m_config.provider.model = model;
    m_client->setConfig(m_config.provider);
    if (m_titles)
        m_titles->setProvider(m_config.provider);
}

void AgentLoop::setProvider(const Sandpiper::ProviderConfig &provider)
{
    m_config.provider = provider;
    m_client->setConfig(provider);
    if (m_titles)
        m_titles->setProvider(provider);
}

void AgentLoop::setSandboxNetwork(bool enabled)
{
    if (m_sandbox)
        m_sandbox->setNetwork(enabled);
}

void AgentLoop::setRestoreAutomatically(bool automatic)
{
    m_config.restoreKernelAutomatically = automatic;
    if (m_restorer)
        m_restorer->setAutomatic(automatic);
}

void AgentLoop::setApprovals(const QHash<QString, ApprovalPolicy> &approval)
{
    m_config.approval = approval;
    m_runner->setApprovals(approval);
}

void AgentLoop::replaceHistory(const QList<ChatMessage> &history)
{
    if (m_busy)
        return;
    m_history = history;
    if (!m_restorer || !m_store)
        return;
    if (const auto executions = m_store->executionsOf(m_conversationId, m_history))
        m_restorer->setBranch(*executions);
    else
        reportStoreError(executions.error().message);
}

void AgentLoop::followBranch()
{
    if (m_busy || !m_restorer || !m_restorer->isOffBranch())
        return;
    QCoro::connect(followBranchTask(), this, [] {});
}

QCoro::Task<> AgentLoop::followBranchTask()
{
    QPointer<AgentLoop> self(this);
    m_busy = true;
    m_cancelled = false;
    const bool replayed = co_await m_restorer->follow();
    if (!self)
        co_return;
    m_busy = false;
    // Only an offer: nothing ran, the conversation never was busy.
    if (!replayed)
        co_return;
    AgentEvent done;
    done.kind = AgentEvent::Kind::TurnFinished;
    done.end = m_cancelled ? AgentEvent::End::Cancelled : AgentEvent::End::Completed;
    Q_EMIT event(done);
}

void AgentLoop::runUserCode(const QString &code)
{
    if (m_busy || !m_sandbox) {
        emitEvent(AgentEvent::Kind::Error, m_sandbox ? tr("Wait for the current answer to finish before running code.")
                                                     : tr("Python is not available: the sandbox is switched off."));
        return;
    }
    QCoro::connect(runUserCodeTask(code), this, [] {});
}

QCoro::Task<> AgentLoop::runUserCodeTask(QString code)
{
    QPointer<AgentLoop> self(this);
    m_busy = true;
    m_cancelled = false;
    // The model learns about the run like anything else the user says. The message is stored
    // before the run, so that the run, its card and its row in the inspector have their key (and
    // a run cut short by the end of the app says so); the result is added once it is known.
    const auto note = [&code](const QString &report) {
        return QStringLiteral("I ran this code in the sandbox myself:\n```python\n%1\n```\nResult:\n%2")
            .arg(code, report);
    };
    ChatMessage told;
    told.role = ChatMessage::Role::User;
    told.content = note(QStringLiteral("(not known: Sandpiper stopped while it ran)"));
    told.status = ChatMessage::Status::Streaming;
    save(told);
    const QString report = co_await m_runner->runUserCode(code, CallKey{told.id, 0});
    if (!self)
        co_return;
    told.content = note(report);
    told.status = ChatMessage::Status::Complete;
    if (m_store && told.id != 0) {
        if (auto saved = m_store->updateMessage(told); !saved)
            reportStoreError(saved.error().message);
    }
    addMessage(told);
    m_busy = false;
    AgentEvent done;
    done.kind = AgentEvent::Kind::TurnFinished;
    Q_EMIT event(done);
}

QCoro::Task<> AgentLoop::runTurn(QString text, QStringList attachments, QStringList images, qint64 versionOf,
                                 bool again)
{
    QPointer<AgentLoop> self(this);
    m_busy = true;
    m_cancelled = false;
    m_storeErrorShown = false;
    m_runner->beginTurn();
    emitEvent(AgentEvent::Kind::TurnStarted);

    auto finishTurn = [this](AgentEvent::End end, const QString &note = {}) {
        m_busy = false;
        AgentEvent finished;
        finished.kind = AgentEvent::Kind::TurnFinished;
        finished.end = end;
        finished.text = note;
        Q_EMIT event(finished);
    };

    if (!again) {
        ChatMessage user;
        user.role = ChatMessage::Role::User;
        user.content = text;
        user.images = images;
        if (!images.isEmpty()) {
            // Before anything is stored: a message the model cannot take goes back whole.
            QString refusal = co_await m_attachments->imagesRefusal(m_client->config().model, images);
            if (!self)
                co_return;
            if (m_cancelled)
                refusal = tr("Stopped before the message was sent.");
            if (!refusal.isEmpty()) {
                AgentEvent refused;
                refused.kind = AgentEvent::Kind::SendRefused;
                refused.text = refusal;
                refused.message = user;
                refused.attachments = attachments;
                Q_EMIT event(refused);
                finishTurn(AgentEvent::End::Failed);
                co_return;
            }
        }
        user = co_await m_attachments->attach(user, attachments, images);
        if (!self)
            co_return;
        addMessage(user, versionOf); // the store names the conversation after its first message
    }

    for (int round = 0;; ++round) {
        // The MCP servers' tools as they are now: servers start when first needed, and their
        // lists change while conversations go on.
        if (m_mcp) {
            const QStringList notes = co_await m_mcp->refresh(&m_tools, m_config.approval);
            if (!self)
                co_return;
            for (const QString &note : notes)
                emitEvent(AgentEvent::Kind::Notice, note);
            if (m_cancelled) {
                finishTurn(AgentEvent::End::Cancelled);
                co_return;
            }
        }
        // The answer is saved while it streams, so a crash loses at most a moment of it.
        qint64 streamedId = 0;
        qint64 streamedParent = 0;
        std::pair<int, int> streamedVersion{1, 1};
        if (m_store) {
            ChatMessage placeholder;
            placeholder.role = ChatMessage::Role::Assistant;
            placeholder.status = ChatMessage::Status::Streaming;
            save(placeholder);
            if (placeholder.id != 0) {
                streamedId = placeholder.id;
                streamedParent = placeholder.parentId;
                streamedVersion = {placeholder.version, placeholder.versionCount};
                m_writer = new StreamingWriter(m_store, placeholder, StreamingWriter::DefaultInterval, this);
                connect(m_writer, &StreamingWriter::saveFailed, this, &AgentLoop::reportStoreError);
            }
        }
        const QList<ChatMessage> request = requestMessages();
        ChatResponse response =
            co_await m_budget->complete(request, m_tools.isEmpty() ? QJsonArray() : m_tools.declarations());
        if (!self)
            co_return;
        m_attachments->learnFromRefusal(request, response, m_client->config().model);
        for (const QString &notice : response.notices)
            emitEvent(AgentEvent::Kind::Notice, notice);

        ChatMessage assistant = response.message;
        assistant.id = streamedId;
        assistant.parentId = streamedParent;
        assistant.version = streamedVersion.first;
        assistant.versionCount = streamedVersion.second;
        // Keep what arrived of a failed answer; calls cut off mid-stream are incomplete and
        // are dropped, so the history stays valid.
        const bool cancelled = response.error.kind == ChatError::Kind::Cancelled;
        if (!response.ok()) {
            assistant.toolCalls.clear();
            assistant.status = cancelled ? ChatMessage::Status::Cancelled : ChatMessage::Status::Error;
            // What arrived of the answer is kept, and said to be incomplete.
            if (!cancelled)
                assistant.error = assistant.content.isEmpty()
                                      ? response.error.message
                                      : tr("The answer above is incomplete. %1").arg(response.error.message);
        }
        // Stopped before it said a word: no answer is kept. (Its empty row beside the next question
        // made that question a second "version" of it.)
        const bool saidNothing = cancelled && assistant.content.isEmpty() && assistant.reasoning.isEmpty();
        if (m_writer) {
            // The final save writes the whole message: a non-streamed answer never passed
            // through the writer.
            (void)m_writer->finish(assistant.status, assistant.error);
            delete m_writer;
            if (auto saved = saidNothing ? m_store->deleteMessage(m_conversationId, streamedId)
                                         : m_store->updateMessage(assistant);
                !saved)
                reportStoreError(saved.error().message);
        }
        if (!response.ok()) {
            if (!saidNothing)
                addMessage(assistant);
            else // nothing stays of it in the chat: it says so once, and how to ask again
                emitEvent(AgentEvent::Kind::Notice,
                          tr("Stopped before the model wrote anything. Regenerate the answer (Ctrl+Shift+R) to ask "
                             "again."));
            // Said as the answer says it: the chat shows it once, under the answer.
            if (!cancelled)
                emitEvent(AgentEvent::Kind::Error, assistant.error);
            finishTurn(cancelled ? AgentEvent::End::Cancelled : AgentEvent::End::Failed);
            co_return;
        }
        if (!response.message.usage.isEmpty()) {
            AgentEvent usage;
            usage.kind = AgentEvent::Kind::Usage;
            usage.usage = response.message.usage;
            Q_EMIT event(usage);
        }
        const qint64 answerId = addMessage(assistant).id;
        if (assistant.toolCalls.isEmpty()) {
            finishTurn(AgentEvent::End::Completed);
            if (m_titles && m_history.size() == 2)
                QCoro::connect(m_titles->write(m_history.first(), assistant.content), this, [] {});
            co_return;
        }

        if (round >= m_config.maxToolRounds) {
            const QString note = tr("Stopped: the model reached the limit of %1 tool rounds for one message. Send "
                                    "another message to let it continue.")
                                     .arg(m_config.maxToolRounds);
            for (const ToolCall &call : std::as_const(assistant.toolCalls))
                addMessage(ToolCallRunner::toolMessage(call, QStringLiteral("Not run: the limit of %1 tool rounds per "
                                                                            "user message was reached. Answer with "
                                                                            "what you have.")
                                                                 .arg(m_config.maxToolRounds)));
            emitEvent(AgentEvent::Kind::Notice, note);
            finishTurn(AgentEvent::End::RoundLimit, note);
            co_return;
        }

        for (int index = 0; index < assistant.toolCalls.size(); ++index) {
            const ChatMessage result = co_await m_runner->run(assistant.toolCalls.at(index), CallKey{answerId, index});
            if (!self)
                co_return;
            addMessage(result);
        }
        if (m_cancelled) {
            finishTurn(AgentEvent::End::Cancelled);
            co_return;
        }
    }
}

} // namespace Sandpiper
