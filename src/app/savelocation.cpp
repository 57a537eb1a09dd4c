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

QString SaveLocation::folder(QStandardPaths::StandardLocation fallback)
{
    // A dialog told to start in a folder that does not exist starts in the working folder: a
    // fresh account may have no Documents yet.
    QString folder = lastFolder();
    if (!QFileInfo(folder).isDir())
        folder = QStandardPaths::writableLocation(fallback);
    if (!QFileInfo(folder).isDir())
        folder = QDir::homePath();
    return folder;
}

QString SaveLocation::suggest(const QString &fileName, QStandardPaths::StandardLocation fallback)
{
    return QDir(folder(fallback)).filePath(fileName);
}

void SaveLocation::remember(const QString &path)
{
    if (!path.isEmpty())
        lastFolder() = QFileInfo(path).absolutePath();
}

} // namespace Sandpiper
