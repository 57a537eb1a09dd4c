#pragma once

#include <QByteArray>
#include <QString>

namespace Sandpiper {

// Bytes from the web to text, in the encoding the page says it uses, as browsers find it:
// a byte order mark, else the charset of the Content-Type header, else (for HTML) a
// <meta charset> or <meta http-equiv="Content-Type"> near the top, else UTF-8 if the bytes
// are valid UTF-8, else Windows-1252 (what undeclared old pages nearly always are).
class WebTextDecoder
{
public:
    struct Decoded {
        QString text;
        QString encoding; // the name of the encoding used
        QString source;   // how it was chosen: "byte order mark", "header", "meta", "detected", "fallback"
    };

    static Decoded decode(const QByteArray &body, const QByteArray &contentType, bool html);

    // "text/html; charset=ISO-8859-1" -> "ISO-8859-1"; empty when there is none.
    static QByteArray charsetParameter(const QByteArray &contentType);
    // The charset a <meta> tag declares within the first few KB of HTML.
    static QByteArray metaCharset(const QByteArray &html);
    // The media type without parameters, lower case: "text/html".
    static QByteArray mimeType(const QByteArray &contentType);
};

} // namespace Sandpiper
