#include "agent/agentthread.h"

#include <QDeadlineTimer>
#include <QList>
#include <QPointer>
#include <QThread>

namespace Sandpiper {

namespace {

// Threads whose agent is gone but which may still be ending. Touched on the thread that creates
// and destroys agents (the GUI thread) only.
QList<QPointer<QThread>> &retiredThreads()
{
    static QList<QPointer<QThread>> threads;
    return threads;
}

} // namespace

AgentThread::AgentThread(AgentConfig config, ConversationStore *store, qint64 conversationId,
                         QList<ChatMessage> history, QObject *parent)
    : QObject(parent)
    , m_thread(new QThread)
{
    qRegisterMetaType<Sandpiper::AgentEvent>();
    qRegisterMetaType<Sandpiper::AgentEvent::End>();
    m_thread->setObjectName(QStringLiteral("agent"));
    m_thread->start();
    // The loop and everything it owns (network, sandbox, timers) are created on the thread,
    // through an object that lives there (the QThread object itself lives here).
    auto *onThread = new QObject;
    onThread->moveToThread(m_thread);
    QMetaObject::invokeMethod(
        onThread,
        [this, onThread, store, conversationId, config = std::move(config), history = std::move(history)] {
            onThread->deleteLater();
            m_loop = new AgentLoop(config, store, conversationId);
            m_loop->setHistory(history);
            connect(m_loop, &AgentLoop::event, this, &AgentThread::event, Qt::QueuedConnection);
        },
        Qt::BlockingQueuedConnection);
}

AgentThread::~AgentThread()
{
    // Events still queued for this object are dropped with it. The loop deletes itself on its
    // thread; the thread quits once that has happened and is deleted when it finished.
    QThread *thread = m_thread;
    connect(m_loop, &QObject::destroyed, thread, &QThread::quit, Qt::DirectConnection);
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    post(&AgentLoop::shutdown);
    retiredThreads().removeIf([](const QPointer<QThread> &retired) { return retired.isNull(); });
    retiredThreads().append(thread);
}

bool AgentThread::waitForRetiredThreads(std::chrono::milliseconds timeout)
{
    const QDeadlineTimer deadline(timeout);
    bool allEnded = true;
    for (const QPointer<QThread> &thread : std::as_const(retiredThreads())) {
        if (thread && !thread->wait(deadline))
            allEnded = false;
    }
    if (allEnded) {
        for (const QPointer<QThread> &thread : std::as_const(retiredThreads()))
            delete thread.data();
        retiredThreads().clear();
    }
    return allEnded;
}

} // namespace Sandpiper
