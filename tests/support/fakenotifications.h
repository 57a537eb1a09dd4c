#pragma once

#include <QObject>
#include <QVariantMap>

namespace Sandpiper::Test {

// A stand-in for the desktop's notification service (org.freedesktop.Notifications), to put
// behind a PeerBus: it keeps the notices it was sent.
class FakeNotifications : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")

public:
    struct Call {
        QString app;
        uint replaces;
        QString summary;
        QString body;
        QVariantMap hints;
    };
    QList<Call> calls;

public Q_SLOTS:
    Q_SCRIPTABLE uint Notify(const QString &app, uint replaces, const QString &, const QString &summary,
                             const QString &body, const QStringList &, const QVariantMap &hints, int)
    {
        calls.append({app, replaces, summary, body, hints});
        return 40 + uint(calls.size());
    }
};

} // namespace Sandpiper::Test
