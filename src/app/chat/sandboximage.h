#pragma once

#include <QCoreApplication>
#include <QImage>

namespace Sandpiper {

class SandboxFolder;

// Decodes an image from a conversation's folder for showing it: read through SandboxFolder at
// this moment (a regular file inside, no link on the way), raster formats only (an SVG may name
// other files), at most SandboxFigure::maxSide pixels each way, within QImageReader's allocation
// limit. Scaled down to MAXWIDTH pixels wide when that is positive.
class SandboxImage
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::SandboxImage)

public:
    static QImage load(const SandboxFolder &folder, const QString &name, int maxWidth, QString *error);
    // The same checks for BYTES from elsewhere (the web), called NAME in the error.
    static QImage decode(QByteArray bytes, const QString &name, int maxWidth, QString *error);
};

} // namespace Sandpiper
