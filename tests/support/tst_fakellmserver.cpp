// The stand-in for the language model: its HTTP is right (QNetworkAccessManager and raw
// sockets as clients) and every scripted stream decodes to what it was built from.
#include "fakellmserver.h"
#include "fakestreams.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper::Test;
using namespace Sandpiper::Test::FakeStreams;

Q_DECLARE_METATYPE(Sandpiper::Test::FakeResponse)

namespace {

// Unicode that breaks careless decoders when cut between bytes, and characters that JSON or
// Go's encoder escape.
const QString tricky =
    QStringLiteral("Grüße, 世界! 🐍📈 👍🏽 \"quoted\" back\\slash <b>&amp;</b>\nnew line");

struct Exchange {
    QList<QByteArray> pieces; // as readyRead() delivered them
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    int status = 0;
    QHash<QByteArray, QByteArray> headers; // lower-case names
    bool finished = false;

    QByteArray body() const { return pieces.join(); }
    QJsonObject json() const { return QJsonDocument::fromJson(body()).object(); }
};

// Waits for REPLY to finish, collecting what arrives; takes ownership of it.
Exchange collect(QNetworkReply *reply, std::chrono::milliseconds timeout = 10s)
{
    Exchange exchange;
    QObject::connect(reply, &QNetworkReply::readyRead, reply,
                     [reply, &exchange] { exchange.pieces.append(reply->readAll()); });
    if (!reply->isFinished()) {
        QSignalSpy finished(reply, &QNetworkReply::finished);
        finished.wait(timeout);
    }
    if (const QByteArray rest = reply->readAll(); !rest.isEmpty())
        exchange.pieces.append(rest);
    exchange.finished = reply->isFinished();
    exchange.error = reply->error();
    exchange.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    for (const auto &[name, value] : reply->rawHeaderPairs())
        exchange.headers.insert(name.toLower(), value);
    reply->deleteLater();
    return exchange;
}

QNetworkRequest request(const FakeLlmServer &server, const QString &path, const QByteArray &apiKey = "sk-test")
{
    QUrl url = server.baseUrl();
    url.setPath(url.path() + path);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    if (!apiKey.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + apiKey);
    return request;
}

QByteArray chatBody(const QString &prompt = QStringLiteral("What is 2 + 2?"))
{
    return QJsonDocument(
               QJsonObject{
                   {QStringLiteral("model"), QStringLiteral("gpt-4o-mini")},
                   {QStringLiteral("stream"), true},
                   {QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}}},
                   {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                       {QStringLiteral("content"), prompt}}}},
               })
        .toJson(QJsonDocument::Compact);
}

Exchange chat(QNetworkAccessManager &network, const FakeLlmServer &server, const QByteArray &apiKey = "sk-test")
{
    return collect(network.post(request(server, QStringLiteral("/chat/completions"), apiKey), chatBody()));
}

// What a client makes of a stream: a minimal but complete SSE decoder (RFC: lines end in LF,
// CRLF or CR; comments and other fields ignored; data lines of one event joined by LF).
struct Decoded {
    QList<QByteArray> payloads;
    bool done = false;
    QString jsonError; // the first payload that is not JSON
    QString content;
    QString reasoning;
    QStringList calls; // "name(arguments)" in call order
    QStringList callIds;
    QString finishReason;
    bool usage = false;
    QStringList errors;
};

Decoded decode(const QByteArray &stream)
{
    Decoded decoded;
    QList<QByteArray> lines;
    qsizetype start = 0;
    for (qsizetype i = 0; i < stream.size(); ++i) {
        if (stream.at(i) != '\n' && stream.at(i) != '\r')
            continue;
        lines.append(stream.sliced(start, i - start));
        if (stream.at(i) == '\r' && i + 1 < stream.size() && stream.at(i + 1) == '\n')
            ++i;
        start = i + 1;
    }

    QByteArray data;
    bool hasData = false;
    for (const QByteArray &line : std::as_const(lines)) {
        if (line.isEmpty()) {
            if (hasData) {
                if (data == "[DONE]")
                    decoded.done = true;
                else
                    decoded.payloads.append(data);
            }
            data.clear();
            hasData = false;
            continue;
        }
        if (!line.startsWith("data:"))
            continue;
        QByteArray value = line.sliced(5);
        if (value.startsWith(' '))
            value.remove(0, 1);
        data = hasData ? QByteArray(data + '\n' + value) : value;
        hasData = true;
    }

    // Tool calls are told apart by index; without one, a new id starts a new call.
    QList<std::pair<QString, QString>> calls; // name, arguments
    for (const QByteArray &payload : std::as_const(decoded.payloads)) {
        QJsonParseError error;
        const QJsonObject chunk = QJsonDocument::fromJson(payload, &error).object();
        if (error.error != QJsonParseError::NoError) {
            if (decoded.jsonError.isEmpty())
                decoded.jsonError = error.errorString() + QStringLiteral(" in ") + QString::fromUtf8(payload);
            continue;
        }
        if (chunk.contains(QLatin1String("error")))
            decoded.errors.append(chunk[QLatin1String("error")][QLatin1String("message")].toString());
        if (chunk[QLatin1String("usage")].isObject())
            decoded.usage = true;
        const QJsonArray choices = chunk[QLatin1String("choices")].toArray();
        if (choices.isEmpty())
            continue;
        const QJsonObject choice = choices.first().toObject();
        if (choice[QLatin1String("finish_reason")].isString())
            decoded.finishReason = choice[QLatin1String("finish_reason")].toString();
        const QJsonObject delta = choice[QLatin1String("delta")].toObject();
        decoded.content += delta[QLatin1String("content")].toString();
        decoded.reasoning += delta[QLatin1String("reasoning_content")].toString();
        decoded.reasoning += delta[QLatin1String("reasoning")].toString();
        for (const QJsonValue &value : delta[QLatin1String("tool_calls")].toArray()) {
            const QJsonObject call = value.toObject();
            const QString id = call[QLatin1String("id")].toString();
            qsizetype index = 0;
            if (call.contains(QLatin1String("index"))) {
                index = call[QLatin1String("index")].toInt();
            } else {
                index = id.isEmpty() ? calls.size() - 1 : calls.size();
            }
            if (index < 0)
                continue;
            while (calls.size() <= index)
                calls.append(std::pair<QString, QString>());
            if (!id.isEmpty())
                decoded.callIds.append(id);
            const QJsonObject function = call[QLatin1String("function")].toObject();
            calls[index].first += function[QLatin1String("name")].toString();
            calls[index].second += function[QLatin1String("arguments")].toString();
        }
    }
    for (const auto &[name, arguments] : std::as_const(calls))
        decoded.calls.append(name + QLatin1Char('(') + arguments + QLatin1Char(')'));
    return decoded;
}

