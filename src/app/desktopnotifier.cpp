#include "desktopnotifier.h"

#include <logging.h>

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QGuiApplication>
#include <QVariantMap>

namespace Sandpiper {

DesktopNotifier::DesktopNotifier(QDBusConnection connection, QObject *parent)
    : QObject(parent)
    , m_connection(std::move(connection))
{}

bool DesktopNotifier::worthNotifying(qint64 durationMs, bool windowActive, bool enabled)
{
    return enabled && !windowActive && durationMs > minimumTurnMs;
}

bool DesktopNotifier::notify(const QString &title, const QString &body)
{
    if (!m_connection.isConnected())
        return false;
    QDBusMessage call = QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("/org/freedesktop/Notifications"),
        QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("Notify"));
    const QString desktopEntry = QGuiApplication::desktopFileName();
    const QVariantMap hints{{QStringLiteral("desktop-entry"), desktopEntry},
                            {QStringLiteral("category"), QStringLiteral("im.received")}};
    call << QGuiApplication::applicationDisplayName() << m_lastId << desktopEntry << title << body << QStringList()
         << hints << int(-1);
    auto *watcher = new QDBusPendingCallWatcher(m_connection.asyncCall(call, 5000), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *finished) {
        const QDBusPendingReply<uint> reply = *finished;
        if (reply.isError())
            qCInfo(lcApp) << "no desktop notification:" << reply.error().message();
        else
            m_lastId = reply.value();
        finished->deleteLater();
    });
    return true;
}

} // namespace Sandpiper
