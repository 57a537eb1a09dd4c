#include "llm/modelreport.h"

#include <QJsonArray>

namespace Sandpiper {

namespace {

const char *const callsNames[] = {"unknown", "native", "text", "none"};
const char *const reasoningNames[] = {"unknown", "none", "field", "tags"};
const char *const outcomeNames[] = {"passed", "failed", "skipped"};
const char *const stateNames[] = {"proposed", "set", "already"};

template<typename Enum, std::size_t N>
Enum enumFromName(const char *const (&names)[N], const QString &name, Enum fallback)
{
    for (std::size_t i = 0; i < N; ++i) {
        if (name == QLatin1String(names[i]))
            return Enum(i);
    }
    return fallback;
}

QJsonValue optionalBool(const std::optional<bool> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

std::optional<bool> optionalBool(const QJsonValue &value)
{
    return value.isBool() ? std::optional<bool>(value.toBool()) : std::nullopt;
}

QString stepTitle(const QString &name)
{
    if (name == QLatin1String("plain"))
        return ModelReport::tr("Plain answer");
    if (name == QLatin1String("tool_call"))
        return ModelReport::tr("One tool call");
    if (name == QLatin1String("parallel_calls"))
        return ModelReport::tr("Two parallel calls");
    if (name == QLatin1String("after_tool_result"))
        return ModelReport::tr("After a tool result");
    if (name == QLatin1String("long_prompt"))
        return ModelReport::tr("Long prompt");
    if (name == QLatin1String("image"))
        return ModelReport::tr("Image");
    return name;
}

QString yesNo(const std::optional<bool> &value, const QString &yes, const QString &no, const QString &unknown)
{
    return value ? (*value ? yes : no) : unknown;
}

} // namespace

QString ModelReport::callsName(Calls calls)
{
    return QLatin1String(callsNames[int(calls)]);
}

QString ModelReport::reasoningName(Reasoning reasoning)
{
    return QLatin1String(reasoningNames[int(reasoning)]);
}

const ModelReport::Step *ModelReport::step(const QString &name) const
{
    for (const Step &each : steps) {
        if (each.name == name)
            return &each;
    }
    return nullptr;
}

bool ModelReport::answered() const
{
    const Step *plain = step(QStringLiteral("plain"));
    return plain && plain->outcome == Step::Outcome::Passed;
}

QStringList ModelReport::problems() const
{
    QStringList lines;
    for (const Step &each : steps) {
        if (each.outcome == Step::Outcome::Failed)
            lines << QStringLiteral("%1: %2").arg(stepTitle(each.name), each.detail);
    }
    return lines;
}

QStringList ModelReport::switchesSet() const
{
    QStringList lines;
    for (const Switch &each : switches) {
        if (each.state == Switch::State::Set)
            lines << QStringLiteral("%1 = %2").arg(each.key, each.value);
    }
    return lines;
}

QString ModelReport::verdict() const
{
    if (!answered()) {
        const Step *plain = step(QStringLiteral("plain"));
        return plain && !plain->detail.isEmpty() ? tr("no answer: %1").arg(plain->detail) : tr("no answer");
    }
    QStringList parts;
    switch (calls) {
    case Calls::Native:
        parts << tr("native calls");
        break;
    case Calls::Text:
        parts << tr("text calls (%1)").arg(dialect);
        break;
    case Calls::None:
        parts << tr("no tool calls");
        break;
    case Calls::Unknown:
        parts << tr("tool calls failed");
        break;
    }
    if (parallelCalls)
        parts << (*parallelCalls ? tr("parallel") : tr("one call at a time"));
    if (reasoning == Reasoning::Field)
        parts << tr("reasoning in a field");
    else if (reasoning == Reasoning::Tags)
        parts << tr("reasoning in tags");
    if (window > 0)
        parts << tr("%1 tokens").arg(window);
    if (vision.value_or(false))
        parts << tr("vision");
    if (tokensPerSecond > 0)
        parts << tr("%1 tok/s").arg(qRound(tokensPerSecond));
    return parts.join(QStringLiteral(" · "));
}

QString ModelReport::card() const
{
    QStringList lines;
    lines << tr("Report card for %1 at %2 (%3)").arg(model, baseUrl, probedAt.toUTC().toString(Qt::ISODate));
    lines << tr("Verdict: %1").arg(verdict());
    QString callsLine;
    switch (calls) {
    case Calls::Native:
        callsLine = tr("native tool_calls");
        break;
    case Calls::Text:
        callsLine = tr("written as text in the %1 dialect, recovered by Sandpiper").arg(dialect);
        break;
    case Calls::None:
        callsLine = tr("none: the model answered without calling the tool");
        break;
    case Calls::Unknown:
        callsLine = tr("unknown: the request failed");
        break;
    }
    lines << tr("Tool calls:           %1").arg(callsLine);
    lines << tr("Parallel calls:       %1")
                 .arg(yesNo(parallelCalls, tr("yes, both came back in one answer"), tr("no"), tr("unknown")));
    lines << tr("After a tool result:  %1")
                 .arg(yesNo(answersAfterToolResult, tr("answers"), tr("no answer"), tr("unknown")));
    QString reasoningLine;
    switch (reasoning) {
    case Reasoning::Field:
        reasoningLine = tr("in a field of its own");
        break;
    case Reasoning::Tags:
        reasoningLine = tr("in tags inside the content");
        break;
    case Reasoning::None:
        reasoningLine = tr("none seen");
        break;
    case Reasoning::Unknown:
        reasoningLine = tr("unknown");
        break;
    }
    lines << tr("Reasoning:            %1").arg(reasoningLine);
    QString windowLine = window > 0 ? tr("%1 tokens (%2)").arg(window).arg(windowSource) : tr("unknown");
    if (windowTestedTokens > 0)
        windowLine += QLatin1Char(' ') + tr("— a prompt of %1 tokens was taken").arg(windowTestedTokens);
    lines << tr("Context window:       %1").arg(windowLine);
    lines << tr("Vision:               %1").arg(yesNo(vision, tr("yes"), tr("no"), tr("unknown")));
    lines << tr("Speed:                %1")
                 .arg(tokensPerSecond > 0 ? tr("%1 tokens/s").arg(tokensPerSecond, 0, 'f', 1) : tr("unknown"));
    lines << tr("Time to first token:  %1")
                 .arg(firstTokenMilliseconds >= 0 ? tr("%1 ms").arg(firstTokenMilliseconds) : tr("unknown"));
    lines << tr("Probe cost:           %1 tokens sent, %2 received%3")
                 .arg(tokensSent)
                 .arg(tokensReceived)
                 .arg(tokensEstimated ? QLatin1Char(' ') + tr("(partly estimated)") : QString());
    lines << tr("Steps:");
    for (const Step &each : steps) {
        const QString mark = each.outcome == Step::Outcome::Passed   ? tr("ok")
                             : each.outcome == Step::Outcome::Failed ? tr("FAILED")
                                                                     : tr("skipped");
        lines << tr("  %1 %2 (%3 ms): %4")
                     .arg(mark, -7)
                     .arg(stepTitle(each.name))
                     .arg(each.milliseconds)
                     .arg(each.detail);
    }
    if (!switches.isEmpty()) {
        lines << tr("Settings for this provider:");
        for (const Switch &each : switches) {
            const QString state = each.state == Switch::State::Set         ? tr("set")
                                  : each.state == Switch::State::AlreadySo ? tr("already so")
                                                                           : tr("suggested");
            lines << tr("  %1 = %2 (%3): %4").arg(each.key, each.value, state, each.reason);
        }
    }
    return lines.join(QLatin1Char('\n'));
}

QJsonObject ModelReport::toJson() const
{
    QJsonArray stepArray;
    for (const Step &each : steps) {
        stepArray.append(QJsonObject{{QStringLiteral("name"), each.name},
                                     {QStringLiteral("outcome"), QLatin1String(outcomeNames[int(each.outcome)])},
                                     {QStringLiteral("detail"), each.detail},
                                     {QStringLiteral("ms"), each.milliseconds},
                                     {QStringLiteral("prompt_tokens"), each.promptTokens},
                                     {QStringLiteral("completion_tokens"), each.completionTokens}});
    }
    QJsonArray switchArray;
    for (const Switch &each : switches) {
        switchArray.append(QJsonObject{{QStringLiteral("key"), each.key},
                                       {QStringLiteral("value"), each.value},
                                       {QStringLiteral("reason"), each.reason},
                                       {QStringLiteral("state"), QLatin1String(stateNames[int(each.state)])}});
    }
    return QJsonObject{
        {QStringLiteral("provider"), provider},
        {QStringLiteral("base_url"), baseUrl},
        {QStringLiteral("model"), model},
        {QStringLiteral("probed_at"), probedAt.toUTC().toString(Qt::ISODateWithMs)},
        {QStringLiteral("verdict"), verdict()},
        {QStringLiteral("tool_calls"), callsName(calls)},
        {QStringLiteral("dialect"), dialect},
        {QStringLiteral("parallel_calls"), optionalBool(parallelCalls)},
        {QStringLiteral("answers_after_tool_result"), optionalBool(answersAfterToolResult)},
        {QStringLiteral("reasoning"), reasoningName(reasoning)},
        {QStringLiteral("context_window"), window},
        {QStringLiteral("context_window_source"), windowSource},
        {QStringLiteral("context_window_tested_tokens"), windowTestedTokens},
        {QStringLiteral("vision"), optionalBool(vision)},
        {QStringLiteral("tokens_per_second"), tokensPerSecond},
        {QStringLiteral("first_token_ms"), firstTokenMilliseconds},
        {QStringLiteral("tokens_sent"), tokensSent},
        {QStringLiteral("tokens_received"), tokensReceived},
        {QStringLiteral("tokens_estimated"), tokensEstimated},
        {QStringLiteral("steps"), stepArray},
        {QStringLiteral("switches"), switchArray},
    };
}

std::optional<ModelReport> ModelReport::fromJson(const QJsonObject &object)
{
    if (!object.value(QLatin1String("model")).isString() || !object.value(QLatin1String("steps")).isArray())
        return std::nullopt;
    ModelReport report;
    report.provider = object.value(QLatin1String("provider")).toString();
    report.baseUrl = object.value(QLatin1String("base_url")).toString();
    report.model = object.value(QLatin1String("model")).toString();
    report.probedAt = QDateTime::fromString(object.value(QLatin1String("probed_at")).toString(), Qt::ISODateWithMs);
    report.calls = enumFromName(callsNames, object.value(QLatin1String("tool_calls")).toString(), Calls::Unknown);
    report.dialect = object.value(QLatin1String("dialect")).toString();
    report.parallelCalls = optionalBool(object.value(QLatin1String("parallel_calls")));
    report.answersAfterToolResult = optionalBool(object.value(QLatin1String("answers_after_tool_result")));
    report.reasoning =
        enumFromName(reasoningNames, object.value(QLatin1String("reasoning")).toString(), Reasoning::Unknown);
    report.window = object.value(QLatin1String("context_window")).toInteger();
    report.windowSource = object.value(QLatin1String("context_window_source")).toString();
    report.windowTestedTokens = object.value(QLatin1String("context_window_tested_tokens")).toInteger();
    report.vision = optionalBool(object.value(QLatin1String("vision")));
    report.tokensPerSecond = object.value(QLatin1String("tokens_per_second")).toDouble();
    report.firstTokenMilliseconds = object.value(QLatin1String("first_token_ms")).toInteger(-1);
    report.tokensSent = object.value(QLatin1String("tokens_sent")).toInteger();
    report.tokensReceived = object.value(QLatin1String("tokens_received")).toInteger();
    report.tokensEstimated = object.value(QLatin1String("tokens_estimated")).toBool();
    for (const QJsonValue &value : object.value(QLatin1String("steps")).toArray()) {
        const QJsonObject each = value.toObject();
        report.steps.append(
            {each.value(QLatin1String("name")).toString(),
             enumFromName(outcomeNames, each.value(QLatin1String("outcome")).toString(), Step::Outcome::Skipped),
             each.value(QLatin1String("detail")).toString(), each.value(QLatin1String("ms")).toInteger(),
             each.value(QLatin1String("prompt_tokens")).toInteger(),
             each.value(QLatin1String("completion_tokens")).toInteger()});
    }
    for (const QJsonValue &value : object.value(QLatin1String("switches")).toArray()) {
        const QJsonObject each = value.toObject();
        report.switches.append(
            {each.value(QLatin1String("key")).toString(), each.value(QLatin1String("value")).toString(),
             each.value(QLatin1String("reason")).toString(),
             enumFromName(stateNames, each.value(QLatin1String("state")).toString(), Switch::State::Proposed)});
    }
    return report;
}

} // namespace Sandpiper
