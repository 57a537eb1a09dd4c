#include "llm/textdialect.h"

#include "llm/pythonliteral.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>

namespace Sandpiper {

namespace {

using Body = TextDialect::Body;
using Verdict = TextDialect::Verdict;
using Extent = TextDialect::Extent;

const QLatin1StringView functionOpen("<function=");
const QLatin1StringView functionClose("</function>");
const QLatin1StringView argValueClose("</arg_value>");
const QLatin1StringView harmonyMessage("<|message|>");
const std::array harmonyHeaderWords = {QLatin1StringView("assistant"), QLatin1StringView("analysis"),
                                       QLatin1StringView("commentary"), QLatin1StringView("final")};

qsizetype skipSpace(QStringView text, qsizetype from)
{
    while (from < text.size() && text[from].isSpace())
        ++from;
    return from;
}

// TEXT is empty or the beginning of WORD.
template<typename Word>
bool couldBecome(QStringView text, Word word)
{
    return text.size() <= word.size() && word.startsWith(text);
}

// A JSON call's opening up to its name, for markup that counts only when it names a tool.
const QRegularExpression &jsonCallStart()
{
    static const QRegularExpression pattern(QStringLiteral(
        R"re(^\[?\s*\{\s*(?:"type"\s*:\s*"function"\s*,\s*)?(?:"function"\s*:\s*\{\s*)?"name"\s*:\s*"((?:[^"\\]|\\.)*)")re"));
    return pattern;
}

// A Python call list's opening up to its first name.
const QRegularExpression &pythonicStart()
{
    static const QRegularExpression pattern(QStringLiteral(R"(^\[\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\()"));
    return pattern;
}

// A Mistral call after [TOOL_CALLS]: NAME[ARGS] or NAME[CALL_ID]ID[ARGS], then the JSON object.
const QRegularExpression &mistralHead()
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(\G\s*(?:\[TOOL_CALLS\])?\s*([A-Za-z0-9_.\-]+)(?:\[CALL_ID\]([A-Za-z0-9_\-]*))?\[ARGS\]\s*)"));
    return pattern;
}

// gpt-oss names the tool a message goes to in its header: "to=functions.NAME".
QString harmonyRecipient(QStringView header)
{
    static const QRegularExpression pattern(QStringLiteral(R"(to=(?:functions\.)?([^\s<]+))"));
    return pattern.matchView(header).captured(1);
}

// Whether SEGMENT from BODY on names a declared tool in the way PATTERN captures it: Incomplete
// while it cannot tell, NotMarkup when it does not, Complete when it does.
Verdict namesDeclaredTool(const QRegularExpression &pattern, QStringView segment, qsizetype body,
                          const TextCallParser &parser, bool atEnd)
{
    const QRegularExpressionMatch match =
        pattern.matchView(segment.sliced(body), 0, QRegularExpression::PartialPreferCompleteMatch);
    if (match.hasPartialMatch())
        return atEnd ? Verdict::NotMarkup : Verdict::Incomplete;
    return match.hasMatch() && parser.declares(match.captured(1)) ? Verdict::Complete : Verdict::NotMarkup;
}

// The body ends at END, with the CLOSER that may follow it. The closer is often left out
// (servers stop at it) or cut in half by the end of the stream.
Extent closedAt(QStringView segment, qsizetype end, QStringView closer, bool atEnd)
{
    if (closer.isEmpty())
        return {Verdict::Complete, end};
    const qsizetype tail = skipSpace(segment, end);
    if (segment.sliced(tail).startsWith(closer))
        return {Verdict::Complete, tail + closer.size()};
    if (couldBecome(segment.sliced(tail), closer))
        return atEnd ? Extent{Verdict::Complete, segment.size()} : Extent{};
    return {Verdict::Complete, end};
}

Extent jsonExtent(const TextDialect &d, QStringView segment, const TextCallParser &parser, bool atEnd)
{
    const qsizetype body = skipSpace(segment, d.marker.size());
    if (body == segment.size())
        return atEnd ? Extent{Verdict::NotMarkup} : Extent{};
    if (segment[body] != QLatin1Char('{') && segment[body] != QLatin1Char('['))
        return {Verdict::NotMarkup};
    if (d.declaredOnly) {
        const Verdict named = namesDeclaredTool(jsonCallStart(), segment, body, parser, atEnd);
        if (named != Verdict::Complete)
            return {named};
    }
    const qsizetype end = TextCallParser::jsonEnd(segment, body);
    return end < 0 ? Extent{} : closedAt(segment, end, d.closer, atEnd);
}

Extent jsonObjectsExtent(const TextDialect &d, QStringView segment, const TextCallParser &parser, bool atEnd)
{
    // After a marker (Llama's <|python_tag|>) the call runs to the end of its message.
    if (!d.marker.isEmpty())
        return atEnd ? Extent{Verdict::Complete, segment.size()} : Extent{};
    const Verdict named = namesDeclaredTool(jsonCallStart(), segment, 0, parser, atEnd);
    if (named != Verdict::Complete)
        return {named};
    for (qsizetype at = 0;;) {
        const qsizetype end = TextCallParser::jsonEnd(segment, at);
        if (end < 0)
            return {};
        at = end;
        while (at < segment.size() && (segment[at].isSpace() || segment[at] == QLatin1Char(';')))
            ++at;
        if (at == segment.size())
            return atEnd ? Extent{Verdict::Complete, segment.size()} : Extent{};
        // Only an answer that is nothing but calls is taken for them.
        if (segment[at] != QLatin1Char('{'))
            return {Verdict::NotMarkup};
    }
}

Extent functionXmlExtent(const TextDialect &d, QStringView segment, const TextCallParser &parser, bool atEnd)
{
    const qsizetype xml = d.marker == functionOpen ? 0 : skipSpace(segment, d.marker.size());
    if (xml == segment.size())
        return atEnd ? Extent{Verdict::NotMarkup} : Extent{};
    if (!segment.sliced(xml).startsWith(functionOpen))
        return couldBecome(segment.sliced(xml), functionOpen) && !atEnd ? Extent{} : Extent{Verdict::NotMarkup};
    const qsizetype nameStart = xml + functionOpen.size();
    const qsizetype nameEnd = segment.indexOf(QLatin1Char('>'), nameStart);
    if (d.declaredOnly && nameEnd >= 0 &&
        !parser.declares(segment.sliced(nameStart, nameEnd - nameStart).trimmed().toString()))
        return {Verdict::NotMarkup};
    if (d.closer.isEmpty()) {
        const qsizetype close = segment.indexOf(functionClose, xml);
        if (close < 0)
            return atEnd && nameEnd < 0 ? Extent{Verdict::NotMarkup} : Extent{};
        return {Verdict::Complete, close + functionClose.size()};
    }
    const qsizetype close = segment.indexOf(d.closer, xml);
    if (close >= 0)
        return {Verdict::Complete, close + d.closer.size()};
    if (!atEnd)
        return {};
    const qsizetype lastFunction = segment.lastIndexOf(functionClose);
    if (lastFunction < 0)
        return {};
    const qsizetype end = lastFunction + functionClose.size();
    const qsizetype tail = skipSpace(segment, end);
    return {Verdict::Complete, couldBecome(segment.sliced(tail), d.closer) ? segment.size() : end};
}

Extent argPairsExtent(const TextDialect &d, QStringView segment, const TextCallParser &parser, bool atEnd)
{
    const qsizetype body = skipSpace(segment, d.marker.size());
    qsizetype nameEnd = body;
    while (nameEnd < segment.size() && segment[nameEnd] != QLatin1Char('<') && segment[nameEnd] != QLatin1Char('\n'))
        ++nameEnd;
    const QStringView name = segment.sliced(body, nameEnd - body).trimmed();
    if (nameEnd == segment.size())
        return !atEnd && parser.couldName(name) ? Extent{} : Extent{Verdict::NotMarkup};
    if (!parser.declares(name.toString()))
        return {Verdict::NotMarkup};
    const QStringView rest = segment.sliced(skipSpace(segment, nameEnd));
    static const QLatin1StringView argKey("<arg_key>");
    if (!rest.startsWith(argKey) && !rest.startsWith(d.closer) && !couldBecome(rest, argKey) &&
        !couldBecome(rest, d.closer))
        return {Verdict::NotMarkup};
    const qsizetype close = segment.indexOf(d.closer, nameEnd);
    if (close >= 0)
        return {Verdict::Complete, close + d.closer.size()};
    return atEnd ? Extent{Verdict::Complete, segment.size()} : Extent{};
}

Extent mistralExtent(const TextDialect &d, QStringView segment, bool atEnd)
{
    const qsizetype body = skipSpace(segment, d.marker.size());
    if (body == segment.size())
        return atEnd ? Extent{Verdict::NotMarkup} : Extent{};
    if (segment[body] == QLatin1Char('[') || segment[body] == QLatin1Char('{')) {
        const qsizetype end = TextCallParser::jsonEnd(segment, body);
        return end < 0 ? Extent{} : Extent{Verdict::Complete, end};
    }
    // NAME[ARGS]{…}, possibly followed by more calls.
    qsizetype lastEnd = -1;
    for (qsizetype at = d.marker.size();;) {
        if (at == segment.size()) {
            if (!atEnd)
                return {};
            return lastEnd >= 0 ? Extent{Verdict::Complete, lastEnd} : Extent{Verdict::NotMarkup};
        }
        const QRegularExpressionMatch head =
            mistralHead().matchView(segment, at, QRegularExpression::PartialPreferCompleteMatch);
        if (head.hasPartialMatch())
            return atEnd && lastEnd >= 0 ? Extent{Verdict::Complete, lastEnd} : Extent{};
        if (!head.hasMatch())
            return lastEnd >= 0 ? Extent{Verdict::Complete, lastEnd} : Extent{Verdict::NotMarkup};
        const qsizetype arguments = head.capturedEnd();
        if (arguments == segment.size())
            return {};
        if (segment[arguments] != QLatin1Char('{'))
            return {Verdict::Complete, arguments}; // unreadable: the parser says so
        const qsizetype end = TextCallParser::jsonEnd(segment, arguments);
        if (end < 0)
            return {};
        lastEnd = end;
        at = end;
    }
}

Extent pythonicExtent(QStringView segment, const TextCallParser &parser, bool atEnd)
{
    const Verdict named = namesDeclaredTool(pythonicStart(), segment, 0, parser, atEnd);
    if (named != Verdict::Complete)
        return {named};
    const qsizetype end = PythonLiteral::bracketEnd(segment, 0);
    if (end < 0)
        return {};
    // Only an answer that is nothing but calls is taken for them.
    if (skipSpace(segment, end) < segment.size())
        return {Verdict::NotMarkup};
    return atEnd ? Extent{Verdict::Complete, segment.size()} : Extent{};
}

Extent harmonyExtent(const TextDialect &d, QStringView segment, bool atEnd)
{
    // A header is one short line that goes on with a role or a channel.
    const QStringView header = segment.sliced(d.marker.size());
    const bool named = std::any_of(harmonyHeaderWords.begin(), harmonyHeaderWords.end(), [&](QLatin1StringView word) {
        return header.startsWith(word) || (!atEnd && couldBecome(header, word));
    });
    if (!named)
        return {Verdict::NotMarkup};
    const qsizetype message = segment.indexOf(harmonyMessage, d.marker.size());
    if (message < 0) {
        const bool couldBeHeader = header.size() < 200 && !header.contains(QLatin1Char('\n'));
        return couldBeHeader && !atEnd ? Extent{} : Extent{Verdict::NotMarkup};
    }
    const qsizetype bodyStart = message + harmonyMessage.size();
    if (harmonyRecipient(segment.first(message)).isEmpty())
        return {Verdict::Dropped, bodyStart}; // a channel's text follows; only its header goes
    const qsizetype body = skipSpace(segment, bodyStart);
    if (body == segment.size())
        return {};
    if (segment[body] == QLatin1Char('{')) {
        const qsizetype end = TextCallParser::jsonEnd(segment, body);
        return end < 0 ? Extent{} : closedAt(segment, end, d.closer, atEnd);
    }
    const qsizetype close = segment.indexOf(d.closer, body);
    if (close >= 0)
        return {Verdict::Complete, close + d.closer.size()};
    return atEnd ? Extent{Verdict::Complete, segment.size()} : Extent{};
}

Extent blocksExtent(const TextDialect &d, QStringView segment, bool atEnd)
{
    const qsizetype body = skipSpace(segment, d.marker.size());
    if (body == segment.size())
        return atEnd ? Extent{Verdict::NotMarkup} : Extent{};
    if (!segment.sliced(body).startsWith(d.callBegin))
        return !atEnd && couldBecome(segment.sliced(body), d.callBegin) ? Extent{} : Extent{Verdict::NotMarkup};
    const qsizetype close = segment.indexOf(d.closer, body);
    if (close >= 0)
        return {Verdict::Complete, close + d.closer.size()};
    if (!atEnd)
        return {};
    // The server may stop before the closer: the markup is whole when its last call is.
    const qsizetype lastEnd = segment.lastIndexOf(d.callEnd);
    return lastEnd > segment.lastIndexOf(d.callBegin) ? Extent{Verdict::Complete, lastEnd + d.callEnd.size()}
                                                      : Extent{};
}

// MARKUP without its marker and the closer that may end it.
QStringView inner(const TextDialect &d, QStringView markup)
{
    markup = markup.sliced(d.marker.size());
    return markup.endsWith(d.closer) && !d.closer.isEmpty() ? markup.chopped(d.closer.size()) : markup;
}

TextCallParser::Result unreadable()
{
    TextCallParser::Result result;
    result.problem =
        TextDialect::tr("The model wrote a tool call into its answer that could not be read, so it is shown as text.");
    return result;
}

TextCallParser::Result parseBlocks(const TextDialect &d, QStringView markup, const TextCallParser &parser)
{
    TextCallParser::Result result;
    QStringView rest = inner(d, markup).trimmed();
    while (!rest.isEmpty()) {
        if (!rest.startsWith(d.callBegin))
            return unreadable();
        rest = rest.sliced(d.callBegin.size());
        const qsizetype end = rest.indexOf(d.callEnd);
        const QStringView block = end < 0 ? rest : rest.first(end);
        rest = end < 0 ? QStringView() : rest.sliced(end + d.callEnd.size()).trimmed();
        const qsizetype separator = block.indexOf(d.separator);
        if (separator < 0)
            return unreadable();
        QString name = block.first(separator).trimmed().toString();
        QStringView arguments = block.sliced(separator + d.separator.size());
        // DeepSeek V3 and R1: the call's type comes first, the name on the arguments' first line.
        if (name == QLatin1String("function") && !parser.declares(name)) {
            const qsizetype line = arguments.indexOf(QLatin1Char('\n'));
            name = (line < 0 ? arguments : arguments.first(line)).trimmed().toString();
            arguments = line < 0 ? QStringView() : arguments.sliced(line + 1);
        }
        // Kimi-K2: functions.NAME:INDEX.
        static const QRegularExpression decorated(QStringLiteral(R"(^(?:functions\.)?(.*?)(?::\d+)?$)"));
        name = decorated.match(name).captured(1);
        const TextCallParser::Result one = parser.parseNamedCall(name, arguments);
        if (!one.ok())
            return one;
        result.calls += one.calls;
    }
    return result.calls.isEmpty() ? unreadable() : result;
}

} // namespace

TextDialect::Extent TextDialect::extent(QStringView segment, const TextCallParser &parser, bool atEnd) const
{
    switch (body) {
    case Body::Json:
        return jsonExtent(*this, segment, parser, atEnd);
    case Body::JsonObjects:
        return jsonObjectsExtent(*this, segment, parser, atEnd);
    case Body::FunctionXml:
        return functionXmlExtent(*this, segment, parser, atEnd);
    case Body::ArgPairs:
        return argPairsExtent(*this, segment, parser, atEnd);
    case Body::Mistral:
        return mistralExtent(*this, segment, atEnd);
    case Body::Pythonic:
        return pythonicExtent(segment, parser, atEnd);
    case Body::Harmony:
        return harmonyExtent(*this, segment, atEnd);
    case Body::Blocks:
        return blocksExtent(*this, segment, atEnd);
    case Body::Token:
        return {Verdict::Dropped, marker.size()};
    }
    return {};
}

TextCallParser::Result TextDialect::parse(QStringView markup, const TextCallParser &parser) const
{
    switch (body) {
    case Body::Json: {
        const qsizetype start = skipSpace(markup, marker.size());
        return parser.parseJsonCall(markup.sliced(start, TextCallParser::jsonEnd(markup, start) - start));
    }
    case Body::JsonObjects:
        return parser.parseJsonObjects(markup.sliced(marker.size()));
    case Body::FunctionXml: {
        const qsizetype start = marker == functionOpen ? 0 : skipSpace(markup, marker.size());
        const qsizetype close = closer.isEmpty() ? -1 : markup.indexOf(closer, start);
        const qsizetype end = close >= 0 ? close : markup.lastIndexOf(functionClose) + functionClose.size();
        return parser.parseFunctionXml(markup.sliced(start, end - start));
    }
    case Body::ArgPairs: {
        QStringView pairs = markup.sliced(marker.size());
        const qsizetype close = pairs.indexOf(closer);
        const qsizetype lastValue = pairs.lastIndexOf(argValueClose);
        if (close >= 0)
            pairs = pairs.first(close);
        else if (lastValue >= 0 && couldBecome(pairs.sliced(lastValue + argValueClose.size()).trimmed(), closer))
            pairs = pairs.first(lastValue + argValueClose.size());
        return parser.parseArgPairs(pairs);
    }
    case Body::Mistral:
        return parser.parseMistral(markup.sliced(marker.size()));
    case Body::Pythonic:
        return parser.parsePythonic(markup);
    case Body::Harmony: {
        const qsizetype message = markup.indexOf(harmonyMessage);
        QStringView arguments = markup.sliced(message + harmonyMessage.size()).trimmed();
        if (arguments.endsWith(closer))
            arguments.chop(closer.size());
        return parser.parseNamedCall(harmonyRecipient(markup.first(message)), arguments);
    }
    case Body::Blocks:
        return parseBlocks(*this, markup, parser);
    case Body::Token:
        break;
    }
    return {};
}

const QList<TextDialect> &textDialects()
{
    const auto blocks = [](const QString &name, const QString &begin, const QString &end, const QString &callBegin,
                           const QString &separator, const QString &callEnd) {
        return TextDialect{name, begin, Body::Blocks, false, end, callBegin, separator, callEnd};
    };
    const auto gptOssToken = [](const char *token) {
        return TextDialect{QStringLiteral("gpt-oss"), QLatin1String(token), Body::Token};
    };
    static const QList<TextDialect> dialects = {
        {QStringLiteral("Hermes"), QStringLiteral("<tool_call>"), Body::Json, false, QStringLiteral("</tool_call>")},
        {QStringLiteral("Qwen3-Coder"), QStringLiteral("<tool_call>"), Body::FunctionXml, false,
         QStringLiteral("</tool_call>")},
        {QStringLiteral("GLM-4.5"), QStringLiteral("<tool_call>"), Body::ArgPairs, true,
         QStringLiteral("</tool_call>")},
        {QStringLiteral("Qwen3-Coder"), functionOpen, Body::FunctionXml, true},
        {QStringLiteral("Mistral"), QStringLiteral("[TOOL_CALLS]"), Body::Mistral},
        {QStringLiteral("Llama 3.1"), QStringLiteral("<|python_tag|>"), Body::JsonObjects},
        {QStringLiteral("Llama 3.1"), QString(), Body::JsonObjects, true},
        {QStringLiteral("Llama 3.2"), QString(), Body::Pythonic, true},
        {QStringLiteral("Granite"), QStringLiteral("<|tool_call|>"), Body::Json},
        {QStringLiteral("Phi-4-mini"), QStringLiteral("functools"), Body::Json, true},
        blocks(QStringLiteral("DeepSeek"), QStringLiteral("<｜tool▁calls▁begin｜>"),
               QStringLiteral("<｜tool▁calls▁end｜>"), QStringLiteral("<｜tool▁call▁begin｜>"),
               QStringLiteral("<｜tool▁sep｜>"), QStringLiteral("<｜tool▁call▁end｜>")),
        blocks(QStringLiteral("Kimi-K2"), QStringLiteral("<|tool_calls_section_begin|>"),
               QStringLiteral("<|tool_calls_section_end|>"), QStringLiteral("<|tool_call_begin|>"),
               QStringLiteral("<|tool_call_argument_begin|>"), QStringLiteral("<|tool_call_end|>")),
        {QStringLiteral("gpt-oss"), QStringLiteral("<|start|>"), Body::Harmony, false, QStringLiteral("<|call|>")},
        {QStringLiteral("gpt-oss"), QStringLiteral("<|channel|>"), Body::Harmony, false, QStringLiteral("<|call|>")},
        gptOssToken("<|end|>"),
        gptOssToken("<|return|>"),
        gptOssToken("<|call|>"),
    };
    return dialects;
}

const QList<ThinkTags> &thinkTags()
{
    static const QList<ThinkTags> tags = {
        {QStringLiteral("<think>"), QStringLiteral("</think>")},
        {QStringLiteral("<thinking>"), QStringLiteral("</thinking>")},
        // gpt-oss (Harmony): the analysis channel.
        {QStringLiteral("<|channel|>analysis<|message|>"), QStringLiteral("<|end|>")},
        {QStringLiteral("<|start|>assistant<|channel|>analysis<|message|>"), QStringLiteral("<|end|>")},
    };
    return tags;
}

} // namespace Sandpiper