const QList<ScriptedCall> twoCalls = {
    {QStringLiteral("call_first"), QStringLiteral("execute_python_code"),
     QStringLiteral("{\"code\": \"import math\\nprint(math.factorial(20))  # 🧮 \\\"big\\\"\"}")},
    {QStringLiteral("call_second"), QStringLiteral("search_web"),
     QString::fromUtf8(R"({"query": "latest Qt release <6.9> & notes", "max_results": 5})")},
};

QStringList described(const QList<ScriptedCall> &calls)
{
    QStringList result;
    for (const ScriptedCall &call : calls)
        result.append(call.name + QLatin1Char('(') + call.arguments + QLatin1Char(')'));
    return result;
}

// The raw bytes of HTTP exchanges that QNetworkAccessManager never produces.
struct RawClient {
    QTcpSocket socket;
    QByteArray received;

    bool connectTo(const FakeLlmServer &server)
    {
        QObject::connect(&socket, &QTcpSocket::readyRead, &socket, [this] { received += socket.readAll(); });
        socket.connectToHost(QHostAddress::LocalHost, server.port());
        QSignalSpy connected(&socket, &QTcpSocket::connected);
        return socket.state() == QAbstractSocket::ConnectedState || connected.wait(5000);
    }

    // Sends BYTES in pieces of PIECE bytes, giving the server a turn between them.
    void send(const QByteArray &bytes, qsizetype piece)
    {
        for (qsizetype at = 0; at < bytes.size(); at += piece) {
            socket.write(bytes.sliced(at, std::min(piece, bytes.size() - at)));
            socket.flush();
            QTest::qWait(1);
        }
    }
};

} // namespace

class TestFakeLlmServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    // The builders, without the network.
    void streamsDecode_data();
    void streamsDecode();
    void openAiChunkShapes();
    void ollamaChunkShapes();
    void llamaCppChunkShapes();
    void wireOptions();
    void splitModes_data();
    void splitModes();
    void errorAndNonStreamingBodies();

    // The server, with QNetworkAccessManager in the same thread.
    void servedStreamsArriveIntact_data();
    void servedStreamsArriveIntact();
    void streamingArrivesInPieces();
    void keepAliveServesSequentialRequests();
    void recordsRequests();
    void requiredApiKey();
    void rateLimitWithRetryAfter();
    void listsModels();
    void emptyQueueAnswers500();
    void unknownRoutesAnswer404();
    void delayBeforeHeaders();
    void cutStreamEndsThePartialReply();
    void stalledStreamKeepsTheConnectionOpen();
    void clientAbortIsNoticedAtOnce();

    // The server, with raw sockets.
    void requestInTinyPieces();
    void chunkedRequestBody();
    void pipelinedRequests();
    void expectContinue();
    void cutStreamOnTheWire();
    void malformedRequestAnswers400();

    // The standalone executable.
    void executableServesScript();
    void executableStopsOnSigterm();
    void executableRejectsBadScript();
};

void TestFakeLlmServer::initTestCase()
{
    qRegisterMetaType<FakeResponse>();
    // A proxy from the environment must not stand between the tests and 127.0.0.1.
    QNetworkProxy::setApplicationProxy(QNetworkProxy::NoProxy);
}

void TestFakeLlmServer::streamsDecode_data()
{
    QTest::addColumn<FakeResponse>("response");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("reasoning");
    QTest::addColumn<QStringList>("calls");
    QTest::addColumn<QString>("finishReason");
    QTest::addColumn<bool>("done");

    const QStringList noCalls;
    const QList<std::pair<const char *, SplitMode>> splits = {
        {"per event", SplitMode::perEvent()},      {"whole", SplitMode::whole()},
        {"every byte", SplitMode::everyNBytes(1)}, {"every 7", SplitMode::everyNBytes(7)},
        {"every 13", SplitMode::everyNBytes(13)},  {"random 1", SplitMode::random(1)},
        {"random 42", SplitMode::random(42, 5)},
    };
    for (const auto &[name, split] : splits) {
        const StreamOptions options{.split = split};
        QTest::addRow("openai text, %s", name)
            << openAiText(tricky, 9, options) << tricky << QString() << noCalls << QStringLiteral("stop") << true;
        QTest::addRow("openai calls, %s", name) << openAiToolCalls(twoCalls, 12, options) << QString() << QString()
                                                << described(twoCalls) << QStringLiteral("tool_calls") << true;
    }

    const StreamOptions everything{
        .split = SplitMode::random(7, 9), .crlf = true, .keepAliveComments = true, .eventLines = true};
    QTest::newRow("openai text, crlf, comments, event lines")
        << openAiText(tricky, 5, everything) << tricky << QString() << noCalls << QStringLiteral("stop") << true;
    QTest::newRow("openai text without [DONE]")
        << openAiText(tricky, 3, {.done = false}) << tricky << QString() << noCalls << QStringLiteral("stop") << false;
    QTest::newRow("openai calls interleaved")
        << openAiToolCalls(twoCalls, 10, {.split = SplitMode::everyNBytes(3)}, CallOrder::Interleaved) << QString()
        << QString() << described(twoCalls) << QStringLiteral("tool_calls") << true;
    QTest::newRow("openai text then calls")
        << openAiToolCalls(twoCalls, 4, {}, CallOrder::OneAfterAnother, tricky) << tricky << QString()
        << described(twoCalls) << QStringLiteral("tool_calls") << true;
    QTest::newRow("calls without index") << missingIndexToolCalls(twoCalls, 11, {.split = SplitMode::random(3)})
                                         << QString() << QString() << described(twoCalls)
                                         << QStringLiteral("tool_calls") << true;
    QTest::newRow("ollama text") << ollamaText(tricky, 6, {.split = SplitMode::everyNBytes(5)}) << tricky << QString()
                                 << noCalls << QStringLiteral("stop") << true;
    QTest::newRow("ollama call") << ollamaToolCall(twoCalls[1].name, twoCalls[1].arguments) << QString() << QString()
                                 << QStringList{described({twoCalls[1]})} << QStringLiteral("stop") << true;
    QTest::newRow("ollama two calls") << ollamaToolCalls(twoCalls, {.split = SplitMode::random(11)}) << QString()
                                      << QString() << described(twoCalls) << QStringLiteral("stop") << true;
    QTest::newRow("llama.cpp reasoning_content")
        << llamaCppReasoning(QStringLiteral("Let me think… 2 + 2 = 4 ✓"), tricky, ReasoningField::ReasoningContent, 7,
                             {.split = SplitMode::random(5)})
        << tricky << QStringLiteral("Let me think… 2 + 2 = 4 ✓") << noCalls << QStringLiteral("stop") << true;
    QTest::newRow("llama.cpp reasoning") << llamaCppReasoning(QStringLiteral("Hmm 🤔"), QStringLiteral("Four."),
                                                              ReasoningField::Reasoning)
                                         << QStringLiteral("Four.") << QStringLiteral("Hmm 🤔") << noCalls
                                         << QStringLiteral("stop") << true;
    QTest::newRow("llama.cpp calls") << stream(Shape::LlamaCpp, Turn{.reasoning = QStringLiteral("I should run code."),
                                                                     .calls = twoCalls})
                                     << QString() << QStringLiteral("I should run code.") << described(twoCalls)
                                     << QStringLiteral("tool_calls") << true;
    QTest::newRow("ollama reasoning") << stream(Shape::Ollama,
                                                Turn{.reasoning = QStringLiteral("thinking <hard>"), .text = tricky})
                                      << tricky << QStringLiteral("thinking <hard>") << noCalls
                                      << QStringLiteral("stop") << true;
    QTest::newRow("slow text") << slowText(tricky, 4, 1ms) << tricky << QString() << noCalls << QStringLiteral("stop")
                               << true;
    QTest::newRow("cut stream") << cutStream(QStringLiteral("Half an ans 🐍"), {.split = SplitMode::everyNBytes(2)})
                                << QStringLiteral("Half an ans 🐍") << QString() << noCalls << QString() << false;
    QTest::newRow("stream error") << streamError(QStringLiteral("The model crashed"), QStringLiteral("Par"))
                                  << QStringLiteral("Par") << QString() << noCalls << QString() << true;
}

