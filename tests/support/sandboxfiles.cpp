#include "sandboxfiles.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace Sandpiper::Test {

QByteArray pngHeader(quint32 width, quint32 height)
{
    QByteArray png("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16);
    for (quint32 value : {width, height}) {
        for (int shift = 24; shift >= 0; shift -= 8)
            png += char((value >> shift) & 0xff);
    }
    // The rest of the header, a CRC nobody checks here, and the end.
    return png + QByteArray("\x08\x06\0\0\0\0\0\0\0\0\0\0\0IEND\0\0\0\0", 21);
}

QImage picture(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB32);
    for (int y = 0; y < height; ++y) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        for (int x = 0; x < width; ++x)
            line[x] = qRgb(x % 256, y % 256, (x + y) % 256);
    }
    return image;
}

QByteArray pngImage(int width, int height)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    picture(width, height).save(&buffer, "PNG");
    return bytes;
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace Sandpiper::Test
