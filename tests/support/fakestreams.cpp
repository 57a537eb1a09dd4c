#include "fakestreams.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>

#include <algorithm>

namespace Sandpiper::Test::FakeStreams {

namespace {

// JSON is written by hand, already serialised: QJsonObject sorts its keys, and the stand-in
// should put on the wire what the real servers put there, in their order.
using Json = QByteArray;
using Fields = QList<std::pair<QByteArray, Json>>;

const Json null = "null";

Json string(const QString &text)
{
    const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
    return array.sliced(1, array.size() - 2);
}

// Go's encoding/json (Ollama) escapes what could end an HTML script block.
Json goString(const QString &text)
{
    return string(text)
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace("\xe2\x80\xa8", "\\u2028")
        .replace("\xe2\x80\xa9", "\\u2029");
}

Json number(qint64 value)
{
    return QByteArray::number(value);
}

Json real(double value)
{
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return array.sliced(1, array.size() - 2);
}

Json object(const Fields &fields)
{
    QByteArray json = "{";
    for (const auto &[name, value] : fields) {
        if (json.size() > 1)
            json += ',';
        json += '"' + name + "\":" + value;
    }
    return json + '}';
}

Json array(const QList<Json> &items)
{
    return '[' + items.join(',') + ']';
}

// Pretty-prints compact JSON the way Python's json.dumps(indent=WIDTH) does, which is how
// OpenAI's non-streamed bodies look.
Json indented(const Json &compact, int width)
{
    QByteArray out;
    int depth = 0;
    bool inString = false;
    const auto newline = [&out, &depth, width] {
        out += '\n' + QByteArray(depth * width, ' ');
    };
    for (qsizetype i = 0; i < compact.size(); ++i) {
        const char c = compact.at(i);
        if (inString) {
            out += c;
            if (c == '\\')
                out += compact.at(++i);
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            out += c;
            inString = true;
            break;
        case '{':
        case '[':
            out += c;
            if (i + 1 < compact.size() && (compact.at(i + 1) == '}' || compact.at(i + 1) == ']')) {
                out += compact.at(++i);
            } else {
                ++depth;
                newline();
            }
            break;
        case '}':
        case ']':
            --depth;
            newline();
            out += c;
            break;
        case ',':
            out += c;
            newline();
            break;
        case ':':
            out += ": ";
            break;
        default:
            out += c;
            break;
        }
    }
    return out;
}

// One generator with a fixed seed: a failing test gets the same ids when it runs again.
QRandomGenerator &generator()
{
    static QRandomGenerator instance(0x5a4d91e7);
    return instance;
}

QByteArray randomToken(int length, QByteArrayView alphabet)
{
    QByteArray token(length, Qt::Uninitialized);
    for (char &c : token)
        c = alphabet.at(generator().bounded(int(alphabet.size())));
    return token;
}

constexpr QByteArrayView alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
constexpr QByteArrayView lowerAlphanumeric = "abcdefghijklmnopqrstuvwxyz0123456789";
constexpr QByteArrayView hexDigits = "0123456789abcdef";

const QByteArray openAiModel = "gpt-4o-mini-2024-07-18";
const QByteArray openAiFingerprint = "fp_7f6be3efb0";

using Headers = QList<std::pair<QByteArray, QByteArray>>;

Headers openAiHeaders(const QByteArray &contentType)
{
    return {
        {"content-type", contentType},
        {"cache-control", "no-cache"},
        {"access-control-expose-headers", "X-Request-ID"},
        {"openai-organization", "user-sandpiper-tests"},
        {"openai-processing-ms", "187"},
        {"openai-version", "2020-10-01"},
        {"x-request-id", "req_" + randomToken(32, hexDigits)},
    };
}

Headers sseHeaders(Shape shape)
{
    switch (shape) {
    case Shape::OpenAi:
        return openAiHeaders("text/event-stream; charset=utf-8");
    case Shape::Ollama:
        return {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}};
    case Shape::LlamaCpp:
        return {{"Server", "llama.cpp"},
                {"Access-Control-Allow-Origin", ""},
                {"Content-Type", "text/event-stream"},
                {"Cache-Control", "no-cache"},
                {"Keep-Alive", "timeout=5, max=100"}};
    }
    Q_UNREACHABLE();
}

// Cuts TEXT into at most PIECES non-empty parts of about equal length, never between the
// halves of a surrogate pair (a delta is always valid UTF-8).
QStringList piecesOf(const QString &text, int pieces)
{
    QStringList result;
    if (text.isEmpty())
        return result;
    const qsizetype count = std::clamp<qsizetype>(pieces, 1, text.size());
    qsizetype start = 0;
    for (qsizetype i = 1; i <= count; ++i) {
        qsizetype end = text.size() * i / count;
        if (end < text.size() && end > 0 && text.at(end).isLowSurrogate())
            ++end;
        if (end > start) {
            result.append(text.sliced(start, end - start));
            start = end;
        }
    }
    return result;
}

// The parts of a response that stay the same in all its chunks.
struct Envelope {
    Shape shape;
    Json id;
    Json created;
    Json model;
    Json fingerprint;

