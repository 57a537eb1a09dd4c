#pragma once

#include <QCoreApplication>
#include <QString>

namespace Sandpiper {

// What a file from the sandbox is, judged from its name, its first bytes and its execute bits
// (never by running it), and how the desktop may open it: documents, images, text and data
// open with the desktop's viewer; programs, scripts, .desktop files and executable files do not
// open at all (only "Show in folder", or as plain text); any other type is named to the user,
// who decides.
class SandboxFileType
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::SandboxFileType)

public:
    enum class Verdict {
        Open,         // a document, image, text or data file whose content matches its name
        Ask,          // a type Sandpiper does not know to be inert: ask, naming it
        ShowInFolder, // a program, script, .desktop file or executable file: never opened
    };
    // How much of the start of a file classification reads.
    static constexpr qsizetype headBytes = 4096;

    static SandboxFileType of(const QString &fileName, const QByteArray &head, bool executable);

    Verdict verdict() const { return m_verdict; }
    // The MIME type the file is taken for, such as application/x-shellscript.
    QString mimeType() const { return m_mimeType; }
    // The type in words, in the user's language where the MIME database has them, with its
    // MIME name: "shell script (application/x-shellscript)".
    QString description() const { return m_description; }
    // The content is text, so it can be shown as such even when the type must not be opened.
    bool isText() const { return m_text; }

private:
    Verdict m_verdict = Verdict::Ask;
    QString m_mimeType;
    QString m_description;
    bool m_text = false;
};

} // namespace Sandpiper
