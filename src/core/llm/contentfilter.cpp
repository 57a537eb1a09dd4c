#include "llm/contentfilter.h"

#include <QHash>

namespace Sandpiper {

namespace {

qsizetype skipSpace(QStringView text, qsizetype from)
{
    while (from < text.size() && text[from].isSpace())
        ++from;
    return from;
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

// Whether C can begin a marker of a dialect (then the text is looked at more closely).
bool mayOpenMarker(QChar c)
{
    static const QString firsts = [] {
        QString chars;
        for (const TextDialect &dialect : textDialects()) {
            if (!dialect.marker.isEmpty() && !chars.contains(dialect.marker.front()))
                chars += dialect.marker.front();
        }
        return chars;
    }();
    return firsts.contains(c);
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
        m_dialectName.clear();
    }
    result.content = m_content;
    result.reasoning = m_reasoning;
    result.calls = m_calls;
    result.dialect = m_dialectName;
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
    // White space is skipped once, not on every delta that adds to it.
    const qsizetype first = skipSpace(m_buffer, m_spaceSeen);
    m_spaceSeen = first;
    if (first == m_buffer.size() && !atEnd)
        return false;
    QStringView rest = QStringView(m_buffer).sliced(first);
    if (m_atAnswerStart) {
        bool couldOpen = false;
        for (const ThinkTags &tags : thinkTags()) {
            if (rest.startsWith(tags.open)) {
                m_buffer.remove(0, first + tags.open.size());
                m_closer = tags.close;
                m_atAnswerStart = false;
                m_state = State::Think;
                return true;
            }
            couldOpen = couldOpen || (rest.size() < tags.open.size() && tags.open.startsWith(rest));
        }
        if (couldOpen && !atEnd)
            return false;
    }
    m_atAnswerStart = false;
    if (m_afterThink) {
        // The gap between </think> and the answer belongs to neither.
        m_buffer.remove(0, first);
        rest = m_buffer;
    }
    // Dialects whose calls are the whole answer.
    const QList<TextDialect> &dialects = textDialects();
    for (qsizetype row = 0; callsEnabled() && !rest.isEmpty() && row < dialects.size(); ++row) {
        if (!dialects[row].marker.isEmpty() ||
            dialects[row].extent(rest, m_parser, atEnd).verdict == TextDialect::Verdict::NotMarkup)
            continue;
        m_softSpace += QStringView(m_buffer).first(m_buffer.size() - rest.size());
        m_segment = rest.toString();
        m_buffer.clear();
        m_dialect = row;
        m_state = State::Markup;
        m_lookedAt = 0;
        return true;
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
        m_spaceSeen = 0;
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
        // A marker that is a word starts one.
        if (calls && mayOpenMarker(c) && !(c.isLetter() && (m_previous.isLetterOrNumber() || m_previous == u'_'))) {
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
                    m_lookedAt = 0;
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
    // A long markup is looked at again only when it has grown by an eighth, so that one that
    // never closes costs linear time, not a full scan on every delta.
    if (!atEnd && m_segment.size() > 4096 && m_segment.size() < m_lookedAt + m_lookedAt / 8)
        return false;
    m_lookedAt = m_segment.size();
    const TextDialect::Extent extent = dialect().extent(m_segment, m_parser, atEnd);
    switch (extent.verdict) {
    case TextDialect::Verdict::Incomplete:
        if (!atEnd)
            return false;
        m_problems << tr("The model's tool call was cut off before it was complete, so it was not run; it is shown "
                         "as text.");
        emitVerbatim(m_segment, out);
        m_segment.clear();
        m_state = State::Prose;
        return false;
    case TextDialect::Verdict::NotMarkup: {
        if (tryNextDialect())
            return true;
        // Prose after all: the marker is shown, and what follows it is read again as prose.
        const qsizetype marker = dialect().marker.size();
        emitVerbatim(QStringView(m_segment).first(marker), out);
        m_buffer = m_segment.sliced(marker);
        m_segment.clear();
        m_state = State::Prose;
        return true;
    }
    case TextDialect::Verdict::Dropped:
        m_buffer = m_segment.sliced(extent.end);
        m_segment.clear();
        m_state = State::Prose;
        return true;
    case TextDialect::Verdict::Complete: {
        const QString markup = m_segment.first(extent.end);
        m_buffer = m_segment.sliced(extent.end);
        m_segment.clear();
        m_state = State::Prose;
        const TextCallParser::Result parsed = dialect().parse(markup, m_parser);
        if (parsed.ok()) {
            m_calls += parsed.calls;
            m_dialectName = dialect().name;
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

// The next row with the same marker, when the one tried did not fit.
bool ContentFilter::tryNextDialect()
{
    const QList<TextDialect> &dialects = textDialects();
    for (qsizetype row = m_dialect + 1; row < dialects.size(); ++row) {
        if (dialects[row].marker == dialect().marker) {
            m_dialect = row;
            m_lookedAt = 0;
            return true;
        }
    }
    return false;
}

// Whether REST opens with a marker (then m_dialect says the first row that has it), or could
// still turn into one when more text arrives.
ContentFilter::MarkerMatch ContentFilter::matchMarker(QStringView rest)
{
    // The rows by their marker's first two characters: most '<' in a text open none of them.
    static const QHash<quint32, QList<qsizetype>> rowsByStart = [] {
        QHash<quint32, QList<qsizetype>> rows;
        const QList<TextDialect> &dialects = textDialects();
        for (qsizetype row = 0; row < dialects.size(); ++row) {
            const QString &marker = dialects[row].marker;
            if (marker.size() >= 2)
                rows[quint32(marker[0].unicode()) << 16 | marker[1].unicode()].append(row);
        }
        return rows;
    }();
    if (rest.size() < 2)
        return rest.isEmpty() || mayOpenMarker(rest[0]) ? MarkerMatch::Partial : MarkerMatch::None;
    const QList<TextDialect> &dialects = textDialects();
    MarkerMatch match = MarkerMatch::None;
    for (const qsizetype row : rowsByStart.value(quint32(rest[0].unicode()) << 16 | rest[1].unicode())) {
        const QString &marker = dialects[row].marker;
        if (rest.startsWith(marker)) {
            m_dialect = row;
            return MarkerMatch::Full;
        }
        if (rest.size() < marker.size() && marker.startsWith(rest))
            match = MarkerMatch::Partial;
    }
    return match;
}

// Follows the Markdown structure of the visible text, one character at a time: runs of
// backticks or tildes open and close fences at the start of a line, backticks elsewhere open
// and close inline code.
void ContentFilter::advance(QChar c)
{
    m_previous = c;
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
