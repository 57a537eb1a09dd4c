#include "chat/mathobject.h"

#include <QCache>
#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetrics>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextBlock>
#include <QTextDocument>
#include <QWidget>

#include <cmath>

namespace Sandpiper {

namespace {

enum Property {
    TexProperty = QTextFormat::UserProperty + 100,
    DisplayProperty,
};
// Computer Modern's x-height is smaller than a desktop sans font's: at 1.2 times the text's size
// a formula's letters match the text's. Display formulas are set larger, as TeX does.
constexpr qreal inlineScale = 1.2;
constexpr qreal displayScale = 1.45;
constexpr qreal codePadding = 3;
// The thinnest strokes of Computer Modern (the rules of +, −, = and fraction bars), in points of a
// formula of MathRenderer::fontSize.
constexpr qreal thinStrokePoints = 0.4;
// Drawn formulas in the colours and sizes shown, shared by all views (cost: bytes).
constexpr qsizetype imageCacheBytes = 64 * 1024 * 1024;

QCache<QString, QImage> &imageCache()
{
    static QCache<QString, QImage> cache(imageCacheBytes);
    return cache;
}

QFont codeFont(const QTextDocument *document)
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSizeF(document->defaultFont().pointSizeF() > 0 ? document->defaultFont().pointSizeF() * 0.95
                                                                : font.pointSizeF());
    return font;
}

// The layout puts (height + x-height) / 2 above the baseline; padding at the top or the bottom
// makes that the content's own ascent.
qreal topPadding(qreal ascent, qreal descent, const QTextFormat &format, qreal *height)
{
    const qreal halfX = QFontMetrics(format.toCharFormat().font()).xHeight() / 2.0;
    const qreal top = std::max<qreal>(0, halfX - (ascent - descent));
    const qreal bottom = std::max<qreal>(0, (ascent - descent) - halfX);
    *height = top + ascent + descent + bottom;
    return top;
}

} // namespace

MathObject::MathObject(QWidget *view, MathRenderer *renderer)
    : QObject(view)
    , m_view(view)
    , m_renderer(renderer)
{}

QTextCharFormat MathObject::format(const QString &tex, bool display)
{
    QTextCharFormat format;
    format.setObjectType(objectType);
    format.setProperty(TexProperty, tex);
    format.setProperty(DisplayProperty, display);
    // With AlignMiddle the layout takes a height and places it about the x-height: the boxes
    // below are padded so that this puts a formula's baseline on the text's.
    format.setVerticalAlignment(QTextCharFormat::AlignMiddle);
    return format;
}

bool MathObject::isFormula(const QTextFormat &format)
{
    return format.objectType() == objectType && format.hasProperty(TexProperty);
}

QString MathObject::tex(const QTextFormat &format)
{
    return format.stringProperty(TexProperty);
}

bool MathObject::isDisplay(const QTextFormat &format)
{
    return format.boolProperty(DisplayProperty);
}

QString MathObject::source(const QTextFormat &format)
{
    const QString delimiter = isDisplay(format) ? QStringLiteral("$$") : QStringLiteral("$");
    return delimiter + tex(format) + delimiter;
}

QString MathObject::readableText(const QTextDocument *document, int start, int end, bool *hasFormula)
{
    QString text;
    for (QTextBlock block = document->findBlock(start); block.isValid() && block.position() < end;
         block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const int from = std::max(start, fragment.position());
            const int to = std::min(end, fragment.position() + fragment.length());
            if (from >= to)
                continue;
            if (isFormula(fragment.charFormat())) {
                if (hasFormula)
                    *hasFormula = true;
                for (int i = from; i < to; ++i)
                    text += source(fragment.charFormat());
            } else {
                text += fragment.text().mid(from - fragment.position(), to - from);
            }
        }
        if (const int blockEnd = block.position() + block.length() - 1; blockEnd >= start && blockEnd < end)
            text += QLatin1Char('\n');
    }
    return text;
}

MathRenderer::Formula MathObject::formula(const QTextFormat &format) const
{
    if (!m_renderer) {
        MathRenderer::Formula none;
        none.state = MathRenderer::State::Unavailable;
        none.error = tr("no math renderer");
        return none;
    }
    return m_renderer->formula(tex(format));
}

QString MathObject::toolTip(const QTextFormat &format) const
{
    const MathRenderer::Formula known = formula(format);
    switch (known.state) {
    case MathRenderer::State::Failed:
        return tr("This TeX cannot be drawn: %1").arg(known.error);
    case MathRenderer::State::Unavailable:
        return tr("Formulas are shown as TeX: %1.").arg(known.error);
    case MathRenderer::State::Missing:
    case MathRenderer::State::Rendering:
        return tr("Drawing the formula…");
    case MathRenderer::State::Drawn:
        break;
    }
    return source(format);
}

qreal MathObject::scale(const QTextDocument *document, bool display) const
{
    const qreal pixels = QFontInfo(document->defaultFont()).pixelSize();
    return pixels / MathRenderer::fontSize * (display ? displayScale : inlineScale);
}

MathObject::Box MathObject::drawnBox(const MathRenderer::Formula &formula, qreal scale, const QTextFormat &format) const
{
    Box box;
    qreal height = 0;
    box.top = topPadding(formula.ascent * scale, formula.descent * scale, format, &height);
    box.size = QSizeF(std::ceil(formula.width * scale), height);
    return box;
}