    Json text(const QString &value) const { return shape == Shape::Ollama ? goString(value) : string(value); }

    Json chunk(const Fields &delta, const Json &finishReason, const Fields &tail = {}) const
    {
        const Json chunkObject = string(QStringLiteral("chat.completion.chunk"));
        switch (shape) {
        case Shape::OpenAi:
            return object({{"id", id},
                           {"object", chunkObject},
                           {"created", created},
                           {"model", model},
                           {"service_tier", string(QStringLiteral("default"))},
                           {"system_fingerprint", fingerprint},
                           {"choices", array({object({{"index", "0"},
                                                      {"delta", object(delta)},
                                                      {"logprobs", null},
                                                      {"finish_reason", finishReason}})})},
                           {"usage", null}});
        case Shape::Ollama:
            return object(
                {{"id", id},
                 {"object", chunkObject},
                 {"created", created},
                 {"model", model},
                 {"system_fingerprint", fingerprint},
                 {"choices",
                  array({object({{"index", "0"}, {"delta", object(delta)}, {"finish_reason", finishReason}})})}});
        case Shape::LlamaCpp:
            return object(
                Fields{{"choices",
                        array({object({{"finish_reason", finishReason}, {"index", "0"}, {"delta", object(delta)}})})},
                       {"created", created},
                       {"id", id},
                       {"model", model},
                       {"system_fingerprint", fingerprint},
                       {"object", chunkObject}} +
                tail);
        }
        Q_UNREACHABLE();
    }

    // The chunk that include_usage adds after the last choice (llama.cpp puts the usage in its
    // final chunk instead).
    Json usageChunk(qint64 promptTokens, qint64 completionTokens) const
    {
        const Json chunkObject = string(QStringLiteral("chat.completion.chunk"));
        const Fields counts = {{"prompt_tokens", number(promptTokens)},
                               {"completion_tokens", number(completionTokens)},
                               {"total_tokens", number(promptTokens + completionTokens)}};
        if (shape == Shape::Ollama) {
            return object({{"id", id},
                           {"object", chunkObject},
                           {"created", created},
                           {"model", model},
                           {"system_fingerprint", fingerprint},
                           {"choices", "[]"},
                           {"usage", object(counts)}});
        }
        return object({{"id", id},
                       {"object", chunkObject},
                       {"created", created},
                       {"model", model},
                       {"service_tier", string(QStringLiteral("default"))},
                       {"system_fingerprint", fingerprint},
                       {"choices", "[]"},
                       {"usage", object(counts + openAiUsageDetails())}});
    }

