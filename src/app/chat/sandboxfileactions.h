#pragma once

#include <sandbox/sandboxfolder.h>

#include <QCoreApplication>
#include <QString>

class QWidget;

namespace Sandpiper {

// What the app does with a file of a conversation's folder when the user asks. Every action
// checks the file at that moment (SandboxFolder: a regular file inside, no link on the way) and
// nothing is ever run: Open hands the desktop a private, read-only copy of a document, image,
// text or data file; a program, script or .desktop file gets "Show in Folder" or a view as plain
// text instead; any other type is named, and the user decides.
class SandboxFileActions
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::SandboxFileActions)

public:
    static constexpr qint64 maxOpenBytes = qint64(1) << 30;
    static constexpr qint64 maxTextBytes = 4 << 20;

    static void open(QWidget *parent, const SandboxFolder &folder, const QString &name);
    // Asks where to save NAME, then copies it if it is still a regular file inside the folder.
    static void saveAs(QWidget *parent, const SandboxFolder &folder, const QString &name, const QString &filter = {});
    // The conversation's folder in the file manager.
    static void showInFolder(const SandboxFolder &folder);
    // A warning that shows TEXT as plain text: names from the sandbox may look like HTML.
    static void warn(QWidget *parent, const QString &title, const QString &text);
    // Where open() keeps its private copies; each is removed a day later.
    static QString copiesFolder();

private:
    static void openCopy(QWidget *parent, SandboxFolder::Opened &opened, const QString &name);
    static void showAsText(QWidget *parent, SandboxFolder::Opened &opened, const QString &name);
};

} // namespace Sandpiper
