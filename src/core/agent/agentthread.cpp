#include "agent/agentthread.h"

#include "agent/agentloop.h"

namespace Sandpiper {

AgentThread::AgentThread(AgentConfig config, ConversationStore *store, qint64 conversationId,
                         QList<ChatMessage> history, QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<Sandpiper::AgentEvent>();
    m_thread.setObjectName(QStringLiteral("agent"));
    m_thread.start();
    // The loop and everything it owns (network, sandbox, timers) are created on the thread,
    // through an object that lives there (the QThread object itself lives here).
    auto *onThread = new QObject;
    onThread->moveToThread(&m_thread);
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
    QMetaObject::invokeMethod(
        m_loop, [loop = m_loop] { delete loop; }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

template<typename Command> void AgentThread::post(Command command)
{
    QMetaObject::invokeMethod(
        m_loop, [loop = m_loop, command = std::move(command)] { command(loop); }, Qt::QueuedConnection);
}

void AgentThread::send(const QString &text)
{
    post([text](AgentLoop *loop) { loop->send(text); });
}

void AgentThread::approve(const QString &callId)
{
    post([callId](AgentLoop *loop) { loop->approve(callId); });
}

void AgentThread::approveEdited(const QString &callId, const QString &arguments)
{
    post([callId, arguments](AgentLoop *loop) { loop->approveEdited(callId, arguments); });
}

void AgentThread::deny(const QString &callId, const QString &reason)
{
    post([callId, reason](AgentLoop *loop) { loop->deny(callId, reason); });
}

void AgentThread::alwaysAllow(const QString &callId)
{
    post([callId](AgentLoop *loop) { loop->alwaysAllow(callId); });
}

void AgentThread::cancel()
{
    post([](AgentLoop *loop) { loop->cancel(); });
}

void AgentThread::runUserCode(const QString &code)
{
    post([code](AgentLoop *loop) { loop->runUserCode(code); });
}

void AgentThread::restartSandbox()
{
    post([](AgentLoop *loop) { loop->restartSandbox(); });
}

void AgentThread::setModel(const QString &model)
{
    post([model](AgentLoop *loop) { loop->setModel(model); });
}

void AgentThread::setSandboxNetwork(bool enabled)
{
    post([enabled](AgentLoop *loop) { loop->setSandboxNetwork(enabled); });
}

void AgentThread::replaceHistory(const QList<ChatMessage> &history)
{
    post([history](AgentLoop *loop) { loop->replaceHistory(history); });
}

} // namespace Sandpiper
