#pragma once

#include "llm/chatmessage.h"
#include "storage/storeresult.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <chrono>

namespace Sandpiper {

class ConversationStore;

// Saves an assistant message while it streams in: at most once per interval, and at the
// latest one interval after the last change, so a crash (or kill -9) loses at most that much
// of the answer. Lives in the thread that receives the stream; needs its event loop.
class StreamingWriter : public QObject
{
    Q_OBJECT

public:
    static constexpr std::chrono::milliseconds DefaultInterval{250};

    // MESSAGE is already stored (appendMessage() with status Streaming); its id names the row.
    StreamingWriter(ConversationStore *store, const ChatMessage &message,
                    std::chrono::milliseconds interval = DefaultInterval, QObject *parent = nullptr);
    // Saves what is pending: an unfinished message stays Streaming and is found interrupted at
    // the next start.
    ~StreamingWriter() override;

    void appendContent(QStringView text);
    void appendReasoning(QStringView text);
    void setToolCalls(const QList<ToolCall> &calls);
    void setUsage(const TokenUsage &usage);

    // Saves the message one last time with its final status (and ERROR for Status::Error).
    StoreResult<void> finish(ChatMessage::Status status = ChatMessage::Status::Complete, const QString &error = {});

    const ChatMessage &message() const { return m_message; }
    bool isFinished() const { return m_finished; }

Q_SIGNALS:
    void saved();
    // The store refused a write (disk full, read-only); the writer tries again at the next
    // interval and keeps the text meanwhile.
    void saveFailed(const QString &message);

private:
    void changed();
    StoreResult<void> save();

    ConversationStore *m_store;
    ChatMessage m_message;
    std::chrono::milliseconds m_interval;
    QTimer m_timer;
    QElapsedTimer m_sinceSave;
    bool m_dirty = false;
    bool m_finished = false;
};

} // namespace Sandpiper
