#pragma once

#include <QString>

namespace Sandpiper {

// Removes terminal control sequences from text on its way to a terminal, where the model's
// words and the sandbox's output could otherwise set the window title, rewrite the clipboard
// (OSC 52), move the cursor over earlier lines or hide text: ESC and what it introduces (CSI,
// OSC, DCS, SOS, PM and APC strings, two-character escapes), their 8-bit C1 forms, and every
// other C0 and C1 control except newline and tab. Controls of text direction (see
// isBidiControl), which would make a name read otherwise, are shown as "<U+202E>". It keeps state
// between calls, so a sequence split across the chunks of a stream is removed whole.
class TerminalFilter
{
public:
    QString filter(QStringView text);
    // Forgets a sequence left open, when its stream has ended.
    void reset() { m_state = State::Text; }
    // TEXT, complete in itself, without control sequences.
    static QString clean(QStringView text);

private:
    enum class State {
        Text,
        Escape,       // after ESC
        Intermediate, // ESC followed by intermediate bytes, waiting for the final one
        Csi,          // control sequence: parameters and intermediates up to a final byte
        String,       // OSC, DCS, SOS, PM or APC: up to BEL or ST
        StringEscape, // ESC inside a string: ST if a backslash follows
    };

    // Returns whether C is part of a control sequence (or a control), and so is not shown.
    bool swallow(QChar c);

    State m_state = State::Text;
    qsizetype m_stringLength = 0;
};

} // namespace Sandpiper
