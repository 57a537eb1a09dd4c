#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

namespace Sandpiper {

// An SVG image from an untrusted neighbour (the sandbox, an MCP server, the math renderer),
// rewritten so that drawing it reaches nothing outside it. Qt's renderer opens the files that an
// <image> names by an absolute path (a FIFO there blocks it for good), so the image that is drawn
// refers to nothing outside its own text:
// - an href (any prefix: href, xlink:href) is kept only when it names a part of the document
//   ("#id"); <image> keeps only a data: URL of a PNG, JPEG or GIF of at most SandboxFigure::maxSide
//   pixels each way (its header is read, not decoded); an <image>, <use> or <feImage> that names
//   anything else is taken out whole, any other element loses the attribute;
// - in style sheets, style attributes and presentation attributes, url() of anything but "#id"
//   becomes none, and @import goes; CSS escapes, which could hide either, drop the whole text;
// - a DOCTYPE that declares entities or notations, and unreadable XML, refuse the whole image;
// - the input's size, its elements, their depth and the time spent reading are bounded.
// A pure function of the bytes, safe on any thread: sandpiper-cli can use it as the window does.
class SvgSanitizer
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::SvgSanitizer)

public:
    struct Budget {
        qint64 maxBytes;
        int maxElements;
        int maxDepth;
        int maxMilliseconds;
    };
    static constexpr Budget defaultBudget{8 * 1024 * 1024, 100'000, 128, 2000};

    struct Result {
        QByteArray svg;            // the document as it may be drawn; empty when it is refused
        int refusedReferences = 0; // references to what is outside it, taken out
        QString problem;           // why nothing of it may be drawn, in a sentence; else empty
    };

    static Result clean(const QByteArray &svg, const Budget &budget = defaultBudget);
};

} // namespace Sandpiper
