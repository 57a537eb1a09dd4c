#pragma once

#include <QDBusConnection>
#include <QObject>

namespace Sandpiper {

// Tells the desktop that something finished, through the freedesktop notification service
// (org.freedesktop.Notifications on the session bus), which every Linux desktop runs. A later
// notice replaces the earlier one instead of piling up.
class DesktopNotifier : public QObject
{
    Q_OBJECT

public:
    explicit DesktopNotifier(QDBusConnection connection = QDBusConnection::sessionBus(), QObject *parent = nullptr);

    // Sends the notice and returns at once; false when there is no bus to send it on.
    bool notify(const QString &title, const QString &body);
    // Whether a turn of DURATIONMS that ended while the window was (not) ACTIVE deserves a notice.
    static bool worthNotifying(qint64 durationMs, bool windowActive, bool enabled);

    // Answers quicker than this were probably watched.
    static constexpr qint64 minimumTurnMs = 10000;

private:
    QDBusConnection m_connection;
    uint m_lastId = 0; // the notice to replace
};

} // namespace Sandpiper
