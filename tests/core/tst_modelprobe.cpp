// The report card of a model (ModelProbe) against scripted servers that speak the OpenAI SSE wire
// format: calls written as text in a dialect, reasoning in <think> tags or in a field of its own
// (sent back, or refused), a context error that names a smaller window, vision, refusals, HTTP
// errors, garbage and a stalled stream; the card kept in the settings and its switches set.
#include "fakellmserver.h"
#include "fakestreams.h"

#include <llm/modelprobe.h>
#include <settings/modelreports.h>
#include <settings/settings.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <QCoroTask>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;
using Outcome = ModelReport::Step::Outcome;
using State = ModelReport::Switch::State;

namespace {

const QString hermesCall =
    QStringLiteral("<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>");
const QString hermesCalls =
    hermesCall + QStringLiteral("\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"city\": \"Tokyo\"}}\n"
                                "</tool_call>");

FS::ScriptedCall getTime(const QString &city)
{
    return {QString(), QStringLiteral("get_time"), QStringLiteral("{\"city\":\"%1\"}").arg(city)};
}

FakeResponse answerWithPromptTokens(const QString &text, qint64 promptTokens)
{
    FS::Turn turn;
    turn.text = text;
    turn.promptTokens = promptTokens;
    return FS::stream(FS::Shape::LlamaCpp, turn);
}

// Every request's messages as one text, to see what was sent.
QString sentText(const RecordedRequest &request)
{
    return QString::fromUtf8(QJsonDocument(request.json().value(QLatin1String("messages")).toArray()).toJson());
}

} // namespace

