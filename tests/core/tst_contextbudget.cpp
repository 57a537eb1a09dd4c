// The agent keeps each request within the model's context window: it learns the window, says
// how much a request takes, shortens what it sends (never the stored conversation), answers a
// server's context error by shortening harder once, and notices Ollama's silent truncation.
#include "agentrecorder.h"
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"

#include <agent/agentloop.h>
#include <llm/contextbudget.h>
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
using Role = ChatMessage::Role;
using Recorder = Sandpiper::Test::AgentRecorder;

namespace {

// TURNS earlier turns, each with a tool round whose result is RESULTCHARS long.
QList<ChatMessage> earlierTurns(int turns, int resultChars)
{
    QList<ChatMessage> history;
    for (int t = 0; t < turns; ++t) {
        const QString id = QStringLiteral("old_%1").arg(t);
        history << chatMessage(Role::User, QStringLiteral("question %1").arg(t));
        ChatMessage call = chatMessage(Role::Assistant, QString());
        call.toolCalls = {{id, QStringLiteral("execute_python_code"), QStringLiteral("{\"code\": \"print(1)\"}")}};
        history << call;
        ChatMessage result = chatMessage(Role::Tool, QString(resultChars, QLatin1Char('0' + t % 10)));
        result.toolCallId = id;
        result.toolName = QStringLiteral("execute_python_code");
        history << result << chatMessage(Role::Assistant, QStringLiteral("answer %1").arg(t));
    }
    return history;
}

qsizetype bodyChars(const RecordedRequest &request)
{
    return request.body.size();
}

} // namespace

