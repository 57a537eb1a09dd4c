#include "composereditor.h"

#include <llm/modelimage.h>

#include <QImage>
#include <QMimeData>
#include <QUrl>

#include <algorithm>

namespace Sandpiper {

namespace {

QStringList localFiles(const QMimeData *source)
{
    QStringList paths;
    for (const QUrl &url : source->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    return paths;
}

// An image in a format of its own ("image/heic" from a phone app) that Qt has no reader for.
bool holdsUnreadableImage(const QMimeData *source)
{
    const QStringList formats = source->formats();
    return std::any_of(formats.cbegin(), formats.cend(),
                       [](const QString &format) { return format.startsWith(QLatin1String("image/")); });
}

} // namespace

bool ComposerEditor::canInsertFromMimeData(const QMimeData *source) const
{
    return source->hasImage() || !localFiles(source).isEmpty() || holdsUnreadableImage(source) ||
           QPlainTextEdit::canInsertFromMimeData(source);
}

void ComposerEditor::insertFromMimeData(const QMimeData *source)
{
    // Files first: a file manager offers their names as text too.
    if (const QStringList paths = localFiles(source); !paths.isEmpty()) {
        Q_EMIT filesPasted(paths);
        return;
    }
    if (source->hasImage()) {
        const QImage image = qvariant_cast<QImage>(source->imageData());
        if (!image.isNull()) {
            Q_EMIT imagePasted(image);
            return;
        }
    }
    if (holdsUnreadableImage(source) && !source->hasText()) {
        Q_EMIT pasteRefused(tr("The clipboard holds an image in a format Sandpiper cannot read (%1). It reads %2.")
                                .arg(source->formats().join(QStringLiteral(", ")), ModelImage::readableFormats()));
        return;
    }
    QPlainTextEdit::insertFromMimeData(source);
}

} // namespace Sandpiper
