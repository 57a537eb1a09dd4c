#include "agent/agentloop.h"

#include "agent/attachmentdescriber.h"
#include "llm/chatclient.h"
#include "llm/contextbudget.h"
#include "llm/modelimage.h"
#include "logging.h"
#include "mcp/mcptoolbox.h"
#include "sandbox/sandboxfolder.h"
#include "sandbox/sandboxsession.h"
#include "storage/conversation.h"
#include "storage/conversationstore.h"
#include "storage/streamingwriter.h"
#include "tools/charttool.h"
#include "tools/citationindex.h"
#include "tools/fetchtool.h"
#include "tools/pythontool.h"
#include "tools/searchtool.h"

#include <QCoroSignal>
#include <QRegularExpression>
#include <QTimer>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// What servers say when a request has images the model cannot see: llama.cpp "image input is not
// supported - hint: ... provide the mmproj", OpenAI "image_url is only supported by certain
// models", vLLM "... is not a multimodal model".
bool refusesImages(const ChatError &error)
{
    if (error.kind != ChatError::Kind::BadRequest && error.kind != ChatError::Kind::Server)
        return false;
    static const QRegularExpression words(QStringLiteral("image|vision|mmproj|multimodal|modalit"),
                                          QRegularExpression::CaseInsensitiveOption);
    return words.match(error.message).hasMatch();
}

} // namespace

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
        connect(m_sandbox, &SandboxSession::output, this, [this](const QString &stream, const QString &text) {
            if (m_restoring)
                return; // what a replay prints was shown when the cells first ran
            AgentEvent live;
            live.kind = AgentEvent::Kind::ToolOutput;
            live.key = m_running.key;
            live.call = m_running.call;
            live.stream = stream;
            live.text = text;
            Q_EMIT event(live);
        });
        connect(m_sandbox, &SandboxSession::stateChanged, this, [this](SandboxSession::State state) {
            const bool alive = state != SandboxSession::State::Stopped;
            if (alive == std::exchange(m_kernelAlive, alive))
                return;
            AgentEvent changed;
            changed.kind = AgentEvent::Kind::KernelChanged;
            changed.kernelAlive = alive;
            Q_EMIT event(changed);
            // The sandbox tells why only after the kernel is gone.
            if (!alive) {
                m_codeSinceNew = false;
                QTimer::singleShot(0, this, &AgentLoop::kernelStopped);
            }
        });
        // A new loop has a new kernel: what earlier cells defined is not in it.
        if (m_store && m_conversationId > 0) {
            if (const auto executions = m_store->executions(m_conversationId))
                m_replayable = KernelRestore::replayable(*executions);
        }
        m_restorePending = !m_replayable.isEmpty();
        m_lostReason = KernelRestore::reopenedReason();
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
        connect(m_mcp, &McpToolbox::progressed, this, [this](double progress, double total, const QString &message) {
            AgentEvent live;
            live.kind = AgentEvent::Kind::ToolProgress;
            live.key = m_running.key;
            live.call = m_running.call;
            live.progress = progress;
            live.progressTotal = total;
            live.text = message;
            Q_EMIT event(live);
        });
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
    if (m_titleClient)
        m_titleClient->cancel();
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

void AgentLoop::save(ChatMessage &message)
{
    if (!m_store)
        return;
    auto stored = m_store->appendMessage(m_conversationId, message);
    if (stored)
        message = *stored;
    else
        reportStoreError(stored.error().message);
}

void AgentLoop::saveExecution(const CallKey &key, const ToolCall &call, RunOrigin origin, const QString &code,
                              const ExecutionResult &result)
{
    StoredExecution execution;
    execution.conversationId = m_conversationId;
    execution.call = key;
    execution.toolCallId = origin == RunOrigin::Model ? call.id : QString();
    execution.code = code;
    execution.origin = origin;
    execution.result = result;
    m_replayable << KernelRestore::replayable({execution});
    m_codeSinceNew = true;
    if (!m_store)
        return;
    if (auto stored = m_store->addExecution(execution); !stored)
        reportStoreError(stored.error().message);
}

