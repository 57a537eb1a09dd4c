#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QUrl>

#include <chrono>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>

class QHostAddress;
class QTcpServer;
class QTcpSocket;

namespace Sandpiper::Test {

// One scripted answer of FakeWebServer.
struct FakeWebResponse {
    int status = 200;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    // Bytes appended after BODY, made on the fly while the client reads (GENERATEDPATTERN
    // repeated), so a 50 MB page costs the test no memory.
    qint64 generatedBytes = 0;
    QByteArray generatedPattern = QByteArrayLiteral("<p>Sandpipers run along the tide line.</p>\n");
    // Bytes appended after those, read from this file while the client reads (FILEOFFSET on,
    // FILEBYTES of it), so a file of any size is served at the speed of the socket.
    QString file;
    qint64 fileOffset = 0;
    qint64 fileBytes = 0;
    // The connection closes after this many bytes of the body, as one that drops does; -1: never.
    qint64 dropAfter = -1;
    bool chunked = false;               // Transfer-Encoding: chunked instead of Content-Length
    std::chrono::milliseconds delay{0}; // before the status line
    // Send the head and BODY, then nothing more while keeping the connection open.
    bool stall = false;

    static FakeWebResponse html(QByteArray body, QByteArray contentType = "text/html; charset=utf-8");
    static FakeWebResponse json(QByteArray body, int status = 200);
    static FakeWebResponse redirect(int status, QByteArray location);
};

struct FakeWebRequest {
    QByteArray method;
    QByteArray target;                     // as sent: path and query
    QByteArray path;                       // without the query
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
};

// A small HTTP/1.1 server on 127.0.0.1 for the web tools' tests: routes by path, answers
// with scripted status, headers and body (optionally delayed, chunked, endless or stalled),
// and records every request. One request per connection ("Connection: close").
class FakeWebServer : public QObject
{
    Q_OBJECT

public:
    explicit FakeWebServer(QObject *parent = nullptr);
    ~FakeWebServer() override;

    // On ADDRESS (127.0.0.1 unless given; the loopback has 127.0.0.2 and more, hosts of their own).
    bool listen(const QHostAddress &address);
    bool listen();
    quint16 port() const;
    // http://ADDRESS:PORT + PATH
    QUrl url(const QString &path) const;

    void route(const QByteArray &path, FakeWebResponse response);
    // Answers what no route covers; a 404 page when unset.
    void setFallback(std::function<FakeWebResponse(const FakeWebRequest &)> fallback);

    QList<FakeWebRequest> requests() const { return m_requests; }
    int connectionCount() const { return m_connectionCount; }
    // Body bytes handed to the network so far, over all responses.
    qint64 bodyBytesSent() const { return m_bodyBytesSent; }

    // A fixture from tests/core/data/web.
    static QByteArray fixture(const QString &name);

private:
    struct Connection;

    void accept();
    void read(QTcpSocket *socket);
    void respond(QTcpSocket *socket, const FakeWebRequest &request);
    void pump(QTcpSocket *socket);
    void forget(QTcpSocket *socket);

    QTcpServer *m_server;
    QHash<QByteArray, FakeWebResponse> m_routes;
    std::function<FakeWebResponse(const FakeWebRequest &)> m_fallback;
    QList<FakeWebRequest> m_requests;
    std::unordered_map<QTcpSocket *, std::unique_ptr<Connection>> m_connections;
    int m_connectionCount = 0;
    qint64 m_bodyBytesSent = 0;
};

} // namespace Sandpiper::Test
