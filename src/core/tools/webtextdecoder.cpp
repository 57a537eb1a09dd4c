#include "tools/webtextdecoder.h"

#include "tools/htmltokenizer.h"

#include <QStringDecoder>

namespace Sandpiper {

namespace {

// Browsers read all of these as Windows-1252, and so do the pages that declare them: the
// bytes 0x80 to 0x9F are curly quotes and dashes, never C1 control characters.
QByteArray canonicalLabel(QByteArray label)
{
    label = label.trimmed().toLower();
    if (label.size() >= 2 && (label.front() == '"' || label.front() == '\'') && label.back() == label.front())
        label = label.sliced(1, label.size() - 2).trimmed();
    static const QList<QByteArray> windows1252 = {"iso-8859-1", "iso8859-1", "iso_8859-1", "latin1",
                                                  "l1",         "us-ascii",  "ascii",      "cp819",
                                                  "ibm819",     "cp1252",    "x-cp1252",   "windows-1252"};
    if (windows1252.contains(label))
        return "windows-1252";
    if (label == "utf8" || label == "unicode-1-1-utf-8")
        return "utf-8";
    return label;
}

} // namespace

QByteArray WebTextDecoder::mimeType(const QByteArray &contentType)
{
    const qsizetype semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.first(semicolon)).trimmed().toLower();
}

QByteArray WebTextDecoder::charsetParameter(const QByteArray &contentType)
{
    for (const QByteArray &parameter : contentType.split(';')) {
        const qsizetype equals = parameter.indexOf('=');
        if (equals > 0 && parameter.first(equals).trimmed().toLower() == "charset")
            return canonicalLabel(parameter.sliced(equals + 1));
    }
    return {};
}

QByteArray WebTextDecoder::metaCharset(const QByteArray &html)
{
    // The HTML standard looks at the first 1024 bytes; pages with long heads put the
    // declaration later, and browsers find it there too.
    const QString head = QString::fromLatin1(html.left(4096));
    HtmlTokenizer tokenizer(head);
    for (auto token = tokenizer.next(); token.type != HtmlTokenizer::Token::Type::End; token = tokenizer.next()) {
        if (token.isStart(u"body"))
            break;
        if (!token.isStart(u"meta"))
            continue;
        if (token.hasAttribute(u"charset"))
            return canonicalLabel(token.attribute(u"charset").toLatin1());
        if (token.attribute(u"http-equiv").compare(QLatin1String("content-type"), Qt::CaseInsensitive) == 0) {
            const QByteArray charset = charsetParameter(token.attribute(u"content").toLatin1());
            if (!charset.isEmpty())
                return charset;
        }
    }
    return {};
}

WebTextDecoder::Decoded WebTextDecoder::decode(const QByteArray &body, const QByteArray &contentType, bool html)
{
    Decoded decoded;
    // True when the bytes were valid in the encoding (a character cut off at the very end, as
    // in a body cut at the size limit, is kept as state by the decoder, not an error).
    auto decodeWith = [&](QStringDecoder decoder, const QString &source) {
        decoded.text = decoder.decode(body);
        decoded.encoding = QString::fromLatin1(decoder.name());
        decoded.source = source;
        return !decoder.hasError();
    };

    // Without a hint, encodingForData() recognises byte order marks only.
    if (const auto bom = QStringConverter::encodingForData(body)) {
        decodeWith(QStringDecoder(*bom), QStringLiteral("byte order mark"));
        return decoded;
    }
    QByteArray declared = charsetParameter(contentType);
    QString source = QStringLiteral("header");
    if (declared.isEmpty() && html) {
        declared = metaCharset(body);
        source = QStringLiteral("meta");
        // A page that declares UTF-16 in a meta tag was just read as ASCII to find it, so it is not.
        if (declared.startsWith("utf-16"))
            declared = "utf-8";
    }
    if (!declared.isEmpty()) {
        QStringDecoder decoder(declared.constData());
        const bool utf8 = decoder.isValid() && QByteArrayView(decoder.name()) == "UTF-8";
        // Servers often claim UTF-8 for every file, old Latin-1 ones included: invalid UTF-8
        // means the claim is wrong, and the fallback below reads such files right.
        if (decoder.isValid() && (decodeWith(std::move(decoder), source) || !utf8))
            return decoded;
    }
    if (decodeWith(QStringDecoder(QStringDecoder::Utf8),
                   declared.isEmpty() ? QStringLiteral("detected") : QStringLiteral("fallback")))
        return decoded;
    // Undeclared, wrongly declared or unknown, and not UTF-8: what such pages nearly always are.
    QStringDecoder windows1252("windows-1252");
    if (windows1252.isValid())
        decodeWith(std::move(windows1252), QStringLiteral("fallback"));
    else
        decodeWith(QStringDecoder(QStringDecoder::Latin1), QStringLiteral("fallback"));
    return decoded;
}

} // namespace Sandpiper
