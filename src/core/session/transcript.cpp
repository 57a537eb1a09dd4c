#include "session/transcript.h"

#include "sandbox/terminaltext.h"
#include "session/executionmodel.h"
#include "session/messagemodel.h"
#include "storage/storedexecution.h"
#include "tools/pythontool.h"

#include <QDateTime>

namespace Sandpiper {

namespace {

// The card shows the end of what a long run printed; the inspector keeps it all.
constexpr qsizetype liveOutputKept = 64 * 1024;

} // namespace

Transcript::Transcript(MessageModel *messages, ExecutionModel *executions, QObject *parent)
    : QObject(parent)
    , m_messages(messages)
    , m_executions(executions)
    , m_frame(this)
{
    m_frame.setSingleShot(true);
    m_frame.setInterval(frameInterval);
    connect(&m_frame, &QTimer::timeout, this, &Transcript::flushFrame);
}

void Transcript::reset(const QList<ChatMessage> &messages, const QList<StoredExecution> &executions)
{
    m_messages->reset(MessageModel::itemsFromHistory(messages, executions));
    m_executions->setExecutions(executions);
}

void Transcript::showSent(const ChatMessage &message)
{
    dropUnsent();
    TurnItem sent;
    sent.kind = TurnItem::Kind::Message;
    sent.message = message;
    m_sentKey = m_messages->item(m_messages->append(std::move(sent))).key;
}

void Transcript::dropUnsent()
{
    if (const int row = m_messages->rowOfKey(std::exchange(m_sentKey, 0)); row >= 0)
        m_messages->remove(row);
}

void Transcript::collectText(const QString &text)
{
    dropRetryNotices();
    m_pendingText += text;
    if (!m_frame.isActive())
        m_frame.start();
}

void Transcript::collectReasoning(const QString &text)
{
    dropRetryNotices();
    m_pendingReasoning += text;
    if (!m_frame.isActive())
        m_frame.start();
}

void Transcript::collectOutput(const CallKey &call, const QString &stream, const QString &text)
{
    if (!m_pendingOutput.isEmpty() && m_pendingOutput.constLast().call == call &&
        m_pendingOutput.constLast().stream == stream)
        m_pendingOutput.last().text += text;
    else
        m_pendingOutput.append({call, stream, text});
    if (!m_frame.isActive())
        m_frame.start();
}

void Transcript::flushFrame()
{
    m_frame.stop();
    if (!m_pendingText.isEmpty() || !m_pendingReasoning.isEmpty()) {
        int row = m_messages->streamingRow();
        if (row < 0) {
            TurnItem answer;
            answer.kind = TurnItem::Kind::Message;
            answer.message.role = ChatMessage::Role::Assistant;
            answer.message.status = ChatMessage::Status::Streaming;
            row = m_messages->append(std::move(answer));
        }
        m_messages->appendToStream(row, m_pendingText, m_pendingReasoning);
        m_pendingText.clear();
        m_pendingReasoning.clear();
    }
    for (const PendingOutput &output : std::as_const(m_pendingOutput)) {
        m_messages->update(m_messages->rowOfCall(output.call), [&output](TurnItem &item) {
            TerminalText::append(item.liveOutput, output.text);
            TerminalText::keepTail(item.liveOutput, liveOutputKept);
        });
        m_executions->appendOutput(output.call, output.stream, output.text);
    }
    m_pendingOutput.clear();
}

void Transcript::proposeCall(const CallKey &key, const ToolCall &call)
{
    dropRetryNotices();
    if (m_messages->rowOfCall(key) >= 0)
        return;
    TurnItem item;
    item.kind = TurnItem::Kind::ToolCall;
    item.callKey = key;
    item.call = call;
    m_messages->append(std::move(item));
}

void Transcript::askApproval(const CallKey &key, const QString &preview)
{
    m_messages->update(m_messages->rowOfCall(key), [&preview](TurnItem &item) {
        item.toolState = TurnItem::ToolState::AwaitingApproval;
        item.preview = preview;
    });
}

void Transcript::startRun(const AgentEvent &event)
{
    // The user's own run has no call of the model's: it shows as a call of its own.
    if (event.origin == RunOrigin::User && m_messages->rowOfCall(event.key) < 0) {
        TurnItem run;
        run.kind = TurnItem::Kind::ToolCall;
        run.callKey = event.key;
        run.call = event.call;
        m_messages->append(std::move(run));
    }
    m_messages->update(m_messages->rowOfCall(event.key), [&event](TurnItem &item) {
        item.toolState = TurnItem::ToolState::Running;
        item.preview = event.preview;
        item.origin = event.origin;
        item.startedMs = QDateTime::currentMSecsSinceEpoch();
    });
    if (event.call.name == PythonTool::toolName())
        m_executions->addRunning(event.key, event.preview, event.origin);
}

void Transcript::showProgress(const AgentEvent &event)
{
    m_messages->update(m_messages->rowOfCall(event.key), [&event](TurnItem &item) {
        item.progress = event.progress;
        item.progressTotal = event.progressTotal;
        item.progressMessage = event.text;
    });
}

void Transcript::finishRun(const AgentEvent &event)
{
    m_messages->update(m_messages->rowOfCall(event.key), [&event](TurnItem &item) {
        item.toolState = event.ran ? TurnItem::ToolState::Finished : TurnItem::ToolState::NotRun;
        item.modelText = event.text;
        item.success = event.success;
        item.result = event.result;
        item.liveOutput.clear();
        item.progress = -1;
    });
    if (const ExecutionResult *execution = event.execution())
        m_executions->finish(event.key, *execution);
}

void Transcript::showError(const QString &text)
{
    const int streaming = m_messages->streamingRow();
    const int last = m_messages->rowCount() - 1;
    if (streaming >= 0)
        m_messages->update(streaming, [&text](TurnItem &item) { item.message.error = text; });
    else if (last < 0 || m_messages->item(last).message.error != text)
        addNotice(TurnItem::NoticeLevel::Error, text);
}

void Transcript::applyMessage(const ChatMessage &message)
{
    switch (message.role) {
    case ChatMessage::Role::System:
        return;
    case ChatMessage::Role::User: {
        // The message that tells the model about a run of the user's belongs to the run's card.
        if (const int run = m_messages->rowOfCall(CallKey{message.id, 0});
            message.id != 0 && run >= 0 && m_messages->item(run).origin == RunOrigin::User) {
            m_messages->update(run, [&message](TurnItem &item) { item.message = message; });
            return;
        }
        if (const int sent = m_messages->rowOfKey(std::exchange(m_sentKey, 0)); sent >= 0) {
            m_messages->update(sent, [&message](TurnItem &item) { item.message = message; });
        } else {
            TurnItem item;
            item.kind = TurnItem::Kind::Message;
            item.message = message;
            m_messages->append(std::move(item));
        }
        return;
    }
    case ChatMessage::Role::Tool:
        m_messages->update(answeredCall(message), [&message](TurnItem &item) {
            item.message = message;
            if (item.modelText.isEmpty())
                item.modelText = message.content;
            // Answered without running (the tool round limit).
            if (item.toolState == TurnItem::ToolState::Proposed)
                item.toolState = TurnItem::ToolState::NotRun;
        });
        return;
    case ChatMessage::Role::Assistant:
        break;
    }
    const int streaming = m_messages->streamingRow();
    if (streaming >= 0) {
        m_messages->update(streaming, [&message](TurnItem &item) { item.message = message; });
    } else if (!TurnItem::showsAsItsCalls(message)) {
        TurnItem item;
        item.kind = TurnItem::Kind::Message;
        item.message = message;
        m_messages->append(std::move(item));
    }
    for (int index = 0; index < message.toolCalls.size(); ++index) {
        const CallKey key{message.id, index};
        if (m_messages->rowOfCall(key) >= 0)
            continue;
        TurnItem item;
        item.kind = TurnItem::Kind::ToolCall;
        item.callKey = key;
        item.call = message.toolCalls.at(index);
        m_messages->append(std::move(item));
    }
}

int Transcript::answeredCall(const ChatMessage &message) const
{
    // The first call with its id of the newest answer that is not answered yet: tool messages
    // follow their answer in the order of its calls, and a call id is unique within its answer only.
    std::optional<qint64> answer;
    int first = -1;
    for (int row = m_messages->rowCount() - 1; row >= 0; --row) {
        const TurnItem &item = m_messages->item(row);
        if (item.kind != TurnItem::Kind::ToolCall || item.origin == RunOrigin::User)
            continue;
        if (answer && *answer != item.callKey.messageId)
            break;
        answer = item.callKey.messageId;
        if (item.call.id == message.toolCallId && item.message.role != ChatMessage::Role::Tool)
            first = row;
    }
    return first;
}

qint64 Transcript::addNotice(TurnItem::NoticeLevel level, const QString &text)
{
    TurnItem notice;
    notice.kind = TurnItem::Kind::Notice;
    notice.level = level;
    notice.text = text;
    return m_messages->item(m_messages->append(std::move(notice))).key;
}

void Transcript::addRetryNotice(const QString &text)
{
    m_retryNotices << addNotice(TurnItem::NoticeLevel::Retrying, text);
}

void Transcript::dropRetryNotices()
{
    for (const qint64 key : std::exchange(m_retryNotices, {})) {
        if (const int row = m_messages->rowOfKey(key); row >= 0)
            m_messages->remove(row);
    }
}

void Transcript::finishTurn(AgentEvent::End end)
{
    dropUnsent(); // a turn that ended before the message was kept (stopped at once)
    if (end == AgentEvent::End::Completed)
        dropRetryNotices();
    m_retryNotices.clear();
    // An answer stopped before it said anything is not kept; one that said something is.
    if (const int streaming = m_messages->streamingRow(); streaming >= 0) {
        if (m_messages->item(streaming).message.content.isEmpty() &&
            m_messages->item(streaming).message.reasoning.isEmpty()) {
            m_messages->remove(streaming);
        } else {
            m_messages->update(streaming, [end](TurnItem &item) {
                item.message.status =
                    end == AgentEvent::End::Cancelled ? ChatMessage::Status::Cancelled : ChatMessage::Status::Complete;
            });
        }
    }
    for (int row = 0; row < m_messages->rowCount(); ++row) {
        const TurnItem::ToolState state = m_messages->item(row).toolState;
        if (m_messages->item(row).kind == TurnItem::Kind::ToolCall &&
            (state == TurnItem::ToolState::Proposed || state == TurnItem::ToolState::AwaitingApproval ||
             state == TurnItem::ToolState::Running))
            m_messages->update(row, [](TurnItem &item) { item.toolState = TurnItem::ToolState::Interrupted; });
    }
}

} // namespace Sandpiper
