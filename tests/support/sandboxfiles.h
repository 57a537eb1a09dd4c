#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

namespace Sandpiper::Test {

// The header and the end of a PNG of WIDTH x HEIGHT pixels: enough for every check of a figure's
// file, and no image at all (no pixels, no right CRC), like what a sandbox can forge.
QByteArray pngHeader(quint32 width, quint32 height);
// A picture with some detail, so that scaling and encoding have something to do.
QImage picture(int width, int height);
// That picture as a real PNG file's bytes, which any image reader decodes.
QByteArray pngImage(int width, int height);
// Writes DATA to PATH, making its folder; false when it cannot.
bool writeFile(const QString &path, const QByteArray &data);
// What PATH holds; empty when it cannot be read.
QByteArray readFile(const QString &path);

} // namespace Sandpiper::Test
