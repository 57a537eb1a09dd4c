#pragma once

#include <QDBusConnection>
#include <QObject>

namespace Sandpiper {

class ModelDownloads;

// A model download's progress on Sandpiper's icon in the task bar or dock, through the Unity
// launcher API (the signal com.canonical.Unity.LauncherEntry.Update on the session bus), which
// KDE Plasma's task manager and the GNOME docks (Dash to Dock, Ubuntu's) honour. Nothing is sent
// where no session bus runs; a dock that does not listen ignores it.
class TaskbarProgress : public QObject
{
    Q_OBJECT

public:
    explicit TaskbarProgress(QDBusConnection connection = QDBusConnection::sessionBus(), QObject *parent = nullptr);

    // Shows the progress of DOWNLOADS' download from now on.
    void follow(ModelDownloads *downloads);
    // Shows FRACTION (0 to 1) done, or no progress when it is negative; sent only when the
    // whole percentage or the visibility changes. False when there is no bus to send it on.
    bool show(double fraction);

    // application://DESKTOPID.desktop, the launcher entry the signal is for.
    static QString applicationUri();
    // Where the signal comes from: /com/canonical/unity/launcherentry/ and a hash of the URI.
    static QString objectPath(const QString &applicationUri);

private:
    QDBusConnection m_connection;
    int m_shown = -1; // the percentage last sent; -1: hidden
};

} // namespace Sandpiper
