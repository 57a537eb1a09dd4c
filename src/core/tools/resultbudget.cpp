#include "tools/resultbudget.h"

#include <QStringList>

#include <algorithm>

namespace Sandpiper {

namespace {

constexpr ResultBudget::Rank ranks[] = {ResultBudget::Rank::Essential, ResultBudget::Rank::Traceback,
                                        ResultBudget::Rank::Output, ResultBudget::Rank::Display};
// Kinds named in the closing line; the sandbox names the kinds of its tables, so they are short.
constexpr int namedKinds = 3;
constexpr int kindSide = 8;

QString omittedMarker(qint64 characters)
{
    return QStringLiteral("\n[... %1 characters omitted ...]\n").arg(characters);
}

// TEXT's first HEAD and last TAIL characters, fewer where a surrogate pair would be split.
std::pair<qsizetype, qsizetype> ends(const QString &text, qsizetype head, qsizetype tail)
{
    if (head > 0 && text.at(head - 1).isHighSurrogate())
        --head;
    if (tail > 0 && text.at(text.size() - tail).isLowSurrogate())
        --tail;
    return {head, tail};
}

// TEXT's first HEAD and last TAIL characters around a note of what is left out, whose count goes
// to CUT.
QString headAndTail(const QString &text, qsizetype head, qsizetype tail, qint64 *cut)
{
    const auto [keptHead, keptTail] = ends(text, head, tail);
    const qint64 omitted = text.size() - keptHead - keptTail;
    if (cut)
        *cut = omitted;
    return text.left(keptHead) + omittedMarker(omitted) + text.right(keptTail);
}

} // namespace

ResultBudget::ResultBudget(int chars)
    : m_chars(std::max(chars, minimumChars))
{}

void ResultBudget::add(Rank rank, const QString &title, const QString &text, int cap)
{
    m_parts.append({rank, {}, title, text, std::max(0, cap)});
}

void ResultBudget::addItem(const QString &kind, const QString &title, const QString &text, int cap)
{
    m_parts.append({Rank::Display, kind, title, text, std::max(0, cap)});
}

int ResultBudget::wanted(const Part &part)
{
    // Each part ends with a line break, a title has its own line.
    const qsizetype title = part.title.isEmpty() ? 0 : part.title.size() + 1;
    return int(std::min<qsizetype>(title + std::min<qsizetype>(part.text.size(), part.cap) + 1,
                                   std::numeric_limits<int>::max()));
}

QList<int> ResultBudget::allotments() const
{
    QList<int> given(m_parts.size(), 0);
    qint64 left = m_chars - closingReserve;
    for (const Rank rank : ranks) {
        QList<qsizetype> members;
        int items = 0;
        for (qsizetype i = 0; i < m_parts.size(); ++i) {
            if (m_parts[i].rank != rank)
                continue;
            if (rank == Rank::Display && items++ >= describedItems)
                continue;
            members.append(i);
        }
        // The smallest first: what one part does not need goes to the larger ones after it.
        std::stable_sort(members.begin(), members.end(),
                         [this](qsizetype a, qsizetype b) { return wanted(m_parts[a]) < wanted(m_parts[b]); });
        qint64 sharing = members.size();
        for (const qsizetype i : std::as_const(members)) {
            const qint64 give = std::min<qint64>(wanted(m_parts[i]), left / sharing--);
            given[i] = int(give);
            left -= give;
        }
    }
    return given;
}

QString ResultBudget::text() const
{
    const QList<int> given = allotments();
    QStringList lines;
    QList<std::pair<QString, int>> itemsLeftOut; // by kind, in the order first met
    int itemCount = 0;
    qint64 charsLeftOut = 0;
    auto leaveOut = [&](const Part &part) {
        if (part.rank != Rank::Display) {
            charsLeftOut += part.text.size();
            return;
        }
        ++itemCount;
        const auto same = std::find_if(itemsLeftOut.begin(), itemsLeftOut.end(),
                                       [&](const auto &entry) { return entry.first == part.kind; });
        if (same != itemsLeftOut.end())
            ++same->second;
        else
            itemsLeftOut.append({part.kind, 1});
    };
    for (qsizetype i = 0; i < m_parts.size(); ++i) {
        const Part &part = m_parts[i];
        const qsizetype title = part.title.isEmpty() ? 0 : part.title.size() + 1;
        const qsizetype room = std::min<qsizetype>(given[i] - title - 1, part.cap);
        if (room < std::min<qsizetype>(smallestPart, part.text.size())) {
            leaveOut(part);
            continue;
        }
        qint64 cut = 0;
        const QString kept = shorten(part.text, int(room), &cut);
        charsLeftOut += cut;
        if (!part.title.isEmpty())
            lines << part.title;
        lines << kept;
    }
    if (itemCount == 0 && charsLeftOut == 0)
        return lines.join(QLatin1Char('\n'));

    QStringList what;
    if (itemCount > 0) {
        QStringList kinds;
        std::stable_sort(itemsLeftOut.begin(), itemsLeftOut.end(),
                         [](const auto &a, const auto &b) { return a.second > b.second; });
        for (const auto &[kind, count] : std::as_const(itemsLeftOut).mid(0, namedKinds))
            kinds << QStringLiteral("%1 %2").arg(shortName(kind, kindSide), QString::number(count));
        if (itemsLeftOut.size() > namedKinds)
            kinds << QStringLiteral("…");
        // The kinds are the sandbox's words: filled in last, where no placeholder follows.
        what << (itemCount == 1 ? QStringLiteral("1 more display item shown to the user (%1)")
                                : QStringLiteral("%1 more display items shown to the user (%2)").arg(itemCount))
                    .arg(kinds.join(QStringLiteral(", ")));
    }
    if (charsLeftOut > 0)
        what << QStringLiteral("%1 characters of output").arg(charsLeftOut);
    lines << QStringLiteral("… %1 not shown here (this result is limited to %2 characters)")
                 .arg(what.join(QStringLiteral(" and ")), QString::number(m_chars));
    return lines.join(QLatin1Char('\n'));
}

QString ResultBudget::shorten(const QString &text, int limit, qint64 *cut)
{
    if (cut)
        *cut = 0;
    if (text.size() <= limit)
        return text;
    const qsizetype keep = limit - omittedMarker(text.size()).size();
    if (keep <= 0) {
        if (cut)
            *cut = text.size();
        return {};
    }
    return headAndTail(text, keep / 2, keep - keep / 2, cut);
}

QString ResultBudget::keepHeadAndTail(const QString &text, int limit)
{
    if (text.size() <= limit)
        return text;
    return headAndTail(text, limit / 2, limit - limit / 2, nullptr);
}

QString ResultBudget::shortName(const QString &name, int side)
{
    if (name.size() <= 2 * side + 1)
        return name;
    const auto [head, tail] = ends(name, side, side);
    return name.left(head) + QStringLiteral("…") + name.right(tail);
}

} // namespace Sandpiper
