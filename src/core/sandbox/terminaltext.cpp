#include "sandbox/terminaltext.h"

namespace Sandpiper {

void TerminalText::append(QString &text, QStringView chunk)
{
    qsizetype start = 0;
    while (start < chunk.size()) {
        if (text.endsWith(QLatin1Char('\r'))) {
            text.chop(1);
            if (chunk.at(start) == QLatin1Char('\n')) {
                text += QLatin1Char('\n'); // \r\n: an ordinary line break
                ++start;
                continue;
            }
            text.truncate(text.lastIndexOf(QLatin1Char('\n')) + 1); // the line is drawn anew
        }
        const qsizetype carriage = chunk.indexOf(QLatin1Char('\r'), start);
        const qsizetype end = carriage < 0 ? chunk.size() : carriage + 1;
        text += chunk.sliced(start, end - start);
        start = end;
    }
}

void TerminalText::keepTail(QString &text, qsizetype limit)
{
    if (text.size() <= limit)
        return;
    qsizetype cut = text.size() - limit;
    const qsizetype lineStart = text.indexOf(QLatin1Char('\n'), cut);
    if (lineStart >= 0 && lineStart - cut < 4096)
        cut = lineStart + 1;
    text.remove(0, cut);
}

} // namespace Sandpiper
