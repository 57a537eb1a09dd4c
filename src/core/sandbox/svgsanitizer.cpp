#include "sandbox/svgsanitizer.h"

#include "sandbox/sandboxfigure.h"

#include <QElapsedTimer>
#include <QLocale>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>
#include <QtEndian>

#include <optional>

namespace Sandpiper {

namespace {

// How many tokens are read between two looks at the clock.
constexpr int tokensPerClockCheck = 256;

QStringView localPart(QStringView qualifiedName)
{
    return qualifiedName.sliced(qualifiedName.lastIndexOf(u':') + 1);
}

// href and xlink:href, or any other prefix bound to the XLink namespace: the renderer's reader
// may see the namespace where this one sees only the prefix.
bool isHref(QStringView qualifiedName)
{
    return !qualifiedName.startsWith(u"xmlns") && localPart(qualifiedName).compare(u"href", Qt::CaseInsensitive) == 0;
}

bool isFragment(QStringView reference)
{
    return reference.trimmed().startsWith(u'#');
}

// The width and height in a JPEG's frame header, or invalid.
QSize jpegSize(QByteArrayView bytes)
{
    qsizetype at = 2; // past the start of image
    while (at + 4 <= bytes.size()) {
        if (uchar(bytes[at]) != 0xff)
            return {};
        const uchar marker = uchar(bytes[at + 1]);
        if (marker == 0xff) { // fill
            ++at;
            continue;
        }
        if (marker == 0x01 || (marker >= 0xd0 && marker <= 0xd8)) { // markers without a length
            at += 2;
            continue;
        }
        if (marker == 0xd9 || marker == 0xda) // the end, or a scan before any frame header
            return {};
        const quint16 length = qFromBigEndian<quint16>(bytes.data() + at + 2);
        const bool frame = marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
        if (frame) {
            if (at + 9 > bytes.size())
                return {};
            const quint16 height = qFromBigEndian<quint16>(bytes.data() + at + 5);
            const quint16 width = qFromBigEndian<quint16>(bytes.data() + at + 7);
            // A height of 0 is given later, by a DNL marker: not read here, so not drawn.
            return width && height ? QSize(width, height) : QSize();
        }
        if (length < 2)
            return {};
        at += 2 + length;
    }
    return {};
}

// The media type of a whole PNG, a JPEG or a GIF within the figure limits, read from its header;
// null for anything else (an SVG inside a data: URL would be decoded by the SVG renderer again).
const char *rasterType(QByteArrayView bytes)
{
    QSize size;
    const char *type = nullptr;
    if (size = SandboxFigure::pngSize(bytes); size.isValid()) {
        if (!SandboxFigure::truncationProblem({}, bytes).isEmpty())
            return nullptr;
        type = "image/png";
    } else if ((bytes.startsWith("GIF87a") || bytes.startsWith("GIF89a")) && bytes.size() >= 10) {
        size = QSize(qFromLittleEndian<quint16>(bytes.data() + 6), qFromLittleEndian<quint16>(bytes.data() + 8));
        type = "image/gif";
    } else if (bytes.startsWith("\xff\xd8")) {
        size = jpegSize(bytes);
        type = "image/jpeg";
    }
    if (!type || size.isEmpty() || !SandboxFigure::sizeProblem({}, size).isEmpty())
        return nullptr;
    return type;
}

// URL as the data: URL of a raster image that <image> may keep (its media type said by its bytes,
// not by the URL), or empty when it is anything else.
QString inlineRaster(QStringView url)
{
    url = url.trimmed();
    const qsizetype comma = url.indexOf(u',');
    if (!url.startsWith(u"data:", Qt::CaseInsensitive) || comma < 0)
        return {};
    const QStringView header = url.sliced(5, comma - 5);
    QByteArray payload = url.sliced(comma + 1).toLatin1();
    QByteArray bytes;
    if (header.endsWith(u";base64", Qt::CaseInsensitive)) {
        payload.removeIf([](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; });
        auto decoded = QByteArray::fromBase64Encoding(payload, QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return {};
        bytes = std::move(decoded.decoded);
    } else {
        bytes = QByteArray::fromPercentEncoding(payload);
    }
    const char *type = rasterType(bytes);
    if (!type)
        return {};
    return QStringLiteral("data:%1;base64,%2").arg(QLatin1StringView(type), QLatin1StringView(bytes.toBase64()));
}

// TEXT (a style sheet, a style or presentation attribute) with each url() of anything but a part
// of the document made none and each @import taken out, each counted in REFUSED. A backslash
// beside a parenthesis or an at-sign could be a CSS escape that hides either: the text goes whole.
QString cleanCss(const QString &text, int *refused)
{
    const QStringView view(text);
    if (view.contains(u'\\') && (view.contains(u'(') || view.contains(u'@'))) {
        ++*refused;
        return {};
    }
    static const QString url = QStringLiteral("url(");
    static const QString import = QStringLiteral("@import");
    // Where each comes next from AT on; looked for again only once AT has passed it.
    qsizetype nextUrl = view.indexOf(url, 0, Qt::CaseInsensitive);
    qsizetype nextImport = view.indexOf(import, 0, Qt::CaseInsensitive);
    if (nextUrl < 0 && nextImport < 0)
        return text;
    QString out;
    out.reserve(text.size());
    qsizetype at = 0;
    while (at < view.size()) {
        if (nextUrl >= 0 && nextUrl < at)
            nextUrl = view.indexOf(url, at, Qt::CaseInsensitive);
        if (nextImport >= 0 && nextImport < at)
            nextImport = view.indexOf(import, at, Qt::CaseInsensitive);
        const bool isUrl = nextUrl >= 0 && (nextImport < 0 || nextUrl < nextImport);
        const qsizetype next = isUrl ? nextUrl : nextImport;
        if (next < 0) {
            out += view.sliced(at);
            break;
        }
        out += view.sliced(at, next - at);
        ++*refused; // taken back below for a part of the document
        if (!isUrl) {
            const qsizetype end = view.indexOf(u';', next);
            at = end < 0 ? view.size() : end + 1;
            continue;
        }
        qsizetype start = next + url.size();
        while (start < view.size() && view[start].isSpace())
            ++start;
        QStringView target;
        qsizetype close = -1;
        if (start < view.size() && (view[start] == u'"' || view[start] == u'\'')) {
            const qsizetype quote = view.indexOf(view[start], start + 1);
            if (quote >= 0) {
                target = view.sliced(start + 1, quote - start - 1);
                close = view.indexOf(u')', quote + 1);
            }
        } else {
            close = view.indexOf(u')', start);
            if (close >= 0)
                target = view.sliced(start, close - start);
        }
        if (close < 0) // never closed: the rest is its argument
            break;
        if (isFragment(target)) {
            --*refused;
            out += view.sliced(next, close + 1 - next);
        } else {
            out += u"none";
        }
        at = close + 1;
    }
    return out;
}

QString dataSize(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

} // namespace

SvgSanitizer::Result SvgSanitizer::clean(const QByteArray &svg, const Budget &budget)
{
    Result result;
    auto refuse = [&result](const QString &problem) {
        result = Result{};
        result.problem = problem;
        return result;
    };
    if (svg.size() > budget.maxBytes)
        return refuse(tr("The SVG image is %1, larger than the %2 that Sandpiper draws.")
                          .arg(dataSize(svg.size()), dataSize(budget.maxBytes)));
    QElapsedTimer clock;
    clock.start();
    // Without namespace processing the declarations stay attributes and are copied as they are,
    // and a name is what the document wrote ("xlink:href"), whatever it binds the prefix to.
    QXmlStreamReader reader(svg);
    reader.setNamespaceProcessing(false);
    QByteArray out;
    QXmlStreamWriter writer(&out);
    int depth = 0;
    int elements = 0;
    int skipping = 0;   // the depth inside an element that is taken out whole
    int styleDepth = 0; // the depth of the <style> element being read
    int tokens = 0;
    while (!reader.atEnd()) {
        const QXmlStreamReader::TokenType token = reader.readNext();
        if (++tokens % tokensPerClockCheck == 0 && clock.hasExpired(budget.maxMilliseconds))
            return refuse(
                tr("Reading the SVG image took longer than %1 ms; it is not drawn.").arg(budget.maxMilliseconds));
        switch (token) {
        case QXmlStreamReader::StartElement: {
            if (++depth > budget.maxDepth)
                return refuse(
                    tr("The SVG image nests its parts more than %1 deep; it is not drawn.").arg(budget.maxDepth));
            if (++elements > budget.maxElements)
                return refuse(tr("The SVG image has more than %1 parts; it is not drawn.").arg(budget.maxElements));
            if (skipping > 0) {
                ++skipping;
                break;
            }
            const QString name = reader.qualifiedName().toString();
            const QStringView local = localPart(name);
            if (depth == 1 && local != u"svg")
                return refuse(tr("This is no SVG image: its outermost element is <%1>.").arg(name));
            // Never drawn by Qt; taken out so that no later reader meets them.
            if (local == u"script" || local == u"foreignObject") {
                skipping = 1;
                break;
            }
            const bool names = local == u"image" || local == u"use" || local == u"feImage";
            int refusedHere = 0;
            bool nameRefused = false;
            QXmlStreamAttributes attributes;
            for (const QXmlStreamAttribute &attribute : reader.attributes()) {
                const QString attributeName = attribute.qualifiedName().toString();
                QString value = attribute.value().toString();
                if (isHref(attributeName)) {
                    if (local == u"image")
                        value = inlineRaster(value);
                    else if (!isFragment(value))
                        value.clear();
                    if (value.isEmpty()) {
                        nameRefused = true;
                        ++refusedHere;
                        continue;
                    }
                } else if (!attributeName.startsWith(u"xmlns")) {
                    const bool wasEmpty = value.isEmpty();
                    value = cleanCss(value, &refusedHere);
                    if (value.isEmpty() && !wasEmpty)
                        continue;
                }
                attributes.append(attributeName, value);
            }
            if (names && nameRefused) {
                ++result.refusedReferences;
                skipping = 1;
                break;
            }
            result.refusedReferences += refusedHere;
            writer.writeStartElement(name);
            writer.writeAttributes(attributes);
            if (local == u"style")
                styleDepth = depth;
            break;
        }
        case QXmlStreamReader::EndElement:
            if (depth == styleDepth)
                styleDepth = 0;
            --depth;
            if (skipping > 0)
                --skipping;
            else
                writer.writeEndElement();
            break;
        case QXmlStreamReader::Characters: {
            if (skipping > 0 || depth == 0)
                break;
            const QString text = styleDepth > 0 ? cleanCss(reader.text().toString(), &result.refusedReferences)
                                                : reader.text().toString();
            if (reader.isCDATA())
                writer.writeCDATA(text);
            else
                writer.writeCharacters(text);
            break;
        }
        case QXmlStreamReader::DTD:
            // A plain DOCTYPE (matplotlib writes one) is dropped; entities are not expanded.
            if (!reader.entityDeclarations().isEmpty() || !reader.notationDeclarations().isEmpty() ||
                reader.text().contains(u"<!ENTITY") || reader.text().contains(u"<!NOTATION"))
                return refuse(tr("The SVG image declares XML entities, which Sandpiper does not expand; it is "
                                 "not drawn."));
            break;
        case QXmlStreamReader::EntityReference:
            return refuse(tr("The SVG image refers to the XML entity “%1”, which Sandpiper does not expand; it is "
                             "not drawn.")
                              .arg(reader.name()));
        case QXmlStreamReader::ProcessingInstruction:
            if (reader.processingInstructionTarget() == u"xml-stylesheet")
                ++result.refusedReferences;
            break;
        default: // the XML declaration, comments, the end
            break;
        }
    }
    if (reader.hasError())
        return refuse(tr("The SVG image is not well-formed XML (line %1, column %2): %3.")
                          .arg(reader.lineNumber())
                          .arg(reader.columnNumber())
                          .arg(reader.errorString()));
    result.svg = std::move(out);
    return result;
}

} // namespace Sandpiper
