#include "llm/contextoverflow.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace Sandpiper {

namespace {

// The first number that one of PATTERNS captures in TEXT, 0 when none matches.
qint64 firstNumber(const QString &text, std::initializer_list<const char *> patterns)
{
    for (const char *pattern : patterns) {
        const QRegularExpression expression(QLatin1String(pattern), QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch match = expression.match(text);
        if (match.hasMatch())
            return match.captured(match.lastCapturedIndex()).toLongLong();
    }
    return 0;
}

} // namespace

std::optional<ContextOverflow> ContextOverflow::fromMessage(const QString &message)
{
    static const QRegularExpression recognised(
        QStringLiteral("context_length_exceeded|exceed_context_size_error|maximum context length|"
                       "context length exceeded|exceeds? the (?:available )?context|context size has been exceeded|"
                       "context length of only|greater than the context length|prompt is too long|"
                       "exceeds (?:the )?maximum context|input length exceeds|too large for model with|"
                       "context overflow|longer than the model's context"),
        QRegularExpression::CaseInsensitiveOption);
    if (!recognised.match(message).hasMatch())
        return std::nullopt;
    ContextOverflow overflow;
    overflow.window = firstNumber(message, {
                                               R"(maximum context length is (\d+))",
                                               R"((\d+) maximum context length)",
                                               R"(available context size \((\d+) tokens\))",
                                               R"(context length of only (\d+))",
                                               R"(tokens > (\d+) maximum)",
                                               R"(context length \((\d+)\))",
                                           });
    overflow.promptTokens = firstNumber(message, {
                                                     R"(requested \d+ tokens \((\d+) in the messages)",
                                                     R"(resulted in (\d+) tokens)",
                                                     R"(request has (\d+) input tokens)",
                                                     R"(request \((\d+) tokens\))",
                                                     R"(prompt contains (\d+) tokens)",
                                                     R"(keep the first (\d+) tokens)",
                                                     R"(prompt is too long: (\d+) tokens)",
                                                     R"(requested about (\d+) tokens)",
                                                 });
    return overflow;
}

std::optional<ContextOverflow> ContextOverflow::fromBody(const QByteArray &body)
{
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    const QJsonValue errorValue = object.value(QLatin1String("error"));
    const QJsonObject error = errorValue.isObject() ? errorValue.toObject() : object;
    const QString type = error.value(QLatin1String("type")).toString();
    const QString code = error.value(QLatin1String("code")).toVariant().toString();
    QString message = error.value(QLatin1String("message")).toString();
    if (message.isEmpty())
        message = errorValue.isString() ? errorValue.toString() : QString::fromUtf8(body.left(4096));

    std::optional<ContextOverflow> overflow = fromMessage(message);
    if (!overflow && type != QLatin1String("exceed_context_size_error") &&
        code != QLatin1String("context_length_exceeded"))
        return std::nullopt;
    if (!overflow)
        overflow = ContextOverflow{};
    // llama.cpp says it in fields of their own.
    if (const qint64 window = error.value(QLatin1String("n_ctx")).toInteger(); window > 0)
        overflow->window = window;
    if (const qint64 prompt = error.value(QLatin1String("n_prompt_tokens")).toInteger(); prompt > 0)
        overflow->promptTokens = prompt;
    return overflow;
}

} // namespace Sandpiper