MathObject::Box MathObject::codeBox(const QTextDocument *document, const QTextFormat &format, QSizeF *textSize) const
{
    const QFontMetricsF metrics(codeFont(document));
    const qreal available = document->textWidth() > 0 ? document->textWidth() - 4 * codePadding : 600;
    const QRectF text =
        metrics.boundingRect(QRectF(0, 0, std::max<qreal>(40, available), 1e6), Qt::TextWrapAnywhere, source(format));
    if (textSize)
        *textSize = text.size();
    Box box;
    qreal height = 0;
    // One line sits on the baseline; a longer formula wraps in its box.
    const qreal ascent = metrics.ascent() + codePadding / 2;
    const qreal descent = text.height() - metrics.ascent() + codePadding / 2;
    box.top = topPadding(ascent, descent, format, &height);
    box.size = QSizeF(std::ceil(text.width() + 2 * codePadding), height);
    return box;
}

QSizeF MathObject::intrinsicSize(QTextDocument *document, int, const QTextFormat &format)
{
    const MathRenderer::Formula known = formula(format);
    if (known.state == MathRenderer::State::Drawn)
        return drawnBox(known, scale(document, isDisplay(format)), format).size;
    return codeBox(document, format).size;
}

void MathObject::drawObject(QPainter *painter, const QRectF &rect, QTextDocument *document, int,
                            const QTextFormat &format)
{
    const MathRenderer::Formula known = formula(format);
    const QPalette palette = m_view->palette();
    if (known.state == MathRenderer::State::Drawn) {
        const qreal pixelsPerPoint = scale(document, isDisplay(format));
        const Box box = drawnBox(known, pixelsPerPoint, format);
        const qreal ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        const QSizeF size(known.width * pixelsPerPoint, (known.ascent + known.descent) * pixelsPerPoint);
        const QImage drawn = image(tex(format), known, (size * ratio).toSize(), ratio);
        const QPointF at = rect.topLeft() + QPointF(0, box.top);
        // Pixel for pixel, at a whole device pixel: an image scaled or placed between pixels is
        // resampled, and a stroke thinner than a pixel can fall between the samples.
        const QTransform toDevice = painter->deviceTransform();
        const bool pixelForPixel = toDevice.type() <= QTransform::TxScale && qFuzzyCompare(toDevice.m11(), ratio) &&
                                   qFuzzyCompare(toDevice.m22(), ratio);
        painter->save();
        if (pixelForPixel) {
            const QPointF device = toDevice.map(at);
            painter->drawImage(toDevice.inverted().map(QPointF(std::round(device.x()), std::round(device.y()))), drawn);
        } else {
            painter->setRenderHint(QPainter::SmoothPixmapTransform);
            painter->drawImage(QRectF(at, size), drawn);
        }
        painter->restore();
        return;
    }
    // Lazily: a formula is drawn once it is on screen.
    if (m_renderer && (known.state == MathRenderer::State::Missing || known.state == MathRenderer::State::Unavailable))
        m_renderer->request(tex(format));
    QSizeF textSize;
    const Box box = codeBox(document, format, &textSize);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRectF frame(rect.left(), rect.top() + box.top, rect.width(), textSize.height() + codePadding);
    painter->setPen(known.state == MathRenderer::State::Failed
                        ? QPen(palette.color(QPalette::PlaceholderText), 1, Qt::DashLine)
                        : Qt::NoPen);
    painter->setBrush(palette.color(QPalette::AlternateBase));
    painter->drawRoundedRect(frame.adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    painter->setFont(codeFont(document));
    painter->setPen(palette.color(QPalette::Text));
    painter->drawText(frame.adjusted(codePadding, codePadding / 2, -codePadding, 0), Qt::TextWrapAnywhere,
                      source(format));
    painter->restore();
}

QImage MathObject::image(const QString &tex, const MathRenderer::Formula &formula, QSize pixels, qreal ratio) const
{
    const QColor color = m_view->palette().color(QPalette::Text);
    const QString key =
        QStringLiteral("%1 %2x%3 ").arg(color.name(QColor::HexArgb)).arg(pixels.width()).arg(pixels.height()) + tex;
    if (const QImage *cached = imageCache().object(key))
        return *cached;
    QImage drawn(pixels.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    drawn.fill(Qt::transparent);
    {
        QSvgRenderer svg(formula.svg);
        QPainter painter(&drawn);
        painter.setRenderHint(QPainter::Antialiasing);
        // Small formulas are drawn a little bolder, as font renderers darken small text: a stroke
        // thinner than a pixel lies across two columns of pixels, both faint, and a "+" looks like a
        // "−". The paths are drawn again shifted by half a pixel to the right and down.
        svg.render(&painter, QRectF(QPointF(0, 0), drawn.size()));
        const qreal pixelsPerPoint = formula.width > 0 ? drawn.width() / formula.width : 0;
        if (thinStrokePoints * pixelsPerPoint < 1) {
            for (const QPointF shift : {QPointF(0.5, 0), QPointF(0, 0.5), QPointF(0.5, 0.5)})
                svg.render(&painter, QRectF(shift, drawn.size()));
        }
        // The paths are black: they take the text's colour, whatever the theme.
        painter.setCompositionMode(QPainter::CompositionMode_SourceIn);
        painter.fillRect(drawn.rect(), color);
    }
    drawn.setDevicePixelRatio(ratio);
    imageCache().insert(key, new QImage(drawn), drawn.sizeInBytes());
    return drawn;
}

} // namespace Sandpiper
