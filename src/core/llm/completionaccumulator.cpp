#include "llm/completionaccumulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>

#include <algorithm>

namespace Sandpiper {

namespace {

QString codeText(const QJsonValue &code)
{
    if (code.isDouble())
        return QString::number(code.toInteger());
    return code.toString();
}

// What each provider puts in its error object: OpenAI {message, type, code}, OpenRouter
// {code, message} (code a number or a word), Anthropic {type, message}, vLLM {message, type,
// code}, llama.cpp {code, message, type}.
StreamError streamError(const QJsonValue &error)
{
    StreamError result;
    if (!error.isObject()) {
        result.message = error.toString();
        if (result.message.isEmpty())
            result.message = QString::fromUtf8(QJsonDocument(QJsonArray{error}).toJson(QJsonDocument::Compact));
        return result;
    }
    const QJsonObject object = error.toObject();
    result.message = object.value(QLatin1String("message")).toString();
    if (result.message.isEmpty())
        result.message = QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    const QString code = codeText(object.value(QLatin1String("code")));
    const QString type = object.value(QLatin1String("type")).toString();
    result.code = code.isEmpty() || code == type ? type : type.isEmpty() ? code : code + QLatin1Char(' ') + type;

    bool isNumber = false;
    const int status = code.toInt(&isNumber);
    const QString words = (code + QLatin1Char(' ') + type + QLatin1Char(' ') + result.message).toLower();
    static const QStringList temporary{QStringLiteral("overloaded"),   QStringLiteral("rate_limit"),
                                       QStringLiteral("rate limit"),   QStringLiteral("too many requests"),
                                       QStringLiteral("server_error"), QStringLiteral("internalservererror"),
                                       QStringLiteral("unavailable"),  QStringLiteral("timeout")};
    result.worthRetrying =
        (isNumber && (status == 408 || status == 429 || status >= 500)) ||
        std::any_of(temporary.cbegin(), temporary.cend(), [&](const QString &word) { return words.contains(word); });
    return result;
}

// A piece of an id or name: joined to what came before, unless the server repeats the whole
// so far (some send the name with every fragment) or sends it again grown by the new piece.
void join(QString &whole, const QString &piece)
{
    if (piece.isEmpty() || piece == whole)
        return;
    if (!whole.isEmpty() && piece.startsWith(whole))
        whole = piece;
    else
        whole += piece;
}

QString argumentsText(const QJsonValue &arguments)
{
    // Some servers send the arguments as an object instead of a JSON string.
    if (arguments.isObject())
        return QString::fromUtf8(QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact));
    return arguments.toString();
}

} // namespace

CompletionAccumulator::Delta CompletionAccumulator::apply(const QJsonObject &chunk)
{
    Delta delta;
    if (chunk.contains(QLatin1String("error"))) {
        m_error = streamError(chunk.value(QLatin1String("error")));
        return delta;
    }
    // vLLM before 0.10 sent its error object as the chunk itself.
    if (chunk.value(QLatin1String("object")).toString() == QLatin1String("error")) {
        m_error = streamError(chunk);
        return delta;
    }
    applyUsage(chunk.value(QLatin1String("usage")));
    const QJsonArray choices = chunk.value(QLatin1String("choices")).toArray();
    if (choices.isEmpty())
        return delta;
    const QJsonObject choice = choices.first().toObject();
    const QJsonObject change = choice.value(QLatin1String("delta")).toObject();

    delta.text = change.value(QLatin1String("content")).toString();
    delta.reasoning = change.value(QLatin1String("reasoning_content")).toString();
    if (delta.reasoning.isEmpty())
        delta.reasoning = change.value(QLatin1String("reasoning")).toString();
    m_content += delta.text;
    m_reasoning += delta.reasoning;

    for (const QJsonValue &call : change.value(QLatin1String("tool_calls")).toArray()) {
        applyToolCallDelta(call.toObject());
        delta.toolCallsChanged = true;
    }
    const QJsonValue finish = choice.value(QLatin1String("finish_reason"));
    if (finish.isString())
        m_finishReason = finish.toString();
    return delta;
}