const ChatMessage &AgentLoop::addMessage(ChatMessage message)
{
    message.created = message.updated = QDateTime::currentDateTimeUtc();
    // An answer that streamed into the store is already there; the writer finishes it.
    if (message.id == 0)
        save(message);
    m_history.append(message);
    AgentEvent added;
    added.kind = AgentEvent::Kind::MessageAdded;
    added.message = std::move(message);
    Q_EMIT event(added);
    return m_history.constLast();
}

ChatMessage AgentLoop::toolMessage(const ToolCall &call, const QString &content) const
{
    ChatMessage message;
    message.role = ChatMessage::Role::Tool;
    message.toolCallId = call.id;
    message.toolName = call.name;
    message.content = content;
    return message;
}

QList<ChatMessage> AgentLoop::requestMessages()
{
    // A model known to take no images gets the conversation without them, and is told so.
    const bool images = m_budget->knownAcceptsImages(m_client->config().model).value_or(true);
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
        if (message.images.isEmpty())
            continue;
        ChatMessage &sent = messages.last();
        QStringList notes;
        for (const QString &name : message.images) {
            if (!images) {
                notes << QStringLiteral("[The image %1 is not shown: this model does not take images.]").arg(name);
                continue;
            }
            QString error;
            if (const QString url = imageUrl(name, &error); !url.isEmpty())
                sent.imageUrls << url;
            else
                notes << QStringLiteral("[Not shown: %1]").arg(error);
        }
        if (!notes.isEmpty())
            sent.content += QStringLiteral("\n\n") + notes.join(QLatin1Char('\n'));
    }
    return messages;
}

QString AgentLoop::imageUrl(const QString &name, QString *error)
{
    if (const auto known = m_imageUrls.constFind(name); known != m_imageUrls.cend())
        return *known;
    const QString url =
        ModelImage::dataUrl(SandboxFolder(m_config.sandbox.dataDirectory), name, m_config.imageMaxSide, error);
    if (!url.isEmpty())
        m_imageUrls.insert(name, url);
    return url;
}

