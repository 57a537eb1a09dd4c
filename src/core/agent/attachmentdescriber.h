#pragma once

#include <QCoreApplication>
#include <QString>

namespace Sandpiper {

// The words that go with attached files to the model. The sandbox's kernel writes the rich preview
// (columns and first rows of a table, pages and first lines of a PDF: kernel.py's describe); this
// is what the host says itself, when no sandbox runs. ChatMessage::modelContent() puts it before
// the user's text; the chat shows the files as chips beside the text instead.
class AttachmentDescriber
{
    Q_DECLARE_TR_FUNCTIONS(AttachmentDescriber)

public:
    // "- /mnt/data/NAME: TYPE, SIZE", and the first lines of a text file (only its head is read).
    static QString hostDescription(const QString &folder, const QString &name);

    static constexpr qint64 headBytes = 4096;
    static constexpr int headLines = 5;
};

} // namespace Sandpiper
