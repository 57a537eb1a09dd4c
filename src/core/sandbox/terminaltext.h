#pragma once

#include <QString>

namespace Sandpiper {

// Output as a terminal shows it: a carriage return goes back to the start of its line and what
// follows replaces the line, so a progress bar (tqdm) that redraws itself 100 000 times is one
// line, not 100 000.
class TerminalText
{
public:
    // Appends CHUNK to TEXT. A carriage return at the end of TEXT waits there until the next chunk
    // shows whether a new line follows (\r\n) or the line is redrawn.
    static void append(QString &text, QStringView chunk);
    // Keeps the last LIMIT characters of TEXT or fewer, from the start of a line where one is near.
    static void keepTail(QString &text, qsizetype limit);
};

} // namespace Sandpiper
