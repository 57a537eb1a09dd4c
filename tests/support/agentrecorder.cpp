#include "agentrecorder.h"

#include "dockertest.h"

#include <agent/agentloop.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QTimer>

namespace Sandpiper::Test {

AgentRecorder::AgentRecorder(AgentLoop *loop)
{
    connect(loop, &AgentLoop::event, this, [this](const AgentEvent &e) {
        events << e;
        if (onEvent)
            onEvent(e);
        if (e.kind == AgentEvent::Kind::TurnFinished && m_waiting)
            m_waiting->quit();
    });
}

QList<AgentEvent> AgentRecorder::ofKind(AgentEvent::Kind kind) const
{
    QList<AgentEvent> found;
    for (const AgentEvent &e : events) {
        if (e.kind == kind)
            found << e;
    }
    return found;
}

bool AgentRecorder::waitForTurn(int turns, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (ofKind(AgentEvent::Kind::TurnFinished).size() < turns) {
        const qint64 left = timeoutMs - timer.elapsed();
        if (left <= 0)
            return false;
        QEventLoop wait;
        m_waiting = &wait;
        QTimer::singleShot(std::min<qint64>(left, 100), &wait, &QEventLoop::quit);
        wait.exec();
        m_waiting = nullptr;
    }
    return true;
}

AgentEvent::End AgentRecorder::end() const
{
    return ofKind(AgentEvent::Kind::TurnFinished).constLast().end;
}

QString toolMessageIn(const RecordedRequest &request, const QString &callId)
{
    for (const QJsonValue &message : request.json().value(QLatin1String("messages")).toArray()) {
        if (message[QLatin1String("role")].toString() == QLatin1String("tool") &&
            message[QLatin1String("tool_call_id")].toString() == callId)
            return message[QLatin1String("content")].toString();
    }
    return {};
}

QString jsonCode(const QString &code)
{
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("code"), code}}).toJson(QJsonDocument::Compact));
}

ChatMessage chatMessage(ChatMessage::Role role, const QString &content)
{
    ChatMessage message;
    message.role = role;
    message.content = content;
    return message;
}

AgentConfig agentConfig(const QUrl &baseUrl, ApprovalPolicy approval, const QString &folder)
{
    AgentConfig config;
    config.provider.id = QStringLiteral("custom");
    config.provider.baseUrl = baseUrl.toString();
    config.provider.model = QStringLiteral("test-model");
    config.systemPrompt = QStringLiteral("You are a test.");
    config.approval.insert(QStringLiteral("execute_python_code"), approval);
    config.chartsEnabled = false;
    config.webEnabled = false;
    config.sandbox.image = sandboxImage();
    config.sandbox.conversationId = QStringLiteral("agent-test");
    config.sandbox.dataDirectory = folder;
    return config;
}

} // namespace Sandpiper::Test
