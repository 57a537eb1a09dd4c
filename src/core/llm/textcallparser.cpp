#include "llm/textcallparser.h"

#include "llm/pythonliteral.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>

namespace Sandpiper {

namespace {

QString compact(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return {};
}

std::optional<QJsonValue> parseStrict(const QByteArray &json)
{
    // Wrapped, so that any JSON value parses, not only objects and arrays.
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson("[" + json + "]", &error);
    if (error.error != QJsonParseError::NoError || document.array().size() != 1)
        return std::nullopt;
    return document.array().first();
}

// Escapes the control characters that JSON forbids inside strings.
QString escapeRawControls(QStringView text)
{
    QString out;
    out.reserve(text.size() + 16);
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (inString && c == QLatin1Char('\\') && i + 1 < text.size()) {
            out += c;
            out += text[++i];
            continue;
        }
        if (c == QLatin1Char('"'))
            inString = !inString;
        if (inString && c == QLatin1Char('\n'))
            out += QLatin1String("\\n");
        else if (inString && c == QLatin1Char('\r'))
            out += QLatin1String("\\r");
        else if (inString && c == QLatin1Char('\t'))
            out += QLatin1String("\\t");
        else
            out += c;
    }
    return out;
}

// One line break after an opening tag and before a closing one belongs to the markup.
QString trimOneNewline(QStringView value)
{
    if (value.startsWith(QLatin1Char('\n')))
        value = value.sliced(1);
    if (value.endsWith(QLatin1Char('\n')))
        value.chop(1);
    return value.toString();
}

QStringView skipSpaceAndSemicolons(QStringView text)
{
    qsizetype i = 0;
    while (i < text.size() && (text[i].isSpace() || text[i] == QLatin1Char(';')))
        ++i;
    return text.sliced(i);
}

} // namespace

TextCallParser::TextCallParser(const QJsonArray &declarations)
{
    for (const QJsonValue &declaration : declarations) {
        const QJsonObject function = declaration[QLatin1String("function")].toObject();
        const QString name = function.value(QLatin1String("name")).toString();
        if (!name.isEmpty())
            m_schemas.insert(name, function.value(QLatin1String("parameters")).toObject());
    }
}

bool TextCallParser::couldName(QStringView prefix) const
{
    for (auto it = m_schemas.keyBegin(); it != m_schemas.keyEnd(); ++it) {
        if (it->startsWith(prefix))
            return true;
    }
    return false;
}

qsizetype TextCallParser::jsonEnd(QStringView text, qsizetype from)
{
    int depth = 0;
    bool inString = false;
    for (qsizetype i = from; i < text.size(); ++i) {
        const QChar c = text[i];
        if (inString) {
            if (c == QLatin1Char('\\'))
                ++i;
            else if (c == QLatin1Char('"'))
                inString = false;
        } else if (c == QLatin1Char('"')) {
            inString = true;
        } else if (c == QLatin1Char('{') || c == QLatin1Char('[')) {
            ++depth;
        } else if ((c == QLatin1Char('}') || c == QLatin1Char(']')) && --depth == 0) {
            return i + 1;
        }
    }
    return -1;
}

std::optional<QJsonValue> TextCallParser::parseJson(QStringView text)
{
    if (auto value = parseStrict(text.toUtf8()))
        return value;
    return parseStrict(escapeRawControls(text).toUtf8());
}

QString TextCallParser::newCallId()
{
    static constexpr QLatin1StringView alphabet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");
    QString id(9, Qt::Uninitialized);
    for (QChar &c : id)
        c = alphabet.at(QRandomGenerator::global()->bounded(int(alphabet.size())));
    return id;
}

QString TextCallParser::unknownTool(const QString &name) const
{
    return tr("The model wrote a call to \"%1\" into its answer, but it has no tool of that name, so the call is "
              "shown as text.")
        .arg(name.left(80));
}

std::optional<ToolCall> TextCallParser::callFromObject(const QJsonObject &object, QString *problem) const
{
    // OpenAI's own shape written out as text: {"type": "function", "function": {...}}.
    const QJsonValue function = object.value(QLatin1String("function"));
    if (function.isObject()) {
        std::optional<ToolCall> call = callFromObject(function.toObject(), problem);
        if (call && object.value(QLatin1String("id")).isString())
            call->id = object.value(QLatin1String("id")).toString();
        return call;
    }
    const QString name = object.value(QLatin1String("name")).toString();
    if (name.isEmpty()) {
        *problem = tr("The model wrote a tool call into its answer without a tool name, so it is shown as text.");
        return std::nullopt;
    }
    if (!declares(name)) {
        *problem = unknownTool(name);
        return std::nullopt;
    }
    ToolCall call;
    call.name = name;
    call.id = object.value(QLatin1String("id")).toString();
    if (call.id.isEmpty())
        call.id = newCallId();
    QJsonValue arguments = object.value(QLatin1String("arguments"));
    if (arguments.isUndefined())
        arguments = object.value(QLatin1String("parameters"));
    // A string is passed on as it is: JSON text, or bare code for the argument repair.
    if (arguments.isString())
        call.arguments = arguments.toString();
    else if (arguments.isObject())
        call.arguments = compact(arguments);
    else
        call.arguments = QStringLiteral("{}");
    return call;
}

