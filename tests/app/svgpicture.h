#pragma once

#include <chat/executionresultview.h>

#include <QImage>
#include <QLabel>

namespace Sandpiper::Test {

// The picture of the SVG image that VIEW shows, once it is drawn (whatever draws it).
inline QImage svgPicture(const ExecutionResultView &view)
{
    for (const QLabel *label : view.findChildren<QLabel *>()) {
        if (label->accessibleName() == QLatin1String("SVG image") && !label->pixmap().isNull())
            return label->pixmap().toImage().convertToFormat(QImage::Format_ARGB32);
    }
    return {};
}

inline int pixelsOf(const QImage &image, QRgb colour)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            count += (image.pixel(x, y) | 0xff000000) == colour && qAlpha(image.pixel(x, y)) > 0;
    }
    return count;
}

} // namespace Sandpiper::Test
