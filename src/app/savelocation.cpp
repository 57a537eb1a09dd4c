#include "savelocation.h"

#include <QDir>
#include <QFileInfo>

namespace Sandpiper {

namespace {

QString &lastFolder()
{
    static QString folder;
    return folder;
}

} // namespace

QString SaveLocation::suggest(const QString &fileName, QStandardPaths::StandardLocation fallback)
{
    QString folder = lastFolder();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QStandardPaths::writableLocation(fallback);
    if (folder.isEmpty())
        folder = QDir::homePath();
    return QDir(folder).filePath(fileName);
}

void SaveLocation::remember(const QString &path)
{
    if (!path.isEmpty())
        lastFolder() = QFileInfo(path).absolutePath();
}

} // namespace Sandpiper
