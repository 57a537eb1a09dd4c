#pragma once

#include <QDBusConnection>
#include <QDBusError>
#include <QDBusServer>
#include <QDir>
#include <QTest>

#include <optional>

namespace Sandpiper::Test {

// A D-Bus connection to a stand-in for a desktop service, without a session bus: SERVICE's
// scriptable slots answer at PATH on the other end of a peer connection called NAME. For the
// app's tests that link Qt DBus.
class PeerBus
{
public:
    PeerBus(QObject *service, const QString &path, const QString &name)
        : m_server(QStringLiteral("unix:tmpdir=") + QDir::tempPath())
        , m_name(name)
    {
        QObject::connect(&m_server, &QDBusServer::newConnection, &m_server,
                         [this, service, path](const QDBusConnection &connection) {
                             m_serverSide = connection;
                             m_serverSide->registerObject(path, service, QDBusConnection::ExportScriptableSlots);
                         });
        if (m_server.isConnected())
            m_client = QDBusConnection::connectToPeer(m_server.address(), name);
    }
    ~PeerBus() { QDBusConnection::disconnectFromPeer(m_name); }
    PeerBus(const PeerBus &) = delete;
    PeerBus &operator=(const PeerBus &) = delete;

    // Whether both ends are there; waits for the service's end.
    bool connect()
    {
        return m_client && m_client->isConnected() && QTest::qWaitFor([this] { return m_serverSide.has_value(); });
    }
    QString error() const { return m_server.lastError().message(); }
    // The app's end, once connected.
    QDBusConnection client() const { return *m_client; }
    // The service's end, once connected (to hear the app's signals).
    QDBusConnection service() const { return *m_serverSide; }

private:
    QDBusServer m_server;
    QString m_name;
    std::optional<QDBusConnection> m_client;
    std::optional<QDBusConnection> m_serverSide;
};

} // namespace Sandpiper::Test
