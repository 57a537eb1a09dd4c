// create_chart in the tool-calling loop, against the fake model server: a good call reaches the
// GUI as a normalised chart, a bad one goes back to the model, which can try again.
#include "agentrecorder.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "toolresults.h"

#include <agent/agentloop.h>
#include <charts/chartspec.h>
#include <storage/conversationstore.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;
using Kind = AgentEvent::Kind;
using Recorder = Sandpiper::Test::AgentRecorder;

namespace {

FS::ScriptedCall chartCall(const QString &arguments, const QString &id)
{
    return {id, QStringLiteral("create_chart"), arguments};
}

QStringList offeredTools(const RecordedRequest &request)
{
    QStringList names;
    for (const QJsonValue &tool : request.json().value(QLatin1String("tools")).toArray())
        names << tool[QLatin1String("function")][QLatin1String("name")].toString();
    return names;
}

const QString goodArguments = QStringLiteral(
    R"({"type": "line", "title": "Visitors", "x": ["2024-01-01", "2024-02-01", "2024-03-01"],)"
    R"( "series": [{"name": "Web", "data": [120, "135", 150]}, {"name": "App", "data": [80, 95, 130]}]})");

} // namespace

class TestChartAgent : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    QTemporaryDir m_dir;

    AgentConfig config() const
    {
        AgentConfig c;
        c.provider.id = QStringLiteral("custom");
        c.provider.baseUrl = m_server->baseUrl().toString();
        c.provider.model = QStringLiteral("test-model");
        c.pythonEnabled = false; // no Docker needed: create_chart runs nothing
        return c;
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
    }
    void cleanup() { m_server.reset(); }

    void aValidChartReachesTheUser()
    {
        m_server->enqueue(FS::openAiToolCalls({chartCall(goodArguments, QStringLiteral("call_chart"))}, 7));
        m_server->enqueue(FS::openAiText(QStringLiteral("Visitors grew in both channels.")));
        AgentLoop loop(config());
        Recorder recorder(&loop);
        loop.send(QStringLiteral("chart the visitors"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.ofKind(Kind::TurnFinished).constFirst().end, AgentEvent::End::Completed);

        // Offered with its schema; approved without asking.
        QVERIFY(offeredTools(m_server->requests().constFirst()).contains(QStringLiteral("create_chart")));
        QCOMPARE(recorder.ofKind(Kind::ApprovalNeeded).size(), 0);

        const auto finished = recorder.ofKind(Kind::ToolFinished);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(chartOf(finished.first()), ChartSpec::fromToolArguments(goodArguments)->toJson());
        QCOMPARE(chartOf(finished.first())[QLatin1String("series")][0][QLatin1String("data")][1][1].toDouble(), 135.0);
        QVERIFY(!finished.first().execution());

        QCOMPARE(m_server->requests().size(), 2);
        const QString toolText = toolMessageIn(m_server->requests().at(1), QStringLiteral("call_chart"));
        QCOMPARE(toolText,
                 QStringLiteral("Chart shown to the user: line chart \"Visitors\" with 2 series: Web (3 points), "
                                "App (3 points). The user can hover, zoom and save it."));
    }

    void anInvalidChartGoesBackToTheModelWhichRetries()
    {
        const QString bad = QStringLiteral(
            R"({"type": "bar", "categories": ["a", "b", "c"], "series": [{"name": "s", "data": [1, 2, "NaN"]}]})");
        m_server->enqueue(FS::openAiToolCalls({chartCall(bad, QStringLiteral("call_1"))}, 3));
        m_server->enqueue(FS::openAiToolCalls({chartCall(goodArguments, QStringLiteral("call_2"))}, 3));
        m_server->enqueue(FS::openAiText(QStringLiteral("Fixed it.")));
        AgentLoop loop(config());
        Recorder recorder(&loop);
        loop.send(QStringLiteral("chart it"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.ofKind(Kind::TurnFinished).constFirst().end, AgentEvent::End::Completed);
        QCOMPARE(m_server->requests().size(), 3);

        QCOMPARE(
            toolMessageIn(m_server->requests().at(1), QStringLiteral("call_1")),
            QStringLiteral("Error: The chart was not shown. series[0].data[2]: expected a finite number, got \"NaN\". "
                           "Fix this and call create_chart again."));
        const auto finished = recorder.ofKind(Kind::ToolFinished);
        QCOMPARE(finished.size(), 2);
        QVERIFY(chartOf(finished.at(0)).isEmpty());
        QCOMPARE(chartOf(finished.at(1))[QLatin1String("title")].toString(), QStringLiteral("Visitors"));
        QVERIFY(toolMessageIn(m_server->requests().at(2), QStringLiteral("call_2"))
                    .startsWith(QLatin1String("Chart shown")));
    }

    void theStoredCallRedrawsTheChartThatWasShown()
    {
        ConversationStore store(m_dir.filePath(QStringLiteral("store")));
        const auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("test-model"));
        QVERIFY(conversation.ok());
        m_server->enqueue(FS::openAiToolCalls({chartCall(goodArguments, QStringLiteral("call_chart"))}, 5));
        m_server->enqueue(FS::openAiText(QStringLiteral("Done.")));
        QJsonObject shown;
        {
            AgentLoop loop(config(), &store, conversation->id);
            Recorder recorder(&loop);
            loop.send(QStringLiteral("chart the visitors"));
            QVERIFY(recorder.waitForTurn());
            shown = chartOf(recorder.ofKind(Kind::ToolFinished).constFirst());
        }
        QVERIFY(!shown.isEmpty());
        const auto messages = store.messages(conversation->id);
        QVERIFY(messages.ok());
        const auto call = std::find_if(messages->cbegin(), messages->cend(),
                                       [](const ChatMessage &m) { return !m.toolCalls.isEmpty(); });
        QVERIFY(call != messages->cend());
        const auto redrawn = ChartSpec::fromToolArguments(call->toolCalls.first().arguments);
        QVERIFY(redrawn);
        QCOMPARE(redrawn->toJson(), shown);
    }

    void chartsCanBeTurnedOff()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("No tools.")));
        AgentConfig c = config();
        c.chartsEnabled = false;
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hi"));
        QVERIFY(recorder.waitForTurn());
        QVERIFY(!offeredTools(m_server->requests().constFirst()).contains(QStringLiteral("create_chart")));
    }
};

QTEST_GUILESS_MAIN(TestChartAgent)
#include "tst_chartagent.moc"
