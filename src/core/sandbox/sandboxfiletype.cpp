#include "sandbox/sandboxfiletype.h"

#include <QMimeDatabase>
#include <QSet>

namespace Sandpiper {

namespace {

// Types the desktop opens in a viewer that does not run what is in them.
const QStringList viewable = {
    QStringLiteral("image/png"),
    QStringLiteral("image/jpeg"),
    QStringLiteral("image/gif"),
    QStringLiteral("image/webp"),
    QStringLiteral("image/bmp"),
    QStringLiteral("image/tiff"),
    QStringLiteral("image/avif"),
    QStringLiteral("application/pdf"),
    QStringLiteral("text/plain"),
    QStringLiteral("text/csv"),
    QStringLiteral("text/tab-separated-values"),
    QStringLiteral("text/markdown"),
    QStringLiteral("application/json"),
    QStringLiteral("application/yaml"),
    QStringLiteral("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    QStringLiteral("application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    QStringLiteral("application/vnd.openxmlformats-officedocument.presentationml.presentation"),
    QStringLiteral("application/vnd.oasis.opendocument.spreadsheet"),
    QStringLiteral("application/vnd.oasis.opendocument.text"),
    QStringLiteral("application/vnd.oasis.opendocument.presentation"),
    QStringLiteral("audio/x-wav"),
    QStringLiteral("audio/mpeg"),
    QStringLiteral("audio/flac"),
    QStringLiteral("audio/ogg"),
    QStringLiteral("video/mp4"),
    QStringLiteral("video/webm"),
};

// Types whose default handler runs them, installs them or hands them to an interpreter.
const QStringList runnable = {
    QStringLiteral("application/x-executable"),
    QStringLiteral("application/x-sharedlib"),
    QStringLiteral("application/x-shellscript"),
    QStringLiteral("application/x-desktop"),
    QStringLiteral("application/x-msdownload"),
    QStringLiteral("application/x-ms-dos-executable"),
    QStringLiteral("application/x-ms-ne-executable"),
    QStringLiteral("application/vnd.microsoft.portable-executable"),
    QStringLiteral("application/x-msi"),
    QStringLiteral("application/x-ms-shortcut"),
    QStringLiteral("application/x-bat"),
    QStringLiteral("application/java-archive"),
    QStringLiteral("application/x-java-jnlp-file"),
    QStringLiteral("application/vnd.appimage"),
    QStringLiteral("application/x-iso9660-appimage"),
    QStringLiteral("application/vnd.debian.binary-package"),
    QStringLiteral("application/x-rpm"),
    QStringLiteral("application/vnd.flatpak.ref"),
    QStringLiteral("application/x-python-bytecode"),
    QStringLiteral("text/x-python"),
    QStringLiteral("text/x-python3"),
    QStringLiteral("application/x-perl"),
    QStringLiteral("application/x-ruby"),
    QStringLiteral("application/x-php"),
    QStringLiteral("text/x-tcl"),
    QStringLiteral("application/x-csh"),
    QStringLiteral("text/javascript"),
    QStringLiteral("application/x-powershell"),
    QStringLiteral("text/x-lua"),
};

QSet<QString> canonicalNames(const QStringList &names)
{
    const QMimeDatabase database;
    QSet<QString> canonical;
    for (const QString &name : names)
        canonical.insert(database.mimeTypeForName(name).name()); // aliases to their type
    return canonical;
}

// Exactly these types, not their subtypes: text/html and image/svg+xml are text too, and a
// browser runs the scripts in them.
bool isViewable(const QMimeType &type)
{
    static const QSet<QString> names = canonicalNames(viewable);
    return names.contains(type.name());
}

// These types and their subtypes: the MIME database counts script languages as programs.
bool isRunnable(const QMimeType &type)
{
    static const QSet<QString> names = canonicalNames(runnable);
    for (const QString &name : names) {
        if (type.inherits(name))
            return true;
    }
    return false;
}

// Machine code or an interpreter line, whatever the name says.
bool looksExecutable(const QByteArray &head)
{
    return head.startsWith("\x7f"
                           "ELF") ||
           head.startsWith("MZ") || head.startsWith("#!");
}

bool isTextContent(const QMimeType &content, const QByteArray &head)
{
    return !head.contains('\0') && (content.inherits(QStringLiteral("text/plain")) ||
                                    content.name() == QLatin1String("application/x-zerosize"));
}

} // namespace

SandboxFileType SandboxFileType::of(const QString &fileName, const QByteArray &head, bool executable)
{
    const QMimeDatabase database;
    const QMimeType byName = database.mimeTypeForFile(fileName, QMimeDatabase::MatchExtension);
    const QMimeType byContent = database.mimeTypeForData(head);
    const bool named = byName.isValid() && !byName.isDefault();
    const QMimeType type = named ? byName : byContent;

    SandboxFileType result;
    result.m_text = isTextContent(byContent, head);
    result.m_mimeType = type.name();
    result.m_description = QStringLiteral("%1 (%2)").arg(type.comment(), type.name());
    if (executable || looksExecutable(head)) {
        if (!isRunnable(type))
            result.m_description = tr("an executable file, %1").arg(result.m_description);
        result.m_verdict = Verdict::ShowInFolder;
        return result;
    }
    // The name promises a viewable type; the content has to agree (text stays text, an image
    // is that image), or a CSV that is really an archive would open as the archive.
    const bool textual = type.inherits(QStringLiteral("text/plain"));
    const bool contentAgrees = textual ? result.m_text
                                       : byContent.inherits(type.name()) || byContent.isDefault() ||
                                             type.name().startsWith(QLatin1String("application/vnd."));
    // Viewable comes first: to the MIME database JSON is a kind of JavaScript, hence a program.
    if (named && isViewable(type) && contentAgrees && !isRunnable(byContent))
        result.m_verdict = Verdict::Open;
    else if (isRunnable(type) || isRunnable(byContent))
        result.m_verdict = Verdict::ShowInFolder;
    else
        result.m_verdict = Verdict::Ask;
    if (named && !contentAgrees && result.m_verdict == Verdict::Ask)
        result.m_description = tr("%1, but its content looks like %2 (%3)")
                                   .arg(result.m_description, byContent.comment(), byContent.name());
    return result;
}

} // namespace Sandpiper
