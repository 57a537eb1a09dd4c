#include "terminalfilter.h"

#include "bidicontrols.h"

namespace Sandpiper {

namespace {

constexpr char16_t escape = 0x1b;
// A string without its terminator would hide everything after it; past this it counts as text.
constexpr qsizetype maxStringLength = 4096;

bool isC0(char16_t c)
{
    return c < 0x20 || c == 0x7f;
}

bool isC1(char16_t c)
{
    return c >= 0x80 && c <= 0x9f;
}

bool startsString(char16_t c)
{
    return c == u']' || c == u'P' || c == u'X' || c == u'^' || c == u'_';
}

} // namespace

QString TerminalFilter::clean(QStringView text)
{
    TerminalFilter filter;
    return filter.filter(text);
}

QString TerminalFilter::filter(QStringView text)
{
    QString kept;
    kept.reserve(text.size());
    for (const QChar c : text) {
        if (swallow(c))
            continue;
        if (isBidiControl(c.unicode()))
            kept += QStringLiteral("<U+%1>").arg(c.unicode(), 4, 16, QLatin1Char('0')).toUpper();
        else
            kept += c;
    }
    return kept;
}

bool TerminalFilter::swallow(QChar character)
{
    const char16_t c = character.unicode();
    switch (m_state) {
    case State::Text:
        break;
    case State::Escape:
        if (c == u'[') {
            m_state = State::Csi;
        } else if (startsString(c)) {
            m_state = State::String;
            m_stringLength = 0;
        } else if (c >= 0x20 && c <= 0x2f) {
            m_state = State::Intermediate;
        } else if (c >= 0x30 && c <= 0x7e) {
            m_state = State::Text; // a two-character escape such as ESC c (reset)
        } else if (c != escape) {
            m_state = State::Text;
            return swallow(character);
        }
        return true;
    case State::Intermediate:
        if (c >= 0x20 && c <= 0x2f)
            return true;
        m_state = State::Text;
        if (c >= 0x30 && c <= 0x7e)
            return true;
        return swallow(character);
    case State::Csi:
        if (c >= 0x20 && c <= 0x3f)
            return true; // parameters and intermediates
        m_state = State::Text;
        if (c >= 0x40 && c <= 0x7e)
            return true; // the final byte
        return swallow(character);
    case State::String:
        if (c == 0x07 || c == 0x9c || c == u'\n' || c == 0x18 || c == 0x1a) {
            m_state = State::Text; // BEL or ST end it; a newline, CAN or SUB abandon it
            return c != u'\n';
        }
        if (c == escape) {
            m_state = State::StringEscape;
            return true;
        }
        if (++m_stringLength > maxStringLength)
            m_state = State::Text;
        return true;
    case State::StringEscape:
        if (c == u'\\') {
            m_state = State::Text;
            return true;
        }
        m_state = State::Escape; // ESC ends the string and starts a sequence of its own
        return swallow(character);
    }

    if (c == escape) {
        m_state = State::Escape;
        return true;
    }
    if (c == 0x9b) {
        m_state = State::Csi;
        return true;
    }
    if (c == 0x90 || c == 0x9d || c == 0x98 || c == 0x9e || c == 0x9f) {
        m_state = State::String;
        m_stringLength = 0;
        return true;
    }
    if (c == u'\n' || c == u'\t')
        return false;
    return isC0(c) || isC1(c);
}

} // namespace Sandpiper