class TestModelProbe : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;

    ProviderConfig config(const QString &preset = QStringLiteral("llamacpp"))
    {
        ProviderConfig c;
        c.id = preset;
        c.baseUrl = m_server->baseUrl().toString();
        c.model = QStringLiteral("tiny");
        c.maxRetries = 0;
        return c;
    }

    ModelReport probe(const ProviderConfig &c, ModelProbe::Options options = {})
    {
        ModelProbe probe(c, options);
        return QCoro::waitFor(probe.run());
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
    }

    // A model whose calls the server leaves in the text (Hermes) and that thinks in <think> tags;
    // the server takes images.
    void textCallsAndThinkTags()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(2048, true));
        m_server->enqueue(FS::openAiText(QStringLiteral("<think>A greeting.</think>Hello there!")));
        m_server->enqueue(FS::openAiText(hermesCall));
        m_server->enqueue(FS::openAiText(hermesCalls));
        m_server->enqueue(FS::openAiText(QStringLiteral("It is 14:05 in Paris.")));
        m_server->enqueue(answerWithPromptTokens(QStringLiteral("ok"), 1500));
        m_server->enqueue(FS::openAiText(QStringLiteral("Red.")));
        const ModelReport report = probe(config());

        QVERIFY2(report.answered(), qPrintable(report.card()));
        QCOMPARE(report.calls, ModelReport::Calls::Text);
        QCOMPARE(report.dialect, QStringLiteral("Hermes"));
        QCOMPARE(report.parallelCalls, std::optional<bool>(true));
        QCOMPARE(report.answersAfterToolResult, std::optional<bool>(true));
        QCOMPARE(report.reasoning, ModelReport::Reasoning::Tags);
        QCOMPARE(report.window, qint64(2048));
        QCOMPARE(report.windowSource, QStringLiteral("/props"));
        QCOMPARE(report.windowTestedTokens, qint64(1500));
        QCOMPARE(report.vision, std::optional<bool>(true));
        QVERIFY(report.firstTokenMilliseconds >= 0);
        QVERIFY2(report.problems().isEmpty(), qPrintable(report.problems().join(QLatin1Char('\n'))));
        QCOMPARE(report.switches.size(), 1);
        QCOMPARE(report.switches.first().key, QStringLiteral("text_tool_calls"));
        QCOMPARE(report.switches.first().value, QStringLiteral("true"));
        QVERIFY2(report.verdict().contains(QLatin1String("text calls (Hermes)")), qPrintable(report.verdict()));

        const QList<RecordedRequest> requests = m_server->chatRequests();
        QCOMPARE(requests.size(), 6);
        // The tool is declared where a call is asked for, and every request is small but the long one.
        QVERIFY(requests.at(0).json().value(QLatin1String("tools")).isUndefined());
        QCOMPARE(requests.at(1).json().value(QLatin1String("tools")).toArray(), ModelProbe::tools());
        QVERIFY(requests.at(1).json().value(QLatin1String("max_tokens")).toInt() > 0);
        // The history after the call went back with structured tool_calls and the result.
        QVERIFY(sentText(requests.at(3)).contains(QLatin1String("\"tool_call_id\"")));
        QVERIFY(sentText(requests.at(3)).contains(QLatin1String("14:05")));
        // The long prompt is near the window (2048) but under it, however the server counts.
        const qsizetype longChars = sentText(requests.at(4)).size();
        QVERIFY2(longChars > 2048 && longChars < 2048 * 4, qPrintable(QString::number(longChars)));
        QVERIFY(sentText(requests.at(5)).contains(QLatin1String("data:image/png;base64,")));
        // The cost: every prompt as the usage said it.
        QCOMPARE(report.tokensSent, qint64(5 * 42 + 1500));
        QVERIFY(!report.tokensEstimated);
    }

    // Reasoning in a field of its own and native calls; the reasoning goes back with the history,
    // which this server takes and DeepSeek's refuses.
    void reasoningFieldSentBack_data()
    {
        QTest::addColumn<bool>("refused");
        QTest::newRow("taken") << false;
        QTest::newRow("refused") << true;
    }
    void reasoningFieldSentBack()
    {
        QFETCH(bool, refused);
        m_server->enqueue(FS::llamaCppReasoning(QStringLiteral("The user greets."), QStringLiteral("Hello!")));
        FS::Turn call;
        call.reasoning = QStringLiteral("I need the time.");
        call.calls = {getTime(QStringLiteral("Paris"))};
        m_server->enqueue(FS::stream(FS::Shape::LlamaCpp, call));
        m_server->enqueue(FS::openAiToolCalls({getTime(QStringLiteral("Paris"))}));
        if (refused) {
            m_server->enqueue(FS::httpError(
                400, QStringLiteral("The reasoning_content is an intermediate result; remove it from the input.")));
        }
        m_server->enqueue(FS::openAiText(QStringLiteral("It is 14:05.")));
        const ModelReport report = probe(config(QStringLiteral("custom")));

        QVERIFY2(report.answered(), qPrintable(report.card()));
        QCOMPARE(report.calls, ModelReport::Calls::Native);
        QVERIFY(report.dialect.isEmpty());
        QCOMPARE(report.parallelCalls, std::optional<bool>(false));
        QCOMPARE(report.reasoning, ModelReport::Reasoning::Field);
        QCOMPARE(report.answersAfterToolResult, std::optional<bool>(true));
        QCOMPARE(report.switches.size(), 1);
        QCOMPARE(report.switches.first().key, QStringLiteral("reasoning_back"));
        QCOMPARE(report.switches.first().value, refused ? QStringLiteral("false") : QStringLiteral("true"));
        const QList<RecordedRequest> requests = m_server->chatRequests();
        QCOMPARE(requests.size(), refused ? 5 : 4);
        QVERIFY(sentText(requests.at(3)).contains(QLatin1String("reasoning_content")));
        if (refused)
            QVERIFY(!sentText(requests.at(4)).contains(QLatin1String("reasoning_content")));
        // No window and no word on images: those steps say why they were left out.
        QCOMPARE(report.step(QStringLiteral("long_prompt"))->outcome, Outcome::Skipped);
        QCOMPARE(report.step(QStringLiteral("image"))->outcome, Outcome::Skipped);
        QVERIFY(!report.step(QStringLiteral("image"))->detail.isEmpty());
    }

    // The server's context error names a smaller window than /props: the card says so and calls
    // for the window to be set.
    void aContextErrorCorrectsTheWindow()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(4096));
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello!")));
        m_server->enqueue(FS::openAiToolCalls({getTime(QStringLiteral("Paris"))}));
        m_server->enqueue(FS::openAiToolCalls({getTime(QStringLiteral("Paris")), getTime(QStringLiteral("Tokyo"))}));
        m_server->enqueue(FS::openAiText(QStringLiteral("It is 14:05.")));
        m_server->enqueue(FS::contextError(FS::ContextErrorShape::LlamaCpp, 3000, 1024));
        const ModelReport report = probe(config());

        QCOMPARE(report.calls, ModelReport::Calls::Native);
        QCOMPARE(report.parallelCalls, std::optional<bool>(true));
        QCOMPARE(report.vision, std::optional<bool>(false));
        QCOMPARE(report.step(QStringLiteral("long_prompt"))->outcome, Outcome::Failed);
        QCOMPARE(report.window, qint64(1024));
        QCOMPARE(report.switches.size(), 1);
        QCOMPARE(report.switches.first().key, QStringLiteral("context_windows"));
        QCOMPARE(report.switches.first().value, QStringLiteral("1024"));
    }

    // A window beyond the budget is not filled: the probe stays cheap.
    void aLargeWindowIsNotFilled()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(131072));
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello!")));
        m_server->enqueue(FS::openAiToolCalls({getTime(QStringLiteral("Paris"))}));
        m_server->enqueue(FS::openAiToolCalls({getTime(QStringLiteral("Paris"))}));
        m_server->enqueue(FS::openAiText(QStringLiteral("It is 14:05.")));
        const ModelReport report = probe(config());
        QCOMPARE(report.window, qint64(131072));
        QCOMPARE(report.step(QStringLiteral("long_prompt"))->outcome, Outcome::Skipped);
        QVERIFY(report.step(QStringLiteral("long_prompt"))->detail.contains(QLatin1String("budget")));
        QCOMPARE(m_server->chatRequests().size(), 4);
        QVERIFY(report.tokensSent < 1000);
    }

    // A model that refuses to call, an HTTP error and a stream of garbage: each a line of the
    // card, the other steps still run.
    void refusalsAndErrorsAreLines()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello!")));
        m_server->enqueue(FS::openAiText(QStringLiteral("I'm sorry, I cannot look up the time.")));
        m_server->enqueue(FS::httpError(400, QStringLiteral("tools are not supported for this model")));
        m_server->enqueue(FS::fromPayloads({"this is not json", "neither is this"}));
        const ModelReport report = probe(config(QStringLiteral("custom")));

        QVERIFY(report.answered());
        QCOMPARE(report.calls, ModelReport::Calls::None);
        QCOMPARE(report.verdict().contains(QLatin1String("no tool calls")), true);
        const ModelReport::Step *single = report.step(QStringLiteral("tool_call"));
        QCOMPARE(single->outcome, Outcome::Failed);
        QVERIFY2(single->detail.contains(QLatin1String("I'm sorry")), qPrintable(single->detail));
        const ModelReport::Step *parallel = report.step(QStringLiteral("parallel_calls"));
        QCOMPARE(parallel->outcome, Outcome::Failed);
        QVERIFY2(parallel->detail.contains(QLatin1String("tools are not supported")), qPrintable(parallel->detail));
        QVERIFY(!report.parallelCalls);
        const ModelReport::Step *after = report.step(QStringLiteral("after_tool_result"));
        QCOMPARE(after->outcome, Outcome::Failed);
        QVERIFY2(after->detail.contains(QLatin1String("not JSON")), qPrintable(after->detail));
        QCOMPARE(report.problems().size(), 3);
        QVERIFY(report.card().contains(QLatin1String("FAILED")));
    }

    // A model that thinks past the probe's limit is told apart from one that does not call.
    void aThinkerThatRunsOutOfTokens()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello!")));
        m_server->enqueue(FS::fromPayloads(
            {R"({"id":"c1","object":"chat.completion.chunk","created":1,"model":"tiny","choices":[{"index":0,)"
             R"("delta":{"role":"assistant","reasoning_content":"The user wants the time. Let me think"},)"
             R"("finish_reason":null}]})",
             R"({"id":"c1","object":"chat.completion.chunk","created":1,"model":"tiny","choices":[{"index":0,)"
             R"("delta":{},"finish_reason":"length"}]})"}));
        const ModelReport report = probe(config(QStringLiteral("custom")));
        const ModelReport::Step *single = report.step(QStringLiteral("tool_call"));
        QCOMPARE(single->outcome, Outcome::Failed);
        QVERIFY2(single->detail.contains(QLatin1String("limit of 512 tokens")), qPrintable(single->detail));
        QCOMPARE(m_server->chatRequests().at(1).json().value(QLatin1String("max_tokens")).toInt(), 512);
        QCOMPARE(report.reasoning, ModelReport::Reasoning::Field);
    }

    // Without a plain answer nothing else is tried, and nothing waits for long.
    void noAnswerEndsTheProbe_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("refused connection") << 0;
        QTest::newRow("bad key") << 1;
        QTest::newRow("stalled stream") << 2;
    }
    void noAnswerEndsTheProbe()
    {
        QFETCH(int, kind);
        ProviderConfig c = config(QStringLiteral("custom"));
        QString expected;
        if (kind == 0) {
            FakeLlmServer closed;
            QVERIFY(closed.listen());
            c.baseUrl = closed.baseUrl().toString();
            expected = QStringLiteral("refused");
        } else if (kind == 1) {
            m_server->enqueue(FS::httpError(401, QStringLiteral("Incorrect API key provided.")));
            expected = QStringLiteral("Incorrect API key");
        } else {
            FakeResponse stalled = FS::openAiText(QStringLiteral("Hel"));
            stalled.chunks.removeLast(); // no [DONE]
            stalled.chunks.removeLast();
            stalled.stallAfterChunks = true;
            m_server->enqueue(stalled);
            expected = QStringLiteral("within 2 s");
        }
        ModelProbe::Options options;
        options.stepTimeout = 2s;
        QElapsedTimer clock;
        clock.start();
        const ModelReport report = probe(c, options);
        QVERIFY(clock.elapsed() < 10000);
        QVERIFY(!report.answered());
        QCOMPARE(report.steps.size(), ModelProbe::stepCount);
        QCOMPARE(report.steps.first().outcome, Outcome::Failed);
        QVERIFY2(report.steps.first().detail.contains(expected), qPrintable(report.steps.first().detail));
        for (qsizetype i = 1; i < report.steps.size(); ++i)
            QCOMPARE(report.steps.at(i).outcome, Outcome::Skipped);
        QVERIFY(report.verdict().startsWith(QLatin1String("no answer")));
        QVERIFY(report.switches.isEmpty());
    }

    void aCardSurvivesJson()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(2048, true));
        m_server->enqueue(FS::openAiText(QStringLiteral("<think>A greeting.</think>Hello there!")));
        m_server->enqueue(FS::openAiText(hermesCall));
        const ModelReport report = probe(config());
        const auto back = ModelReport::fromJson(report.toJson());
        QVERIFY(back);
        // Milliseconds are all the stored time keeps.
        QCOMPARE(back->toJson(), report.toJson());
        QVERIFY(!ModelReport::fromJson(QJsonObject{{QStringLiteral("model"), 3}}));
    }

    // Kept per server and model in the provider's settings; the switches written where they differ.
    void keptAndAppliedInTheSettings()
    {
        QTemporaryDir profile;
        Settings settings(profile.path());
        settings.setValue(QStringLiteral("providers/llamacpp/text_tool_calls"), QStringLiteral("false"));
        ModelReport report;
        report.provider = QStringLiteral("llamacpp");
        report.baseUrl = QStringLiteral("http://127.0.0.1:8080/v1");
        report.model = QStringLiteral("tiny");
        report.probedAt = QDateTime::currentDateTimeUtc();
        report.calls = ModelReport::Calls::Text;
        report.dialect = QStringLiteral("Hermes");
        report.steps = {{QStringLiteral("plain"), Outcome::Passed, QStringLiteral("hi"), 1, 2, 3}};
        report.switches = {{QStringLiteral("text_tool_calls"), QStringLiteral("true"), QStringLiteral("text")},
                           {QStringLiteral("reasoning_back"), QStringLiteral("true"), QStringLiteral("field")},
                           {QStringLiteral("context_windows"), QStringLiteral("1024"), QStringLiteral("error")}};
        const ModelReport applied = ModelReports::apply(settings, QStringLiteral("llamacpp"), report);
        // llama.cpp's preset sends the reasoning back already.
        QCOMPARE(applied.switches.at(0).state, State::Set);
        QCOMPARE(applied.switches.at(1).state, State::AlreadySo);
        QCOMPARE(applied.switches.at(2).state, State::Set);
        const ProviderConfig provider = settings.provider(QStringLiteral("llamacpp"));
        QVERIFY(provider.recoverTextToolCalls);
        QCOMPARE(provider.contextWindows.value(QStringLiteral("tiny")), qint64(1024));
        QCOMPARE(ModelReports::apply(settings, QStringLiteral("llamacpp"), report).switches.at(0).state,
                 State::AlreadySo);

        ModelReports::keep(settings, QStringLiteral("llamacpp"), applied);
        Settings reread(profile.path());
        const auto found =
            ModelReports::find(reread, QStringLiteral("llamacpp"), report.baseUrl, QStringLiteral("tiny"));
        QVERIFY(found);
        QCOMPARE(found->toJson(), applied.toJson());
        // Another server's model of the same name has no card yet.
        QVERIFY(!ModelReports::find(reread, QStringLiteral("llamacpp"), QStringLiteral("http://other:8080/v1"),
                                    QStringLiteral("tiny")));
    }
};

QTEST_GUILESS_MAIN(TestModelProbe)
#include "tst_modelprobe.moc"
