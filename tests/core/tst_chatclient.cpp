// The streaming client against a local server that speaks the real wire formats.
#include "fakellmserver.h"
#include "fakestreams.h"

#include <llm/chatclient.h>

#include <QCoroTask>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

ChatMessage userMessage(const QString &text)
{
    ChatMessage message;
    message.content = text;
    return message;
}

const QString fancyText = QStringLiteral("Hello, wörld! π ≈ 3.14159 — 你好 🐦🐦 \"quoted\" \\ back\nsecond line");

} // namespace

Q_DECLARE_METATYPE(FS::SplitMode)

class TestChatClient : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;

    ProviderConfig config() const
    {
        ProviderConfig c;
        c.id = QStringLiteral("custom");
        c.baseUrl = m_server->baseUrl().toString();
        c.model = QStringLiteral("test-model");
        c.apiKey = QStringLiteral("sk-test");
        c.maxRetries = 3;
        return c;
    }

    ChatResponse complete(ChatClient &client, QJsonArray tools = {})
    {
        return QCoro::waitFor(client.complete({userMessage(QStringLiteral("hi"))}, tools));
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
    }
    void cleanup() { m_server.reset(); }

    void streamsTextWhateverTheSplit_data()
    {
        QTest::addColumn<FS::SplitMode>("split");
        QTest::addColumn<bool>("crlf");
        QTest::addColumn<bool>("keepAlive");
        QTest::addColumn<bool>("done");
        QTest::newRow("per event") << FS::SplitMode::perEvent() << false << false << true;
        QTest::newRow("every byte") << FS::SplitMode::everyNBytes(1) << false << false << true;
        QTest::newRow("every 7 bytes, crlf") << FS::SplitMode::everyNBytes(7) << true << false << true;
        QTest::newRow("random, keep-alives") << FS::SplitMode::random(42) << false << true << true;
        QTest::newRow("random crlf, no [DONE]") << FS::SplitMode::random(7, 5) << true << true << false;
        QTest::newRow("whole") << FS::SplitMode::whole() << false << false << true;
    }

    void streamsTextWhateverTheSplit()
    {
        QFETCH(FS::SplitMode, split);
        QFETCH(bool, crlf);
        QFETCH(bool, keepAlive);
        QFETCH(bool, done);
        FS::StreamOptions options;
        options.split = split;
        options.crlf = crlf;
        options.keepAliveComments = keepAlive;
        options.done = done;
        m_server->enqueue(FS::openAiText(fancyText, 9, options));
        ChatClient client(config());
        QString streamed;
        connect(&client, &ChatClient::textDelta, this, [&](const QString &t) { streamed += t; });
        const auto response = complete(client);
        QVERIFY2(response.ok(), qPrintable(response.error.message));
        QCOMPARE(response.message.content, fancyText);
        QCOMPARE(streamed, fancyText);
        QCOMPARE(response.finishReason, QStringLiteral("stop"));
        QVERIFY(response.message.usage.totalTokens > 0);
    }

    void sendsAWellFormedRequest()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("ok")));
        auto c = config();
        c.extraHeaders = {{"X-Title", "Sandpiper tests"}};
        ChatClient client(c);
        const QJsonArray tools{QJsonObject{{QStringLiteral("type"), QStringLiteral("function")}}};
        QVERIFY(complete(client, tools).ok());
        const RecordedRequest request = m_server->requests().constFirst();
        QCOMPARE(request.path, QByteArray("/v1/chat/completions"));
        QCOMPARE(request.headers.value("authorization"), QByteArray("Bearer sk-test"));
        QCOMPARE(request.headers.value("x-title"), QByteArray("Sandpiper tests"));
        const QJsonObject body = request.json();
        QCOMPARE(body.value(QLatin1String("model")).toString(), QStringLiteral("test-model"));
        QCOMPARE(body.value(QLatin1String("stream")).toBool(), true);
        QCOMPARE(body.value(QLatin1String("stream_options"))[QLatin1String("include_usage")].toBool(), true);
        QCOMPARE(body.value(QLatin1String("tools")).toArray(), tools);
        QCOMPARE(body.value(QLatin1String("messages"))[0][QLatin1String("content")].toString(), QStringLiteral("hi"));
    }

    // A limit on the answer goes as max_tokens, or as max_completion_tokens where the server asks for
    // that name (OpenAI's reasoning models); none goes without one.
    void limitsTheAnswer()
    {
        ProviderConfig c = config();
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello.")));
        {
            ChatClient client(c);
            QVERIFY(complete(client).ok());
        }
        QVERIFY(!m_server->chatRequests().at(0).json().contains(QLatin1String("max_tokens")));
        c.maxAnswerTokens = 32;
        m_server->enqueue(FS::httpError(400, QStringLiteral("Unsupported parameter: 'max_tokens' is not supported with "
                                                            "this model. Use 'max_completion_tokens' instead.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello again.")));
        ChatClient client(c);
        const auto response = complete(client);
        QVERIFY2(response.ok(), qPrintable(response.error.message));
        QVERIFY(complete(client).ok());
        const QList<RecordedRequest> requests = m_server->chatRequests();
        QCOMPARE(requests.size(), 4);
        QCOMPARE(requests.at(1).json().value(QLatin1String("max_tokens")).toInt(), 32);
        for (int i : {2, 3}) {
            QCOMPARE(requests.at(i).json().value(QLatin1String("max_completion_tokens")).toInt(), 32);
            QVERIFY(!requests.at(i).json().contains(QLatin1String("max_tokens")));
        }
    }

    void accumulatesOneToolCallFromManyFragments()
    {
        const QString arguments =
            QStringLiteral("{\"code\": \"import math\\nprint(math.factorial(20))  # \\\"quotes\\\" 🐦\"}");
        m_server->enqueue(
            FS::openAiToolCalls({{QStringLiteral("call_abc"), QStringLiteral("execute_python_code"), arguments}}, 12,
                                {.split = FS::SplitMode::random(3)}));
        ChatClient client(config());
        const auto response = complete(client);
        QVERIFY2(response.ok(), qPrintable(response.error.message));
        QCOMPARE(response.finishReason, QStringLiteral("tool_calls"));
        QCOMPARE(response.message.toolCalls.size(), 1);
        QCOMPARE(response.message.toolCalls.first().id, QStringLiteral("call_abc"));
        QCOMPARE(response.message.toolCalls.first().name, QStringLiteral("execute_python_code"));
        QCOMPARE(response.message.toolCalls.first().arguments, arguments);
    }

    void accumulatesParallelCalls_data()
    {
        QTest::addColumn<int>("order");
        QTest::newRow("one after another") << int(FS::CallOrder::OneAfterAnother);
        QTest::newRow("interleaved") << int(FS::CallOrder::Interleaved);
        QTest::newRow("without index") << int(FS::CallOrder::WithoutIndex);
    }

    void accumulatesParallelCalls()
    {
        QFETCH(int, order);
        const QList<FS::ScriptedCall> calls{
            {QStringLiteral("call_1"), QStringLiteral("execute_python_code"), QStringLiteral("{\"code\": \"1 + 1\"}")},
            {QStringLiteral("call_2"), QStringLiteral("search_web"), QStringLiteral("{\"query\": \"qt 6\"}")}};
        m_server->enqueue(FS::openAiToolCalls(calls, 5, {.split = FS::SplitMode::everyNBytes(11)}, FS::CallOrder(order),
                                              QStringLiteral("Let me check.")));
        ChatClient client(config());
        const auto response = complete(client);
        QVERIFY2(response.ok(), qPrintable(response.error.message));
        QCOMPARE(response.message.content, QStringLiteral("Let me check."));
        QCOMPARE(response.message.toolCalls.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(response.message.toolCalls[i].id, calls[i].id);
            QCOMPARE(response.message.toolCalls[i].name, calls[i].name);
            QCOMPARE(response.message.toolCalls[i].arguments, calls[i].arguments);
        }
    }

    void acceptsOllamasWholeCallWithStop()
    {
        m_server->enqueue(
            FS::ollamaToolCall(QStringLiteral("execute_python_code"), QStringLiteral("{\"code\":\"2 + 2\"}")));
        ChatClient client(config());
        const auto response = complete(client);
        QVERIFY2(response.ok(), qPrintable(response.error.message));
        QCOMPARE(response.finishReason, QStringLiteral("tool_calls"));
        QCOMPARE(response.message.toolCalls.size(), 1);
        QCOMPARE(response.message.toolCalls.first().arguments, QStringLiteral("{\"code\":\"2 + 2\"}"));
        QVERIFY(!response.message.toolCalls.first().id.isEmpty());
    }

    void keepsReasoningApart_data()
    {
        QTest::addColumn<int>("field");
        QTest::newRow("reasoning_content") << int(FS::ReasoningField::ReasoningContent);
        QTest::newRow("reasoning") << int(FS::ReasoningField::Reasoning);
    }

    void keepsReasoningApart()
    {
        QFETCH(int, field);
        m_server->enqueue(FS::llamaCppReasoning(QStringLiteral("First, 6 × 7…"), QStringLiteral("It is 42."),
                                                FS::ReasoningField(field), 5, {.split = FS::SplitMode::random(9)}));
        ChatClient client(config());
        QString reasoning;
        connect(&client, &ChatClient::reasoningDelta, this, [&](const QString &t) { reasoning += t; });
        const auto response = complete(client);
        QVERIFY2(response.ok(), qPrintable(response.error.message));
        QCOMPARE(response.message.reasoning, QStringLiteral("First, 6 × 7…"));
        QCOMPARE(reasoning, response.message.reasoning);
        QCOMPARE(response.message.content, QStringLiteral("It is 42."));
    }

    void aCutStreamKeepsThePartialText()
    {
        m_server->enqueue(FS::cutStream(QStringLiteral("The answer begins")));
        ChatClient client(config());
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::Stream);
        QVERIFY2(response.error.message.contains(QLatin1String("broke")), qPrintable(response.error.message));
        QCOMPARE(response.message.content, QStringLiteral("The answer begins"));
    }

    // A stream whose events are not JSON at all says so, rather than that the connection broke.
    void aStreamOfNoJsonSaysWhatItIs()
    {
        m_server->enqueue(FS::fromPayloads({"hello there", "<html>not an API</html>", "[DONE]"}, {}));
        ChatClient client(config());
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::Protocol);
        QVERIFY2(response.error.message.contains(QLatin1String("not JSON (the first: \"hello there\")")),
                 qPrintable(response.error.message));
        QVERIFY(response.error.message.contains(QLatin1String("OpenAI-compatible")));
    }

    void anErrorInsideTheStreamIsReported()
    {
        m_server->enqueue(FS::streamError(QStringLiteral("model overloaded, try later"), QStringLiteral("Partial")));
        ChatClient client(config());
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::Stream);
        QVERIFY(response.error.message.contains(QLatin1String("model overloaded")));
        QCOMPARE(response.message.content, QStringLiteral("Partial"));
    }

    // Each provider's error inside a stream that began with 200, ending as that provider ends it
    // (OpenAI and OpenRouter close without [DONE], vLLM sends [DONE], llama.cpp uses an "error:"
    // field): the provider's words and code end the answer, what arrived is kept, and the
    // message says whether trying again is likely to help.
    void anErrorInsideTheStreamEndsTheAnswerInTheProvidersWords_data()
    {
        QTest::addColumn<QByteArray>("tail");
        QTest::addColumn<QString>("words");
        QTest::addColumn<bool>("worthRetrying");
        QTest::newRow("OpenAI")
            << QByteArray(
                   "data: {\"error\":{\"message\":\"The server had an error while processing your request. Sorry about "
                   "that!\",\"type\":\"server_error\",\"param\":null,\"code\":null}}\n\n")
            << QStringLiteral("(server_error): The server had an error while processing your "
                              "request. Sorry about that!")
            << true;
        QTest::newRow("OpenRouter")
            << QByteArray(
                   "data: "
                   "{\"id\":\"cmpl-abc123\",\"object\":\"chat.completion.chunk\",\"created\":1234567890,\"model\":"
                   "\"gpt-3.5-turbo\",\"provider\":\"openai\",\"error\":{\"code\":\"server_error\",\"message\":"
                   "\"Provider "
                   "disconnected "
                   "unexpectedly\"},\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":"
                   "\"error\"}]}\n\n")
            << QStringLiteral("(server_error): Provider disconnected unexpectedly.") << true;
        QTest::newRow("OpenRouter rate limit")
            << QByteArray(
                   "data: {\"error\":{\"code\":429,\"message\":\"Rate limit exceeded: free-models-per-min\"}}\n\n")
            << QStringLiteral("(429): Rate limit exceeded: free-models-per-min.") << true;
        QTest::newRow("OpenRouter moderation")
            << QByteArray(
                   "data: {\"error\":{\"code\":403,\"message\":\"Your input was flagged\"},\"choices\":[{\"index\":"
                   "0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"error\"}]}\n\n")
            << QStringLiteral("(403): Your input was flagged.") << false;
        QTest::newRow("Anthropic")
            << QByteArray(
                   "event: error\ndata: "
                   "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")
            << QStringLiteral("(overloaded_error): Overloaded.") << true;
        QTest::newRow("vLLM") << QByteArray("data: {\"error\":{\"message\":\"Sampled token IDs exceed the max model "
                                            "length.\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}}\n\n"
                                            "data: [DONE]\n\n")
                              << QStringLiteral("(400 BadRequestError): Sampled token IDs exceed the max model length.")
                              << false;
        QTest::newRow("vLLM before 0.10")
            << QByteArray("data: {\"object\":\"error\",\"message\":\"The engine is dead.\",\"type\":"
                          "\"InternalServerError\",\"param\":null,\"code\":500}\n\ndata: [DONE]\n\n")
            << QStringLiteral("(500 InternalServerError): The engine is dead.") << true;
        QTest::newRow("llama.cpp") << QByteArray("error: {\"code\":500,\"message\":\"failed to decode the batch\","
                                                 "\"type\":\"server_error\"}\n\n")
                                   << QStringLiteral("(500 server_error): failed to decode the batch.") << true;
    }

    void anErrorInsideTheStreamEndsTheAnswerInTheProvidersWords()
    {
        QFETCH(QByteArray, tail);
        QFETCH(QString, words);
        QFETCH(bool, worthRetrying);
        m_server->enqueue(FS::textThenRaw(QStringLiteral("The answer begins"), tail));
        ChatClient client(config());
        QSignalSpy retries(&client, &ChatClient::retrying);
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::Stream);
        QVERIFY2(
            response.error.message.startsWith(QLatin1String("The provider stopped the answer with an error ") + words),
            qPrintable(response.error.message));
        QCOMPARE(response.error.message.contains(QLatin1String("Retry in a moment")), worthRetrying);
        QCOMPARE(response.message.content, QStringLiteral("The answer begins"));
        // Not retried behind the user's back: the partial answer has been shown.
        QCOMPARE(retries.size(), 0);
        QCOMPARE(m_server->requests().size(), 1);
    }

    // Some gateways send a call's id and name in pieces, as they send its arguments; others repeat
    // the name with each piece, or send it again grown. Every way ends in the one call.
    void joinsIdsAndNamesSentInPieces_data()
    {
        QTest::addColumn<QList<QByteArray>>("payloads");
        const QString id = QStringLiteral("call_7Hq2xZ");
        const QString name = QStringLiteral("execute_python_code");
        const auto chunk = [](const QJsonObject &call) {
            return QJsonDocument(QJsonObject{{QStringLiteral("choices"),
                                              QJsonArray{QJsonObject{
                                                  {QStringLiteral("index"), 0},
                                                  {QStringLiteral("delta"),
                                                   QJsonObject{{QStringLiteral("tool_calls"), QJsonArray{call}}}}}}}})
                .toJson(QJsonDocument::Compact);
        };
        const auto head = [](const QString &idPiece, const QString &namePiece, bool withIndex) {
            QJsonObject call{{QStringLiteral("function"), QJsonObject{{QStringLiteral("name"), namePiece}}}};
            if (!idPiece.isEmpty())
                call.insert(QStringLiteral("id"), idPiece);
            if (withIndex)
                call.insert(QStringLiteral("index"), 0);
            return call;
        };
        const auto arguments = [](const QString &text, const QString &repeatedName, bool withIndex) {
            QJsonObject function{{QStringLiteral("arguments"), text}};
            if (!repeatedName.isEmpty())
                function.insert(QStringLiteral("name"), repeatedName);
            QJsonObject call{{QStringLiteral("function"), function}};
            if (withIndex)
                call.insert(QStringLiteral("index"), 0);
            return call;
        };
        const QByteArray finish = R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})";
        for (const bool withIndex : {true, false}) {
            const QString how = withIndex ? QStringLiteral("indexed") : QStringLiteral("no index");
            for (qsizetype cut = 1; cut < name.size(); ++cut) {
                const qsizetype idCut = std::min(cut, id.size() - 1);
                QTest::addRow("%s, split at %lld", qPrintable(how), qlonglong(cut)) << QList<QByteArray>{
                    chunk(head(id.left(idCut), name.left(cut), withIndex)),
                    chunk(head(id.mid(idCut), name.mid(cut), withIndex)),
                    chunk(arguments(QStringLiteral("{\"code\": \"print(1)\"}"), {}, withIndex)), finish};
            }
            QTest::addRow("%s, the name with every piece", qPrintable(how))
                << QList<QByteArray>{chunk(head(id, name, withIndex)), chunk(head({}, name, withIndex)),
                                     chunk(arguments(QStringLiteral("{\"code\": "), name, withIndex)),
                                     chunk(arguments(QStringLiteral("\"print(1)\"}"), name, withIndex)), finish};
            QTest::addRow("%s, the name sent again grown", qPrintable(how)) << QList<QByteArray>{
                chunk(head(id, name.left(7), withIndex)), chunk(head({}, name, withIndex)),
                chunk(arguments(QStringLiteral("{\"code\": \"print(1)\"}"), {}, withIndex)), finish};
        }
    }

    void joinsIdsAndNamesSentInPieces()
    {
        QFETCH(QList<QByteArray>, payloads);
        m_server->enqueue(FS::fromPayloads(payloads));
        ChatClient client(config());
        const auto response = complete(client);
        QVERIFY2(response.ok(), qPrintable(response.error.message));
        QCOMPARE(response.message.toolCalls.size(), 1);
        QCOMPARE(response.message.toolCalls.first().id, QStringLiteral("call_7Hq2xZ"));
        QCOMPARE(response.message.toolCalls.first().name, QStringLiteral("execute_python_code"));
        QCOMPARE(response.message.toolCalls.first().arguments, QStringLiteral("{\"code\": \"print(1)\"}"));
    }

    void retriesRateLimitsHonouringRetryAfter()
    {
        m_server->enqueue(FS::httpError(429, QStringLiteral("Rate limit reached for requests"), 1));
        m_server->enqueue(FS::openAiText(QStringLiteral("finally")));
        ChatClient client(config());
        QSignalSpy retries(&client, &ChatClient::retrying);
        QElapsedTimer timer;
        timer.start();
        const auto response = complete(client);
        QVERIFY2(response.ok(), qPrintable(response.error.message));
        QCOMPARE(response.message.content, QStringLiteral("finally"));
        QCOMPARE(retries.count(), 1);
        QCOMPARE(retries.first().at(2).toLongLong(), 1000);
        QVERIFY(retries.first().at(3).toString().contains(QLatin1String("Rate limit reached")));
        QVERIFY(timer.elapsed() >= 900);
    }

    void givesUpAfterTheRetries()
    {
        auto c = config();
        c.maxRetries = 2;
        c.maxRetryDelay = 10ms;
        for (int i = 0; i < 3; ++i)
            m_server->enqueue(FS::httpError(503, QStringLiteral("upstream unavailable")));
        ChatClient client(c);
        QSignalSpy retries(&client, &ChatClient::retrying);
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::Server);
        QCOMPARE(response.error.httpStatus, 503);
        QVERIFY(response.error.message.contains(QLatin1String("upstream unavailable")));
        QCOMPARE(retries.count(), 2);
        QCOMPARE(m_server->requests().size(), 3);
    }

    void aWrongKeyIsExplained()
    {
        m_server->setRequiredApiKey(QStringLiteral("sk-right"));
        ChatClient client(config());
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::Authentication);
        QCOMPARE(response.error.httpStatus, 401);
        QVERIFY2(response.error.message.contains(QLatin1String("Incorrect API key")),
                 qPrintable(response.error.message));
        QVERIFY(response.error.message.contains(QLatin1String("API key in Settings")));
        QCOMPARE(m_server->requests().size(), 1); // never retried
    }

    void anUnknownModelListsTheAvailableOnes()
    {
        m_server->setModels({QStringLiteral("llama3.2"), QStringLiteral("qwen2.5:7b")});
        m_server->enqueue(FS::httpError(404, QStringLiteral("The model `test-model` does not exist")));
        ChatClient client(config());
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::UnknownModel);
        QVERIFY2(response.error.message.contains(QLatin1String("does not exist")), qPrintable(response.error.message));
        QVERIFY(response.error.message.contains(QLatin1String("llama3.2, qwen2.5:7b")));
    }

    void aRefusedConnectionAsksWhetherTheServerRuns()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();
        auto c = config();
        c.baseUrl = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
        ChatClient client(c);
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::ConnectionRefused);
        QVERIFY2(response.error.message.contains(QLatin1String("Is the server running?")),
                 qPrintable(response.error.message));
    }

    void aSilentServerTimesOut_data()
    {
        QTest::addColumn<bool>("beforeHeaders");
        QTest::newRow("connect") << true;
        QTest::newRow("idle between chunks") << false;
    }

    void aSilentServerTimesOut()
    {
        QFETCH(bool, beforeHeaders);
        auto c = config();
        c.connectTimeout = 400ms;
        c.idleTimeout = 400ms;
        auto response = FS::openAiText(QStringLiteral("slow"), 2);
        if (beforeHeaders) {
            response.delayBeforeHeaders = 5s;
        } else {
            response.chunks = response.chunks.mid(0, 2);
            response.stallAfterChunks = true;
        }
        m_server->enqueue(response);
        ChatClient client(c);
        const auto result = complete(client);
        QCOMPARE(result.error.kind, beforeHeaders ? ChatError::Kind::ConnectTimeout : ChatError::Kind::IdleTimeout);
        QVERIFY(!result.error.message.isEmpty());
    }

    void cancelAbortsTheStreamAtOnce()
    {
        m_server->enqueue(FS::slowText(QStringLiteral("one two three four five six seven eight"), 8, 300ms));
        ChatClient client(config());
        QSignalSpy aborted(m_server.get(), &FakeLlmServer::responseAbortedByClient);
        connect(&client, &ChatClient::textDelta, &client, &ChatClient::cancel, Qt::SingleShotConnection);
        QElapsedTimer timer;
        timer.start();
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::Cancelled);
        QVERIFY(timer.elapsed() < 2000);
        QVERIFY(!response.message.content.isEmpty());
        QVERIFY(aborted.wait(2000) || aborted.count() == 1);
    }

    void cancelStopsTheWaitBeforeARetry()
    {
        m_server->enqueue(FS::httpError(429, QStringLiteral("slow down"), 30));
        ChatClient client(config());
        connect(&client, &ChatClient::retrying, &client, &ChatClient::cancel);
        QElapsedTimer timer;
        timer.start();
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::Cancelled);
        QVERIFY(timer.elapsed() < 5000);
    }

    void fallsBackWhenTheServerRefusesToStream()
    {
        m_server->enqueue(FS::httpError(400, QStringLiteral("Streaming is not supported when tools are provided")));
        m_server->enqueue(FS::nonStreaming(
            QStringLiteral("plain answer"),
            {{QStringLiteral("call_9"), QStringLiteral("execute_python_code"), QStringLiteral("{\"code\": \"1\"}")}}));
        ChatClient client(config());
        const auto response = complete(client);
        QVERIFY2(response.ok(), qPrintable(response.error.message));
        QCOMPARE(response.message.content, QStringLiteral("plain answer"));
        QCOMPARE(response.message.toolCalls.size(), 1);
        QCOMPARE(response.finishReason, QStringLiteral("tool_calls"));
        QCOMPARE(m_server->requests().at(1).json().value(QLatin1String("stream")).toBool(), false);
    }

    void listsModels()
    {
        m_server->setModels({QStringLiteral("b-model"), QStringLiteral("a-model")});
        ChatClient client(config());
        const auto list = QCoro::waitFor(client.listModels());
        QCOMPARE(list.error.kind, ChatError::Kind::None);
        QCOMPARE(list.models, (QStringList{QStringLiteral("a-model"), QStringLiteral("b-model")}));
    }

    void reportsAnAnswerThatIsNotOpenAi()
    {
        FakeResponse html;
        html.headers = {{"Content-Type", "text/html"}};
        html.chunks = {"<html><body>Welcome to nginx!</body></html>"};
        m_server->enqueue(html);
        ChatClient client(config());
        const auto response = complete(client);
        QCOMPARE(response.error.kind, ChatError::Kind::Protocol);
        QVERIFY(response.error.message.contains(QLatin1String("not an OpenAI-compatible")));
    }
};

QTEST_GUILESS_MAIN(TestChatClient)
#include "tst_chatclient.moc"