    static Fields openAiUsageDetails()
    {
        return {{"prompt_tokens_details", object({{"cached_tokens", "0"}, {"audio_tokens", "0"}})},
                {"completion_tokens_details", object({{"reasoning_tokens", "0"},
                                                      {"audio_tokens", "0"},
                                                      {"accepted_prediction_tokens", "0"},
                                                      {"rejected_prediction_tokens", "0"}})}};
    }
};

Envelope envelopeFor(Shape shape)
{
    const Json created = number(QDateTime::currentSecsSinceEpoch());
    switch (shape) {
    case Shape::OpenAi:
        return {shape, string(QString::fromLatin1("chatcmpl-" + randomToken(29, alphanumeric))), created,
                string(QString::fromLatin1(openAiModel)), string(QString::fromLatin1(openAiFingerprint))};
    case Shape::Ollama:
        // Ollama numbers its completions with rand.Intn(999).
        return {shape, string(QStringLiteral("chatcmpl-%1").arg(generator().bounded(999))), created,
                string(QStringLiteral("qwen2.5:7b")), string(QStringLiteral("fp_ollama"))};
    case Shape::LlamaCpp:
        return {shape, string(QString::fromLatin1("chatcmpl-" + randomToken(32, alphanumeric))), created,
                string(QStringLiteral("Qwen3-8B-Q4_K_M.gguf")),
                string(QString::fromLatin1("b6095-" + randomToken(8, hexDigits)))};
    }
    Q_UNREACHABLE();
}

QString callId(Shape shape, const ScriptedCall &call)
{
    if (!call.id.isEmpty())
        return call.id;
    switch (shape) {
    case Shape::OpenAi:
        return QString::fromLatin1("call_" + randomToken(24, alphanumeric));
    case Shape::Ollama:
        return QString::fromLatin1("call_" + randomToken(8, lowerAlphanumeric));
    case Shape::LlamaCpp:
        return QString::fromLatin1(randomToken(32, alphanumeric));
    }
    Q_UNREACHABLE();
}

struct TurnEvents {
    QList<Json> payloads;
    Headers headers;
};

// The events of TURN; FINISHED adds the finish_reason and usage chunks, which a stream that
// breaks off never gets to.
TurnEvents turnEvents(Shape shape, const Turn &turn, bool finished)
{
    const Envelope envelope = envelopeFor(shape);
    const bool ollama = shape == Shape::Ollama;
    TurnEvents events{{}, sseHeaders(shape)};
    qint64 completionTokens = 0;

    // Ollama repeats the role and the (possibly empty) content in every delta.
    const auto delta = [&envelope, ollama](Fields fields) {
        if (!ollama)
            return fields;
        const bool hasContent =
            std::any_of(fields.cbegin(), fields.cend(), [](const auto &field) { return field.first == "content"; });
        Fields withRole = {{"role", string(QStringLiteral("assistant"))}};
        if (!hasContent)
            withRole.append({"content", envelope.text(QString())});
        return withRole + fields;
    };

    const bool callsFirst = turn.reasoning.isEmpty() && turn.text.isEmpty() && !turn.calls.isEmpty();
    if (shape == Shape::OpenAi && !callsFirst) {
        events.payloads.append(envelope.chunk(
            {{"role", string(QStringLiteral("assistant"))}, {"content", string(QString())}, {"refusal", null}}, null));
    } else if (shape == Shape::LlamaCpp) {
        events.payloads.append(
            envelope.chunk({{"role", string(QStringLiteral("assistant"))}, {"content", null}}, null));
    }

    const ReasoningField field =
        turn.reasoningField.value_or(ollama ? ReasoningField::Reasoning : ReasoningField::ReasoningContent);
    const QByteArray reasoningKey = field == ReasoningField::Reasoning ? "reasoning" : "reasoning_content";
    for (const QString &piece : piecesOf(turn.reasoning, turn.pieces)) {
        events.payloads.append(envelope.chunk(delta({{reasoningKey, envelope.text(piece)}}), null));
        ++completionTokens;
    }
    QStringList textPieces;
    qsizetype cutFrom = 0;
    for (const qsizetype cut : turn.textCuts) {
        textPieces << turn.text.sliced(cutFrom, cut - cutFrom);
        cutFrom = cut;
    }
    if (!turn.textCuts.isEmpty())
        textPieces << turn.text.sliced(cutFrom);
    textPieces.removeAll(QString());
    for (const QString &piece : turn.textCuts.isEmpty() ? piecesOf(turn.text, turn.pieces) : textPieces) {
        events.payloads.append(envelope.chunk(delta({{"content", envelope.text(piece)}}), null));
        ++completionTokens;
    }

    if (ollama && !turn.calls.isEmpty()) {
        QList<Json> calls;
        for (qsizetype i = 0; i < turn.calls.size(); ++i) {
            const ScriptedCall &call = turn.calls.at(i);
            calls.append(object(
                {{"id", string(callId(shape, call))},
                 {"index", number(i)},
                 {"type", string(QStringLiteral("function"))},
                 {"function", object({{"name", goString(call.name)}, {"arguments", goString(call.arguments)}})}}));
        }
        events.payloads.append(envelope.chunk(delta({{"tool_calls", array(calls)}}), null));
        ++completionTokens;
    } else if (!turn.calls.isEmpty()) {
        const bool withIndex = turn.callOrder != CallOrder::WithoutIndex;
        // Each call's own sequence of tool_calls items: the head with id and name, then the
        // argument fragments.
        QList<QList<Json>> perCall;
        for (qsizetype i = 0; i < turn.calls.size(); ++i) {
            const ScriptedCall &call = turn.calls.at(i);
            const Fields index = withIndex ? Fields{{"index", number(i)}} : Fields{};
            QList<Json> items = {object(
                index + Fields{{"id", string(callId(shape, call))},
                               {"type", string(QStringLiteral("function"))},
                               {"function", object({{"name", string(call.name)}, {"arguments", string(QString())}})}})};
            for (const QString &fragment : piecesOf(call.arguments, turn.fragmentsPerCall))
                items.append(object(index + Fields{{"function", object({{"arguments", string(fragment)}})}}));
            perCall.append(items);
        }
        QList<Json> items;
        if (turn.callOrder == CallOrder::Interleaved) {
            qsizetype longest = 0;
            for (const QList<Json> &call : std::as_const(perCall))
                longest = std::max(longest, call.size());
            for (qsizetype step = 0; step < longest; ++step) {
                for (const QList<Json> &call : std::as_const(perCall))
                    if (step < call.size())
                        items.append(call.at(step));
            }
        } else {
            for (const QList<Json> &call : std::as_const(perCall))
                items += call;
        }
        for (qsizetype i = 0; i < items.size(); ++i) {
            Fields fields = {{"tool_calls", array({items.at(i)})}};
            // OpenAI announces the role with the first call when no text came before it.
            if (i == 0 && shape == Shape::OpenAi && callsFirst) {
                fields = Fields{{"role", string(QStringLiteral("assistant"))}, {"content", null}} + fields +
                         Fields{{"refusal", null}};
            }
            events.payloads.append(envelope.chunk(fields, null));
        }
        completionTokens += items.size();
    }

    if (!finished)
        return events;

    // Ollama says "stop" even when it made calls.
    const Json finishReason =
        string(turn.calls.isEmpty() || ollama ? QStringLiteral("stop") : QStringLiteral("tool_calls"));
    const qint64 promptTokens = turn.promptTokens;
    if (shape == Shape::LlamaCpp) {
        const double promptMs = 3.1 * double(promptTokens);
        const double predictedMs = 21.7 * double(completionTokens);
        events.payloads.append(
            envelope.chunk({}, finishReason,
                           {{"usage", object({{"completion_tokens", number(completionTokens)},
                                              {"prompt_tokens", number(promptTokens)},
                                              {"total_tokens", number(promptTokens + completionTokens)}})},
                            {"timings", object({{"prompt_n", number(promptTokens)},
                                                {"prompt_ms", real(promptMs)},
                                                {"prompt_per_token_ms", real(promptMs / double(promptTokens))},
                                                {"prompt_per_second", real(1000.0 * double(promptTokens) / promptMs)},
                                                {"predicted_n", number(completionTokens)},
                                                {"predicted_ms", real(predictedMs)},
                                                {"predicted_per_token_ms", real(21.7)},
                                                {"predicted_per_second", real(1000.0 / 21.7)}})}}));
    } else {
        events.payloads.append(envelope.chunk(delta({}), finishReason));
        events.payloads.append(envelope.usageChunk(promptTokens, completionTokens));
    }
    return events;
}

QByteArray encode(const QList<QByteArray> &payloads, const StreamOptions &options)
{
    const QByteArray newline = options.crlf ? "\r\n" : "\n";
    QByteArray stream;
    if (options.keepAliveComments)
        stream += ": OPENROUTER PROCESSING" + newline + newline;
    QList<QByteArray> all = payloads;
    if (options.done)
        all.append("[DONE]");
    for (qsizetype i = 0; i < all.size(); ++i) {
        if (options.keepAliveComments && i % 3 == 2)
            stream += ": ping" + newline + newline;
        if (options.eventLines)
            stream += "event: message" + newline;
        stream += "data: " + all.at(i) + newline + newline;
    }
    return stream;
}

FakeResponse sseResponse(const QList<QByteArray> &payloads, const StreamOptions &options, Headers headers)
{
    FakeResponse response;
    response.headers = std::move(headers);
    response.chunks = split(encode(payloads, options), options.split);
    response.chunkDelay = options.chunkDelay;
    return response;
}

} // namespace