TextCallParser::Result TextCallParser::fromJson(const QJsonValue &value) const
{
    Result result;
    QJsonArray items;
    if (value.isArray())
        items = value.toArray();
    else
        items.append(value);
    for (const QJsonValue &item : std::as_const(items)) {
        if (!item.isObject()) {
            result.problem = tr("The model wrote a tool call into its answer that is not a JSON object, so it is "
                                "shown as text.");
            return result;
        }
        const std::optional<ToolCall> call = callFromObject(item.toObject(), &result.problem);
        if (!call)
            return result;
        result.calls.append(*call);
    }
    if (result.calls.isEmpty())
        result.problem = tr("The model wrote an empty list of tool calls into its answer.");
    return result;
}

TextCallParser::Result TextCallParser::parseJsonCall(QStringView json) const
{
    const std::optional<QJsonValue> value = parseJson(json.trimmed());
    if (!value || (!value->isObject() && !value->isArray())) {
        Result result;
        result.problem =
            tr("The model wrote a tool call into its answer that is not valid JSON, so it was not run; it is "
               "shown as text.");
        return result;
    }
    return fromJson(*value);
}

QJsonValue TextCallParser::typedParameter(const QString &tool, const QString &parameter, const QString &value) const
{
    const QJsonObject property = m_schemas.value(tool)[QLatin1String("properties")][parameter].toObject();
    const QString type = property.value(QLatin1String("type")).toString();
    if (type == QLatin1String("string"))
        return value;
    // Numbers, booleans, objects and arrays are written as JSON; a parameter the schema does
    // not know is taken as JSON when it parses and as text otherwise.
    const std::optional<QJsonValue> parsed = parseStrict(value.trimmed().toUtf8());
    if (parsed && (type.isEmpty() || !parsed->isString()))
        return *parsed;
    return value;
}

TextCallParser::Result TextCallParser::parseFunctionXml(QStringView xml) const
{
    static const QRegularExpression function(QStringLiteral("<function=([^>\\n]+)>(.*?)</function>"),
                                             QRegularExpression::DotMatchesEverythingOption);
    // The last parameter's closing tag is sometimes left out before </function>.
    static const QRegularExpression parameter(QStringLiteral("<parameter=([^>\\n]+)>(.*?)(?:</parameter>|$)"),
                                              QRegularExpression::DotMatchesEverythingOption);
    Result result;
    const QString text = xml.toString();
    qsizetype consumed = 0;
    for (auto it = function.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        if (!text.sliced(consumed, match.capturedStart() - consumed).trimmed().isEmpty())
            break;
        consumed = match.capturedEnd();
        const QString name = match.captured(1).trimmed();
        if (!declares(name)) {
            result.problem = unknownTool(name);
            return result;
        }
        QJsonObject arguments;
        const QString body = match.captured(2);
        for (auto params = parameter.globalMatch(body); params.hasNext();) {
            const QRegularExpressionMatch p = params.next();
            const QString key = p.captured(1).trimmed();
            arguments.insert(key, typedParameter(name, key, trimOneNewline(p.captured(2))));
        }
        result.calls.append({newCallId(), name, compact(arguments)});
    }
    if (result.calls.isEmpty() || !text.sliced(consumed).trimmed().isEmpty()) {
        result.calls.clear();
        result.problem = tr("The model wrote a tool call into its answer in XML that could not be read, so it is "
                            "shown as text.");
    }
    return result;
}

