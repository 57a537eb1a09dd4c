// The tool calls of a conversation, by ToolCallRunner alone: the approval policies and the
// user's decisions (approve, edit, deny, always allow), a stop, unknown tools and arguments that
// do not check, and the one ToolFinished every call ends with, for the model's create_chart and
// for the user's own code in the real sandbox (saved in a real store).
#include "agentrecorder.h"
#include "dockertest.h"

#include <agent/kernelrestorer.h>
#include <agent/toolcallrunner.h>
#include <sandbox/sandboxsession.h>
#include <storage/conversationstore.h>
#include <tools/charttool.h>
#include <tools/toolregistry.h>
#include <tools/toolresult.h>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <QCoroTask>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using Kind = AgentEvent::Kind;

namespace {

const QString chartArguments = QStringLiteral(R"({"type": "bar", "title": "Visitors", "x": ["Mon", "Tue"],)"
                                              R"( "series": [{"name": "Web", "data": [120, 135]}]})");

ToolCall chartCall(const QString &id, const QString &arguments = chartArguments)
{
    return {id, ChartTool::toolName(), arguments};
}

} // namespace

class TestToolCallRunner : public QObject
{
    Q_OBJECT

    ToolRegistry m_tools;
    std::unique_ptr<ToolCallRunner> m_runner;
    QList<AgentEvent> m_events;
    // Answers an approval request as the user would.
    std::function<void(const CallKey &)> m_decide;

    QList<Kind> kinds() const
    {
        QList<Kind> result;
        for (const AgentEvent &event : m_events)
            result << event.kind;
        return result;
    }

    ChatMessage run(const ToolCall &call, const CallKey &key) { return QCoro::waitFor(m_runner->run(call, key)); }

    void watch(ToolCallRunner *runner)
    {
        connect(runner, &ToolCallRunner::event, this, [this](const AgentEvent &event) {
            m_events << event;
            if (event.kind == Kind::ApprovalNeeded && m_decide)
                m_decide(event.key);
        });
    }

private Q_SLOTS:
    void initTestCase() { m_tools.add(std::make_unique<ChartTool>()); }

    void init()
    {
        m_events.clear();
        m_decide = nullptr;
        m_runner = std::make_unique<ToolCallRunner>(&m_tools, nullptr, nullptr, ModelTextLimits{});
        m_runner->setApprovals({{ChartTool::toolName(), ApprovalPolicy::Ask}});
        watch(m_runner.get());
    }

    void anApprovedCallRunsAndEndsOnce()
    {
        m_decide = [this](const CallKey &key) {
            m_runner->approve(key);
        };
        const CallKey key{7, 0};
        const ChatMessage answer = run(chartCall(QStringLiteral("call_1")), key);
        QCOMPARE(kinds(),
                 (QList<Kind>{Kind::ToolCallProposed, Kind::ApprovalNeeded, Kind::ToolStarted, Kind::ToolFinished}));
        QVERIFY(!m_events.at(1).preview.isEmpty());
        const AgentEvent &finished = m_events.last();
        QCOMPARE(finished.key, key);
        QCOMPARE(finished.call.id, QStringLiteral("call_1"));
        QCOMPARE(finished.origin, RunOrigin::Model);
        QVERIFY(finished.ran);
        QVERIFY(finished.success);
        QVERIFY(std::holds_alternative<ChartResult>(finished.result));
        QCOMPARE(answer.role, ChatMessage::Role::Tool);
        QCOMPARE(answer.toolCallId, QStringLiteral("call_1"));
        QCOMPARE(answer.toolName, ChartTool::toolName());
        QCOMPARE(answer.content, finished.text);
    }

    void aDeniedCallDoesNotRun()
    {
        m_decide = [this](const CallKey &key) {
            m_runner->deny(key, QStringLiteral("no charts today"));
        };
        const ChatMessage answer = run(chartCall(QStringLiteral("call_1")), {1, 0});
        QCOMPARE(kinds(), (QList<Kind>{Kind::ToolCallProposed, Kind::ApprovalNeeded, Kind::ToolFinished}));
        QVERIFY(!m_events.last().ran);
        QCOMPARE(answer.content,
                 QStringLiteral("Not run: the user declined to run this. Their reason: no charts today"));
        QCOMPARE(m_events.last().text, answer.content);
    }

    void anEditedCallRunsWithTheUsersArguments()
    {
        m_decide = [this](const CallKey &key) {
            m_runner->approveEdited(key, QStringLiteral("{\"type\": 3}"));
        };
        const ChatMessage refused = run(chartCall(QStringLiteral("call_1")), {1, 0});
        QVERIFY2(refused.content.startsWith(QLatin1String("Error in the user's edit: ")), qPrintable(refused.content));
        QVERIFY(!m_events.last().ran);

        m_events.clear();
        const QString edited = QString(chartArguments).replace(QLatin1String("Visitors"), QLatin1String("Guests"));
        m_decide = [this, edited](const CallKey &key) {
            m_runner->approveEdited(key, edited);
        };
        const ChatMessage ran = run(chartCall(QStringLiteral("call_2")), {1, 1});
        QVERIFY2(ran.content.startsWith(QLatin1String("Note: the user edited the call before it ran. What ran:\n")),
                 qPrintable(ran.content));
        QVERIFY(ran.content.contains(QLatin1String("Guests")));
        QVERIFY(m_events.last().ran);
    }