FakeResponse stream(Shape shape, const Turn &turn, const StreamOptions &options)
{
    TurnEvents events = turnEvents(shape, turn, true);
    return sseResponse(events.payloads, options, std::move(events.headers));
}

FakeResponse openAiText(const QString &text, int pieces, const StreamOptions &options)
{
    return stream(Shape::OpenAi, Turn{.text = text, .pieces = pieces}, options);
}

FakeResponse openAiToolCalls(const QList<ScriptedCall> &calls, int fragmentsPerCall, const StreamOptions &options,
                             CallOrder order, const QString &leadingText)
{
    return stream(Shape::OpenAi,
                  Turn{.text = leadingText, .calls = calls, .fragmentsPerCall = fragmentsPerCall, .callOrder = order},
                  options);
}

FakeResponse missingIndexToolCalls(const QList<ScriptedCall> &calls, int fragmentsPerCall, const StreamOptions &options)
{
    return openAiToolCalls(calls, fragmentsPerCall, options, CallOrder::WithoutIndex);
}

FakeResponse ollamaText(const QString &text, int pieces, const StreamOptions &options)
{
    return stream(Shape::Ollama, Turn{.text = text, .pieces = pieces}, options);
}

FakeResponse ollamaToolCall(const QString &name, const QString &argumentsJson, const StreamOptions &options)
{
    return ollamaToolCalls({ScriptedCall{QString(), name, argumentsJson}}, options);
}

FakeResponse ollamaToolCalls(const QList<ScriptedCall> &calls, const StreamOptions &options)
{
    return stream(Shape::Ollama, Turn{.calls = calls}, options);
}

FakeResponse llamaCppReasoning(const QString &reasoning, const QString &answer, ReasoningField field, int pieces,
                               const StreamOptions &options)
{
    return stream(Shape::LlamaCpp,
                  Turn{.reasoning = reasoning, .reasoningField = field, .text = answer, .pieces = pieces}, options);
}

