#include "llm/contentfilter.h"

#include <QRegularExpression>

namespace Sandpiper {

namespace {

const QLatin1StringView toolCallOpen("<tool_call>");
const QLatin1StringView toolCallClose("</tool_call>");
const QLatin1StringView functionOpen("<function=");
const QLatin1StringView functionClose("</function>");
const QLatin1StringView mistralMarker("[TOOL_CALLS]");
const QLatin1StringView pythonTag("<|python_tag|>");

qsizetype skipSpace(QStringView text, qsizetype from)
{
    while (from < text.size() && text[from].isSpace())
        ++from;
    return from;
}

// TEXT is empty or the beginning of WORD.
bool couldBecome(QStringView text, QLatin1StringView word)
{
    return text.size() <= word.size() && word.startsWith(text);
}

// TEXT to show now, after the white space held back before it; its own white space at the end is
// held back in PENDING until more text follows.
QString withoutTrailingSpace(QStringView text, QString &pending)
{
    qsizetype end = text.size();
    while (end > 0 && text[end - 1].isSpace())
        --end;
    if (end == 0) {
        pending += text;
        return {};
    }
    QString piece = pending + text.first(end);
    pending = text.sliced(end).toString();
    return piece;
}

// The start of an answer that is one JSON call, as Llama 3.x writes it.
const QRegularExpression &bareJsonStart()
{
    static const QRegularExpression pattern(QStringLiteral(
        R"re(^\{\s*(?:"type"\s*:\s*"function"\s*,\s*)?(?:"function"\s*:\s*\{\s*)?"name"\s*:\s*"((?:[^"\\]|\\.)*)")re"));
    return pattern;
}

// A Mistral call after [TOOL_CALLS]: NAME[ARGS] or NAME[CALL_ID]ID[ARGS], then the JSON object.
const QRegularExpression &mistralHead()
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(\G\s*(?:\[TOOL_CALLS\])?\s*([A-Za-z0-9_.\-]+)(?:\[CALL_ID\]([A-Za-z0-9_\-]*))?\[ARGS\]\s*)"));
    return pattern;
}

} // namespace

ContentFilter::ContentFilter(const QJsonArray &declarations, bool recoverCalls)
    : m_parser(declarations)
    , m_recover(recoverCalls)
{}

ContentFilter::Output ContentFilter::feed(QStringView delta)
{
    Output out;
    m_buffer += delta;
    process(out, false);
    return out;
}

ContentFilter::Result ContentFilter::finish(bool keepCalls)
{
    Result result;
    process(result.released, true);
    // White space at the end of the answer is part of it, unless there is no answer.
    if (!m_content.isEmpty()) {
        result.released.text += m_softSpace;
        m_content += m_softSpace;
    }
    m_softSpace.clear();
    if (!keepCalls && !m_calls.isEmpty()) {
        // Given back where the answer ends: the structured calls are what the server meant.
        result.released.text += m_callMarkup;
        m_content += m_callMarkup;
        m_calls.clear();
        m_dialect.clear();
    }
    result.content = m_content;
    result.reasoning = m_reasoning;
    result.calls = m_calls;
    result.dialect = m_dialect;
    result.problems = m_problems;
    result.problems.removeDuplicates();
    return result;
}

void ContentFilter::process(Output &out, bool atEnd)
{
    for (bool progress = true; progress;) {
        switch (m_state) {
        case State::Start:
            progress = processStart(atEnd);
            break;
        case State::Think:
            progress = processThink(out, atEnd);
            break;
        case State::Prose:
            progress = processProse(out, atEnd);
            break;
        case State::Markup:
            progress = processMarkup(out, atEnd);
            break;
        }
    }
}

bool ContentFilter::processStart(bool atEnd)
{
    const qsizetype first = skipSpace(m_buffer, 0);
    if (first == m_buffer.size() && !atEnd)
        return false;
    QStringView rest = QStringView(m_buffer).sliced(first);
    if (m_atAnswerStart) {
        for (const auto &[open, close] :
             {std::pair(QLatin1StringView("<think>"), QLatin1StringView("</think>")),
              std::pair(QLatin1StringView("<thinking>"), QLatin1StringView("</thinking>"))}) {
            if (rest.startsWith(open)) {
                m_buffer.remove(0, first + open.size());
                m_closer = close;
                m_atAnswerStart = false;
                m_state = State::Think;
                return true;
            }
        }
        if (!atEnd &&
            (couldBecome(rest, QLatin1StringView("<think>")) || couldBecome(rest, QLatin1StringView("<thinking>"))))
            return false;
    }
    m_atAnswerStart = false;
    if (m_afterThink) {
        // The gap between </think> and the answer belongs to neither.
        m_buffer.remove(0, first);
        rest = m_buffer;
    }
    if (callsEnabled() && rest.startsWith(QLatin1Char('{'))) {
        const QRegularExpressionMatch match =
            bareJsonStart().matchView(rest, 0, QRegularExpression::PartialPreferCompleteMatch);
        if (match.hasPartialMatch() && !atEnd)
            return false;
        if (match.hasMatch() && m_parser.declares(match.captured(1))) {
            m_softSpace += QStringView(m_buffer).first(m_buffer.size() - rest.size());
            m_segment = rest.toString();
            m_buffer.clear();
            m_markup = Markup::BareJson;
            m_markerLength = 0;
            m_state = State::Markup;
            return true;
        }
    }
    m_state = State::Prose;
    return true;
}

bool ContentFilter::processThink(Output &out, bool atEnd)
{
    const qsizetype close = m_buffer.indexOf(m_closer);
    if (close >= 0) {
        emitReasoning(QStringView(m_buffer).first(close), out);
        m_softThought.clear();
        m_buffer.remove(0, close + m_closer.size());
        m_afterThink = true;
        m_state = State::Start;
        return true;
    }
    // Keep what could be the start of the closing tag.
    qsizetype keep = 0;
    if (!atEnd) {
        for (qsizetype k = std::min(m_closer.size() - 1, m_buffer.size()); k > 0; --k) {
            if (m_closer.startsWith(QStringView(m_buffer).last(k))) {
                keep = k;
                break;
            }
        }
    }
    emitReasoning(QStringView(m_buffer).first(m_buffer.size() - keep), out);
    m_buffer.remove(0, m_buffer.size() - keep);
    return false;
}

bool ContentFilter::processProse(Output &out, bool atEnd)
{
    const bool calls = callsEnabled();
    for (qsizetype p = 0; p < m_buffer.size(); ++p) {
        const QChar c = m_buffer.at(p);
        if (calls && (c == QLatin1Char('<') || c == QLatin1Char('['))) {
            endRun();
            if (!insideCode()) {
                const MarkerMatch match = matchMarker(QStringView(m_buffer).sliced(p));
                if (match == MarkerMatch::Partial && !atEnd) {
                    emitProse(QStringView(m_buffer).first(p), out);
                    m_buffer.remove(0, p);
                    return false;
                }
                if (match == MarkerMatch::Full) {
                    emitProse(QStringView(m_buffer).first(p), out);
                    m_segment = m_buffer.sliced(p);
                    m_buffer.clear();
                    m_state = State::Markup;
                    return true;
                }
            }
        }
        advance(c);
    }
    emitProse(m_buffer, out);
    m_buffer.clear();
    return false;
}

bool ContentFilter::processMarkup(Output &out, bool atEnd)
{
    m_segment += m_buffer;
    m_buffer.clear();
    const Extent extent = extentOf(atEnd);
    switch (extent.verdict) {
    case Verdict::Incomplete:
        if (!atEnd)
            return false;
        m_problems << tr("The model's tool call was cut off before it was complete, so it was not run; it is shown "
                         "as text.");
        emitVerbatim(m_segment, out);
        m_segment.clear();
        m_state = State::Prose;
        return false;
    case Verdict::NotMarkup:
        // Prose after all: the marker is shown, and what follows it is read again as prose.
        emitVerbatim(QStringView(m_segment).first(m_markerLength), out);
        m_buffer = m_segment.sliced(m_markerLength);
        m_segment.clear();
        m_state = State::Prose;
        return true;
    case Verdict::Complete: {
        const QString markup = m_segment.first(extent.end);
        m_buffer = m_segment.sliced(extent.end);
        m_segment.clear();
        m_state = State::Prose;
        const TextCallParser::Result parsed = parse(markup);
        if (parsed.ok()) {
            m_calls += parsed.calls;
            m_dialect = dialectName(m_markup);
            m_callMarkup += m_softSpace + markup;
            m_softSpace.clear();
        } else {
            m_problems << parsed.problem;
            emitVerbatim(markup, out);
        }
        return true;
    }
    }
    return false;
}

// Whether REST opens with a marker (then m_markup and m_markerLength say which), or could
// still turn into one when more text arrives.
ContentFilter::MarkerMatch ContentFilter::matchMarker(QStringView rest)
{
    static const std::pair<QLatin1StringView, Markup> markers[] = {
        {toolCallOpen, Markup::ToolCallTag},
        {functionOpen, Markup::FunctionTag},
        {mistralMarker, Markup::Mistral},
        {pythonTag, Markup::PythonTag},
    };
    MarkerMatch match = MarkerMatch::None;
    for (const auto &[marker, markup] : markers) {
        if (rest.startsWith(marker)) {
            m_markup = markup;
            m_markerLength = marker.size();
            return MarkerMatch::Full;
        }
        if (rest.size() < marker.size() && marker.startsWith(rest))
            match = MarkerMatch::Partial;
    }
    return match;
}

ContentFilter::Extent ContentFilter::extentOf(bool atEnd) const
{
    switch (m_markup) {
    case Markup::ToolCallTag:
        return toolCallTagExtent(atEnd);
    case Markup::FunctionTag:
        return functionTagExtent(atEnd);
    case Markup::Mistral:
        return mistralExtent(atEnd);
    case Markup::PythonTag:
        // Llama's call runs to the end of its message.
        return atEnd ? Extent{Verdict::Complete, m_segment.size()} : Extent{};
    case Markup::BareJson:
        return bareJsonExtent(atEnd);
    }
    return {};
}

// The call's markup ends at END, with the </tool_call> that may follow it. The closing tag is
// often left out (servers stop at it) or cut in half by the end of the stream.
ContentFilter::Extent ContentFilter::closedAt(qsizetype end, bool atEnd) const
{
    const QStringView segment = m_segment;
    const qsizetype tail = skipSpace(segment, end);
    if (segment.sliced(tail).startsWith(toolCallClose))
        return {Verdict::Complete, tail + toolCallClose.size()};
    if (couldBecome(segment.sliced(tail), toolCallClose))
        return atEnd ? Extent{Verdict::Complete, segment.size()} : Extent{};
    return {Verdict::Complete, end};
}

ContentFilter::Extent ContentFilter::toolCallTagExtent(bool atEnd) const
{
    const QStringView segment = m_segment;
    const qsizetype body = skipSpace(segment, m_markerLength);
    if (body == segment.size())
        return atEnd ? Extent{Verdict::NotMarkup, 0} : Extent{};
    const QChar first = segment[body];
    if (first == QLatin1Char('{') || first == QLatin1Char('[')) {
        const qsizetype end = TextCallParser::jsonEnd(segment, body);
        if (end < 0)
            return {};
        return closedAt(end, atEnd);
    }
    if (!segment.sliced(body).startsWith(functionOpen)) {
        if (couldBecome(segment.sliced(body), functionOpen) && !atEnd)
            return {};
        return {Verdict::NotMarkup, 0};
    }
    const qsizetype close = segment.indexOf(toolCallClose, body);
    if (close >= 0)
        return {Verdict::Complete, close + toolCallClose.size()};
    if (!atEnd)
        return {};
    const qsizetype lastFunction = segment.lastIndexOf(functionClose);
    if (lastFunction < 0)
        return {};
    const qsizetype end = lastFunction + functionClose.size();
    const qsizetype tail = skipSpace(segment, end);
    return {Verdict::Complete, couldBecome(segment.sliced(tail), toolCallClose) ? segment.size() : end};
}

ContentFilter::Extent ContentFilter::functionTagExtent(bool atEnd) const
{
    const QStringView segment = m_segment;
    // Without <tool_call> around it the tag is taken for a call only when it names a tool.
    const qsizetype nameEnd = segment.indexOf(QLatin1Char('>'), m_markerLength);
    if (nameEnd >= 0 &&
        !m_parser.declares(segment.sliced(m_markerLength, nameEnd - m_markerLength).trimmed().toString()))
        return {Verdict::NotMarkup, 0};
    const qsizetype close = segment.indexOf(functionClose);
    if (close < 0)
        return atEnd && nameEnd < 0 ? Extent{Verdict::NotMarkup, 0} : Extent{};
    return closedAt(close + functionClose.size(), atEnd);
}

ContentFilter::Extent ContentFilter::mistralExtent(bool atEnd) const
{
    const QStringView segment = m_segment;
    const qsizetype body = skipSpace(segment, m_markerLength);
    if (body == segment.size())
        return atEnd ? Extent{Verdict::NotMarkup, 0} : Extent{};
    if (segment[body] == QLatin1Char('[') || segment[body] == QLatin1Char('{')) {
        const qsizetype end = TextCallParser::jsonEnd(segment, body);
        return end < 0 ? Extent{} : Extent{Verdict::Complete, end};
    }
    // NAME[ARGS]{…}, possibly followed by more calls.
    qsizetype lastEnd = -1;
    for (qsizetype at = m_markerLength;;) {
        if (at == segment.size()) {
            if (!atEnd)
                return {};
            return lastEnd >= 0 ? Extent{Verdict::Complete, lastEnd} : Extent{Verdict::NotMarkup, 0};
        }
        const QRegularExpressionMatch head =
            mistralHead().matchView(segment, at, QRegularExpression::PartialPreferCompleteMatch);
        if (head.hasPartialMatch())
            return atEnd && lastEnd >= 0 ? Extent{Verdict::Complete, lastEnd} : Extent{};
        if (!head.hasMatch())
            return lastEnd >= 0 ? Extent{Verdict::Complete, lastEnd} : Extent{Verdict::NotMarkup, 0};
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

ContentFilter::Extent ContentFilter::bareJsonExtent(bool atEnd) const
{
    const QStringView segment = m_segment;
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
            return {Verdict::NotMarkup, 0};
    }
}

QString ContentFilter::dialectName(Markup markup)
{
    switch (markup) {
    case ContentFilter::Markup::ToolCallTag:
        return QStringLiteral("Hermes");
    case ContentFilter::Markup::FunctionTag:
        return QStringLiteral("Qwen3-Coder");
    case ContentFilter::Markup::Mistral:
        return QStringLiteral("Mistral");
    case ContentFilter::Markup::PythonTag:
    case ContentFilter::Markup::BareJson:
        return QStringLiteral("Llama 3.1");
    }
    return {};
}

TextCallParser::Result ContentFilter::parse(QStringView markup) const
{
    switch (m_markup) {
    case Markup::ToolCallTag: {
        const qsizetype body = skipSpace(markup, m_markerLength);
        if (markup[body] == QLatin1Char('{') || markup[body] == QLatin1Char('['))
            return m_parser.parseJsonCall(markup.sliced(body, TextCallParser::jsonEnd(markup, body) - body));
        const qsizetype close = markup.indexOf(toolCallClose, body);
        const qsizetype end = close >= 0 ? close : markup.lastIndexOf(functionClose) + functionClose.size();
        return m_parser.parseFunctionXml(markup.sliced(body, end - body));
    }
    case Markup::FunctionTag:
        return m_parser.parseFunctionXml(markup.first(markup.lastIndexOf(functionClose) + functionClose.size()));
    case Markup::Mistral:
        return m_parser.parseMistral(markup.sliced(m_markerLength));
    case Markup::PythonTag:
        return m_parser.parseJsonObjects(markup.sliced(m_markerLength));
    case Markup::BareJson:
        return m_parser.parseJsonObjects(markup);
    }
    return {};
}

// Follows the Markdown structure of the visible text, one character at a time: runs of
// backticks or tildes open and close fences at the start of a line, backticks elsewhere open
// and close inline code.
void ContentFilter::advance(QChar c)
{
    if (c == QLatin1Char('`') || c == QLatin1Char('~')) {
        if (m_run > 0 && c == m_runChar) {
            ++m_run;
            return;
        }
        endRun();
        m_runChar = c;
        m_run = 1;
        m_runAtLineStart = m_lineStart;
        m_lineStart = false;
        return;
    }
    endRun();
    if (c == QLatin1Char('\n')) {
        m_lineStart = true;
        m_indent = 0;
        m_inlineTicks = 0;
    } else if (c == QLatin1Char(' ') && m_lineStart && m_indent < 3) {
        ++m_indent;
    } else {
        m_lineStart = false;
    }
}

void ContentFilter::endRun()
{
    if (m_run == 0)
        return;
    if (m_runAtLineStart && m_run >= 3) {
        if (m_fence.isEmpty())
            m_fence = QString(m_run, m_runChar);
        else if (m_runChar == m_fence.front() && m_run >= m_fence.size())
            m_fence.clear();
    } else if (m_runChar == QLatin1Char('`') && m_fence.isEmpty()) {
        if (m_inlineTicks == 0)
            m_inlineTicks = m_run;
        else if (m_inlineTicks == m_run)
            m_inlineTicks = 0;
    }
    m_run = 0;
}

void ContentFilter::emitProse(QStringView text, Output &out)
{
    const QString piece = withoutTrailingSpace(text, m_softSpace);
    out.text += piece;
    m_content += piece;
}

void ContentFilter::emitVerbatim(QStringView text, Output &out)
{
    for (const QChar c : text)
        advance(c);
    emitProse(text, out);
}

void ContentFilter::emitReasoning(QStringView text, Output &out)
{
    if (m_reasoning.isEmpty() && m_softThought.isEmpty())
        text = text.sliced(skipSpace(text, 0));
    const QString piece = withoutTrailingSpace(text, m_softThought);
    out.reasoning += piece;
    m_reasoning += piece;
}

} // namespace Sandpiper
