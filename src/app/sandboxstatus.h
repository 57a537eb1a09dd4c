#pragma once

#include <sandbox/enginestatus.h>
#include <sandbox/sandboxhealth.h>

#include <QObject>

#include <optional>

class QLabel;
class QWidget;

namespace Sandpiper {

class ElidedLabel;
class SessionManager;
class Settings;

// The sandbox as the status bar shows it: whether Docker answers and has the image (checked at
// start), how far a remote engine is, whether the conversation's Python runs. Until Docker
// works, the banner says why and the sessions offer the model no Python; the chat still works.
// Its widgets belong to WINDOW, which places them.
class SandboxStatus : public QObject
{
    Q_OBJECT

public:
    SandboxStatus(Settings *settings, SessionManager *sessions, QWidget *window);

    // For the window to place: the Docker state in the status bar, the banner above the chat.
    ElidedLabel *label() const { return m_label; }
    QLabel *banner() const { return m_banner; }
    bool isPythonAvailable() const { return m_health.ok(); }

    // Checks Docker and the image (not at all with the sandbox off), then the engine; removes
    // the containers an earlier run left behind.
    void check();
    // The conversation on screen has a running kernel (ALIVE) or not.
    void showKernel(bool alive);

Q_SIGNALS:
    // Docker's state or the engine's is known anew.
    void changed();
    // The check at start ended (with the sandbox off, at once).
    void checked();

private:
    QString readyText(bool kernelAlive) const;
    void checkEngine();

    Settings *m_settings;
    SessionManager *m_sessions;
    ElidedLabel *m_label;
    QLabel *m_banner;
    SandboxHealth m_health;
    bool m_healthKnown = false;
    // The engine when it is remote (issue 18): the Docker state shows its round trip.
    std::optional<EngineStatus> m_remoteEngine;
};

} // namespace Sandpiper
