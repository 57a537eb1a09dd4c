#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

#include <optional>

class QImageReader;
class QIODevice;

namespace Sandpiper {

class SandboxFolder;

// An image on its way to a vision model: read from the conversation's folder (without following
// links: the sandbox writes there), checked, scaled down so that its longest side is at most a
// given size (models scale larger images down themselves, after the upload), and written as a
// data URL for an "image_url" content part.
class ModelImage
{
    Q_DECLARE_TR_FUNCTIONS(ModelImage)

public:
    // The default longest side: what Anthropic and OpenAI models look at in detail at most.
    static constexpr int DefaultMaxSide = 1568;
    // Files larger than this are refused before they are read.
    static constexpr qint64 MaxFileBytes = 64LL * 1024 * 1024;
    // Images with more pixels than this are refused before they are decoded.
    static constexpr qint64 MaxPixels = 100'000'000;

    // Empty when the user's file PATH holds an image that can be sent, else why not, for the
    // user. Reads the header only.
    static QString check(const QString &path);
    // Image NAME of FOLDER, scaled to MAXSIDE at most, as "data:image/png;base64,…" (JPEG for
    // photos); empty with ERROR set to why it cannot be sent.
    static QString dataUrl(const SandboxFolder &folder, const QString &name, int maxSide, QString *error);
    // The formats Qt reads here, such as "PNG, JPEG, GIF".
    static QString readableFormats();

    // An image as the user gave it (not scaled), for exports and imports.
    struct Original {
        QByteArray bytes;
        QString mimeType; // "image/png", "image/jpeg", ...
    };
    // Image NAME of FOLDER as stored (never through a link), checked like checkBytes(); nothing
    // with ERROR set when it cannot be read or is no image.
    static std::optional<Original> readOriginal(const SandboxFolder &folder, const QString &name, QString *error);
    // BYTES, from an untrusted file, when they hold an image that decodes within the limits
    // (decoded in full, so a corrupt one is refused); nothing with ERROR set, naming NAME.
    static std::optional<Original> checkBytes(const QByteArray &bytes, const QString &name, QString *error);

private:
    // Empty when READER, over DEVICE of SIZE bytes holding NAME, can decode it within the limits.
    static QString open(QImageReader &reader, QIODevice *device, const QString &name, qint64 size);
};

} // namespace Sandpiper
