#pragma once

#include <QByteArray>
#include <QString>

namespace Sandpiper {

// The pieces of a tar stream for files sent into a container (`tar -x` through `docker exec`):
// a header before each file's bytes, zero padding after them, two zero blocks at the end. Names
// too long for ustar get a pax header before their own.
class TarWriter
{
public:
    // The header (with a pax header before it when NAME needs one) of a regular file.
    static QByteArray fileHeader(const QString &name, qint64 size, qint64 mtimeSeconds);
    // The zeros that fill up the last block of a file of SIZE bytes.
    static QByteArray padding(qint64 size);
    // The end of the archive.
    static QByteArray end();
};

} // namespace Sandpiper
