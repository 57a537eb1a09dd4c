#pragma once

#include <QList>
#include <QString>

#include <limits>

namespace Sandpiper {

// The text a tool sends back to the model, kept within one budget of characters that all of it
// shares, whatever it is made of: stdout, stderr, values, tracebacks, display items, files and
// notices. The budget goes to the parts that matter most first and is shared evenly among parts
// that matter as much; a part that gets less than it needs keeps its head and tail, a part that
// gets almost nothing is left out, and one closing line counts what the model does not see.
// Parts keep the order they were added in.
class ResultBudget
{
public:
    enum class Rank {
        Essential, // what happened: the status, the error, notices, figures, files
        Traceback, // where it went wrong
        Output,    // stdout, stderr, the last value
        Display,   // what display() showed the user: the first few described, the rest counted
    };
    // Display items described; later ones are only counted by kind.
    static constexpr int describedItems = 10;
    // A part that would get less than this is left out (counted) rather than cut to nothing.
    static constexpr int smallestPart = 80;
    // Room kept for the closing line.
    static constexpr int closingReserve = 300;
    // The smallest budget that still says what happened.
    static constexpr int minimumChars = 1000;

    explicit ResultBudget(int chars);

    // TEXT (one line or many) under TITLE (none when empty), at most CAP characters of it.
    void add(Rank rank, const QString &title, const QString &text, int cap = std::numeric_limits<int>::max());
    // One thing display() showed the user, of KIND (such as "Markdown" or "HTML"): TITLE and at
    // most CAP characters of TEXT when there is room, else counted in the closing line.
    void addItem(const QString &kind, const QString &title, const QString &text, int cap);

    // The parts within the budget, then what was left out in one line.
    QString text() const;

    // TEXT within LIMIT characters, its marker included: its head and tail around a note of how
    // much was left out, which goes to CUT. Pairs of UTF-16 surrogates are never split.
    static QString shorten(const QString &text, int limit, qint64 *cut = nullptr);
    // TEXT itself if it fits in LIMIT characters, else LIMIT of its characters, head and tail,
    // around the same note (which comes on top).
    static QString keepHeadAndTail(const QString &text, int limit);
    // A name from the sandbox (a file, a path) shortened in its middle with "…", so that its start
    // and its extension stay readable: SIDE characters of each end are kept.
    static QString shortName(const QString &name, int side = 40);

private:
    struct Part {
        Rank rank;
        QString kind; // display items only
        QString title;
        QString text;
        int cap;
    };
    // Characters each part may take (title and line breaks included), by the parts' order.
    QList<int> allotments() const;
    static int wanted(const Part &part);

    int m_chars;
    QList<Part> m_parts;
};

} // namespace Sandpiper