void TestFakeLlmServer::streamsDecode()
{
    QFETCH(FakeResponse, response);
    QFETCH(QString, content);
    QFETCH(QString, reasoning);
    QFETCH(QStringList, calls);
    QFETCH(QString, finishReason);
    QFETCH(bool, done);

    QCOMPARE(response.status, 200);
    QVERIFY(response.chunked);
    QVERIFY(!response.chunks.isEmpty());
    bool eventStream = false;
    for (const auto &[name, value] : std::as_const(response.headers))
        eventStream = eventStream ||
                      (name.compare("content-type", Qt::CaseInsensitive) == 0 && value.startsWith("text/event-stream"));
    QVERIFY(eventStream);

    const Decoded decoded = decode(response.body());
    QVERIFY2(decoded.jsonError.isEmpty(), qPrintable(decoded.jsonError));
    QCOMPARE(decoded.content, content);
    QCOMPARE(decoded.reasoning, reasoning);
    QCOMPARE(decoded.calls, calls);
    QCOMPARE(decoded.finishReason, finishReason);
    QCOMPARE(decoded.done, done);
    QCOMPARE(QSet<QString>(decoded.callIds.cbegin(), decoded.callIds.cend()).size(), calls.size());
    for (const QString &id : decoded.callIds)
        QVERIFY(!id.isEmpty());
    if (!finishReason.isEmpty())
        QVERIFY(decoded.usage);
}

