#include "llm/argumentrepair.h"

#include "llm/textcallparser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace Sandpiper {

namespace {

// The first complete JSON object or string at the start of TEXT, ignoring what follows.
QStringView leadingJsonValue(QStringView text)
{
    if (text.isEmpty() || (text.front() != QLatin1Char('{') && text.front() != QLatin1Char('"')))
        return {};
    if (text.front() == QLatin1Char('"')) {
        for (qsizetype i = 1; i < text.size(); ++i) {
            if (text[i] == QLatin1Char('\\'))
                ++i;
            else if (text[i] == QLatin1Char('"'))
                return text.first(i + 1);
        }
        return {};
    }
    const qsizetype end = TextCallParser::jsonEnd(text, 0);
    return end < 0 ? QStringView() : text.first(end);
}

// Parses a JSON object or string, tolerating trailing garbage. Returns false if neither.
bool parseLenient(const QString &text, QJsonValue &value, bool &hadTrailing)
{
    const QByteArray wrapped = "[" + text.toUtf8() + "]"; // lets a bare JSON string parse too
    QJsonParseError error;
    QJsonDocument document = QJsonDocument::fromJson(wrapped, &error);
    hadTrailing = false;
    if (error.error != QJsonParseError::NoError || document.array().size() != 1) {
        const QStringView leading = leadingJsonValue(text);
        if (leading.isEmpty())
            return false;
        document = QJsonDocument::fromJson("[" + leading.toUtf8() + "]", &error);
        if (error.error != QJsonParseError::NoError)
            return false;
        hadTrailing = true;
    }
    value = document.array().first();
    return value.isObject() || value.isString();
}

} // namespace

QString stripCodeFence(const QString &text)
{
    static const QRegularExpression fence(QStringLiteral(R"j(^\s*(`{3,}|~{3,})[^\n]*\n(.*?)\n?\s*\1\s*$)j"),
                                          QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = fence.match(text);
    return match.hasMatch() ? match.captured(2) : text;
}

RepairedArgument repairStringArgument(const QString &rawArguments, const QString &key, const QStringList &aliases)
{
    const QString expected = QStringLiteral("a JSON object like {\"%1\": \"...\"}").arg(key);
    RepairedArgument result;
    QString text = rawArguments.trimmed();
    for (int depth = 0; depth < 3; ++depth) {
        QJsonValue value;
        bool hadTrailing = false;
        if (!parseLenient(text, value, hadTrailing)) {
            if (text.startsWith(QLatin1Char('{'))) {
                result.error = QStringLiteral("The arguments are not valid JSON; expected %1.").arg(expected);
                return result;
            }
            // Not JSON at all: a bare code string, perhaps in a fence.
            result.value = stripCodeFence(text);
            result.repaired = true;
            break;
        }
        result.repaired = result.repaired || hadTrailing;
        if (value.isString()) {
            // A JSON string: either double-encoded JSON or the code itself.
            text = value.toString().trimmed();
            result.repaired = true;
            continue;
        }
        const QJsonObject object = value.toObject();
        QJsonValue found = object.value(key);
        for (const QString &alias : aliases) {
            if (!found.isUndefined())
                break;
            found = object.value(alias);
            result.repaired = result.repaired || !found.isUndefined();
        }
        if (found.isUndefined()) {
            const QStringList keys = object.keys();
            result.error = keys.isEmpty() ? QStringLiteral("The arguments are empty; expected %1.").arg(expected)
                                          : QStringLiteral("The arguments have no \"%1\" field (got: %2); expected %3.")
                                                .arg(key, keys.join(QStringLiteral(", ")), expected);
            return result;
        }
        if (!found.isString()) {
            result.error = QStringLiteral("The \"%1\" field must be a string; expected %2.").arg(key, expected);
            return result;
        }
        const QString stripped = stripCodeFence(found.toString());
        result.repaired = result.repaired || stripped != found.toString();
        result.value = stripped;
        break;
    }
    if (result.value.trimmed().isEmpty() && result.error.isEmpty())
        result.error = QStringLiteral("The \"%1\" field is empty; expected %2.").arg(key, expected);
    return result;
}

} // namespace Sandpiper
