#include "llm/completionaccumulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>

namespace Sandpiper {

namespace {

QString errorText(const QJsonValue &error)
{
    if (error.isString())
        return error.toString();
    const QJsonObject object = error.toObject();
    const QString message = object.value(QLatin1String("message")).toString();
    return message.isEmpty() ? QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)) : message;
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
        m_error = errorText(chunk.value(QLatin1String("error")));
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

void CompletionAccumulator::applyToolCallDelta(const QJsonObject &delta)
{
    const QString id = delta.value(QLatin1String("id")).toString();
    const QJsonObject function = delta.value(QLatin1String("function")).toObject();
    qsizetype slot = -1;
    if (delta.contains(QLatin1String("index"))) {
        const int index = delta.value(QLatin1String("index")).toInt();
        slot = m_slotByIndex.value(index, -1);
        // A different id under an index already used is a new call (seen with some proxies).
        if (slot >= 0 && !id.isEmpty() && !m_calls.at(slot).id.isEmpty() && m_calls.at(slot).id != id)
            slot = -1;
        if (slot < 0) {
            slot = m_calls.size();
            m_calls.append(ToolCall{});
            m_slotByIndex.insert(index, slot);
        }
    } else {
        // Without an index, a new id starts a new call and fragments continue the last one.
        const bool startsNewCall =
            m_calls.isEmpty() || (!id.isEmpty() && m_calls.last().id != id && !m_calls.last().id.isEmpty());
        if (startsNewCall)
            m_calls.append(ToolCall{});
        slot = m_calls.size() - 1;
    }
    ToolCall &call = m_calls[slot];
    if (call.id.isEmpty())
        call.id = id;
    const QString name = function.value(QLatin1String("name")).toString();
    if (call.name.isEmpty())
        call.name = name;
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
        m_error = errorText(response.value(QLatin1String("error")));
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