void TestFakeLlmServer::openAiChunkShapes()
{
    const Decoded text = decode(openAiText(QStringLiteral("Hi there"), 2).body());
    QCOMPARE(text.payloads.size(), 5);
    const QRegularExpression first(QStringLiteral(
        R"(^\{"id":"chatcmpl-[A-Za-z0-9]{29}","object":"chat\.completion\.chunk","created":\d+,)"
        R"("model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_[0-9a-f]{10}",)"
        R"("choices":\[\{"index":0,"delta":\{"role":"assistant","content":"","refusal":null\},"logprobs":null,)"
        R"("finish_reason":null\}\],"usage":null\}$)"));
    QVERIFY2(first.match(QString::fromUtf8(text.payloads[0])).hasMatch(), text.payloads[0].constData());
    QVERIFY(text.payloads[1].contains(R"("delta":{"content":"Hi t"},"logprobs":null,"finish_reason":null)"));
    QVERIFY(text.payloads[3].contains(R"("delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null})"));
    QVERIFY(text.payloads[4].contains(
        R"("choices":[],"usage":{"prompt_tokens":42,"completion_tokens":2,"total_tokens":44,)"
        R"("prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":)"
        R"({"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}})"));
    // All chunks of one answer share id, created and model.
    const QByteArray id = QJsonDocument::fromJson(text.payloads[0]).object()[QLatin1String("id")].toString().toUtf8();
    for (const QByteArray &payload : text.payloads)
        QVERIFY(payload.startsWith(QByteArray(R"({"id":")" + id + '"')));

    const Decoded calls = decode(openAiToolCalls({{QString(), QStringLiteral("f"), QStringLiteral("{\"a\":1}")}}, 3, {},
                                                 CallOrder::OneAfterAnother)
                                     .body());
    // With no text first, the role comes with the first call.
    QVERIFY2(QRegularExpression(
                 QString::fromUtf8(R"("delta":\{"role":"assistant","content":null,"tool_calls":\[\{"index":0,)"
                                   R"("id":"call_[A-Za-z0-9]{24}","type":"function","function":\{"name":"f",)"
                                   R"("arguments":""\}\}\],"refusal":null\})"))
                 .match(QString::fromUtf8(calls.payloads[0]))
                 .hasMatch(),
             calls.payloads[0].constData());
    QVERIFY(calls.payloads[1].contains(
        "\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"\"}}]}"));
    QVERIFY(calls.payloads.last().contains(R"("choices":[])"));
    QVERIFY(calls.payloads[calls.payloads.size() - 2].contains(R"("finish_reason":"tool_calls")"));

    const Decoded withoutIndex = decode(missingIndexToolCalls(twoCalls, 3).body());
    for (const QByteArray &payload : withoutIndex.payloads)
        QVERIFY(!payload.contains(R"("index":1)"));
    QVERIFY(withoutIndex.payloads[1].contains(R"("tool_calls":[{"function":{"arguments":)"));

    const Decoded error = decode(streamError(QStringLiteral("overloaded")).body());
    QCOMPARE(error.payloads.last(), R"({"error":{"message":"overloaded","type":"server_error"}})");
    QCOMPARE(error.errors, QStringList{QStringLiteral("overloaded")});
}

void TestFakeLlmServer::ollamaChunkShapes()
{
    const Decoded call = decode(ollamaToolCall(QStringLiteral("execute_python_code"),
                                               QString::fromUtf8(R"json({"code":"print(1 < 2 & True)"})json"))
                                    .body());
    QCOMPARE(call.payloads.size(), 3);
    QVERIFY2(
        QRegularExpression(
            QString::fromUtf8(R"(^\{"id":"chatcmpl-\d{1,3}","object":"chat\.completion\.chunk","created":\d+,)"
                              R"("model":"qwen2\.5:7b","system_fingerprint":"fp_ollama","choices":\[\{"index":0,)"
                              R"("delta":\{"role":"assistant","content":"","tool_calls":\[\{"id":"call_[a-z0-9]{8}",)"
                              R"("index":0,"type":"function","function":\{"name":"execute_python_code",)"))
            .match(QString::fromUtf8(call.payloads[0]))
            .hasMatch(),
        call.payloads[0].constData());
    // Go's encoder escapes < and &.
    QVERIFY(call.payloads[0].endsWith(
        "\"arguments\":\"{\\\"code\\\":\\\"print(1 \\u003c 2 \\u0026 True)\\\"}\"}}]},\"finish_reason\":null}]}"));
    QVERIFY(call.payloads[1].contains(R"("delta":{"role":"assistant","content":""},"finish_reason":"stop"}]})"));
    QVERIFY(call.payloads[2].contains(R"("choices":[],"usage":{"prompt_tokens":)"));
    QCOMPARE(call.calls,
             QStringList{QString::fromUtf8(R"json(execute_python_code({"code":"print(1 < 2 & True)"}))json")});

    const Decoded text = decode(ollamaText(QStringLiteral("a<b"), 1).body());
    QVERIFY(text.payloads[0].contains(R"("delta":{"role":"assistant","content":"a\u003cb"},"finish_reason":null)"));
}

void TestFakeLlmServer::llamaCppChunkShapes()
{
    const Decoded decoded = decode(llamaCppReasoning(QStringLiteral("think"), QStringLiteral("say"), {}, 1).body());
    QCOMPARE(decoded.payloads.size(), 4);
    const QString chunkPattern = QStringLiteral(
        R"(^\{"choices":\[\{"finish_reason":%1,"index":0,"delta":%2\}\],"created":\d+,"id":"chatcmpl-[A-Za-z0-9]{32}",)"
        R"("model":"[^"]+","system_fingerprint":"b\d+-[0-9a-f]{8}","object":"chat\.completion\.chunk"%3\}$)");
    const auto matches = [&decoded, &chunkPattern](int i, const QString &finish, const QString &delta,
                                                   const QString &tail = {}) {
        return QRegularExpression(chunkPattern.arg(finish, delta, tail))
            .match(QString::fromUtf8(decoded.payloads[i]))
            .hasMatch();
    };
    QVERIFY2(matches(0, QStringLiteral("null"), QString::fromUtf8(R"(\{"role":"assistant","content":null\})")),
             decoded.payloads[0].constData());
    QVERIFY2(matches(1, QStringLiteral("null"), QString::fromUtf8(R"(\{"reasoning_content":"think"\})")),
             decoded.payloads[1].constData());
    QVERIFY2(matches(2, QStringLiteral("null"), QString::fromUtf8(R"(\{"content":"say"\})")),
             decoded.payloads[2].constData());
    QVERIFY2(
        matches(3, QString::fromUtf8(R"("stop")"), QString::fromUtf8(R"(\{\})"),
                QStringLiteral(R"(,"usage":\{"completion_tokens":2,"prompt_tokens":42,"total_tokens":44\},)"
                               R"("timings":\{"prompt_n":42,"prompt_ms":[\d.]+,.*"predicted_per_second":[\d.]+\})")),
        decoded.payloads[3].constData());

    const Decoded named =
        decode(llamaCppReasoning(QStringLiteral("r"), QStringLiteral("a"), ReasoningField::Reasoning).body());
    QVERIFY(named.payloads[1].contains(R"("delta":{"reasoning":"r"})"));
}

void TestFakeLlmServer::wireOptions()
{
    const QByteArray plain = openAiText(QStringLiteral("x"), 1, {.split = SplitMode::whole()}).body();
    const QRegularExpression events(QString::fromUtf8(R"(^(data: [^\n]+\n\n)+$)"));
    QVERIFY(events.match(QString::fromUtf8(plain)).hasMatch());
    QVERIFY(plain.endsWith("data: [DONE]\n\n"));

    const QByteArray dressed =
        openAiText(QStringLiteral("x"), 1, {.crlf = true, .keepAliveComments = true, .eventLines = true}).body();
    QVERIFY(dressed.startsWith(": OPENROUTER PROCESSING\r\n\r\nevent: message\r\ndata: {"));
    QVERIFY(dressed.contains("\r\n\r\n: ping\r\n\r\nevent: message\r\ndata: "));
    QVERIFY(dressed.endsWith("event: message\r\ndata: [DONE]\r\n\r\n"));
    QVERIFY(!dressed.contains(QByteArrayView("\n\n")));
    const Decoded decoded = decode(dressed);
    QCOMPARE(decoded.content, QStringLiteral("x"));
    QVERIFY(decoded.done);

    QVERIFY(!openAiText(QStringLiteral("x"), 1, {.done = false}).body().contains("[DONE]"));

    QCOMPARE(fromPayloads({R"({"custom":true})"}, {.crlf = true}).body(),
             QByteArray("data: {\"custom\":true}\r\n\r\ndata: [DONE]\r\n\r\n"));

    const FakeResponse cut = cutStream(QStringLiteral("part"));
    QVERIFY(cut.cutAfterChunks);
    QVERIFY(!cut.body().contains("[DONE]"));
    QVERIFY(!cut.body().contains("finish_reason\":\""));

    const FakeResponse slow = slowText(QStringLiteral("abc"), 3, 25ms);
    QCOMPARE(slow.chunkDelay, 25ms);
    QCOMPARE(slow.chunks.size(), 7); // role, 3 pieces, finish, usage, [DONE]
}

void TestFakeLlmServer::splitModes_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("bytes");
    QTest::addColumn<bool>("crlf");

    for (int bytes : {1, 2, 7, 13})
        QTest::addRow("every %d", bytes) << int(SplitMode::Kind::EveryNBytes) << bytes << false;
    for (quint32 seed : {1u, 2u, 99u})
        QTest::addRow("random %u crlf", seed) << int(SplitMode::Kind::Random) << int(seed) << true;
}

void TestFakeLlmServer::splitModes()
{
    QFETCH(int, kind);
    QFETCH(int, bytes);
    QFETCH(bool, crlf);

    const StreamOptions options{.crlf = crlf};
    const QByteArray stream = openAiText(tricky, 3, options).body();
    const SplitMode mode =
        kind == int(SplitMode::Kind::Random) ? SplitMode::random(quint32(bytes), 12) : SplitMode::everyNBytes(bytes);
    const QList<QByteArray> pieces = split(stream, mode);
    QCOMPARE(pieces.join(), stream);
    for (const QByteArray &piece : pieces)
        QVERIFY(!piece.isEmpty());

    if (mode.kind == SplitMode::Kind::EveryNBytes) {
        for (qsizetype i = 0; i + 1 < pieces.size(); ++i)
            QCOMPARE(pieces[i].size(), bytes);
        return;
    }

    // The same seed cuts the same way, and the awkward cuts are all there.
    QCOMPARE(split(stream, mode), pieces);
    QSet<qsizetype> cuts;
    qsizetype offset = 0;
    for (const QByteArray &piece : pieces)
        cuts.insert(offset += piece.size());
    qsizetype multiByteCharacters = 0;
    for (qsizetype i = 0; i + 1 < stream.size(); ++i) {
        if (quint8(stream[i]) >= 0xc0) {
            ++multiByteCharacters;
            QVERIFY2(cuts.contains(i + 1), qPrintable(QStringLiteral("no cut inside the character at %1").arg(i)));
        }
        if (stream[i] == '\r')
            QVERIFY2(cuts.contains(i + 1), qPrintable(QStringLiteral("no cut inside the CRLF at %1").arg(i)));
    }
    QVERIFY(multiByteCharacters >= 8);
}

