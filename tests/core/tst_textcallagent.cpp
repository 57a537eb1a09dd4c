// Tool calls written as text and <think> in the content, through the whole agent: the markup
// never reaches the visible answer, a recovered call takes the same path as a native one, and
// the next request carries it as a structured tool_calls message.
#include "agentrecorder.h"
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"

#include <agent/agentloop.h>
#include <storage/conversationstore.h>

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

QString normalised(const QString &arguments)
{
    const QJsonDocument document = QJsonDocument::fromJson(arguments.toUtf8());
    return document.isObject() ? QString::fromUtf8(document.toJson(QJsonDocument::Compact)) : arguments;
}

QString python(const QString &code)
{
    return QStringLiteral("execute_python_code ") + normalised(jsonCode(code));
}

QString shownText(const Recorder &recorder)
{
    QString text;
    for (const AgentEvent &e : recorder.ofKind(Kind::TextDelta))
        text += e.text;
    return text;
}

// The assistant message with tool calls in a request, and every call answered after it.
QJsonObject callingMessage(const RecordedRequest &request, QString *why)
{
    const QJsonArray messages = request.json().value(QLatin1String("messages")).toArray();
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonArray calls = messages[i][QLatin1String("tool_calls")].toArray();
        if (calls.isEmpty())
            continue;
        for (qsizetype c = 0; c < calls.size(); ++c) {
            if (messages.at(i + 1 + c)[QLatin1String("tool_call_id")] != calls[c][QLatin1String("id")])
                *why = QStringLiteral("call %1 is not answered").arg(c);
        }
        return messages[i].toObject();
    }
    *why = QStringLiteral("no message with tool_calls");
    return {};
}

const QString hermes =
    QStringLiteral("<tool_call>\n{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"print(6 * 7)\"}}\n"
                   "</tool_call>");

// print(6 * 7) as each model family writes it when the server's parser misses it.
QList<std::pair<const char *, QString>> families()
{
    const QString code = QStringLiteral("{\"code\": \"print(6 * 7)\"}");
    const QString json = QStringLiteral("{\"name\": \"execute_python_code\", \"arguments\": %1}").arg(code);
    return {
        {"gpt-oss",
         QStringLiteral("<|channel|>analysis<|message|>Use Python.<|end|><|start|>assistant<|channel|>commentary "
                        "to=functions.execute_python_code <|constrain|>json<|message|>%1<|call|>")
             .arg(code)},
        {"deepseek v3", QStringLiteral("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>"
                                       "execute_python_code\n```json\n%1\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>")
                            .arg(code)},
        {"deepseek v3.1", QStringLiteral("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>execute_python_code<｜tool▁sep｜>"
                                         "%1<｜tool▁call▁end｜><｜tool▁calls▁end｜>")
                              .arg(code)},
        {"glm", QStringLiteral("<tool_call>execute_python_code\n<arg_key>code</arg_key>\n<arg_value>print(6 * 7)"
                               "</arg_value>\n</tool_call>")},
        {"kimi", QStringLiteral("<|tool_calls_section_begin|><|tool_call_begin|>functions.execute_python_code:0"
                                "<|tool_call_argument_begin|>%1<|tool_call_end|><|tool_calls_section_end|>")
                     .arg(code)},
        {"llama 3.2 pythonic", QStringLiteral("[execute_python_code(code='print(6 * 7)')]")},
        {"phi-4-mini", QStringLiteral("functools[%1]").arg(json)},
        {"granite", QStringLiteral("<|tool_call|>[%1]").arg(json)},
    };
}

} // namespace

class TestTextCallAgent : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    AgentConfig config(const FakeLlmServer &server, ApprovalPolicy policy = ApprovalPolicy::Never)
    {
        AgentConfig c =
            agentConfig(server.baseUrl(), policy,
                        m_dir.filePath(QStringLiteral("conversation-%1").arg(QTest::currentTestFunction())));
        c.provider.id = QStringLiteral("llamacpp");
        return c;
    }

