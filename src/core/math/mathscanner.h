#pragma once

#include <QList>
#include <QString>

namespace Sandpiper {

// Finds the TeX formulas in Markdown as models write them: `$…$` and `\(…\)` inline, `$$…$$`
// and `\[…\]` on display. Code (fenced blocks and `code spans`) is never math, `\$` is a dollar,
// and prices stay text: as in Pandoc, an opening `$` is followed by a non-space, a closing one
// follows a non-space and is not followed by a digit, and an inline formula holds no `$` of its
// own, so "$5 and $10" and "from $5 to $10 per $x$" read as they should. No formula spans a
// blank line.
class MathScanner
{
public:
    struct Formula {
        qsizetype start = 0;  // where its opening delimiter begins
        qsizetype length = 0; // delimiters included
        QString tex;          // without delimiters, trimmed
        bool display = false;
    };

    static QList<Formula> find(const QString &markdown);
};

} // namespace Sandpiper