void TestFakeLlmServer::errorAndNonStreamingBodies()
{
    const FakeResponse limited = httpError(429, QStringLiteral("Rate limit reached for gpt-4o-mini"), 2);
    QCOMPARE(limited.status, 429);
    QVERIFY(!limited.chunked);
    QVERIFY(limited.headers.contains(std::pair<QByteArray, QByteArray>("retry-after", "2")));
    QVERIFY(limited.headers.contains(std::pair<QByteArray, QByteArray>("content-type", "application/json")));
    QCOMPARE(limited.body(), QByteArray("{\n"
                                        "    \"error\": {\n"
                                        "        \"message\": \"Rate limit reached for gpt-4o-mini\",\n"
                                        "        \"type\": \"requests\",\n"
                                        "        \"param\": null,\n"
                                        "        \"code\": \"rate_limit_exceeded\"\n"
                                        "    }\n"
                                        "}\n"));

    const QJsonObject plain = QJsonDocument::fromJson(nonStreaming(tricky).body()).object();
    QCOMPARE(plain[QLatin1String("object")].toString(), QStringLiteral("chat.completion"));
    QCOMPARE(plain[QLatin1String("choices")][0][QLatin1String("message")][QLatin1String("content")].toString(), tricky);
    QCOMPARE(plain[QLatin1String("choices")][0][QLatin1String("finish_reason")].toString(), QStringLiteral("stop"));

    const QJsonObject withCalls = QJsonDocument::fromJson(nonStreaming(QString(), twoCalls).body()).object();
    const QJsonObject message = withCalls[QLatin1String("choices")][0][QLatin1String("message")].toObject();
    QVERIFY(message[QLatin1String("content")].isNull());
    const QJsonArray calls = message[QLatin1String("tool_calls")].toArray();
    QCOMPARE(calls.size(), 2);
    QCOMPARE(calls[1][QLatin1String("id")].toString(), twoCalls[1].id);
    QCOMPARE(calls[1][QLatin1String("function")][QLatin1String("arguments")].toString(), twoCalls[1].arguments);
    QCOMPARE(withCalls[QLatin1String("choices")][0][QLatin1String("finish_reason")].toString(),
             QStringLiteral("tool_calls"));
    QCOMPARE(withCalls[QLatin1String("usage")][QLatin1String("total_tokens")].toInt(),
             withCalls[QLatin1String("usage")][QLatin1String("prompt_tokens")].toInt() +
                 withCalls[QLatin1String("usage")][QLatin1String("completion_tokens")].toInt());
}

void TestFakeLlmServer::servedStreamsArriveIntact_data()
{
    streamsDecode_data();
}

void TestFakeLlmServer::servedStreamsArriveIntact()
{
    QFETCH(FakeResponse, response);
    QFETCH(QString, content);

    FakeLlmServer server;
    QVERIFY(server.listen());
    server.enqueue(response);
    QNetworkAccessManager network;
    const Exchange exchange = chat(network, server);

    QCOMPARE(exchange.status, 200);
    QCOMPARE(exchange.body(), response.body());
    QCOMPARE(decode(exchange.body()).content, content);
    if (!response.cutAfterChunks)
        QCOMPARE(exchange.error, QNetworkReply::NoError);
}

void TestFakeLlmServer::streamingArrivesInPieces()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    const FakeResponse response = slowText(tricky, 6, 20ms, {.split = SplitMode::everyNBytes(97)});
    QVERIFY(response.chunks.size() >= 10);
    server.enqueue(response);

    QNetworkAccessManager network;
    const Exchange exchange = chat(network, server);
    QCOMPARE(exchange.error, QNetworkReply::NoError);
    QCOMPARE(exchange.status, 200);
    QVERIFY2(exchange.pieces.size() >= response.chunks.size() / 2, qPrintable(QString::number(exchange.pieces.size())));
    QCOMPARE(exchange.body(), response.body());
    QCOMPARE(exchange.headers.value("content-type"), QByteArray("text/event-stream; charset=utf-8"));
    QCOMPARE(exchange.headers.value("cache-control"), QByteArray("no-cache"));
    QVERIFY(exchange.headers.value("x-request-id").startsWith("req_"));
    QCOMPARE(exchange.headers.value("openai-processing-ms"), QByteArray("187"));
}

void TestFakeLlmServer::keepAliveServesSequentialRequests()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.enqueue(openAiText(QStringLiteral("one")));
    server.enqueue(ollamaText(QStringLiteral("two")));
    QNetworkAccessManager network;

    const Exchange first = chat(network, server);
    const Exchange second = chat(network, server);
    QCOMPARE(first.error, QNetworkReply::NoError);
    QCOMPARE(second.error, QNetworkReply::NoError);
    QCOMPARE(decode(first.body()).content, QStringLiteral("one"));
    QCOMPARE(decode(second.body()).content, QStringLiteral("two"));
    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(server.requests()[0].connection, server.requests()[1].connection);
}

void TestFakeLlmServer::recordsRequests()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    QSignalSpy received(&server, &FakeLlmServer::requestReceived);
    // The answer may be chosen when the request is seen.
    connect(&server, &FakeLlmServer::requestReceived, this, [&server](int index) {
        const QString prompt =
            server.requests()[index].json()[QLatin1String("messages")][0][QLatin1String("content")].toString();
        server.enqueue(openAiText(QStringLiteral("echo: ") + prompt));
    });
    QNetworkAccessManager network;

    QNetworkRequest chatRequest = request(server, QStringLiteral("/chat/completions"), "sk-recorded");
    chatRequest.setRawHeader("X-Custom-Header", "First");
    const Exchange exchange = collect(network.post(chatRequest, chatBody(tricky)));
    QCOMPARE(exchange.error, QNetworkReply::NoError);
    QCOMPARE(decode(exchange.body()).content, QStringLiteral("echo: ") + tricky);

    QCOMPARE(received.size(), 1);
    QCOMPARE(received[0][0].toInt(), 0);
    const RecordedRequest recorded = server.requests().constFirst();
    QCOMPARE(recorded.method, QByteArray("POST"));
    QCOMPARE(recorded.path, QByteArray("/v1/chat/completions"));
    QCOMPARE(recorded.headers.value("authorization"), QByteArray("Bearer sk-recorded"));
    QCOMPARE(recorded.headers.value("content-type"), QByteArray("application/json"));
    QCOMPARE(recorded.headers.value("x-custom-header"), QByteArray("First"));
    QCOMPARE(recorded.headers.value("content-length"), QByteArray::number(recorded.body.size()));
    QCOMPARE(recorded.body, chatBody(tricky));
    const QJsonObject json = recorded.json();
    QCOMPARE(json[QLatin1String("stream")].toBool(), true);
    QCOMPARE(json[QLatin1String("stream_options")][QLatin1String("include_usage")].toBool(), true);
}

