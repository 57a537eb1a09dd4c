#include "chat/sandboximage.h"

#include <sandbox/sandboxfigure.h>
#include <sandbox/sandboxfolder.h>

#include <QBuffer>
#include <QImageReader>

namespace Sandpiper {

namespace {

// An image of maxSide x maxSide pixels in 32 bits, and no more.
constexpr int allocationLimitMiB = 256;

} // namespace

QImage SandboxImage::load(const SandboxFolder &folder, const QString &name, int maxWidth, QString *error)
{
    std::optional<QByteArray> bytes = folder.read(name, SandboxFigure::maxBytes, error);
    return bytes ? decode(std::move(*bytes), name, maxWidth, error) : QImage();
}

QImage SandboxImage::decode(QByteArray bytes, const QString &name, int maxWidth, QString *error)
{
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::ReadOnly);
    static const QList<QByteArray> raster = {"png", "jpeg", "jpg", "gif", "bmp", "webp"};
    const QByteArray format = QImageReader::imageFormat(&buffer);
    if (!raster.contains(format)) {
        *error = tr("“%1” is not an image Sandpiper shows (PNG, JPEG, GIF, BMP or WebP).").arg(name);
        return {};
    }
    // A PNG's header says how large it is before any decoder looks at it, and its chunks whether
    // it is whole.
    if (format == "png") {
        QString problem = SandboxFigure::sizeProblem(name, SandboxFigure::pngSize(bytes));
        if (problem.isEmpty())
            problem = SandboxFigure::truncationProblem(name, bytes);
        if (!problem.isEmpty()) {
            *error = problem;
            return {};
        }
    }
    QImageReader::setAllocationLimit(allocationLimitMiB);
    QImageReader reader(&buffer, format);
    const QSize size = reader.size();
    if (!size.isValid()) {
        *error = tr("“%1” could not be read as an image: %2.").arg(name, reader.errorString());
        return {};
    }
    if (const QString tooLarge = SandboxFigure::sizeProblem(name, size); !tooLarge.isEmpty()) {
        *error = tooLarge;
        return {};
    }
    if (maxWidth > 0 && size.width() > maxWidth)
        reader.setScaledSize(size.scaled(maxWidth, size.height() * maxWidth / size.width() + 1, Qt::KeepAspectRatio));
    QImage image = reader.read();
    if (image.isNull())
        *error = tr("“%1” could not be read as an image: %2.").arg(name, reader.errorString());
    return image;
}

} // namespace Sandpiper
