#pragma once

#include <QCoreApplication>
#include <QSize>
#include <QString>

#include <optional>

namespace Sandpiper {

class SandboxFolder;

// A figure the kernel reported: a PNG in the conversation's folder that the host is willing to
// show. The kernel refuses to save larger figures; the host checks again, since the model's code
// can write any file and report any name.
class SandboxFigure
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::SandboxFigure)

public:
    static constexpr int maxSide = 8000;                 // pixels, either way
    static constexpr qint64 maxBytes = 64 * 1024 * 1024; // of the PNG file

    // Empty when NAME is a regular file inside FOLDER holding a PNG of at most maxSide pixels
    // each way and maxBytes; else why not, in a sentence for the user and the model.
    static QString problem(const SandboxFolder &folder, const QString &name);
    // The bytes of that PNG, read once from what was opened; empty with PROBLEM set when refused.
    // Both read the whole file: only its end tells a whole PNG from one that was cut short.
    static std::optional<QByteArray> read(const SandboxFolder &folder, const QString &name, QString *problem);
    // The width and height in a PNG's header (its first 24 bytes); invalid when it is no PNG.
    static QSize pngSize(QByteArrayView head);
    // Why the PNG in BYTES is cut short, or empty when its chunks are whole up to its end (IEND).
    // A file cut short (a full disk, a copy broken off, a forgery) has as valid a header as a
    // whole one: this tells the user and the model why, where a decoder would only fail.
    static QString truncationProblem(const QString &name, QByteArrayView bytes);
    // Why an image of SIZE pixels is too large to show, or empty when it is not.
    static QString sizeProblem(const QString &name, QSize size);

private:
    // Why a file of BYTES is no figure Sandpiper shows, or empty.
    static QString pngProblem(const QString &name, QByteArrayView bytes);
};

} // namespace Sandpiper