void TestFakeLlmServer::requiredApiKey()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setRequiredApiKey(QStringLiteral("sk-right-key"));
    server.enqueue(openAiText(QStringLiteral("welcome")));
    QNetworkAccessManager network;

    const Exchange wrong = chat(network, server, "sk-wrong");
    QCOMPARE(wrong.status, 401);
    QCOMPARE(wrong.error, QNetworkReply::AuthenticationRequiredError);
    const QJsonObject error = wrong.json()[QLatin1String("error")].toObject();
    QCOMPARE(error[QLatin1String("message")].toString(),
             QStringLiteral("Incorrect API key provided: sk-wr***ng. You can find your API key at "
                            "https://platform.openai.com/account/api-keys."));
    QCOMPARE(error[QLatin1String("type")].toString(), QStringLiteral("invalid_request_error"));
    QVERIFY(error.contains(QLatin1String("param")) && error[QLatin1String("param")].isNull());
    QCOMPARE(error[QLatin1String("code")].toString(), QStringLiteral("invalid_api_key"));

    const Exchange missing = chat(network, server, QByteArray());
    QCOMPARE(missing.status, 401);
    QVERIFY(missing.json()[QLatin1String("error")][QLatin1String("message")].toString().startsWith(
        QStringLiteral("You didn't provide an API key.")));

    // Refused requests are recorded but leave the queue alone.
    QCOMPARE(server.queuedResponses(), 1);
    const Exchange right = chat(network, server, "sk-right-key");
    QCOMPARE(right.status, 200);
    QCOMPARE(decode(right.body()).content, QStringLiteral("welcome"));
    QCOMPARE(server.requests().size(), 3);
}

void TestFakeLlmServer::rateLimitWithRetryAfter()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.enqueue(httpError(429, QStringLiteral("Rate limit reached"), 1));
    server.enqueue(openAiText(QStringLiteral("after the wait")));
    QNetworkAccessManager network;

    const Exchange limited = chat(network, server);
    QCOMPARE(limited.status, 429);
    QVERIFY(limited.error != QNetworkReply::NoError);
    QCOMPARE(limited.headers.value("retry-after"), QByteArray("1"));
    QCOMPARE(limited.headers.value("content-type"), QByteArray("application/json"));
    QCOMPARE(limited.headers.value("content-length"), QByteArray::number(limited.body().size()));
    QCOMPARE(limited.json()[QLatin1String("error")][QLatin1String("message")].toString(),
             QStringLiteral("Rate limit reached"));
    QCOMPARE(limited.json()[QLatin1String("error")][QLatin1String("code")].toString(),
             QStringLiteral("rate_limit_exceeded"));

    const Exchange retried = chat(network, server);
    QCOMPARE(retried.status, 200);
    QCOMPARE(decode(retried.body()).content, QStringLiteral("after the wait"));
}

void TestFakeLlmServer::listsModels()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    QNetworkAccessManager network;

    const Exchange defaults = collect(network.get(request(server, QStringLiteral("/models"))));
    QCOMPARE(defaults.json()[QLatin1String("data")][0][QLatin1String("id")].toString(), QStringLiteral("gpt-4o-mini"));

    server.setModels({QStringLiteral("qwen2.5:7b"), QStringLiteral("llama3.2:3b")});
    const Exchange models = collect(network.get(request(server, QStringLiteral("/models"))));
    QCOMPARE(models.status, 200);
    QCOMPARE(models.headers.value("content-type"), QByteArray("application/json"));
    const QJsonObject json = models.json();
    QCOMPARE(json[QLatin1String("object")].toString(), QStringLiteral("list"));
    const QJsonArray data = json[QLatin1String("data")].toArray();
    QCOMPARE(data.size(), 2);
    QCOMPARE(data[1][QLatin1String("id")].toString(), QStringLiteral("llama3.2:3b"));
    QCOMPARE(data[1][QLatin1String("object")].toString(), QStringLiteral("model"));
    QVERIFY(data[1][QLatin1String("created")].toInteger() > 0);
    QVERIFY(!data[1][QLatin1String("owned_by")].toString().isEmpty());
}

void TestFakeLlmServer::emptyQueueAnswers500()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    QSignalSpy outOfResponses(&server, &FakeLlmServer::outOfResponses);
    QNetworkAccessManager network;

    const Exchange exchange = chat(network, server);
    QCOMPARE(exchange.status, 500);
    QCOMPARE(exchange.error, QNetworkReply::InternalServerError);
    const QJsonObject error = exchange.json()[QLatin1String("error")].toObject();
    QCOMPARE(error[QLatin1String("message")].toString(), QStringLiteral("fake server: no scripted response left"));
    QCOMPARE(error[QLatin1String("type")].toString(), QStringLiteral("server_error"));
    QTRY_COMPARE(outOfResponses.size(), 1);
    QCOMPARE(outOfResponses[0][0].toInt(), 0);
}

void TestFakeLlmServer::unknownRoutesAnswer404()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.enqueue(openAiText(QStringLiteral("kept")));
    QNetworkAccessManager network;

    const Exchange legacy = collect(network.post(request(server, QStringLiteral("/completions")), chatBody()));
    QCOMPARE(legacy.status, 404);
    QCOMPARE(legacy.json()[QLatin1String("error")][QLatin1String("message")].toString(),
             QStringLiteral("Invalid URL (POST /v1/completions)"));
    QCOMPARE(legacy.json()[QLatin1String("error")][QLatin1String("type")].toString(),
             QStringLiteral("invalid_request_error"));

    const Exchange wrongMethod = collect(network.get(request(server, QStringLiteral("/chat/completions"))));
    QCOMPARE(wrongMethod.status, 404);
    QCOMPARE(server.queuedResponses(), 1);
    QCOMPARE(server.requests().size(), 2);
}