FakeResponse streamError(const QString &message, const QString &partialText, const StreamOptions &options)
{
    TurnEvents events = turnEvents(Shape::OpenAi, Turn{.text = partialText}, false);
    events.payloads.append(
        object({{"error", object({{"message", string(message)}, {"type", string(QStringLiteral("server_error"))}})}}));
    return sseResponse(events.payloads, options, std::move(events.headers));
}

FakeResponse textThenRaw(const QString &partialText, const QByteArray &tail)
{
    const TurnEvents events = turnEvents(Shape::OpenAi, Turn{.text = partialText}, false);
    FakeResponse response;
    response.headers = events.headers;
    response.chunks = {encode(events.payloads, StreamOptions{.done = false}), tail};
    return response;
}

FakeResponse cutStream(const QString &partialText, const StreamOptions &options)
{
    TurnEvents events = turnEvents(Shape::OpenAi, Turn{.text = partialText}, false);
    StreamOptions withoutDone = options;
    withoutDone.done = false;
    FakeResponse response = sseResponse(events.payloads, withoutDone, std::move(events.headers));
    response.cutAfterChunks = true;
    return response;
}

FakeResponse slowText(const QString &text, int pieces, std::chrono::milliseconds delay, const StreamOptions &options)
{
    StreamOptions slow = options;
    slow.chunkDelay = delay;
    return openAiText(text, pieces, slow);
}

FakeResponse httpError(int status, const QString &message, std::optional<int> retryAfterSeconds, const QString &code)
{
    QString type = QStringLiteral("invalid_request_error");
    QString defaultCode;
    if (status == 401) {
        defaultCode = QStringLiteral("invalid_api_key");
    } else if (status == 429) {
        type = QStringLiteral("requests");
        defaultCode = QStringLiteral("rate_limit_exceeded");
    } else if (status >= 500) {
        type = QStringLiteral("server_error");
    }
    const QString effectiveCode = code.isEmpty() ? defaultCode : code;

    const Json body = object({{"error", object({{"message", string(message)},
                                                {"type", string(type)},
                                                {"param", null},
                                                {"code", effectiveCode.isEmpty() ? null : string(effectiveCode)}})}});

    FakeResponse response;
    response.status = status;
    response.chunked = false;
    response.headers = {{"content-type", "application/json"}, {"x-request-id", "req_" + randomToken(32, hexDigits)}};
    if (retryAfterSeconds)
        response.headers.append({"retry-after", QByteArray::number(*retryAfterSeconds)});
    response.chunks = {indented(body, 4) + '\n'};
    return response;
}

FakeResponse nonStreaming(const QString &content, const QList<ScriptedCall> &calls)
{
    const Envelope envelope = envelopeFor(Shape::OpenAi);
    Fields message = {{"role", string(QStringLiteral("assistant"))},
                      {"content", content.isEmpty() && !calls.isEmpty() ? null : string(content)}};
    if (!calls.isEmpty()) {
        QList<Json> items;
        for (const ScriptedCall &call : calls) {
            items.append(
                object({{"id", string(callId(Shape::OpenAi, call))},
                        {"type", string(QStringLiteral("function"))},
                        {"function", object({{"name", string(call.name)}, {"arguments", string(call.arguments)}})}}));
        }
        message.append({"tool_calls", array(items)});
    }
    message += Fields{{"refusal", null}, {"annotations", "[]"}};

    const qint64 promptTokens = 42;
    const qint64 completionTokens = 7 + content.size() / 4;
    const Json body = object(
        {{"id", envelope.id},
         {"object", string(QStringLiteral("chat.completion"))},
         {"created", envelope.created},
         {"model", envelope.model},
         {"choices", array({object({{"index", "0"},
                                    {"message", object(message)},
                                    {"logprobs", null},
                                    {"finish_reason", string(calls.isEmpty() ? QStringLiteral("stop")
                                                                             : QStringLiteral("tool_calls"))}})})},
         {"usage", object(Fields{{"prompt_tokens", number(promptTokens)},
                                 {"completion_tokens", number(completionTokens)},
                                 {"total_tokens", number(promptTokens + completionTokens)}} +
                          Envelope::openAiUsageDetails())},
         {"service_tier", string(QStringLiteral("default"))},
         {"system_fingerprint", envelope.fingerprint}});

    FakeResponse response;
    response.chunked = false;
    response.headers = openAiHeaders("application/json");
    response.chunks = {indented(body, 2)};
    return response;
}

FakeResponse modelList(const QStringList &ids)
{
    QList<Json> models;
    for (const QString &id : ids) {
        models.append(object({{"id", string(id)},
                              {"object", string(QStringLiteral("model"))},
                              {"created", "1721172741"},
                              {"owned_by", string(QStringLiteral("system"))}}));
    }
    FakeResponse response;
    response.chunked = false;
    response.headers = openAiHeaders("application/json");
    response.chunks = {indented(object({{"object", string(QStringLiteral("list"))}, {"data", array(models)}}), 2)};
    return response;
}