    void thePolicyDecidesWhatAsks()
    {
        m_runner->setApprovals({{ChartTool::toolName(), ApprovalPolicy::Never}});
        const ChatMessage never = run(chartCall(QStringLiteral("call_1")), {1, 0});
        QVERIFY2(never.content.startsWith(QLatin1String("Not run: the user does not allow create_chart")),
                 qPrintable(never.content));
        QCOMPARE(kinds(), (QList<Kind>{Kind::ToolCallProposed, Kind::ToolFinished}));

        // Without a setting the tool's own default holds: create_chart runs at once.
        m_runner->setApprovals({});
        m_events.clear();
        QVERIFY(!run(chartCall(QStringLiteral("call_2")), {1, 1}).content.isEmpty());
        QCOMPARE(kinds(), (QList<Kind>{Kind::ToolCallProposed, Kind::ToolStarted, Kind::ToolFinished}));
        QVERIFY(m_events.last().ran);
    }

    void alwaysAllowedToolsAskNoMore()
    {
        m_decide = [this](const CallKey &key) {
            m_runner->alwaysAllow(key, ChartTool::toolName());
        };
        run(chartCall(QStringLiteral("call_1")), {1, 0});
        QVERIFY(kinds().contains(Kind::ApprovalNeeded));
        m_decide = nullptr;
        m_events.clear();
        run(chartCall(QStringLiteral("call_2")), {2, 0});
        QCOMPARE(kinds(), (QList<Kind>{Kind::ToolCallProposed, Kind::ToolStarted, Kind::ToolFinished}));
    }

    void callsThatCannotRunSayWhy()
    {
        const ChatMessage unknown =
            run({QStringLiteral("call_1"), QStringLiteral("draw_map"), QStringLiteral("{}")}, {1, 0});
        QCOMPARE(unknown.content,
                 QStringLiteral("Error: there is no tool \"draw_map\". Available tools: create_chart."));
        const ChatMessage invalid = run(chartCall(QStringLiteral("call_2"), QStringLiteral("{\"type\": 3}")), {1, 1});
        QVERIFY2(invalid.content.startsWith(QLatin1String("Error: ")), qPrintable(invalid.content));
        QCOMPARE(kinds(),
                 (QList<Kind>{Kind::ToolCallProposed, Kind::ToolFinished, Kind::ToolCallProposed, Kind::ToolFinished}));
        QVERIFY(!m_events.at(1).ran);
        QVERIFY(!m_events.at(3).ran);
    }

    void aStopEndsTheWaitAndTheTurnsLaterCalls()
    {
        m_decide = [this](const CallKey &) {
            m_runner->cancel();
        };
        const QString cancelled = QStringLiteral("Cancelled: the user stopped the answer before this call ran.");
        QCOMPARE(run(chartCall(QStringLiteral("call_1")), {1, 0}).content, cancelled);
        m_events.clear();
        QCOMPARE(run(chartCall(QStringLiteral("call_2")), {1, 1}).content, cancelled);
        QCOMPARE(kinds(), (QList<Kind>{Kind::ToolCallProposed, Kind::ToolFinished}));

        // The next turn asks again.
        m_runner->beginTurn();
        m_events.clear();
        m_decide = [this](const CallKey &key) {
            m_runner->approve(key);
        };
        run(chartCall(QStringLiteral("call_3")), {2, 0});
        QVERIFY(m_events.last().ran);
    }

    void theUsersCodeEndsAsTheModelsDoes()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QTemporaryDir dir;
        ConversationStore store(dir.filePath(QStringLiteral("data")));
        QVERIFY(store.open().ok());
        const auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("test-model"));
        QVERIFY(conversation.ok());
        const QString folder = store.conversationFolder(conversation->id);
        QVERIFY(QDir().mkpath(folder));
        const AgentConfig config =
            agentConfig(QUrl(QStringLiteral("http://127.0.0.1:9/v1")), ApprovalPolicy::Ask, folder);
        SandboxSession sandbox(config.sandbox);
        KernelRestorer restorer(&sandbox, &store, conversation->id, false);
        ToolRegistry none;
        ToolCallRunner runner(&none, &sandbox, &restorer, config.limits, &store, conversation->id);
        watch(&runner);
        connect(&sandbox, &SandboxSession::output, &runner, &ToolCallRunner::showOutput);

        const CallKey key{42, 0};
        const QString report = QCoro::waitFor(runner.runUserCode(QStringLiteral("print(6 * 7)"), key));
        QVERIFY2(report.contains(QLatin1String("42")), qPrintable(report));
        const auto started = std::find_if(m_events.cbegin(), m_events.cend(),
                                          [](const AgentEvent &event) { return event.kind == Kind::ToolStarted; });
        QVERIFY(started != m_events.cend());
        QCOMPARE(started->origin, RunOrigin::User);
        QCOMPARE(started->preview, QStringLiteral("print(6 * 7)"));
        const auto output = std::find_if(m_events.cbegin(), m_events.cend(),
                                         [](const AgentEvent &event) { return event.kind == Kind::ToolOutput; });
        QVERIFY(output != m_events.cend());
        QCOMPARE(output->key, key);
        const AgentEvent &finished = m_events.last();
        QCOMPARE(finished.kind, Kind::ToolFinished);
        QCOMPARE(finished.key, key);
        QCOMPARE(finished.origin, RunOrigin::User);
        QCOMPARE(finished.call.name, QStringLiteral("execute_python_code"));
        QCOMPARE(finished.text, report);
        QVERIFY(finished.ran);
        QVERIFY(finished.success);
        QVERIFY(std::holds_alternative<ExecutionResult>(finished.result));

        const auto executions = store.executions(conversation->id);
        QVERIFY(executions.ok());
        QCOMPARE(executions->size(), 1);
        QCOMPARE(executions->first().call, key);
        QCOMPARE(executions->first().origin, RunOrigin::User);
        QCOMPARE(executions->first().code, QStringLiteral("print(6 * 7)"));
        sandbox.abandon();
    }
};

QTEST_GUILESS_MAIN(TestToolCallRunner)
#include "tst_toolcallrunner.moc"
