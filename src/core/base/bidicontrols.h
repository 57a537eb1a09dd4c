#pragma once

#include <QChar>

namespace Sandpiper {

// The characters that change the direction text is laid out in without being seen: embeddings and
// overrides (U+202A–U+202E), isolates (U+2066–U+2069), the left-to-right and right-to-left marks
// and the Arabic letter mark. In a name or a line from the sandbox they reorder how it reads
// ("invoice<U+202E>fdp.exe" shows as "invoiceexe.pdf"), so they are shown escaped, as controls are.
constexpr bool isBidiControl(char16_t c)
{
    return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f || c == 0x061c;
}

} // namespace Sandpiper