TextCallParser::Result TextCallParser::parseMistral(QStringView text) const
{
    text = text.trimmed();
    if (text.startsWith(QLatin1Char('[')) || text.startsWith(QLatin1Char('{')))
        return parseJsonCall(text);

    // NAME[ARGS]{…} or NAME[CALL_ID]ID[ARGS]{…}, possibly several, possibly each after its own
    // [TOOL_CALLS].
    static const QRegularExpression head(
        QStringLiteral("\\G\\s*(?:\\[TOOL_CALLS\\])?\\s*([A-Za-z0-9_.\\-]+)(?:\\[CALL_ID\\]([A-Za-z0-9_\\-]*))?"
                       "\\[ARGS\\]\\s*"));
    Result result;
    const QString all = text.toString();
    qsizetype at = 0;
    while (at < all.size()) {
        const QRegularExpressionMatch match = head.match(all, at);
        const qsizetype end = match.hasMatch() ? jsonEnd(all, match.capturedEnd()) : -1;
        if (end < 0) {
            result.calls.clear();
            result.problem = tr("The model wrote a tool call into its answer that could not be read, so it is "
                                "shown as text.");
            return result;
        }
        const QString name = match.captured(1);
        if (!declares(name)) {
            result.calls.clear();
            result.problem = unknownTool(name);
            return result;
        }
        const std::optional<QJsonValue> arguments =
            parseJson(QStringView(all).sliced(match.capturedEnd(), end - match.capturedEnd()));
        if (!arguments || !arguments->isObject()) {
            result.calls.clear();
            result.problem = tr("The model wrote a tool call into its answer that is not valid JSON, so it was not "
                                "run; it is shown as text.");
            return result;
        }
        const QString id = match.captured(2);
        result.calls.append({id.isEmpty() ? newCallId() : id, name, compact(*arguments)});
        at = end;
        while (at < all.size() && all.at(at).isSpace())
            ++at;
    }
    if (result.calls.isEmpty())
        result.problem = tr("The model wrote an empty list of tool calls into its answer.");
    return result;
}

TextCallParser::Result TextCallParser::parseJsonObjects(QStringView text) const
{
    Result result;
    QStringView rest = skipSpaceAndSemicolons(text);
    while (!rest.isEmpty()) {
        const qsizetype end = rest.startsWith(QLatin1Char('{')) ? jsonEnd(rest, 0) : -1;
        if (end < 0) {
            result.calls.clear();
            result.problem = tr("The model wrote a tool call into its answer that is not valid JSON, so it was not "
                                "run; it is shown as text.");
            return result;
        }
        const Result one = parseJsonCall(rest.first(end));
        if (!one.ok()) {
            result.calls.clear();
            result.problem = one.problem;
            return result;
        }
        result.calls += one.calls;
        rest = skipSpaceAndSemicolons(rest.sliced(end));
    }
    if (result.calls.isEmpty())
        result.problem = tr("The model wrote an empty list of tool calls into its answer.");
    return result;
}

TextCallParser::Result TextCallParser::parseNamedCall(const QString &name, QStringView arguments) const
{
    Result result;
    if (!declares(name)) {
        result.problem = unknownTool(name);
        return result;
    }
    arguments = arguments.trimmed();
    if (arguments.startsWith(QLatin1String("```"))) {
        const qsizetype firstLine = arguments.indexOf(QLatin1Char('\n'));
        arguments = firstLine < 0 ? QStringView() : arguments.sliced(firstLine + 1);
        if (arguments.endsWith(QLatin1String("```")))
            arguments.chop(3);
    }
    const std::optional<QJsonValue> value = parseJson(arguments.trimmed());
    if (!value || !value->isObject()) {
        result.problem = tr("The model wrote a tool call into its answer that is not valid JSON, so it was not "
                            "run; it is shown as text.");
        return result;
    }
    result.calls.append({newCallId(), name, compact(*value)});
    return result;
}

TextCallParser::Result TextCallParser::parseArgPairs(QStringView text) const
{
    static const QRegularExpression pair(
        QStringLiteral(R"(\G\s*<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)</arg_value>)"),
        QRegularExpression::DotMatchesEverythingOption);
    Result result;
    const QString all = text.toString();
    qsizetype at = 0;
    while (at < all.size() && all.at(at) != QLatin1Char('<') && all.at(at) != QLatin1Char('\n'))
        ++at;
    const QString name = all.first(at).trimmed();
    if (!declares(name)) {
        result.problem = unknownTool(name);
        return result;
    }
    QJsonObject arguments;
    for (QRegularExpressionMatch match = pair.match(all, at); match.hasMatch(); match = pair.match(all, at)) {
        const QString key = match.captured(1).trimmed();
        arguments.insert(key, typedParameter(name, key, match.captured(2)));
        at = match.capturedEnd();
    }
    if (!all.sliced(at).trimmed().isEmpty()) {
        result.problem = tr("The model wrote a tool call into its answer in XML that could not be read, so it is "
                            "shown as text.");
        return result;
    }
    result.calls.append({newCallId(), name, compact(arguments)});
    return result;
}

TextCallParser::Result TextCallParser::parsePythonic(QStringView text) const
{
    Result result;
    const std::optional<QList<PythonLiteral::Call>> calls = PythonLiteral::readCallList(text);
    if (!calls || calls->isEmpty()) {
        result.problem = tr("The model wrote a tool call into its answer as Python that could not be read, so it "
                            "was not run; it is shown as text.");
        return result;
    }
    for (const PythonLiteral::Call &call : *calls) {
        if (!declares(call.name)) {
            result.calls.clear();
            result.problem = unknownTool(call.name);
            return result;
        }
        result.calls.append({newCallId(), call.name, compact(call.arguments)});
    }
    return result;
}

} // namespace Sandpiper