QCoro::Task<QString> AgentLoop::imagesRefusal(QStringList images)
{
    QPointer<AgentLoop> self(this);
    const QString model = m_client->config().model;
    const std::optional<bool> accepted = co_await m_budget->acceptsImages(model);
    if (!self)
        co_return {};
    if (m_cancelled)
        co_return tr("Stopped before the message was sent.");
    if (accepted == false) {
        co_return tr("The model “%1” does not take images, so the message was not sent. Choose a model with vision, "
                     "or, if this one has it, say so in Settings → Provider → Images. Your text and the images are "
                     "back in the message box; the images are in /mnt/data for the code either way.")
            .arg(model);
    }
    for (const QString &name : std::as_const(images)) {
        QString error;
        if (imageUrl(name, &error).isEmpty())
            co_return tr("%1 The message was not sent: remove that image and send again.").arg(error);
    }
    co_return {};
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

// What the model is told about the files that come with a message: from the sandbox, which reads
// spreadsheets, PDFs and documents safely; from the host (name, size, type) when it cannot.
QCoro::Task<QString> AgentLoop::describeAttachments(QStringList attachments)
{
    QPointer<AgentLoop> self(this);
    if (m_sandbox) {
        const ExecutionResult described = co_await m_sandbox->describeFiles(attachments);
        if (!self)
            co_return {};
        if (described.status == ExecutionResult::Status::Ok && !described.value.isEmpty())
            co_return described.value;
    }
    QStringList lines;
    for (const QString &name : std::as_const(attachments))
        lines << AttachmentDescriber::hostDescription(m_config.sandbox.dataDirectory, name);
    co_return lines.join(QLatin1Char('\n'));
}

void AgentLoop::approve(const CallKey &key)
{
    m_decisions.insert(key, Decision{});
    Q_EMIT decisionMade();
}

void AgentLoop::approveEdited(const CallKey &key, const QString &arguments)
{
    m_decisions.insert(key, Decision{.kind = Decision::Kind::Approve, .reason = {}, .editedArguments = arguments});
    Q_EMIT decisionMade();
}

void AgentLoop::deny(const CallKey &key, const QString &reason)
{
    m_decisions.insert(key, Decision{.kind = Decision::Kind::Deny, .reason = reason, .editedArguments = {}});
    Q_EMIT decisionMade();
}

void AgentLoop::alwaysAllow(const CallKey &key)
{
    // The newest answer of that row: without a store every message has row 0.
    for (auto message = m_history.crbegin(); message != m_history.crend(); ++message) {
        if (message->role == ChatMessage::Role::Assistant && message->id == key.messageId &&
            key.index < message->toolCalls.size()) {
            m_alwaysAllowed.insert(message->toolCalls.at(key.index).name);
            break;
        }
    }
    approve(key);
}

void AgentLoop::cancel()
{
    if (!m_busy)
        return;
    m_cancelled = true;
    if (m_restoring && m_sandbox)
        m_sandbox->interrupt();
    m_client->cancel();
    m_tools.cancelAll();
    Q_EMIT decisionMade();
}

// The title from the first message stands at once; the model's shorter one replaces it
// unless the user renamed the conversation meanwhile.
QCoro::Task<> AgentLoop::improveTitle(ChatMessage question, QString answer)
{
    QPointer<AgentLoop> self(this);
    ChatMessage instruction;
    instruction.role = ChatMessage::Role::System;
    instruction.content = QStringLiteral("Write a title of at most six words for this conversation, in the language of "
                                         "the question. Reply with the title only, without quotes.");
    ChatMessage user;
    // The user's words, or the names of their files: never the rows the model was shown of them.
    QString asked = question.content;
    for (const AttachedFile &file : std::as_const(question.attachments))
        asked += QStringLiteral("\n[attached: %1]").arg(file.name);
    user.content = QStringLiteral("Question: %1\n\nAnswer: %2").arg(asked.trimmed().left(2000), answer.left(2000));
    // A client of its own, so that the title does not wait for the conversation's next request;
    // shutdown() cancels it.
    if (!m_titleClient)
        m_titleClient = new ChatClient(m_config.provider, this);
    const ChatResponse response = co_await m_titleClient->complete({instruction, user}, {});
    if (!self || !response.ok())
        co_return;
    QString title = response.message.content.simplified();
    title.remove(QLatin1Char('"')).remove(QLatin1Char('*'));
    if (title.isEmpty() || title.size() > 80)
        co_return;
    const auto conversation = m_store->conversation(m_conversationId);
    if (!conversation || conversation->title != Conversation::titleFromFirstMessage(question))
        co_return;
    if (auto renamed = m_store->renameConversation(m_conversationId, title); !renamed) {
        reportStoreError(renamed.error().message);
        co_return;
    }
    emitEvent(AgentEvent::Kind::TitleChanged, title);
}

void AgentLoop::restartSandbox()
{
    if (!m_sandbox)
        return;
    // The user asked for a clean kernel: it is not offered the old variables back.
    m_restorePending = false;
    m_ignoreNextStop = m_kernelAlive;
    m_sandbox->restart();
}

void AgentLoop::kernelStopped()
{
    if (m_restoring || m_kernelAlive || std::exchange(m_ignoreNextStop, false) || m_replayable.isEmpty())
        return;
    m_restorePending = true;
    m_lossTold = false;
    m_restoreNote.clear(); // a replay into the kernel that is gone
    m_lostReason = m_sandbox->resetReason().isEmpty() ? tr("the kernel had stopped") : m_sandbox->resetReason();
    AgentEvent offered;
    offered.kind = AgentEvent::Kind::RestoreOffered;
    offered.restore = KernelRestore::offer(m_replayable, m_lostReason);
    Q_EMIT event(offered);
}

void AgentLoop::restoreKernel(bool rerunWritingCells)
{
    if (m_busy) {
        emitEvent(AgentEvent::Kind::Error, tr("Wait for the current answer to finish before restoring the variables."));
        return;
    }
    if (!m_sandbox) {
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
    const KernelRestore restore = co_await replay(rerunWritingCells);
    if (!self)
        co_return;
    // The model hears of it with the next result of its code.
    m_restoreNote = restore.modelNote();
    m_busy = false;
    AgentEvent done;
    done.kind = AgentEvent::Kind::TurnFinished;
    done.end = restore.stopped ? AgentEvent::End::Cancelled : AgentEvent::End::Completed;
    Q_EMIT event(done);
}

QCoro::Task<KernelRestore> AgentLoop::replay(bool rerunWritingCells)
{
    QPointer<AgentLoop> self(this);
    const QList<StoredExecution> cells = m_replayable;
    KernelRestore restore = KernelRestore::offer(cells, m_lostReason);
    m_restoring = true;
    // A kernel that ran code since it was new starts clean, so the cells run on what they ran on.
    if (m_kernelAlive && m_codeSinceNew)
        m_sandbox->restart();
    for (int i = 0; i < cells.size(); ++i) {
        if (m_cancelled) {
            restore.stopped = true;
            break;
        }
        const StoredExecution &cell = cells.at(i);
        if (!rerunWritingCells && !KernelRestore::writesFiles(cell).isEmpty()) {
            ++restore.skipped;
            ++restore.done;
            continue;
        }
        AgentEvent progress;
        progress.kind = AgentEvent::Kind::RestoreProgress;
        progress.restore = restore;
        progress.text = KernelRestore::cellName(i, cell.code);
        Q_EMIT event(progress);
        ExecuteOptions options;
        options.maxFigures = 0; // the figures were drawn when the cells first ran
        for (const DataTable &table : cell.result.tables)
            options.tableIds << table.tableId;
        const ExecutionResult result = co_await m_sandbox->execute(cell.code, options);
        if (!self)
            co_return restore;
        if (m_cancelled && result.status == ExecutionResult::Status::Interrupted) {
            restore.stopped = true;
            break;
        }
        ++restore.done;
        if (result.status == ExecutionResult::Status::Ok) {
            ++restore.restored;
            continue;
        }
        restore.failures << tr("%1: %2").arg(KernelRestore::cellName(i, cell.code), KernelRestore::failure(result));
        // Without a kernel, or with a new one, the rest would run on nothing.
        if (result.status == ExecutionResult::Status::Crashed ||
            result.status == ExecutionResult::Status::Unavailable || result.stateLost) {
            restore.stopped = true;
            break;
        }
    }
    m_restoring = false;
    m_codeSinceNew = m_codeSinceNew || restore.done > 0;
    // Stopped by the user, it can be tried again; done, or ended by a cell that kills the kernel,
    // it is not tried again for this kernel.
    m_restorePending = restore.stopped && m_cancelled;
    m_lossTold = !m_restorePending;
    AgentEvent finished;
    finished.kind = AgentEvent::Kind::RestoreFinished;
    finished.restore = restore;
    finished.text = restore.userSummary();
    Q_EMIT event(finished);
    co_return restore;
}

void AgentLoop::setModel(const QString &model)
{
    m_config.provider.model = model;
    m_client->setConfig(m_config.provider);
}

void AgentLoop::setProvider(const Sandpiper::ProviderConfig &provider)
{
    m_config.provider = provider;
    m_client->setConfig(provider);
    if (m_titleClient)
        m_titleClient->setConfig(provider);
}

void AgentLoop::setSandboxNetwork(bool enabled)
{
    if (m_sandbox)
        m_sandbox->setNetwork(enabled);
}

void AgentLoop::setRestoreAutomatically(bool automatic)
{
    m_config.restoreKernelAutomatically = automatic;
}

void AgentLoop::setApprovals(const QHash<QString, ApprovalPolicy> &approval)
{
    m_config.approval = approval;
}

void AgentLoop::replaceHistory(const QList<ChatMessage> &history)
{
    if (!m_busy)
        m_history = history;
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
    const CallKey key{told.id, 0};
    ToolCall call;
    call.name = PythonTool::toolName();
    AgentEvent started;
    started.kind = AgentEvent::Kind::ToolStarted;
    started.key = key;
    started.call = call;
    started.preview = code;
    started.origin = RunOrigin::User;
    Q_EMIT event(started);
    m_running = {key, call};
    const ExecutionResult result = co_await m_sandbox->execute(code);
    if (!self)
        co_return;
    m_running = {};
    const QString report = PythonTool::reportForModel(result, m_config.limits);
    AgentEvent finished;
    finished.kind = AgentEvent::Kind::ToolFinished;
    finished.key = key;
    finished.call = call;
    finished.origin = RunOrigin::User;
    finished.text = report;
    finished.ran = true;
    finished.success = result.status == ExecutionResult::Status::Ok;
    finished.result = result;
    Q_EMIT event(finished);
    saveExecution(key, call, RunOrigin::User, code, result);
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

ApprovalPolicy AgentLoop::policyFor(const Tool &tool) const
{
    if (m_alwaysAllowed.contains(tool.name()))
        return ApprovalPolicy::Auto;
    return m_config.approval.value(tool.name(), tool.defaultApproval());
}

QCoro::Task<> AgentLoop::runTurn(QString text, QStringList attachments, QStringList images)
{
    QPointer<AgentLoop> self(this);
    m_busy = true;
    m_cancelled = false;
    m_storeErrorShown = false;
    m_decisions.clear();
    emitEvent(AgentEvent::Kind::TurnStarted);

    auto finishTurn = [this](AgentEvent::End end, const QString &note = {}) {
        m_busy = false;
        AgentEvent finished;
        finished.kind = AgentEvent::Kind::TurnFinished;
        finished.end = end;
        finished.text = note;
        Q_EMIT event(finished);
    };

    ChatMessage user;
    user.role = ChatMessage::Role::User;
    user.content = text;
    user.images = images;
    if (!images.isEmpty()) {
        // Before anything is stored: a message the model cannot take goes back whole.
        const QString refusal = co_await imagesRefusal(images);
        if (!self)
            co_return;
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
    // The files show beside the user's words; what the model is told about them goes apart. The
    // images are files of the folder too: the model learns their names for its code.
    const SandboxFolder folder(m_config.sandbox.dataDirectory);
    for (const QString &name : std::as_const(attachments))
        user.attachments.append({name, folder.fileSize(name)});
    QStringList described = attachments;
    for (const QString &image : std::as_const(images)) {
        if (!described.contains(image))
            described << image;
    }
    if (!described.isEmpty()) {
        user.attachmentNote = co_await describeAttachments(described);
        if (!self)
            co_return;
    }
    addMessage(user); // the store names the conversation after its first message

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
        if (m_store) {
            ChatMessage placeholder;
            placeholder.role = ChatMessage::Role::Assistant;
            placeholder.status = ChatMessage::Status::Streaming;
            save(placeholder);
            if (placeholder.id != 0) {
                streamedId = placeholder.id;
                m_writer = new StreamingWriter(m_store, placeholder, StreamingWriter::DefaultInterval, this);
                connect(m_writer, &StreamingWriter::saveFailed, this, &AgentLoop::reportStoreError);
            }
        }
        const QList<ChatMessage> request = requestMessages();
        const bool withImages = std::any_of(request.cbegin(), request.cend(),
                                            [](const ChatMessage &message) { return !message.imageUrls.isEmpty(); });
        ChatResponse response =
            co_await m_budget->complete(request, m_tools.isEmpty() ? QJsonArray() : m_tools.declarations());
        if (!self)
            co_return;
        if (withImages && !response.ok() && response.error.kind != ChatError::Kind::Cancelled &&
            refusesImages(response.error)) {
            // Refused after all (a llama.cpp without its projector, a text model behind a proxy):
            // later requests go without images, so the conversation can go on.
            m_budget->learnImagesRefused(m_client->config().model);
            response.error.message +=
                QLatin1Char(' ') + tr("The model did not take the images. Sandpiper now sends this conversation to "
                                      "“%1” without them; they stay in the conversation and in /mnt/data. Send again "
                                      "to go on, or choose a model with vision.")
                                       .arg(m_client->config().model);
        }
        for (const QString &notice : response.notices)
            emitEvent(AgentEvent::Kind::Notice, notice);

        ChatMessage assistant = response.message;
        assistant.id = streamedId;
        // Keep what arrived of a failed answer; calls cut off mid-stream are incomplete and
        // are dropped, so the history stays valid.
        const bool cancelled = response.error.kind == ChatError::Kind::Cancelled;
        if (!response.ok()) {
            assistant.toolCalls.clear();
            assistant.status = cancelled ? ChatMessage::Status::Cancelled : ChatMessage::Status::Error;
            assistant.error = cancelled ? QString() : response.error.message;
        }
        if (m_writer) {
            // The final save writes the whole message: a non-streamed answer never passed
            // through the writer.
            (void)m_writer->finish(assistant.status, assistant.error);
            delete m_writer;
            if (auto saved = m_store->updateMessage(assistant); !saved)
                reportStoreError(saved.error().message);
        }
        if (!response.ok()) {
            if (!assistant.content.isEmpty() || !assistant.reasoning.isEmpty() || !cancelled)
                addMessage(assistant);
            if (!cancelled)
                emitEvent(AgentEvent::Kind::Error, response.error.message);
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
            if (m_config.modelTitles && m_store && m_history.size() == 2)
                QCoro::connect(improveTitle(m_history.first(), assistant.content), this, [] {});
            co_return;
        }

        if (round >= m_config.maxToolRounds) {
            const QString note = tr("Stopped: the model reached the limit of %1 tool rounds for one message. Send "
                                    "another message to let it continue.")
                                     .arg(m_config.maxToolRounds);
            for (const ToolCall &call : std::as_const(assistant.toolCalls))
                addMessage(toolMessage(call, QStringLiteral("Not run: the limit of %1 tool rounds per user message was "
                                                            "reached. Answer with what you have.")
                                                 .arg(m_config.maxToolRounds)));
            emitEvent(AgentEvent::Kind::Notice, note);
            finishTurn(AgentEvent::End::RoundLimit, note);
            co_return;
        }

        for (int index = 0; index < assistant.toolCalls.size(); ++index) {
            const ChatMessage result = co_await runToolCall(assistant.toolCalls.at(index), CallKey{answerId, index});
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

QCoro::Task<ChatMessage> AgentLoop::runToolCall(ToolCall call, CallKey key)
{
    QPointer<AgentLoop> self(this);
    AgentEvent proposed;
    proposed.kind = AgentEvent::Kind::ToolCallProposed;
    proposed.key = key;
    proposed.call = call;
    Q_EMIT event(proposed);

    // Without an outcome the call did not run: refused, denied, cancelled or invalid.
    auto finished = [this, &call, &key](const QString &content, std::optional<ToolOutcome> outcome = std::nullopt) {
        AgentEvent done;
        done.kind = AgentEvent::Kind::ToolFinished;
        done.key = key;
        done.call = call;
        done.text = content;
        done.ran = outcome.has_value();
        if (outcome) {
            done.success = outcome->success;
            done.result = std::move(outcome->result);
        }
        Q_EMIT event(done);
        return toolMessage(call, content);
    };

    if (m_cancelled)
        co_return finished(QStringLiteral("Cancelled: the user stopped the answer before this call ran."));
    Tool *tool = m_tools.find(call.name);
    if (!tool) {
        const QStringList names = m_tools.names();
        co_return finished(
            names.isEmpty() ? QStringLiteral("Error: there is no tool \"%1\"; no tools are available.").arg(call.name)
                            : QStringLiteral("Error: there is no tool \"%1\". Available tools: %2.")
                                  .arg(call.name, names.join(QStringLiteral(", "))));
    }
    PreparedCall prepared = tool->prepare(call);
    if (!prepared.ok())
        co_return finished(QStringLiteral("Error: %1").arg(prepared.error));

    QString note;
    switch (policyFor(*tool)) {
    case ApprovalPolicy::Never:
        co_return finished(
            QStringLiteral("Not run: the user does not allow %1 in this conversation. Do not call it again; "
                           "answer without it.")
                .arg(call.name));
    case ApprovalPolicy::Auto:
        break;
    case ApprovalPolicy::Ask: {
        AgentEvent approval;
        approval.kind = AgentEvent::Kind::ApprovalNeeded;
        approval.key = key;
        approval.call = call;
        approval.preview = prepared.preview;
        Q_EMIT event(approval);
        const std::optional<Decision> decision = co_await waitForDecision(key);
        if (!self)
            co_return {};
        if (!decision)
            co_return finished(QStringLiteral("Cancelled: the user stopped the answer before this call ran."));
        if (decision->kind == Decision::Kind::Deny) {
            co_return finished(
                decision->reason.isEmpty()
                    ? QStringLiteral("Not run: the user declined to run this.")
                    : QStringLiteral("Not run: the user declined to run this. Their reason: %1").arg(decision->reason));
        }
        if (decision->editedArguments) {
            ToolCall edited = call;
            edited.arguments = *decision->editedArguments;
            prepared = tool->prepare(edited);
            if (!prepared.ok())
                co_return finished(QStringLiteral("Error in the user's edit: %1").arg(prepared.error));
            note =
                QStringLiteral("Note: the user edited the call before it ran. What ran:\n%1\n\n").arg(prepared.preview);
        }
        break;
    }
    }

    // Code about to run in a new kernel: its variables come back first when the user wants that,
    // and the model is told either way.
    if (call.name == PythonTool::toolName() && m_sandbox) {
        if (m_restorePending && m_config.restoreKernelAutomatically) {
            const KernelRestore restore = co_await replay(false);
            if (!self)
                co_return {};
            if (m_cancelled)
                co_return finished(QStringLiteral("Cancelled: the user stopped the answer before this call ran."));
            note += restore.modelNote() + QLatin1String("\n\n");
        } else if (!m_restoreNote.isEmpty()) {
            note += std::exchange(m_restoreNote, QString()) + QLatin1String("\n\n");
        } else if (m_restorePending && !std::exchange(m_lossTold, true)) {
            note += QStringLiteral("Note: the Python kernel of this conversation is new (%1): the variables, imports "
                                   "and functions of the %2 earlier successful cells are gone and were not restored. "
                                   "Define again what this code needs; the user can also restore them.\n\n")
                        .arg(m_lostReason)
                        .arg(m_replayable.size());
        }
    }

    AgentEvent started;
    started.kind = AgentEvent::Kind::ToolStarted;
    started.key = key;
    started.call = call;
    started.preview = prepared.preview;
    Q_EMIT event(started);
    m_running = {key, call};
    ToolOutcome outcome = co_await tool->run(prepared);
    if (!self)
        co_return {};
    m_running = {};
    if (const auto *execution = std::get_if<ExecutionResult>(&outcome.result))
        saveExecution(key, call, RunOrigin::Model, prepared.preview, *execution);
    const QString content = note + outcome.modelText;
    co_return finished(content, std::move(outcome));
}

QCoro::Task<std::optional<AgentLoop::Decision>> AgentLoop::waitForDecision(CallKey key)
{
    QPointer<AgentLoop> self(this);
    // The user may take their time; the wait wakes at every decision and every minute.
    while (!m_decisions.contains(key)) {
        if (m_cancelled)
            co_return std::nullopt;
        co_await qCoro(this, &AgentLoop::decisionMade, 60s);
        if (!self)
            co_return std::nullopt;
    }
    if (m_cancelled)
        co_return std::nullopt;
    co_return m_decisions.take(key);
}

} // namespace Sandpiper
