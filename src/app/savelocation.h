#pragma once

#include <QStandardPaths>
#include <QString>

namespace Sandpiper {

// Where the file dialogs that save or open the user's files start: the folder last chosen in
// one of them during this run, else the user's Documents (or Pictures, for images), else the
// home folder — never the folder the app was started from.
class SaveLocation
{
public:
    // That folder, for a dialog that opens the user's files.
    static QString folder(QStandardPaths::StandardLocation fallback = QStandardPaths::DocumentsLocation);
    // FILENAME in that folder, for a dialog's suggestion.
    static QString suggest(const QString &fileName,
                           QStandardPaths::StandardLocation fallback = QStandardPaths::DocumentsLocation);
    // The folder of PATH, chosen in a dialog, is where the next one starts.
    static void remember(const QString &path);
};

} // namespace Sandpiper