class TestContextBudget : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    QTemporaryDir m_dir;

    // Python is offered (so calls are declared) but never runs: no Docker needed here.
    AgentConfig config(const QString &preset = QStringLiteral("custom"))
    {
        AgentConfig c = agentConfig(m_server->baseUrl(), ApprovalPolicy::Never, m_dir.filePath(QStringLiteral("data")));
        c.provider.id = preset;
        return c;
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
    }
    void cleanup() { m_server.reset(); }

    void aShortConversationCostsNoExtraRequest()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(4096));
        m_server->enqueue(FS::openAiText(QStringLiteral("Hi!")));
        AgentLoop loop(config(QStringLiteral("llamacpp")));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hello"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(m_server->requests().size(), 1);
        const auto context = recorder.ofKind(Kind::Context);
        QCOMPARE(context.size(), 1);
        QCOMPARE(context.first().context.window, ContextBudget::defaultWindow);
        QVERIFY(context.first().context.windowSource.isEmpty()); // assumed, not known
        QVERIFY(context.first().context.tokens > 0);
        QVERIFY(context.first().context.leftOut.isEmpty());
    }

    void theWindowIsAskedForOnceTheRequestGrows()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768));
        m_server->enqueue(FS::openAiText(QStringLiteral("Read it.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Still here.")));
        AgentConfig c = config(QStringLiteral("llamacpp"));
        c.systemPrompt = QString(12000, QLatin1Char('s'));
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hello"));
        QVERIFY(recorder.waitForTurn());
        loop.send(QStringLiteral("again"));
        QVERIFY(recorder.waitForTurn(2));
        const auto context = recorder.ofKind(Kind::Context);
        // The first request as assumed, then against the window the server named, then the second.
        QCOMPARE(context.size(), 3);
        QCOMPARE(context.first().context.window, ContextBudget::defaultWindow);
        for (const AgentEvent &e : context.mid(1)) {
            QCOMPARE(e.context.window, 32768);
            QCOMPARE(e.context.windowSource, QStringLiteral("/props"));
        }
        // Asked once, beside the first request (which of the two arrives first is the network's
        // choice); then known.
        QCOMPARE(m_server->requests().size(), 3);
        QCOMPARE(m_server->requests().at(0).path == "/props" || m_server->requests().at(1).path == "/props", true);
        QCOMPARE(m_server->requests().at(2).path, QByteArray("/v1/chat/completions"));
    }

    // A server that takes its time over the window's probes (one that does not know them and
    // never answers) does not hold up the first answer: nothing of a first request could be left
    // out, so it goes at once. The next request waits for the window.
    void theFirstAnswerDoesNotWaitForTheWindow()
    {
        constexpr auto slowProbe = std::chrono::milliseconds(2500);
        FakeResponse props = FS::llamaCppProps(32768);
        props.delayBeforeHeaders = slowProbe;
        m_server->setRoute("GET", "/props", props);
        m_server->enqueue(FS::openAiText(QStringLiteral("Read it.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Still here.")));
        AgentConfig c = config(QStringLiteral("llamacpp"));
        c.systemPrompt = QString(12000, QLatin1Char('s'));
        AgentLoop loop(c);
        Recorder recorder(&loop);
        QElapsedTimer sinceProbe;
        qint64 chatAfterMs = -1;
        connect(m_server.get(), &FakeLlmServer::requestReceived, this, [&](int index) {
            const QByteArray path = m_server->requests().at(index).path;
            if (path == "/props")
                sinceProbe.start();
            else if (chatAfterMs < 0)
                chatAfterMs = sinceProbe.isValid() ? sinceProbe.elapsed() : 0;
        });
        loop.send(QStringLiteral("hello"));
        QVERIFY(recorder.waitForTurn());
        // The chat request came while /props was still unanswered (it answers after 2.5 s).
        QVERIFY2(chatAfterMs >= 0 && chatAfterMs < slowProbe.count(), qPrintable(QString::number(chatAfterMs)));
        loop.send(QStringLiteral("again"));
        QVERIFY(recorder.waitForTurn(2));
        QCOMPARE(recorder.ofKind(Kind::Context).constLast().context.window, 32768);
        QCOMPARE(m_server->requests().size(), 3); // asked once
    }

    void aSettingOverridesTheServer_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("this model") << QStringLiteral("test-model");
        QTest::newRow("any model") << QStringLiteral("*");
    }

    void aSettingOverridesTheServer()
    {
        QFETCH(QString, model);
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768));
        m_server->enqueue(FS::openAiText(QStringLiteral("OK.")));
        AgentConfig c = config(QStringLiteral("llamacpp"));
        c.provider.contextWindows.insert(model, 3000);
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hello"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.ofKind(Kind::Context).first().context.window, 3000);
        QCOMPARE(recorder.ofKind(Kind::Context).first().context.windowSource, QStringLiteral("settings"));
    }

    void onlyWhatIsSentIsShortenedNotTheConversation()
    {
        QTemporaryDir data;
        ConversationStore store(data.path());
        QVERIFY(store.open());
        const auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("test-model"));
        QList<ChatMessage> history;
        for (const ChatMessage &m : earlierTurns(4, 6000))
            history << *store.appendMessage(conversation->id, m);

        m_server->enqueue(FS::openAiText(QStringLiteral("Short answer.")));
        AgentConfig c = config();
        c.provider.contextWindows.insert(QStringLiteral("test-model"), 4096);
        AgentLoop loop(c, &store, conversation->id);
        loop.setHistory(history);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("and now?"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);

        const AgentEvent context = recorder.ofKind(Kind::Context).constFirst();
        QVERIFY2(context.context.leftOut.contains(QLatin1String("4,096")), qPrintable(context.context.leftOut));
        QVERIFY(context.context.tokens <= 4096 - ContextBudget::answerReserve(4096));
        // Four old results of 6 000 characters: shortening them is enough.
        QVERIFY2(context.context.leftOut.contains(QLatin1String("shortens 4 tool results")),
                 qPrintable(context.context.leftOut));
        const QJsonArray sent = m_server->chatRequests().constFirst().json().value(QLatin1String("messages")).toArray();
        QCOMPARE(sent.size(), history.size() + 2);
        for (const QJsonValue &m : sent) {
            if (m[QLatin1String("role")].toString() == QLatin1String("tool")) {
                QVERIFY(m[QLatin1String("content")].toString().size() < 2000);
                QVERIFY(m[QLatin1String("content")].toString().contains(QLatin1String("characters left out here")));
            }
        }
        QCOMPARE(sent.first()[QLatin1String("role")].toString(), QStringLiteral("system"));
        QCOMPARE(sent.last()[QLatin1String("content")].toString(), QStringLiteral("and now?"));

        // The conversation, in memory and on disk, is whole.
        const QList<ChatMessage> stored = *store.messages(conversation->id);
        QCOMPARE(stored.size(), history.size() + 2);
        for (qsizetype i = 0; i < history.size(); ++i) {
            QCOMPARE(stored.at(i).content, history.at(i).content);
            QCOMPARE(loop.history().at(i).content, history.at(i).content);
        }
    }

    void everyServersContextErrorIsAnsweredByShorteningOnce_data()
    {
        using Shape = FS::ContextErrorShape;
        QTest::addColumn<Shape>("shape");
        QTest::newRow("openai") << Shape::OpenAi;
        QTest::newRow("llama.cpp") << Shape::LlamaCpp;
        QTest::newRow("vllm") << Shape::Vllm;
        QTest::newRow("lm studio") << Shape::LmStudio;
        QTest::newRow("ollama") << Shape::Ollama;
        QTest::newRow("mistral") << Shape::Mistral;
        QTest::newRow("anthropic") << Shape::Anthropic;
        QTest::newRow("openrouter") << Shape::OpenRouter;
    }

    void everyServersContextErrorIsAnsweredByShorteningOnce()
    {
        QFETCH(FS::ContextErrorShape, shape);
        // About 4 000 tokens by the estimate, which fits the assumed 8k window; the server says
        // the request came to 9 000 of its tokens against a window of 4 096.
        m_server->enqueue(FS::contextError(shape, 9000, 4096));
        m_server->enqueue(FS::openAiText(QStringLiteral("Done.")));
        AgentLoop loop(config());
        loop.setHistory(earlierTurns(3, 4000));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("go on"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        QCOMPARE(recorder.ofKind(Kind::Error).size(), 0);

        const QList<RecordedRequest> chat = m_server->chatRequests();
        QCOMPARE(chat.size(), 2);
        QVERIFY2(bodyChars(chat.at(1)) < bodyChars(chat.at(0)),
                 qPrintable(QStringLiteral("%1 then %2").arg(bodyChars(chat.at(0))).arg(bodyChars(chat.at(1)))));
        const auto context = recorder.ofKind(Kind::Context);
        QCOMPARE(context.size(), 2);
        QVERIFY(context.first().context.leftOut.isEmpty());
        QVERIFY(!context.last().context.leftOut.isEmpty());
        QCOMPARE(loop.history().size(), 12 + 2);
    }

    void aSecondContextErrorEndsTheTurnClearly()
    {
        m_server->enqueue(FS::contextError(FS::ContextErrorShape::LlamaCpp, 9000, 4096));
        m_server->enqueue(FS::contextError(FS::ContextErrorShape::LlamaCpp, 5000, 4096));
        AgentLoop loop(config());
        loop.setHistory(earlierTurns(3, 4000));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("go on"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Failed);
        QCOMPARE(m_server->chatRequests().size(), 2);
        const QString error = recorder.ofKind(Kind::Error).constFirst().text;
        QVERIFY2(error.contains(QLatin1String("context window")), qPrintable(error));
        QVERIFY(error.contains(QLatin1String("exceeds the available context size")));
        QVERIFY(error.contains(QLatin1String("larger context window")));
    }

    void nothingToLeaveOutMeansNoRetry()
    {
        m_server->enqueue(FS::contextError(FS::ContextErrorShape::LlamaCpp, 697, 256));
        AgentLoop loop(config());
        Recorder recorder(&loop);
        loop.send(QString(600, QLatin1Char('x')));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Failed);
        QCOMPARE(m_server->chatRequests().size(), 1);
        // The conversation is not stuck: the next message goes out, fitted to what was learnt.
        m_server->enqueue(FS::openAiText(QStringLiteral("ok")));
        loop.send(QStringLiteral("short"));
        QVERIFY(recorder.waitForTurn(2));
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        QCOMPARE(recorder.ofKind(Kind::Context).constLast().context.window, 256);
        const QJsonArray sent = m_server->chatRequests().constLast().json().value(QLatin1String("messages")).toArray();
        QCOMPARE(sent.last()[QLatin1String("content")].toString(), QStringLiteral("short"));
    }

    void ollamasSilentTruncationIsDetectedAndWarned()
    {
        // Ollama knows the model can take 32k, but runs it with 2048 and cuts the prompt to fit.
        m_server->setRoute("POST", "/api/show", FS::ollamaShow(32768));
        m_server->setRoute("GET", "/api/ps", FS::ollamaRunning(QStringLiteral("test-model"), std::nullopt));
        connect(m_server.get(), &FakeLlmServer::requestReceived, this, [this](int index) {
            const RecordedRequest request = m_server->requests().at(index);
            if (!request.path.startsWith("/v1/chat"))
                return;
            const qint64 sent = request.body.size() / 4;
            m_server->enqueue(FS::stream(FS::Shape::Ollama, FS::Turn{.text = QStringLiteral("Sure."),
                                                                     .promptTokens = std::min<qint64>(sent, 2048)}));
        });
        AgentLoop loop(config(QStringLiteral("ollama")));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("a first, short question"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.ofKind(Kind::Notice).size(), 0);

        QList<ChatMessage> history = loop.history();
        history += earlierTurns(4, 12000);
        loop.replaceHistory(history);
        loop.send(QStringLiteral("and this?"));
        QVERIFY(recorder.waitForTurn(2));
        const auto notices = recorder.ofKind(Kind::Notice);
        QCOMPARE(notices.size(), 1);
        QVERIFY2(notices.first().text.contains(QLatin1String("OLLAMA_CONTEXT_LENGTH")),
                 qPrintable(notices.first().text));
        QVERIFY(notices.first().text.contains(QLatin1String("num_ctx")));

        // From now on Sandpiper fits the requests itself, and says what it leaves out.
        loop.send(QStringLiteral("and now?"));
        QVERIFY(recorder.waitForTurn(3));
        const AgentEvent context = recorder.ofKind(Kind::Context).constLast();
        QCOMPARE(context.context.window, 2048);
        QVERIFY(!context.context.leftOut.isEmpty());
        QVERIFY(bodyChars(m_server->chatRequests().constLast()) < bodyChars(m_server->chatRequests().at(1)));
        QCOMPARE(recorder.ofKind(Kind::Notice).size(), 1); // warned once
    }

    void reasoningOfThisTurnGoesBackWhenThePresetSaysSo_data()
    {
        QTest::addColumn<bool>("sendBack");
        QTest::newRow("llama.cpp, vLLM: sent back") << true;
        QTest::newRow("DeepSeek and the rest: not sent") << false;
    }

    void reasoningOfThisTurnGoesBackWhenThePresetSaysSo()
    {
        QFETCH(bool, sendBack);
        m_server->enqueue(FS::stream(
            FS::Shape::LlamaCpp, FS::Turn{.reasoning = QStringLiteral("I should run code."),
                                          .calls = {{QStringLiteral("call_1"), QStringLiteral("execute_python_code"),
                                                     jsonCode(QStringLiteral("1"))}}}));
        m_server->enqueue(
            FS::llamaCppReasoning(QStringLiteral("It was refused."), QStringLiteral("I could not run it.")));
        AgentConfig c = config(QStringLiteral("llamacpp"));
        c.provider.sendReasoningBack = sendBack;
        AgentLoop loop(c);
        ChatMessage earlier = chatMessage(Role::Assistant, QStringLiteral("an earlier answer"));
        earlier.reasoning = QStringLiteral("reasoning of an earlier turn");
        loop.setHistory({chatMessage(Role::User, QStringLiteral("before")), earlier});
        Recorder recorder(&loop);
        loop.send(QStringLiteral("run something"));
        QVERIFY(recorder.waitForTurn());

        const QJsonArray messages = m_server->chatRequests().at(1).json().value(QLatin1String("messages")).toArray();
        QJsonObject thisTurn;
        for (const QJsonValue &m : messages) {
            if (!m[QLatin1String("tool_calls")].toArray().isEmpty())
                thisTurn = m.toObject();
            if (m[QLatin1String("content")].toString() == QLatin1String("an earlier answer"))
                QVERIFY(!m.toObject().contains(QLatin1String("reasoning_content")));
        }
        QCOMPARE(thisTurn.contains(QLatin1String("reasoning_content")), sendBack);
        if (sendBack)
            QCOMPARE(thisTurn.value(QLatin1String("reasoning_content")).toString(),
                     QStringLiteral("I should run code."));
    }
};

QTEST_GUILESS_MAIN(TestContextBudget)
#include "tst_contextbudget.moc"
