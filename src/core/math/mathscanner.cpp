#include "math/mathscanner.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <array>

namespace Sandpiper {

namespace {

bool isSpace(QChar c)
{
    return c.isSpace();
}

// Where the paragraph that holds FROM ends: at the next blank line, or the text's end.
qsizetype paragraphEnd(const QString &text, qsizetype from)
{
    static const QRegularExpression blankLine(QStringLiteral("\\n[ \\t]*\\n"));
    const QRegularExpressionMatch match = blankLine.match(text, from);
    return match.hasMatch() ? match.capturedStart() : text.size();
}

class Scanner
{
public:
    explicit Scanner(const QString &text)
        : m_text(text)
    {}

    // Scans [FROM, TO), text outside code fences.
    void scan(qsizetype from, qsizetype to)
    {
        qsizetype i = from;
        while (i < to) {
            const QChar c = m_text.at(i);
            if (c == QLatin1Char('\\') && i + 1 < to) {
                const QChar next = m_text.at(i + 1);
                if (next == QLatin1Char('(') || next == QLatin1Char('[')) {
                    const bool display = next == QLatin1Char('[');
                    if (const qsizetype end = closeBracket(i, to, display); end > 0) {
                        i = end;
                        continue;
                    }
                }
                i += 2; // an escaped character, \$ among them, is text
            } else if (c == QLatin1Char('`')) {
                const qsizetype end = codeSpanEnd(i, limitAt(i, to));
                if (end < 0) {
                    while (i < to && m_text.at(i) == QLatin1Char('`'))
                        ++i;
                } else {
                    i = end;
                }
            } else if (c == QLatin1Char('$')) {
                const qsizetype end = i + 1 < to && m_text.at(i + 1) == QLatin1Char('$') ? closeDisplayDollars(i, to)
                                                                                         : closeInlineDollar(i, to);
                i = end > 0 ? end : i + (i + 1 < to && m_text.at(i + 1) == QLatin1Char('$') ? 2 : 1);
            } else {
                ++i;
            }
        }
    }

    QList<MathScanner::Formula> formulas;

private:
    // The end of the paragraph that holds POSITION (the scan only moves forward), within TO.
    qsizetype limitAt(qsizetype position, qsizetype to)
    {
        if (position >= m_paragraphEnd)
            m_paragraphEnd = paragraphEnd(m_text, position);
        return std::min(to, m_paragraphEnd);
    }

    // The end of the code span opened by the backtick run at POSITION, or -1 when it is not closed
    // in its paragraph (then the backticks are text). The paragraph's runs are listed once, by
    // length, so that many runs that close nothing cost no more than one pass.
    qsizetype codeSpanEnd(qsizetype position, qsizetype limit)
    {
        qsizetype run = 0;
        while (position + run < m_text.size() && m_text.at(position + run) == QLatin1Char('`'))
            ++run;
        if (m_runsUpTo != m_paragraphEnd) {
            m_runs.clear();
            for (qsizetype i = position; i < m_paragraphEnd;) {
                qsizetype length = 0;
                while (i + length < m_paragraphEnd && m_text.at(i + length) == QLatin1Char('`'))
                    ++length;
                if (length > 0)
                    m_runs[length].append(i);
                i += std::max<qsizetype>(length, 1);
            }
            m_runsUpTo = m_paragraphEnd;
        }
        const QList<qsizetype> &same = m_runs.value(run);
        const auto next = std::upper_bound(same.begin(), same.end(), position);
        if (next == same.end() || *next + run > limit)
            return -1;
        return *next + run;
    }

    void add(qsizetype start, qsizetype end, qsizetype texStart, qsizetype texEnd, bool display)
    {
        formulas.append({start, end - start, m_text.sliced(texStart, texEnd - texStart).trimmed(), display});
    }

