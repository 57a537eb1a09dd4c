// The agent with MCP tools, end to end: a scripted model (FakeLlmServer, in OpenAI's wire format)
// calls the reference server's tools through the tool loop, with approval, progress and Stop.
#include "agentrecorder.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "mcptestservers.h"

#include <agent/agentloop.h>
#include <mcp/mcpserverregistry.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;
using Kind = AgentEvent::Kind;
using namespace std::chrono_literals;

namespace {

QStringList offeredTools(const RecordedRequest &request)
{
    QStringList names;
    for (const QJsonValue &tool : request.json().value(QLatin1String("tools")).toArray())
        names << tool[QLatin1String("function")][QLatin1String("name")].toString();
    return names;
}

} // namespace

class TestMcpAgent : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    std::unique_ptr<McpServerRegistry> m_registry;
    QTemporaryDir m_dir;

    AgentConfig config() const
    {
        AgentConfig c;
        c.provider.id = QStringLiteral("custom");
        c.provider.baseUrl = m_server->baseUrl().toString();
        c.provider.model = QStringLiteral("test-model");
        c.pythonEnabled = false;
        c.webEnabled = false;
        c.chartsEnabled = false;
        c.sandbox.dataDirectory = m_dir.path();
        c.mcp = m_registry.get();
        return c;
    }

private Q_SLOTS:
    void init()
    {
        SANDPIPER_REQUIRE_MCP_SERVERS();
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        m_registry = std::make_unique<McpServerRegistry>(
            McpServerRegistry::Options{McpTestServers::writeConfig(m_dir.path(), {McpTestServers::everything()}),
                                       m_dir.path() + QStringLiteral("/logs"), 30s});
    }
    void cleanup()
    {
        m_server.reset();
        m_registry.reset();
    }

    void theModelCallsEchoAndQuotesIt()
    {
        m_server->enqueue(FS::openAiToolCalls({{QStringLiteral("call_echo"), QStringLiteral("everything__echo"),
                                                QStringLiteral(R"({"message": "sandpiper"})")}}));
        m_server->enqueue(FS::openAiText(QStringLiteral("The server said: Echo: sandpiper")));
        AgentConfig c = config();
        c.approval.insert(QStringLiteral("everything__echo"), ApprovalPolicy::Auto);
        AgentLoop loop(c);
        AgentRecorder recorder(&loop);
        loop.send(QStringLiteral("echo sandpiper with the MCP server"));
        QVERIFY(recorder.waitForTurn(1, 60000));
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);

        // The servers started for this first message; their tools went out with it.
        const QList<RecordedRequest> requests = m_server->chatRequests();
        QCOMPARE(requests.size(), 2);
        QVERIFY(offeredTools(requests.first()).contains(QStringLiteral("everything__echo")));
        QVERIFY(offeredTools(requests.first()).contains(QStringLiteral("everything__get-tiny-image")));
        QCOMPARE(toolMessageIn(requests.at(1), QStringLiteral("call_echo")), QStringLiteral("Echo: sandpiper"));
        const QList<AgentEvent> finished = recorder.ofKind(Kind::ToolFinished);
        QCOMPARE(finished.size(), 1);
        QVERIFY(finished.first().success);
        QCOMPARE(std::get<McpResult>(finished.first().result).server, QStringLiteral("everything"));
        QVERIFY(recorder.ofKind(Kind::ApprovalNeeded).isEmpty());
        QCOMPARE(recorder.ofKind(Kind::MessageAdded).last().message.content,
                 QStringLiteral("The server said: Echo: sandpiper"));
    }

    void asksWithTheArgumentsInFull()
    {
        m_server->enqueue(FS::openAiToolCalls({{QStringLiteral("call_sum"), QStringLiteral("everything__get-sum"),
                                                QStringLiteral(R"({"a": 19, "b": 23})")}}));
        m_server->enqueue(FS::openAiText(QStringLiteral("42")));
        AgentLoop loop(config());
        AgentRecorder recorder(&loop);
        QString preview;
        recorder.onEvent = [&](const AgentEvent &event) {
            if (event.kind == Kind::ApprovalNeeded) {
                preview = event.preview;
                loop.approve(event.key);
            }
        };
        loop.send(QStringLiteral("add"));
        QVERIFY(recorder.waitForTurn(1, 60000));
        QCOMPARE(QJsonDocument::fromJson(preview.toUtf8()).object(),
                 (QJsonObject{{QStringLiteral("a"), 19}, {QStringLiteral("b"), 23}}));
        QVERIFY(preview.contains(QLatin1Char('\n'))); // formatted, not one long line
        QCOMPARE(toolMessageIn(m_server->chatRequests().at(1), QStringLiteral("call_sum")),
                 QStringLiteral("The sum of 19 and 23 is 42."));
    }

    void reportsProgressAndStops()
    {
        m_server->enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_long"), QStringLiteral("everything__trigger-long-running-operation"),
              QStringLiteral(R"({"duration": 30, "steps": 30})")}}));
        AgentConfig c = config();
        c.approval.insert(QStringLiteral("everything__trigger-long-running-operation"), ApprovalPolicy::Auto);
        AgentLoop loop(c);
        AgentRecorder recorder(&loop);
        recorder.onEvent = [&](const AgentEvent &event) {
            if (event.kind == Kind::ToolProgress && event.progress >= 2)
                loop.cancel();
        };
        loop.send(QStringLiteral("run long"));
        QVERIFY(recorder.waitForTurn(1, 60000));
        QCOMPARE(recorder.end(), AgentEvent::End::Cancelled);
        const QList<AgentEvent> progress = recorder.ofKind(Kind::ToolProgress);
        QVERIFY(progress.size() >= 2);
        QCOMPARE(progress.first().call.id, QStringLiteral("call_long"));
        QCOMPARE(progress.first().progressTotal, 30.0);
        QVERIFY(recorder.ofKind(Kind::ToolFinished).first().text.contains(QLatin1String("Cancelled")));
    }

    void aFailedServerIsToldAndTheTurnGoesOn()
    {
        McpServerConfig missing;
        missing.name = QStringLiteral("missing");
        missing.command = QStringLiteral("sandpiper-no-such-mcp-server");
        m_registry = std::make_unique<McpServerRegistry>(McpServerRegistry::Options{
            McpTestServers::writeConfig(m_dir.path(), {missing, McpTestServers::everything()}),
            m_dir.path() + QStringLiteral("/logs"), 30s});
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello.")));
        AgentLoop loop(config());
        AgentRecorder recorder(&loop);
        loop.send(QStringLiteral("hi"));
        QVERIFY(recorder.waitForTurn(1, 60000));
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        const QList<AgentEvent> notices = recorder.ofKind(Kind::Notice);
        QCOMPARE(notices.size(), 1);
        QVERIFY(notices.first().text.contains(QLatin1String("\"missing\" is not available")));
        QVERIFY(offeredTools(m_server->chatRequests().first()).contains(QStringLiteral("everything__echo")));
    }
};

QTEST_GUILESS_MAIN(TestMcpAgent)
#include "tst_mcpagent.moc"