namespace {

FakeResponse jsonResponse(int status, const Json &body, Headers headers = {{"Content-Type", "application/json"}})
{
    FakeResponse response;
    response.status = status;
    response.chunked = false;
    response.headers = std::move(headers);
    response.chunks = {body};
    return response;
}

const Headers llamaCppJsonHeaders = {{"Server", "llama.cpp"},
                                     {"Access-Control-Allow-Origin", ""},
                                     {"Content-Type", "application/json; charset=utf-8"},
                                     {"Keep-Alive", "timeout=5, max=100"}};

} // namespace

FakeResponse llamaCppProps(qint64 nCtx, bool vision)
{
    const char *sees = vision ? "true" : "false"; // with --mmproj
    // Abridged from Debian's llama-server b11669, in its key order.
    const Json params = object({{"seed", "42"},
                                {"temperature", "1.0"},
                                {"top_k", "0"},
                                {"top_p", "1.0"},
                                {"min_p", "0.0"},
                                {"n_predict", "-1"},
                                {"n_keep", "0"},
                                {"stream", "false"},
                                {"chat_format", string(QStringLiteral("Content-only"))},
                                {"reasoning_format", string(QStringLiteral("none"))}});
    return jsonResponse(200,
                        object({{"default_generation_settings", object({{"params", params}, {"n_ctx", number(nCtx)}})},
                                {"total_slots", "1"},
                                {"model_alias", string(QStringLiteral("tiny"))},
                                {"model_ftype", string(QStringLiteral("all F32"))},
                                {"model_path", string(QStringLiteral("/model/tiny.gguf"))},
                                {"modalities", object({{"vision", sees}, {"video", "false"}, {"audio", "false"}})},
                                {"endpoint_slots", "true"},
                                {"endpoint_props", "false"},
                                {"endpoint_metrics", "false"},
                                {"chat_template", string(QStringLiteral("{%- if tools %}…"))},
                                {"bos_token", string(QStringLiteral("<|endoftext|>"))},
                                {"eos_token", string(QStringLiteral("<|im_end|>"))},
                                {"build_info", string(QStringLiteral("b11669-Debian"))},
                                {"is_sleeping", "false"}}),
                        llamaCppJsonHeaders);
}

FakeResponse ollamaShow(qint64 contextLength, std::optional<qint64> numCtx, bool vision)
{
    const Json capabilities = array(
        {string(QStringLiteral("completion")), string(vision ? QStringLiteral("vision") : QStringLiteral("tools"))});
    QString parameters = QStringLiteral("stop                           \"<|im_start|>\"\n"
                                        "stop                           \"<|im_end|>\"");
    if (numCtx)
        parameters.prepend(QStringLiteral("num_ctx                        %1\n").arg(*numCtx));
    const Json details = object({{"parent_model", string(QString())},
                                 {"format", string(QStringLiteral("gguf"))},
                                 {"family", string(QStringLiteral("qwen2"))},
                                 {"families", array({string(QStringLiteral("qwen2"))})},
                                 {"parameter_size", string(QStringLiteral("7.6B"))},
                                 {"quantization_level", string(QStringLiteral("Q4_K_M"))}});
    const Json info = object({{"general.architecture", string(QStringLiteral("qwen2"))},
                              {"general.basename", string(QStringLiteral("Qwen2.5"))},
                              {"general.file_type", "15"},
                              {"general.parameter_count", "7615616512"},
                              {"qwen2.attention.head_count", "28"},
                              {"qwen2.block_count", "28"},
                              {"qwen2.context_length", number(contextLength)},
                              {"qwen2.embedding_length", "3584"}});
    return jsonResponse(200,
                        object({{"license", goString(QStringLiteral("Apache License\nVersion 2.0"))},
                                {"modelfile", goString(QStringLiteral("# Modelfile generated by \"ollama show\""))},
                                {"parameters", goString(parameters)},
                                {"template", goString(QStringLiteral("{{- if .Messages }}…"))},
                                {"details", details},
                                {"model_info", info},
                                {"tensors", "[]"},
                                {"capabilities", capabilities},
                                {"modified_at", string(QStringLiteral("2025-06-01T10:12:43.0961+02:00"))}}),
                        {{"Content-Type", "application/json; charset=utf-8"}});
}

FakeResponse ollamaRunning(const QString &model, std::optional<qint64> contextLength)
{
    QList<Json> models;
    if (contextLength) {
        models.append(object(
            {{"name", string(model)},
             {"model", string(model)},
             {"size", "6654289920"},
             {"digest", string(QStringLiteral("845dbda0ea48ed749caafd9e6037047aa19acfcfd82e704d7ca97d631a0b697e"))},
             {"details",
              object({{"format", string(QStringLiteral("gguf"))}, {"family", string(QStringLiteral("qwen2"))}})},
             {"expires_at", string(QStringLiteral("2025-06-01T10:20:00.1+02:00"))},
             {"size_vram", "6654289920"},
             {"context_length", number(*contextLength)}}));
    }
    return jsonResponse(200, object({{"models", array(models)}}),
                        {{"Content-Type", "application/json; charset=utf-8"}});
}

