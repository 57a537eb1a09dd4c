#pragma once

#include <QPlainTextEdit>

namespace Sandpiper {

// The composer's text box. What is pasted (Ctrl+V, the context menu) or dropped that is not text
// becomes something to send instead of text: an image from the clipboard (a screenshot, an image
// copied in a browser) or files copied in a file manager.
class ComposerEditor : public QPlainTextEdit
{
    Q_OBJECT

public:
    using QPlainTextEdit::QPlainTextEdit;

Q_SIGNALS:
    void imagePasted(const QImage &image);
    void filesPasted(const QStringList &paths);
    // An image was pasted that cannot be read; MESSAGE says so, for the user.
    void pasteRefused(const QString &message);

protected:
    bool canInsertFromMimeData(const QMimeData *source) const override;
    void insertFromMimeData(const QMimeData *source) override;
};

} // namespace Sandpiper
