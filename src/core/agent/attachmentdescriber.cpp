#include "agent/attachmentdescriber.h"

#include "sandbox/sandboxfolder.h"

#include <QFile>
#include <QLocale>
#include <QMimeDatabase>

#include <limits>

namespace Sandpiper {

QString AttachmentDescriber::hostDescription(const QString &folder, const QString &name)
{
    const QString shown = QStringLiteral("/mnt/data/") + name;
    // The code may have replaced the file with a link since it was attached: read it through the checks.
    const SandboxFolder::Opened opened = SandboxFolder(folder).open(name, std::numeric_limits<qint64>::max());
    if (!opened)
        return QStringLiteral("- %1: cannot be read (%2)").arg(shown, opened.error);
    QFile &file = *opened.file;
    const QByteArray head = file.read(headBytes);
    const QMimeType type = QMimeDatabase().mimeTypeForFileNameAndData(name, head);
    QString line =
        QStringLiteral("- %1: %2, %3").arg(shown, type.comment(), QLocale::c().formattedDataSize(opened.size));
    if (!type.inherits(QStringLiteral("text/plain")) || head.isEmpty())
        return line;
    QStringList lines = QString::fromUtf8(head).split(QLatin1Char('\n')).mid(0, headLines);
    for (QString &text : lines)
        text = QStringLiteral("    ") + text.left(160);
    return line + QStringLiteral(";\n  first lines:\n") + lines.join(QLatin1Char('\n'));
}

} // namespace Sandpiper