private Q_SLOTS:
    void everyFormatCutAtEveryOffset_data()
    {
        QTest::addColumn<QString>("stream");
        QTest::addColumn<QString>("visible");
        QTest::addColumn<QStringList>("calls");
        QTest::addColumn<bool>("notice");

        const QStringList sixTimesSeven = {python(QStringLiteral("print(6 * 7)"))};
        QTest::newRow("hermes after prose") << QStringLiteral("I'll compute it.\n") + hermes
                                            << QStringLiteral("I'll compute it.") << sixTimesSeven << false;
        QTest::newRow("hermes, two calls")
            << QStringLiteral("<tool_call>{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"1\"}}"
                              "</tool_call>\n<tool_call>{\"name\": \"execute_python_code\", \"arguments\": {\"code\": "
                              "\"2\"}}</tool_call>")
            << QString() << QStringList{python(QStringLiteral("1")), python(QStringLiteral("2"))} << false;
        QTest::newRow("qwen3-coder xml")
            << QStringLiteral("<tool_call>\n<function=execute_python_code>\n<parameter=code>\nprint(6 * 7)\n"
                              "</parameter>\n</function>\n</tool_call>")
            << QString() << sixTimesSeven << false;
        QTest::newRow("mistral array")
            << QStringLiteral("[TOOL_CALLS][{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"print(6 * "
                              "7)\"}}]")
            << QString() << sixTimesSeven << false;
        QTest::newRow("mistral name and args")
            << QStringLiteral("[TOOL_CALLS]execute_python_code[ARGS]{\"code\": \"print(6 * 7)\"}") << QString()
            << sixTimesSeven << false;
        QTest::newRow("llama json")
            << QStringLiteral("{\"name\": \"execute_python_code\", \"parameters\": {\"code\": \"print(6 * 7)\"}}")
            << QString() << sixTimesSeven << false;
        QTest::newRow("llama python tag")
            << QStringLiteral(
                   "<|python_tag|>{\"name\": \"execute_python_code\", \"parameters\": {\"code\": \"print(6 * "
                   "7)\"}}")
            << QString() << sixTimesSeven << false;
        QTest::newRow("think, then a call")
            << QStringLiteral("<think>Python is best.</think>\n") + hermes << QString() << sixTimesSeven << false;
        for (const auto &[family, stream] : families())
            QTest::newRow(family) << stream << QString() << sixTimesSeven << false;

        const QStringList none;
        QTest::newRow("a call shown in a code fence")
            << QStringLiteral("Like this:\n```\n") + hermes + QStringLiteral("\n```")
            << QStringLiteral("Like this:\n```\n") + hermes + QStringLiteral("\n```") << none << false;
        QTest::newRow("prose mentioning the tag")
            << QStringLiteral("The <tool_call> tag wraps a call.")
            << QStringLiteral("The <tool_call> tag wraps a call.") << none << false;
        QTest::newRow("an undeclared tool")
            << QStringLiteral("<tool_call>{\"name\": \"get_weather\", \"arguments\": {}}</tool_call>")
            << QStringLiteral("<tool_call>{\"name\": \"get_weather\", \"arguments\": {}}</tool_call>") << none << true;
        QTest::newRow("half-written") << QStringLiteral("<tool_call>{\"name\": \"execute_py")
                                      << QStringLiteral("<tool_call>{\"name\": \"execute_py") << none << true;
    }

    void everyFormatCutAtEveryOffset()
    {
        QFETCH(QString, stream);
        QFETCH(QString, visible);
        QFETCH(QStringList, calls);
        QFETCH(bool, notice);

        for (qsizetype cut = 0; cut < stream.size(); ++cut) {
            const QString where = QStringLiteral("cut at %1: ").arg(cut);
            FakeLlmServer server;
            QVERIFY(server.listen());
            server.enqueue(
                FS::stream(FS::Shape::LlamaCpp,
                           FS::Turn{.text = stream, .textCuts = cut > 0 ? QList<qsizetype>{cut} : QList<qsizetype>{}}));
            server.enqueue(FS::stream(FS::Shape::LlamaCpp, FS::Turn{.text = QStringLiteral("It was not run.")}));
            AgentLoop loop(config(server));
            Recorder recorder(&loop);
            loop.send(QStringLiteral("what is 6 * 7?"));
            QVERIFY(recorder.waitForTurn());
            QCOMPARE(recorder.end(), AgentEvent::End::Completed);

            const QString shown = shownText(recorder);
            const QString expectedShown = calls.isEmpty() ? visible : visible + QStringLiteral("It was not run.");
            QVERIFY2(shown == expectedShown, qPrintable(where + shown));
            QVERIFY2(!recorder.ofKind(Kind::Notice).isEmpty() == notice, qPrintable(where + QStringLiteral("notices")));
            const QList<RecordedRequest> requests = server.chatRequests();
            if (calls.isEmpty()) {
                QCOMPARE(requests.size(), 1);
                QCOMPARE(loop.history().constLast().content, visible);
                continue;
            }
            QCOMPARE(requests.size(), 2);
            QString why;
            const QJsonObject sentBack = callingMessage(requests.at(1), &why);
            QVERIFY2(why.isEmpty(), qPrintable(where + why));
            QStringList sentCalls;
            for (const QJsonValue &call : sentBack.value(QLatin1String("tool_calls")).toArray()) {
                sentCalls << call[QLatin1String("function")][QLatin1String("name")].toString() + QLatin1Char(' ') +
                                 normalised(call[QLatin1String("function")][QLatin1String("arguments")].toString());
            }
            QVERIFY2(sentCalls == calls, qPrintable(where + sentCalls.join(QStringLiteral("; "))));
            const QJsonValue content = sentBack.value(QLatin1String("content"));
            QCOMPARE(content.isNull() ? QString() : content.toString(), visible);
            QCOMPARE(recorder.ofKind(Kind::ToolCallProposed).size(), calls.size());
        }
    }

    void aRecoveredCallRunsLikeANativeOne()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QTemporaryDir data;
        ConversationStore store(data.path());
        QVERIFY(store.open());
        const auto conversation = store.createConversation(QStringLiteral("llamacpp"), QStringLiteral("test-model"));
        FakeLlmServer server;
        QVERIFY(server.listen());
        // Bare code instead of {"code": ...}: repaired on the way, as for a native call.
        server.enqueue(
            FS::stream(FS::Shape::LlamaCpp,
                       FS::Turn{.text = QStringLiteral("Computing.\n<tool_call>\n{\"name\": \"execute_python_code\", "
                                                       "\"arguments\": \"6 * 7\"}\n</tool_call>"),
                                .pieces = 9}));
        server.enqueue(FS::stream(FS::Shape::LlamaCpp, FS::Turn{.text = QStringLiteral("It is 42.")}));
        AgentLoop loop(config(server, ApprovalPolicy::Ask), &store, conversation->id);
        Recorder recorder(&loop);
        recorder.onEvent = [&loop](const AgentEvent &e) {
            if (e.kind == Kind::ApprovalNeeded)
                QMetaObject::invokeMethod(
                    &loop, [&loop, key = e.key] { loop.approve(key); }, Qt::QueuedConnection);
        };
        loop.send(QStringLiteral("what is 6 * 7?"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);

        const auto approval = recorder.ofKind(Kind::ApprovalNeeded);
        QCOMPARE(approval.size(), 1);
        QCOMPARE(approval.first().preview, QStringLiteral("6 * 7"));
        const auto finished = recorder.ofKind(Kind::ToolFinished);
        QCOMPARE(finished.size(), 1);
        QVERIFY(finished.first().execution());
        QCOMPARE(finished.first().execution()->value, QStringLiteral("42"));
        QCOMPARE(finished.first().call.id, approval.first().call.id);

        const RecordedRequest second = server.chatRequests().at(1);
        QVERIFY(toolMessageIn(second, approval.first().call.id).contains(QLatin1String("42")));
        // Stored as a structured call with the prose, without the markup.
        const QList<ChatMessage> stored = *store.messages(conversation->id);
        QCOMPARE(stored.at(1).content, QStringLiteral("Computing."));
        QCOMPARE(stored.at(1).toolCalls.size(), 1);
        QCOMPARE(stored.at(1).toolCalls.first().name, QStringLiteral("execute_python_code"));
        QCOMPARE(stored.at(2).toolCallId, approval.first().call.id);
        const auto executions = store.executions(conversation->id);
        QCOMPARE(executions->size(), 1);
        QCOMPARE(executions->first().toolCallId, approval.first().call.id);
    }

    void everyFamilyRunsInTheSandbox_data()
    {
        QTest::addColumn<QString>("stream");
        for (const auto &[family, stream] : families())
            QTest::newRow(family) << stream;
    }

    void everyFamilyRunsInTheSandbox()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QFETCH(QString, stream);
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.enqueue(FS::stream(FS::Shape::LlamaCpp, FS::Turn{.text = stream, .pieces = 7}));
        server.enqueue(FS::stream(FS::Shape::LlamaCpp, FS::Turn{.text = QStringLiteral("It is 42.")}));
        AgentLoop loop(config(server, ApprovalPolicy::Auto));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("what is 6 * 7?"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        QCOMPARE(shownText(recorder), QStringLiteral("It is 42."));
        const auto finished = recorder.ofKind(Kind::ToolFinished);
        QCOMPARE(finished.size(), 1);
        QVERIFY(finished.first().execution());
        QCOMPARE(finished.first().execution()->standardOutput.trimmed(), QStringLiteral("42"));
        QVERIFY(toolMessageIn(server.chatRequests().at(1), finished.first().call.id).contains(QLatin1String("42")));
    }

    void thinkingInTheContentIsReasoning()
    {
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.enqueue(FS::stream(
            FS::Shape::LlamaCpp,
            FS::Turn{.text = QStringLiteral("<think>\nThe user greets me.\n</think>\n\nHello!"), .pieces = 12}));
        server.enqueue(FS::stream(FS::Shape::LlamaCpp, FS::Turn{.text = QStringLiteral("Fine.")}));
        QTemporaryDir data;
        ConversationStore store(data.path());
        QVERIFY(store.open());
        const auto conversation = store.createConversation(QStringLiteral("llamacpp"), QStringLiteral("test-model"));
        AgentLoop loop(config(server), &store, conversation->id);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hi"));
        QVERIFY(recorder.waitForTurn());
        QString reasoning;
        for (const AgentEvent &e : recorder.ofKind(Kind::ReasoningDelta))
            reasoning += e.text;
        QCOMPARE(reasoning, QStringLiteral("The user greets me."));
        QCOMPARE(shownText(recorder), QStringLiteral("Hello!"));
        const ChatMessage stored = store.messages(conversation->id)->at(1);
        QCOMPARE(stored.content, QStringLiteral("Hello!"));
        QCOMPARE(stored.reasoning, QStringLiteral("The user greets me."));

        loop.send(QStringLiteral("how are you?"));
        QVERIFY(recorder.waitForTurn(2));
        const QJsonArray messages = server.chatRequests().at(1).json().value(QLatin1String("messages")).toArray();
        QCOMPARE(messages.at(2)[QLatin1String("content")].toString(), QStringLiteral("Hello!"));
        QVERIFY(!messages.at(2).toObject().contains(QLatin1String("reasoning_content")));
    }

    void anUnclosedThinkAtACutEndIsReasoning()
    {
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.enqueue(FS::cutStream(QStringLiteral("<think>Let me see: 6 * 7 is")));
        AgentLoop loop(config(server));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("what is 6 * 7?"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Failed);
        QCOMPARE(shownText(recorder), QString());
        QString reasoning;
        for (const AgentEvent &e : recorder.ofKind(Kind::ReasoningDelta))
            reasoning += e.text;
        QCOMPARE(reasoning, QStringLiteral("Let me see: 6 * 7 is"));
        QCOMPARE(loop.history().constLast().reasoning, reasoning);
        QVERIFY(loop.history().constLast().content.isEmpty());
    }

    void recoveryCanBeTurnedOffPerProvider()
    {
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.enqueue(FS::stream(FS::Shape::LlamaCpp, FS::Turn{.text = hermes}));
        AgentConfig c = config(server);
        c.provider.recoverTextToolCalls = false;
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("go"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(shownText(recorder), hermes);
        QCOMPARE(recorder.ofKind(Kind::ToolCallProposed).size(), 0);
        QCOMPARE(server.chatRequests().size(), 1);
    }

    void aCutStreamNeverRunsHalfACall()
    {
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.enqueue(FS::cutStream(QStringLiteral("Running:\n<tool_call>{\"name\": \"execute_python_code\", "
                                                    "\"arguments\": {\"code\": \"import os; os.remove(")));
        AgentLoop loop(config(server, ApprovalPolicy::Auto));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("go"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Failed);
        QCOMPARE(recorder.ofKind(Kind::ToolCallProposed).size(), 0);
        QVERIFY(shownText(recorder).startsWith(QLatin1String("Running:\n<tool_call>")));
        QCOMPARE(server.chatRequests().size(), 1);
    }

    void structuredCallsWinOverMarkup()
    {
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.enqueue(FS::stream(FS::Shape::LlamaCpp,
                                  FS::Turn{.text = QStringLiteral("Also: ") + hermes,
                                           .calls = {{QStringLiteral("native_1"), QStringLiteral("execute_python_code"),
                                                      jsonCode(QStringLiteral("1 + 1"))}}}));
        server.enqueue(FS::stream(FS::Shape::LlamaCpp, FS::Turn{.text = QStringLiteral("Done.")}));
        AgentLoop loop(config(server));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("go"));
        QVERIFY(recorder.waitForTurn());
        const auto proposed = recorder.ofKind(Kind::ToolCallProposed);
        QCOMPARE(proposed.size(), 1);
        QCOMPARE(proposed.first().call.id, QStringLiteral("native_1"));
        QCOMPARE(loop.history().at(1).content, QStringLiteral("Also: ") + hermes);
    }
};

QTEST_GUILESS_MAIN(TestTextCallAgent)
#include "tst_textcallagent.moc"
