#include "chat/svgfigure.h"

#include <sandbox/svgsanitizer.h>

#include <QLabel>
#include <QPainter>
#include <QPromise>
#include <QSvgRenderer>
#include <QThreadPool>
#include <QVBoxLayout>

#include <memory>

namespace Sandpiper {

SvgFigure::SvgFigure(const QByteArray &svg, int maxWidth, QWidget *parent)
    : QWidget(parent)
    , m_picture(new QLabel(tr("Drawing the SVG image…")))
    , m_notice(new QLabel)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_picture, 0, Qt::AlignLeft);
    layout->addWidget(m_notice);
    m_picture->setAccessibleName(tr("SVG image"));
    m_picture->setForegroundRole(QPalette::PlaceholderText);
    m_notice->setTextFormat(Qt::PlainText);
    m_notice->setWordWrap(true);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_notice->hide();

    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_watcher.future().resultCount() > 0)
            present(m_watcher.result());
    });
    // The drawing owns copies of what it needs and nothing of the figure's: the figure may go first.
    auto promise = std::make_shared<QPromise<Drawing>>();
    m_watcher.setFuture(promise->future());
    promise->start();
    QThreadPool::globalInstance()->start([promise, svg, maxWidth, ratio = devicePixelRatioF()] {
        promise->addResult(draw(svg, maxWidth, ratio));
        promise->finish();
    });
}

SvgFigure::Drawing SvgFigure::draw(const QByteArray &svg, int maxWidth, qreal ratio)
{
    Drawing drawing;
    const SvgSanitizer::Result clean = SvgSanitizer::clean(svg);
    drawing.refusedReferences = clean.refusedReferences;
    if (!clean.problem.isEmpty()) {
        drawing.problem = clean.problem;
        return drawing;
    }
    QSvgRenderer renderer(clean.svg);
    if (!renderer.isValid() || renderer.defaultSize().isEmpty()) {
        drawing.problem = tr("The SVG image could not be drawn.");
        return drawing;
    }
    const QSize bounds(maxWidth, maxWidth * 4);
    QSize size = renderer.defaultSize();
    if (size.width() > bounds.width() || size.height() > bounds.height())
        size = size.scaled(bounds, Qt::KeepAspectRatio).expandedTo(QSize(1, 1));
    QImage image(size * ratio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    renderer.render(&painter, QRectF(QPointF(), QSizeF(size)));
    painter.end();
    drawing.image = std::move(image);
    return drawing;
}

void SvgFigure::present(const Drawing &drawing)
{
    m_drawn = true;
    m_image = drawing.image;
    if (m_image.isNull()) {
        // The reason may quote what the SVG holds: plain text.
        m_picture->setTextFormat(Qt::PlainText);
        m_picture->setWordWrap(true);
        m_picture->setText(QStringLiteral("⚠ ") + drawing.problem);
        m_picture->setAccessibleName(tr("SVG image not drawn"));
    } else {
        m_picture->setPixmap(QPixmap::fromImage(m_image));
        // The card was laid out around the placeholder: it must make room for the whole drawing.
        m_picture->setMinimumSize(m_image.deviceIndependentSize().toSize());
        m_picture->setForegroundRole(QPalette::WindowText);
    }
    if (drawing.refusedReferences > 0) {
        const QString text = tr("%n external reference(s) were not loaded: the figure shows only what it contains.", "",
                                drawing.refusedReferences);
        m_notice->setText(QStringLiteral("⚠ ") + text);
        m_notice->setAccessibleName(tr("Warning"));
        m_notice->setAccessibleDescription(text);
        m_notice->show();
    }
}

} // namespace Sandpiper
