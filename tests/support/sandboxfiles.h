#pragma once

#include <QByteArray>
#include <QString>

namespace Sandpiper::Test {

// The first bytes of a PNG of WIDTH x HEIGHT pixels: enough for every check that reads the
// header, and no image at all (its CRC is not even right), like what a sandbox can forge.
QByteArray pngHeader(quint32 width, quint32 height);
// Writes DATA to PATH, making its folder; false when it cannot.
bool writeFile(const QString &path, const QByteArray &data);
// What PATH holds; empty when it cannot be read.
QByteArray readFile(const QString &path);

} // namespace Sandpiper::Test