FakeResponse lmStudioModels(const QString &id, qint64 maxContextLength, std::optional<qint64> loadedContextLength,
                            bool vision)
{
    Fields entry = {{"id", string(id)},
                    {"object", string(QStringLiteral("model"))},
                    {"type", string(vision ? QStringLiteral("vlm") : QStringLiteral("llm"))},
                    {"publisher", string(QStringLiteral("lmstudio-community"))},
                    {"arch", string(QStringLiteral("qwen2"))},
                    {"compatibility_type", string(QStringLiteral("gguf"))},
                    {"quantization", string(QStringLiteral("Q4_K_M"))},
                    {"state", string(loadedContextLength ? QStringLiteral("loaded") : QStringLiteral("not-loaded"))},
                    {"max_context_length", number(maxContextLength)}};
    if (loadedContextLength)
        entry.append({"loaded_context_length", number(*loadedContextLength)});
    return jsonResponse(
        200, indented(object({{"data", array({object(entry)})}, {"object", string(QStringLiteral("list"))}}), 2));
}

FakeResponse vllmModels(const QString &id, qint64 maxModelLen)
{
    const Json permission =
        object({{"id", string(QStringLiteral("modelperm-") + QString::fromLatin1(randomToken(32, hexDigits)))},
                {"object", string(QStringLiteral("model_permission"))},
                {"created", number(QDateTime::currentSecsSinceEpoch())},
                {"allow_create_engine", "false"},
                {"allow_sampling", "true"},
                {"allow_logprobs", "true"},
                {"allow_search_indices", "false"},
                {"allow_view", "true"},
                {"allow_fine_tuning", "false"},
                {"organization", string(QStringLiteral("*"))},
                {"group", null},
                {"is_blocking", "false"}});
    return jsonResponse(200, object({{"object", string(QStringLiteral("list"))},
                                     {"data", array({object({{"id", string(id)},
                                                             {"object", string(QStringLiteral("model"))},
                                                             {"created", number(QDateTime::currentSecsSinceEpoch())},
                                                             {"owned_by", string(QStringLiteral("vllm"))},
                                                             {"root", string(id)},
                                                             {"parent", null},
                                                             {"max_model_len", number(maxModelLen)},
                                                             {"permission", array({permission})}})})}}));
}

FakeResponse openRouterModels(const QString &id, qint64 contextLength)
{
    const Json entry = object(
        {{"id", string(id)},
         {"canonical_slug", string(id + QStringLiteral("-2024-07-18"))},
         {"hugging_face_id", null},
         {"name", string(QStringLiteral("OpenAI: GPT-4o-mini"))},
         {"created", "1721260800"},
         {"description", string(QStringLiteral("GPT-4o mini is OpenAI's newest model…"))},
         {"context_length", number(contextLength)},
         {"architecture", object({{"modality", string(QStringLiteral("text+image->text"))},
                                  {"tokenizer", string(QStringLiteral("GPT"))},
                                  {"instruct_type", null}})},
         {"pricing", object({{"prompt", string(QStringLiteral("0.00000015"))},
                             {"completion", string(QStringLiteral("0.0000006"))}})},
         {"top_provider", object({{"context_length", number(contextLength)},
                                  {"max_completion_tokens", "16384"},
                                  {"is_moderated", "true"}})},
         {"per_request_limits", null},
         {"supported_parameters", array({string(QStringLiteral("tools")), string(QStringLiteral("max_tokens"))})}});
    return jsonResponse(200, object({{"data", array({entry})}}));
}

