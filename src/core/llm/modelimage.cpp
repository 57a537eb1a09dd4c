#include "llm/modelimage.h"

#include "sandbox/sandboxfolder.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>

namespace Sandpiper {

namespace {

QString tooLarge(const QString &name, qint64 size)
{
    return ModelImage::tr("%1 is %2; images up to %3 can be shown to the model. It is in /mnt/data for the code.")
        .arg(name, SandboxFolder::formatBytes(size), SandboxFolder::formatBytes(ModelImage::MaxFileBytes));
}

QString mimeTypeOf(const QByteArray &format)
{
    const QByteArray lower = format.toLower();
    return QStringLiteral("image/") + QString::fromLatin1(lower == "jpg" ? QByteArray("jpeg") : lower);
}

} // namespace

QString ModelImage::readableFormats()
{
    QStringList formats;
    for (const QByteArray &format : QImageReader::supportedImageFormats()) {
        const QString name = QString::fromLatin1(format).toUpper();
        if (name != QLatin1String("JPG") && !formats.contains(name))
            formats << name;
    }
    return formats.join(QStringLiteral(", "));
}

QString ModelImage::open(QImageReader &reader, QIODevice *device, const QString &name, qint64 size)
{
    if (size > MaxFileBytes)
        return tooLarge(name, size);
    reader.setDevice(device);
    reader.setAutoTransform(true); // photos turned as the camera held them
    if (!reader.canRead())
        return tr("%1 is not an image Sandpiper can read (it reads %2).").arg(name, readableFormats());
    const QSize pixels = reader.size();
    if (pixels.isValid() && qint64(pixels.width()) * pixels.height() > MaxPixels)
        return tr("%1 has %2 × %3 pixels, too many to be shown to the model.")
            .arg(name)
            .arg(pixels.width())
            .arg(pixels.height());
    return {};
}

QString ModelImage::check(const QString &path)
{
    QFile file(path);
    const QString name = QFileInfo(path).fileName();
    if (!file.open(QIODevice::ReadOnly))
        return tr("%1 could not be read: %2").arg(name, file.errorString());
    QImageReader reader;
    return open(reader, &file, name, file.size());
}

QString ModelImage::dataUrl(const SandboxFolder &folder, const QString &name, int maxSide, QString *error)
{
    const SandboxFolder::Opened opened = folder.open(name, MaxFileBytes);
    if (!opened) {
        *error = opened.problem == SandboxFolder::Problem::Missing ? tr("The image %1 is no longer there.").arg(name)
                                                                   : opened.error;
        return {};
    }
    QImageReader reader;
    *error = open(reader, opened.file.get(), name, opened.size);
    if (!error->isEmpty())
        return {};
    const bool photo = reader.format() == "jpeg" || reader.format() == "jpg";
    const QSize size = reader.size();
    // JPEG decodes straight to a smaller size, which spares memory and time for large photos. The
    // box is square, so the turn the reader applies afterwards changes nothing.
    if (maxSide > 0 && size.isValid() && std::max(size.width(), size.height()) > maxSide &&
        reader.supportsOption(QImageIOHandler::ScaledSize))
        reader.setScaledSize(size.scaled(maxSide, maxSide, Qt::KeepAspectRatio));
    QImage image = reader.read();
    if (image.isNull()) {
        *error = tr("%1 could not be read as an image: %2.").arg(name, reader.errorString());
        return {};
    }
    if (maxSide > 0 && std::max(image.width(), image.height()) > maxSide)
        image = image.scaled(maxSide, maxSide, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    // Photos stay JPEG (a PNG of a photo is several times larger); screenshots and figures stay
    // sharp as PNG.
    const bool jpeg = photo && !image.hasAlphaChannel();
    if (!image.save(&buffer, jpeg ? "JPEG" : "PNG", jpeg ? 88 : -1)) {
        *error = tr("%1 could not be prepared for the model.").arg(name);
        return {};
    }
    return QStringLiteral("data:image/%1;base64,%2")
        .arg(jpeg ? QLatin1String("jpeg") : QLatin1String("png"), QString::fromLatin1(bytes.toBase64()));
}

std::optional<ModelImage::Original> ModelImage::readOriginal(const SandboxFolder &folder, const QString &name,
                                                            QString *error)
{
    const auto bytes = folder.read(name, MaxFileBytes, error);
    return bytes ? checkBytes(*bytes, name, error) : std::nullopt;
}

std::optional<ModelImage::Original> ModelImage::checkBytes(const QByteArray &bytes, const QString &name, QString *error)
{
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader;
    if (*error = open(reader, &buffer, name, bytes.size()); !error->isEmpty())
        return std::nullopt;
    const QByteArray format = reader.format();
    if (reader.read().isNull()) {
        *error = tr("%1 could not be read as an image: %2.").arg(name, reader.errorString());
        return std::nullopt;
    }
    return Original{bytes, mimeTypeOf(format)};
}

} // namespace Sandpiper
