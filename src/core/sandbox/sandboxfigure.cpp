#include "sandbox/sandboxfigure.h"

#include "sandbox/sandboxfolder.h"

#include <QFile>
#include <QtEndian>

namespace Sandpiper {

namespace {

constexpr QByteArrayView pngSignature("\x89PNG\r\n\x1a\n", 8);
constexpr qsizetype pngHeaderBytes = 24; // signature, IHDR length and type, width, height

} // namespace

QSize SandboxFigure::pngSize(QByteArrayView head)
{
    if (head.size() < pngHeaderBytes || !head.startsWith(pngSignature) || head.sliced(12, 4) != "IHDR")
        return {};
    const quint32 width = qFromBigEndian<quint32>(head.data() + 16);
    const quint32 height = qFromBigEndian<quint32>(head.data() + 20);
    // The PNG standard allows up to 2^31 - 1 each way; anything else is not a PNG.
    if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu)
        return {};
    return QSize(int(width), int(height));
}

QString SandboxFigure::sizeProblem(const QString &name, QSize size)
{
    if (size.width() <= maxSide && size.height() <= maxSide)
        return {};
    return tr("The figure “%1” is %2 × %3 pixels, larger than the %4 × %4 pixels Sandpiper shows.")
        .arg(name)
        .arg(size.width())
        .arg(size.height())
        .arg(maxSide);
}

QString SandboxFigure::truncationProblem(const QString &name, QByteArrayView bytes)
{
    // Each chunk: a length, a type, the data and a CRC; the last is IEND, with no data.
    constexpr qsizetype chunkFrame = 12;
    qsizetype at = bytes.startsWith(pngSignature) ? pngSignature.size() : bytes.size();
    while (bytes.size() - at >= chunkFrame) {
        const quint32 length = qFromBigEndian<quint32>(bytes.data() + at);
        if (length > 0x7fffffffu || qint64(length) > bytes.size() - at - chunkFrame)
            break;
        if (bytes.sliced(at + 4, 4) == "IEND")
            return length == 0 ? QString() : tr("The figure “%1” is damaged: its end is malformed.").arg(name);
        at += chunkFrame + length;
    }
    return tr("The figure “%1” is cut short: the PNG file ends before its last part.").arg(name);
}

QString SandboxFigure::problem(const SandboxFolder &folder, const QString &name)
{
    QString problem;
    read(folder, name, &problem);
    return problem;
}

QString SandboxFigure::pngProblem(const QString &name, QByteArrayView bytes)
{
    const QSize size = pngSize(bytes);
    if (!size.isValid())
        return tr("The figure “%1” is not a PNG image.").arg(name);
    if (const QString tooLarge = sizeProblem(name, size); !tooLarge.isEmpty())
        return tooLarge;
    return truncationProblem(name, bytes);
}

std::optional<QByteArray> SandboxFigure::read(const SandboxFolder &folder, const QString &name, QString *problem)
{
    auto bytes = folder.read(name, maxBytes, problem);
    if (!bytes)
        return std::nullopt;
    *problem = pngProblem(name, *bytes);
    if (!problem->isEmpty())
        return std::nullopt;
    return bytes;
}

} // namespace Sandpiper