FakeResponse contextError(ContextErrorShape shape, qint64 promptTokens, qint64 window)
{
    const QString n = QString::number(promptTokens);
    const QString w = QString::number(window);
    switch (shape) {
    case ContextErrorShape::OpenAi:
        return httpError(400,
                         QStringLiteral("This model's maximum context length is %1 tokens. However, your messages "
                                        "resulted in %2 tokens. Please reduce the length of the messages.")
                             .arg(w, n),
                         std::nullopt, QStringLiteral("context_length_exceeded"));
    case ContextErrorShape::LlamaCpp:
        return jsonResponse(
            400,
            object({{"error", object({{"code", "400"},
                                      {"message", string(QStringLiteral("request (%1 tokens) exceeds the available "
                                                                        "context size (%2 tokens), try increasing it")
                                                             .arg(n, w))},
                                      {"type", string(QStringLiteral("exceed_context_size_error"))},
                                      {"n_prompt_tokens", number(promptTokens)},
                                      {"n_ctx", number(window)}})}}),
            llamaCppJsonHeaders);
    case ContextErrorShape::Vllm:
        return jsonResponse(
            400, object({{"object", string(QStringLiteral("error"))},
                         {"message", string(QStringLiteral("This model's maximum context length is %1 tokens. However, "
                                                           "you requested %2 tokens (%3 in the messages, 1024 in the "
                                                           "completion). Please reduce the length of the messages or "
                                                           "completion.")
                                                .arg(w)
                                                .arg(promptTokens + 1024)
                                                .arg(n))},
                         {"type", string(QStringLiteral("BadRequestError"))},
                         {"param", null},
                         {"code", "400"}}));
    case ContextErrorShape::LmStudio:
        return jsonResponse(
            400,
            object({{"error", string(QStringLiteral("Trying to keep the first %1 tokens when context the overflows. "
                                                    "However, the model is loaded with context length of only %2 "
                                                    "tokens, which is not enough. Try to load the model with a "
                                                    "larger context length, or provide a shorter input")
                                         .arg(n, w))}}));
    case ContextErrorShape::Ollama:
        return jsonResponse(400,
                            object({{"error", object({{"message", goString(QStringLiteral("input length exceeds "
                                                                                          "maximum context length"))},
                                                      {"type", string(QStringLiteral("api_error"))},
                                                      {"param", null},
                                                      {"code", null}})}}),
                            {{"Content-Type", "application/json; charset=utf-8"}});
    case ContextErrorShape::Mistral:
        return jsonResponse(
            400, object({{"object", string(QStringLiteral("error"))},
                         {"message", string(QStringLiteral("Prompt contains %1 tokens and 0 draft tokens, too large "
                                                           "for model with %2 maximum context length")
                                                .arg(n, w))},
                         {"type", string(QStringLiteral("invalid_request_error"))},
                         {"param", null},
                         {"code", null}}));
    case ContextErrorShape::Anthropic:
        return jsonResponse(
            400, object({{"type", string(QStringLiteral("error"))},
                         {"error", object({{"type", string(QStringLiteral("invalid_request_error"))},
                                           {"message", string(QStringLiteral("prompt is too long: %1 tokens > %2 "
                                                                             "maximum")
                                                                  .arg(n, w))}})}}));
    case ContextErrorShape::OpenRouter:
        return jsonResponse(
            400, object({{"error",
                          object({{"message", string(QStringLiteral("This endpoint's maximum context length is %1 "
                                                                    "tokens. However, you requested about %2 tokens "
                                                                    "(%2 of text input). Please reduce the length of "
                                                                    "either one, or use the \"middle-out\" transform "
                                                                    "to compress your prompt automatically.")
                                                         .arg(w, n))},
                                  {"code", "400"},
                                  {"metadata", object({{"provider_name", null}})}})},
                         {"user_id", string(QStringLiteral("user_2abc"))}}));
    }
    Q_UNREACHABLE();
}

FakeResponse fromPayloads(const QList<QByteArray> &payloads, const StreamOptions &options)
{
    return sseResponse(payloads, options, {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}});
}

QList<QByteArray> split(const QByteArray &stream, SplitMode mode)
{
    QList<qsizetype> cuts;
    switch (mode.kind) {
    case SplitMode::Kind::Whole:
        break;
    case SplitMode::Kind::PerEvent:
        // After every blank line, whether the lines end in LF or CRLF.
        for (qsizetype i = 1; i < stream.size(); ++i) {
            if (stream.at(i) == '\n' &&
                (stream.at(i - 1) == '\n' || (i >= 2 && stream.at(i - 1) == '\r' && stream.at(i - 2) == '\n')))
                cuts.append(i + 1);
        }
        break;
    case SplitMode::Kind::EveryNBytes:
        for (qsizetype at = std::max(mode.bytes, 1); at < stream.size(); at += std::max(mode.bytes, 1))
            cuts.append(at);
        break;
    case SplitMode::Kind::Random: {
        QRandomGenerator generator(mode.seed);
        for (qsizetype at = 0;;) {
            at += 1 + generator.bounded(std::max(mode.bytes, 1));
            if (at >= stream.size())
                break;
            cuts.append(at);
        }
        // The cuts that catch careless decoders: half a character, half a line break.
        for (qsizetype i = 0; i + 1 < stream.size(); ++i) {
            const auto byte = quint8(stream.at(i));
            if (byte >= 0xc0 || (stream.at(i) == '\r' && stream.at(i + 1) == '\n'))
                cuts.append(i + 1);
        }
        break;
    }
    }

    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    QList<QByteArray> pieces;
    qsizetype start = 0;
    for (const qsizetype cut : std::as_const(cuts)) {
        if (cut <= start || cut >= stream.size())
            continue;
        pieces.append(stream.sliced(start, cut - start));
        start = cut;
    }
    if (start < stream.size())
        pieces.append(stream.sliced(start));
    return pieces;
}

} // namespace Sandpiper::Test::FakeStreams