void TestFakeLlmServer::delayBeforeHeaders()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    FakeResponse response = openAiText(QStringLiteral("late"));
    response.delayBeforeHeaders = 300ms;
    server.enqueue(response);
    QNetworkAccessManager network;

    QElapsedTimer sinceRequest;
    connect(&server, &FakeLlmServer::requestReceived, this, [&sinceRequest] { sinceRequest.start(); });
    QNetworkReply *reply = network.post(request(server, QStringLiteral("/chat/completions")), chatBody());
    qint64 headersAfter = -1;
    connect(reply, &QNetworkReply::metaDataChanged, reply, [reply, &sinceRequest, &headersAfter] {
        if (headersAfter < 0 && reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid())
            headersAfter = sinceRequest.elapsed();
    });
    QCOMPARE(decode(collect(reply).body()).content, QStringLiteral("late"));
    QVERIFY2(headersAfter >= 295, qPrintable(QString::number(headersAfter)));
}

void TestFakeLlmServer::cutStreamEndsThePartialReply()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    const FakeResponse response = cutStream(QStringLiteral("Half of the answ"));
    server.enqueue(response);
    QNetworkAccessManager network;

    const Exchange cut = chat(network, server);
    QVERIFY(cut.finished);
    QCOMPARE(cut.status, 200);
    // QNetworkAccessManager reports the close as an error only when it notices it while data
    // is pending; otherwise it takes the close for the end of the body, chunked or not
    // (QAbstractProtocolHandler::_q_receiveReply, Qt 6.8). A client must tell a cut stream by
    // its missing finish_reason and [DONE]; cutStreamOnTheWire() shows what the server sends.
    QVERIFY2(cut.error == QNetworkReply::RemoteHostClosedError || cut.error == QNetworkReply::NoError,
             qPrintable(QString::number(cut.error)));
    QCOMPARE(cut.body(), response.body());
    const Decoded decoded = decode(cut.body());
    QCOMPARE(decoded.content, QStringLiteral("Half of the answ"));
    QVERIFY(!decoded.done);
    QVERIFY(decoded.finishReason.isEmpty());

    // The server goes on serving, on a new connection.
    server.enqueue(openAiText(QStringLiteral("next")));
    const Exchange next = chat(network, server);
    QCOMPARE(next.error, QNetworkReply::NoError);
    QCOMPARE(decode(next.body()).content, QStringLiteral("next"));
    QVERIFY(server.requests().constLast().connection != server.requests().constFirst().connection);
}

void TestFakeLlmServer::stalledStreamKeepsTheConnectionOpen()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    QSignalSpy aborted(&server, &FakeLlmServer::responseAbortedByClient);
    FakeResponse response = cutStream(QStringLiteral("and then"));
    response.cutAfterChunks = false;
    response.stallAfterChunks = true;
    server.enqueue(response);
    QNetworkAccessManager network;

    QNetworkReply *reply = network.post(request(server, QStringLiteral("/chat/completions")), chatBody());
    QByteArray received;
    connect(reply, &QNetworkReply::readyRead, reply, [reply, &received] { received += reply->readAll(); });
    QTRY_COMPARE_WITH_TIMEOUT(received, response.body(), 5000);
    QTest::qWait(300);
    QVERIFY(!reply->isFinished());
    QCOMPARE(aborted.size(), 0);

    reply->abort();
    QTRY_COMPARE_WITH_TIMEOUT(aborted.size(), 1, 2000);
    QCOMPARE(aborted[0][0].toInt(), 0);
    reply->deleteLater();
}

void TestFakeLlmServer::clientAbortIsNoticedAtOnce()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    QSignalSpy aborted(&server, &FakeLlmServer::responseAbortedByClient);
    QSignalSpy closed(&server, &FakeLlmServer::connectionClosedByClient);
    server.enqueue(slowText(tricky, 40, 50ms));
    server.enqueue(openAiText(QStringLiteral("still alive")));
    QNetworkAccessManager network;

    QNetworkReply *reply = network.post(request(server, QStringLiteral("/chat/completions")), chatBody());
    QSignalSpy readyRead(reply, &QNetworkReply::readyRead);
    QVERIFY(readyRead.wait(5000));
    QElapsedTimer timer;
    timer.start();
    reply->abort();
    QVERIFY(aborted.size() == 1 || aborted.wait(2000));
    QVERIFY2(timer.elapsed() < 500, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(aborted[0][0].toInt(), 0);
    QCOMPARE(closed.size(), 1);
    reply->deleteLater();

    const Exchange next = chat(network, server);
    QCOMPARE(decode(next.body()).content, QStringLiteral("still alive"));
}

void TestFakeLlmServer::requestInTinyPieces()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.enqueue(openAiText(QStringLiteral("ok"), 1, {.split = SplitMode::whole()}));
    RawClient client;
    QVERIFY(client.connectTo(server));

    const QByteArray body = chatBody(tricky);
    client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\ncOnTeNt-TyPe: application/json\r\n"
                "Content-Length: " +
                    QByteArray::number(body.size()) + "\r\n\r\n" + body,
                3);
    QTRY_VERIFY_WITH_TIMEOUT(client.received.endsWith("0\r\n\r\n"), 5000);
    QVERIFY(client.received.startsWith("HTTP/1.1 200 OK\r\n"));
    QVERIFY(client.received.contains("\r\nTransfer-Encoding: chunked\r\n"));
    QVERIFY(client.received.contains("\r\nConnection: keep-alive\r\n"));
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(server.requests()[0].body, body);
    QCOMPARE(server.requests()[0].headers.value("content-type"), QByteArray("application/json"));
}

void TestFakeLlmServer::chunkedRequestBody()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.enqueue(openAiText(QStringLiteral("ok")));
    RawClient client;
    QVERIFY(client.connectTo(server));

    const QByteArray body = chatBody();
    const QByteArray first = body.first(10);
    const QByteArray second = body.sliced(10);
    client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
                    QByteArray::number(first.size(), 16) + ";name=value\r\n" + first + "\r\n" +
                    QByteArray::number(second.size(), 16).toUpper() + "\r\n" + second +
                    "\r\n0\r\nX-Trailer: yes\r\n\r\n",
                5);
    QTRY_VERIFY_WITH_TIMEOUT(client.received.endsWith("0\r\n\r\n"), 5000);
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(server.requests()[0].body, body);
    QCOMPARE(server.requests()[0].json()[QLatin1String("stream")].toBool(), true);
}