    // \( … \) or \[ … \] opened at START; the end of the formula, or -1.
    qsizetype closeBracket(qsizetype start, qsizetype to, bool display)
    {
        const QString closing = display ? QStringLiteral("\\]") : QStringLiteral("\\)");
        const qsizetype limit = limitAt(start, to);
        // Once a search found no closer up to LIMIT, none after it will either: thousands of
        // unclosed openers cost one search, not one each.
        qsizetype &noCloserFrom = m_noCloserFrom[display ? 1 : 0];
        if (noCloserFrom >= 0 && start >= noCloserFrom && limit == m_noCloserLimit[display ? 1 : 0])
            return -1;
        const qsizetype end = QStringView(m_text).first(limit).indexOf(closing, start + 2);
        if (end < 0) {
            noCloserFrom = start;
            m_noCloserLimit[display ? 1 : 0] = limit;
            return -1;
        }
        if (m_text.sliced(start + 2, end - start - 2).trimmed().isEmpty())
            return -1;
        add(start, end + 2, start + 2, end, display);
        return end + 2;
    }

    qsizetype closeDisplayDollars(qsizetype start, qsizetype to)
    {
        const qsizetype limit = limitAt(start, to);
        for (qsizetype i = start + 2; i + 1 < limit; ++i) {
            if (m_text.at(i) == QLatin1Char('\\')) {
                ++i;
            } else if (m_text.at(i) == QLatin1Char('$')) {
                if (m_text.at(i + 1) != QLatin1Char('$') || m_text.sliced(start + 2, i - start - 2).trimmed().isEmpty())
                    return -1;
                add(start, i + 2, start + 2, i, true);
                return i + 2;
            }
        }
        return -1;
    }

    qsizetype closeInlineDollar(qsizetype start, qsizetype to)
    {
        const qsizetype limit = limitAt(start, to);
        if (start + 1 >= limit || isSpace(m_text.at(start + 1)))
            return -1;
        for (qsizetype i = start + 1; i < limit; ++i) {
            if (m_text.at(i) == QLatin1Char('\\')) {
                ++i;
            } else if (m_text.at(i) == QLatin1Char('$')) {
                // The first dollar closes it or nothing does: a formula holds no dollar of its own.
                const bool closes = !isSpace(m_text.at(i - 1)) && !(i + 1 < to && m_text.at(i + 1).isDigit());
                if (!closes)
                    return -1;
                add(start, i + 1, start + 1, i, false);
                return i + 1;
            }
        }
        return -1;
    }

    const QString &m_text;
    qsizetype m_paragraphEnd = -1;
    QHash<qsizetype, QList<qsizetype>> m_runs; // backtick runs by length, in the paragraph up to m_runsUpTo
    qsizetype m_runsUpTo = -1;
    std::array<qsizetype, 2> m_noCloserFrom = {-1, -1}; // for \) and \]
    std::array<qsizetype, 2> m_noCloserLimit = {-1, -1};
};

} // namespace

QList<MathScanner::Formula> MathScanner::find(const QString &markdown)
{
    // The same fences as MarkdownView's: three or more backticks or tildes, indented up to three.
    static const QRegularExpression fence(QStringLiteral("^ {0,3}(`{3,}|~{3,})"), QRegularExpression::MultilineOption);
    Scanner scanner(markdown);
    qsizetype position = 0;
    QRegularExpressionMatch open;
    while ((open = fence.match(markdown, position)).hasMatch()) {
        scanner.scan(position, open.capturedStart());
        // The fence closes at a line of the same character, at least as long, and nothing else.
        const QString marker = open.captured(1);
        const QRegularExpression close(
            QStringLiteral("^ {0,3}%1%2*[ \\t]*$")
                .arg(QRegularExpression::escape(marker), QRegularExpression::escape(marker.left(1))),
            QRegularExpression::MultilineOption);
        const qsizetype lineEnd = markdown.indexOf(QLatin1Char('\n'), open.capturedEnd());
        if (lineEnd < 0)
            return scanner.formulas;
        const QRegularExpressionMatch closing = close.match(markdown, lineEnd + 1);
        if (!closing.hasMatch())
            return scanner.formulas; // the rest is code (still streaming in)
        position = closing.capturedEnd();
    }
    scanner.scan(position, markdown.size());
    return scanner.formulas;
}

} // namespace Sandpiper
