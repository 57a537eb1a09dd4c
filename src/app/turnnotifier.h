#pragma once

#include "desktopnotifier.h"

#include <agent/agentevent.h>

namespace Sandpiper {

class SessionManager;
class Settings;

// A long answer that ended while the user worked elsewhere: the desktop says so (through
// CONNECTION's notification service), and WINDOW's taskbar entry asks for attention.
class TurnNotifier : public QObject
{
    Q_OBJECT

public:
    TurnNotifier(Settings *settings, SessionManager *sessions, QWidget *window,
                 QDBusConnection connection = QDBusConnection::sessionBus());

    // The turn of conversation ID ended with END after DURATIONMS.
    void announce(qint64 id, AgentEvent::End end, qint64 durationMs);

private:
    Settings *m_settings;
    SessionManager *m_sessions;
    QWidget *m_window;
    DesktopNotifier m_notifier;
};

} // namespace Sandpiper