void CompletionAccumulator::applyErrorEvent(const QJsonObject &object)
{
    m_error = streamError(object.contains(QLatin1String("error")) ? object.value(QLatin1String("error"))
                                                                  : QJsonValue(object));
}

void CompletionAccumulator::applyToolCallDelta(const QJsonObject &delta)
{
    const QString id = delta.value(QLatin1String("id")).toString();
    const QJsonObject function = delta.value(QLatin1String("function")).toObject();
    qsizetype slot = -1;
    if (delta.contains(QLatin1String("index"))) {
        const int index = delta.value(QLatin1String("index")).toInt();
        slot = m_slotByIndex.value(index, -1);
        // A different id under an index whose call has begun its arguments is a new call (seen
        // with some proxies); before that, it is the next piece of the id.
        if (slot >= 0 && !id.isEmpty() && !m_calls.at(slot).id.isEmpty() && m_calls.at(slot).id != id &&
            !m_calls.at(slot).arguments.isEmpty())
            slot = -1;
        if (slot < 0) {
            slot = m_calls.size();
            m_calls.append(ToolCall{});
            m_slotByIndex.insert(index, slot);
        }
    } else {
        // Without an index, a new id starts a new call once the last one has begun its
        // arguments, and fragments continue the last one.
        const bool startsNewCall =
            m_calls.isEmpty() || (!id.isEmpty() && m_calls.last().id != id && !m_calls.last().id.isEmpty() &&
                                  !m_calls.last().arguments.isEmpty());
        if (startsNewCall)
            m_calls.append(ToolCall{});
        slot = m_calls.size() - 1;
    }
    ToolCall &call = m_calls[slot];
    // The head of a call (its id and name) comes before its arguments, in one piece or several.
    if (call.arguments.isEmpty()) {
        join(call.id, id);
        join(call.name, function.value(QLatin1String("name")).toString());
    }
    call.arguments += argumentsText(function.value(QLatin1String("arguments")));
}

void CompletionAccumulator::applyUsage(const QJsonValue &usage)
{
    if (!usage.isObject())
        return;
    const QJsonObject object = usage.toObject();
    m_usage.promptTokens = object.value(QLatin1String("prompt_tokens")).toInteger();
    m_usage.completionTokens = object.value(QLatin1String("completion_tokens")).toInteger();
    m_usage.totalTokens =
        object.value(QLatin1String("total_tokens")).toInteger(m_usage.promptTokens + m_usage.completionTokens);
}

void CompletionAccumulator::applyCompleteResponse(const QJsonObject &response)
{
    if (response.contains(QLatin1String("error"))) {
        m_error = streamError(response.value(QLatin1String("error")));
        return;
    }
    applyUsage(response.value(QLatin1String("usage")));
    const QJsonObject choice = response.value(QLatin1String("choices")).toArray().first().toObject();
    const QJsonObject message = choice.value(QLatin1String("message")).toObject();
    m_content = message.value(QLatin1String("content")).toString();
    m_reasoning = message.value(QLatin1String("reasoning_content")).toString();
    if (m_reasoning.isEmpty())
        m_reasoning = message.value(QLatin1String("reasoning")).toString();
    m_calls.clear();
    m_slotByIndex.clear();
    for (const QJsonValue &call : message.value(QLatin1String("tool_calls")).toArray()) {
        const QJsonObject object = call.toObject();
        const QJsonObject function = object.value(QLatin1String("function")).toObject();
        m_calls.append({object.value(QLatin1String("id")).toString(), function.value(QLatin1String("name")).toString(),
                        argumentsText(function.value(QLatin1String("arguments")))});
    }
    m_finishReason = choice.value(QLatin1String("finish_reason")).toString();
}

void CompletionAccumulator::finish()
{
    for (ToolCall &call : m_calls) {
        if (call.id.isEmpty())
            call.id = QStringLiteral("call_%1").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    }
}

ChatMessage CompletionAccumulator::message() const
{
    ChatMessage message;
    message.role = ChatMessage::Role::Assistant;
    message.content = m_content;
    message.reasoning = m_reasoning;
    message.usage = m_usage;
    message.toolCalls = m_calls;
    return message;
}

} // namespace Sandpiper
