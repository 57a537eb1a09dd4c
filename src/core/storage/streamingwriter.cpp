#include "storage/streamingwriter.h"

#include "storage/conversationstore.h"

#include <tuple>

namespace Sandpiper {

StreamingWriter::StreamingWriter(ConversationStore *store, const ChatMessage &message,
                                 std::chrono::milliseconds interval, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_message(message)
    , m_interval(interval)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { std::ignore = save(); });
    m_sinceSave.start(); // the row was just written by appendMessage()
}

StreamingWriter::~StreamingWriter()
{
    if (m_dirty && !m_finished)
        std::ignore = save();
}

void StreamingWriter::appendContent(QStringView text)
{
    m_message.content += text;
    changed();
}

void StreamingWriter::appendReasoning(QStringView text)
{
    m_message.reasoning += text;
    changed();
}

void StreamingWriter::setToolCalls(const QList<ToolCall> &calls)
{
    m_message.toolCalls = calls;
    changed();
}

void StreamingWriter::setUsage(const TokenUsage &usage)
{
    m_message.usage = usage;
    changed();
}

StoreResult<void> StreamingWriter::finish(ChatMessage::Status status, const QString &error)
{
    m_timer.stop();
    m_message.status = status;
    m_message.error = error;
    m_finished = true;
    return save();
}

void StreamingWriter::changed()
{
    if (m_finished)
        return;
    m_dirty = true;
    if (m_timer.isActive())
        return;
    const auto waited = std::chrono::milliseconds(m_sinceSave.elapsed());
    if (waited >= m_interval)
        std::ignore = save(); // a failure reaches saveFailed() and is retried
    else
        m_timer.start(m_interval - waited);
}

StoreResult<void> StreamingWriter::save()
{
    m_dirty = false;
    m_sinceSave.restart();
    auto result = m_store->updateMessage(m_message);
    if (result) {
        Q_EMIT saved();
    } else {
        m_dirty = true;
        if (!m_finished)
            m_timer.start(m_interval);
        Q_EMIT saveFailed(result.error().message);
    }
    return result;
}

} // namespace Sandpiper
