#include "turnnotifier.h"

#include <session/conversationsession.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>

#include <QApplication>
#include <QWidget>

namespace Sandpiper {

TurnNotifier::TurnNotifier(Settings *settings, SessionManager *sessions, QWidget *window, QDBusConnection connection)
    : QObject(window)
    , m_settings(settings)
    , m_sessions(sessions)
    , m_window(window)
    , m_notifier(std::move(connection))
{
    connect(sessions, &SessionManager::turnFinished, this, &TurnNotifier::announce);
}

void TurnNotifier::announce(qint64 id, AgentEvent::End end, qint64 durationMs)
{
    if (!DesktopNotifier::worthNotifying(durationMs, m_window->isActiveWindow(),
                                         m_settings->boolean(QStringLiteral("notifications/enabled"))) ||
        end == AgentEvent::End::Cancelled)
        return;
    ConversationSession *session = m_sessions->find(id);
    const QString title = session && !session->state().title.isEmpty() ? session->state().title : tr("Sandpiper");
    QString body = end == AgentEvent::End::Failed
                       ? tr("The answer failed.")
                       : (session ? session->lastAnswer().simplified().left(160) : QString());
    if (body.isEmpty())
        body = tr("The answer is ready.");
    m_notifier.notify(title, body);
    QApplication::alert(m_window);
}

} // namespace Sandpiper