void TestFakeLlmServer::pipelinedRequests()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.enqueue(openAiText(QStringLiteral("first"), 1, {.split = SplitMode::whole()}));
    server.enqueue(httpError(503, QStringLiteral("second")));
    RawClient client;
    QVERIFY(client.connectTo(server));

    const QByteArray body = chatBody();
    const QByteArray one =
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + QByteArray::number(body.size()) +
        "\r\n\r\n" + body;
    const QByteArray models = "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n";
    const QByteArray last = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                            "Content-Length: " +
                            QByteArray::number(body.size()) + "\r\n\r\n" + body;
    client.send(one + models + last, one.size() + models.size() + last.size());
    QTRY_COMPARE_WITH_TIMEOUT(client.socket.state(), QAbstractSocket::UnconnectedState, 5000);

    QCOMPARE(server.requests().size(), 3);
    QCOMPARE(server.requests()[1].path, QByteArray("/v1/models"));
    const qsizetype ok = client.received.indexOf("HTTP/1.1 200 OK\r\n");
    const qsizetype list = client.received.indexOf("HTTP/1.1 200 OK\r\n", ok + 1);
    const qsizetype unavailable = client.received.indexOf("HTTP/1.1 503 Service Unavailable\r\n");
    QVERIFY(ok == 0 && list > ok && unavailable > list);
    QVERIFY(client.received.indexOf("\"content\":\"first\"") < list);
    QVERIFY(client.received.sliced(unavailable).contains("\r\nConnection: close\r\n"));
    QVERIFY(client.received.endsWith("}\n"));
}

void TestFakeLlmServer::expectContinue()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.enqueue(openAiText(QStringLiteral("ok")));
    RawClient client;
    QVERIFY(client.connectTo(server));

    const QByteArray body = chatBody();
    client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: " +
                    QByteArray::number(body.size()) + "\r\n\r\n",
                1024);
    QTRY_COMPARE_WITH_TIMEOUT(client.received, QByteArray("HTTP/1.1 100 Continue\r\n\r\n"), 5000);
    client.send(body, 1024);
    QTRY_VERIFY_WITH_TIMEOUT(client.received.endsWith("0\r\n\r\n"), 5000);
    QCOMPARE(server.requests()[0].body, body);
}

void TestFakeLlmServer::cutStreamOnTheWire()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    const FakeResponse response = cutStream(QStringLiteral("cut"), {.split = SplitMode::whole()});
    server.enqueue(response);
    RawClient client;
    QVERIFY(client.connectTo(server));

    const QByteArray body = chatBody();
    client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + QByteArray::number(body.size()) +
                    "\r\n\r\n" + body,
                body.size() + 100);
    QTRY_COMPARE_WITH_TIMEOUT(client.socket.state(), QAbstractSocket::UnconnectedState, 5000);
    const QByteArray chunk = QByteArray::number(response.body().size(), 16) + "\r\n" + response.body() + "\r\n";
    QVERIFY(client.received.contains("\r\nTransfer-Encoding: chunked\r\n"));
    QVERIFY(client.received.endsWith(QByteArray("\r\n\r\n" + chunk)));
}

void TestFakeLlmServer::malformedRequestAnswers400()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    RawClient client;
    QVERIFY(client.connectTo(server));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^malformed request")));
    client.send("HELLO\r\n\r\n", 64);
    QTRY_COMPARE_WITH_TIMEOUT(client.socket.state(), QAbstractSocket::UnconnectedState, 5000);
    QVERIFY(client.received.startsWith("HTTP/1.1 400 Bad Request\r\n"));
    QVERIFY(client.received.contains("malformed HTTP request"));
    QCOMPARE(server.requests().size(), 0);
}

void TestFakeLlmServer::executableServesScript()
{
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString script = directory.filePath(QStringLiteral("script.json"));
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"([
        {"tool_calls": [{"name": "execute_python_code", "arguments": {"code": "2 + 2"}}], "split": "every:7"},
        {"text": "2 + 2 = 4 ✓", "reasoning": "simple", "shape": "llamacpp", "pieces": 3, "delay_ms": 5},
        {"tool_calls": [{"id": "call_raw", "name": "search_web", "arguments": "{not json"}], "shape": "ollama"},
        {"status": 429, "retry_after": 1, "message": "Slow down"}
    ])");
    file.close();

    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(QStringLiteral(FAKE_LLM_SERVER_EXECUTABLE), {script});
    QVERIFY(process.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine(), 10000);
    const QString line = QString::fromUtf8(process.readLine());
    const QRegularExpressionMatch match =
        QRegularExpression(QString::fromUtf8(R"(^listening on (http://127\.0\.0\.1:\d+/v1)\n$)")).match(line);
    QVERIFY2(match.hasMatch(), qPrintable(line));
    const QUrl base(match.captured(1));

    QNetworkAccessManager network;
    const auto post = [&network, &base] {
        QNetworkRequest request(QUrl(base.toString() + QStringLiteral("/chat/completions")));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        return collect(network.post(request, chatBody()));
    };

    const Decoded call = decode(post().body());
    QCOMPARE(call.calls, QStringList{QString::fromUtf8(R"(execute_python_code({"code":"2 + 2"}))")});
    QCOMPARE(call.finishReason, QStringLiteral("tool_calls"));
    const Decoded text = decode(post().body());
    QCOMPARE(text.content, QStringLiteral("2 + 2 = 4 ✓"));
    QCOMPARE(text.reasoning, QStringLiteral("simple"));
    const Decoded raw = decode(post().body());
    QCOMPARE(raw.calls, QStringList{QStringLiteral("search_web({not json)")});
    QCOMPARE(raw.callIds, QStringList{QStringLiteral("call_raw")});
    QCOMPARE(raw.finishReason, QStringLiteral("stop"));
    const Exchange limited = post();
    QCOMPARE(limited.status, 429);
    QCOMPARE(limited.headers.value("retry-after"), QByteArray("1"));
    const Exchange exhausted = post();
    QCOMPARE(exhausted.status, 500);

    // waitForFinished() fails on a process that the event loop has already seen end.
    QVERIFY(process.state() == QProcess::NotRunning || process.waitForFinished(5000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
    QVERIFY(process.readAllStandardOutput().isEmpty());
}

void TestFakeLlmServer::executableStopsOnSigterm()
{
    QTemporaryDir directory;
    const QString script = directory.filePath(QStringLiteral("script.json"));
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"([{"text": "never asked for"}])");
    file.close();

    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(QStringLiteral(FAKE_LLM_SERVER_EXECUTABLE), {QStringLiteral("--port"), QStringLiteral("0"), script});
    QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine(), 10000);
    QVERIFY(process.readLine().startsWith("listening on http://127.0.0.1:"));
    process.terminate();
    QVERIFY(process.waitForFinished(5000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
}

void TestFakeLlmServer::executableRejectsBadScript()
{
    QTemporaryDir directory;
    const QString script = directory.filePath(QStringLiteral("script.json"));
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"([{"text": "fine"}, {"shape": "openai"}])");
    file.close();

    QProcess process;
    process.start(QStringLiteral(FAKE_LLM_SERVER_EXECUTABLE), {script});
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardOutput().isEmpty());
    QVERIFY(process.readAllStandardError().contains("step 1:"));
}

QTEST_GUILESS_MAIN(TestFakeLlmServer)
#include "tst_fakellmserver.moc"
