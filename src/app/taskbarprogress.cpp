#include "taskbarprogress.h"

#include <session/modeldownloads.h>

#include <QCryptographicHash>
#include <QDBusMessage>
#include <QGuiApplication>
#include <QVariantMap>

#include <cmath>

namespace Sandpiper {

TaskbarProgress::TaskbarProgress(QDBusConnection connection, QObject *parent)
    : QObject(parent)
    , m_connection(std::move(connection))
{}

void TaskbarProgress::follow(ModelDownloads *downloads)
{
    connect(downloads, &ModelDownloads::changed, this, [this, downloads] { show(downloads->fraction()); });
}

QString TaskbarProgress::applicationUri()
{
    return QStringLiteral("application://%1.desktop").arg(QGuiApplication::desktopFileName());
}

QString TaskbarProgress::objectPath(const QString &applicationUri)
{
    // Any path of the application's own does; a hash keeps it a valid object path.
    return QStringLiteral("/com/canonical/unity/launcherentry/") +
           QString::fromLatin1(QCryptographicHash::hash(applicationUri.toUtf8(), QCryptographicHash::Md5).toHex());
}

bool TaskbarProgress::show(double fraction)
{
    if (!m_connection.isConnected())
        return false;
    const int percent = fraction < 0 ? -1 : int(std::lround(std::min(1.0, fraction) * 100));
    if (percent == m_shown)
        return true;
    m_shown = percent;
    const QString uri = applicationUri();
    QDBusMessage update = QDBusMessage::createSignal(
        objectPath(uri), QStringLiteral("com.canonical.Unity.LauncherEntry"), QStringLiteral("Update"));
    update << uri
           << QVariantMap{{QStringLiteral("progress"), percent < 0 ? 0.0 : percent / 100.0},
                          {QStringLiteral("progress-visible"), percent >= 0}};
    return m_connection.send(update);
}

} // namespace Sandpiper
