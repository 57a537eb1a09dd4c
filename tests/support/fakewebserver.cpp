#include "fakewebserver.h"

#include "httpreason.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QLoggingCategory>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace Sandpiper::Test {

namespace {

Q_LOGGING_CATEGORY(lcFakeWeb, "sandpiper.test.fakeweb", QtInfoMsg)

// How much may wait in the socket before more of a generated body is made.
constexpr qint64 writeAhead = 256 * 1024;
constexpr qint64 pieceSize = 64 * 1024;

QByteArray chunk(const QByteArray &data)
{
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}

} // namespace

FakeWebResponse FakeWebResponse::html(QByteArray body, QByteArray contentType)
{
    FakeWebResponse response;
    response.headers = {{"Content-Type", contentType}};
    response.body = std::move(body);
    return response;
}

FakeWebResponse FakeWebResponse::json(QByteArray body, int status)
{
    FakeWebResponse response;
    response.status = status;
    response.headers = {{"Content-Type", "application/json; charset=utf-8"}};
    response.body = std::move(body);
    return response;
}

FakeWebResponse FakeWebResponse::redirect(int status, QByteArray location)
{
    FakeWebResponse response = html("<html><body>Moved</body></html>");
    response.status = status;
    response.headers.append({"Location", std::move(location)});
    return response;
}

struct FakeWebServer::Connection {
    QByteArray buffer;
    bool answered = false;
    bool headSent = false;
    FakeWebResponse response;
    qint64 generatedLeft = 0;
    qint64 patternOffset = 0;
    std::unique_ptr<QFile> file;
    qint64 fileLeft = 0;
    qint64 bodySent = 0;
    bool finished = false;
};

FakeWebServer::FakeWebServer(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &FakeWebServer::accept);
}

FakeWebServer::~FakeWebServer() = default;

bool FakeWebServer::listen()
{
    return listen(QHostAddress(QHostAddress::LocalHost));
}

bool FakeWebServer::listen(const QHostAddress &address)
{
    if (!m_server->listen(address, 0)) {
        qCWarning(lcFakeWeb) << "cannot listen:" << m_server->errorString();
        return false;
    }
    return true;
}

quint16 FakeWebServer::port() const
{
    return m_server->serverPort();
}

QUrl FakeWebServer::url(const QString &path) const
{
    return QUrl(QStringLiteral("http://%1:%2%3").arg(m_server->serverAddress().toString()).arg(port()).arg(path));
}

void FakeWebServer::route(const QByteArray &path, FakeWebResponse response)
{
    m_routes.insert(path, std::move(response));
}

void FakeWebServer::setFallback(std::function<FakeWebResponse(const FakeWebRequest &)> fallback)
{
    m_fallback = std::move(fallback);
}

QByteArray FakeWebServer::fixture(const QString &name)
{
    // Not from __FILE__: a compiler cache with a base folder makes that path relative.
    const QString directory = QStringLiteral(SANDPIPER_TEST_SUPPORT_DIR "/../core/data/web/");
    QFile file(QDir::cleanPath(directory + name));
    if (!file.open(QIODevice::ReadOnly)) {
        qCWarning(lcFakeWeb) << "missing fixture" << file.fileName();
        return {};
    }
    return file.readAll();
}

void FakeWebServer::accept()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        ++m_connectionCount;
        m_connections.emplace(socket, std::make_unique<Connection>());
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
        connect(socket, &QTcpSocket::bytesWritten, this, [this, socket] { pump(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] { forget(socket); });
    }
}

void FakeWebServer::forget(QTcpSocket *socket)
{
    m_connections.erase(socket);
    socket->deleteLater();
}

void FakeWebServer::read(QTcpSocket *socket)
{
    const auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    Connection &connection = *it->second;
    connection.buffer += socket->readAll();
    if (connection.answered)
        return;
    const qsizetype headEnd = connection.buffer.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return;

    FakeWebRequest request;
    const QList<QByteArray> lines = connection.buffer.first(headEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    request.method = requestLine.value(0);
    request.target = requestLine.value(1);
    const qsizetype query = request.target.indexOf('?');
    request.path = query < 0 ? request.target : request.target.first(query);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            request.headers.insert(lines[i].first(colon).trimmed().toLower(), lines[i].sliced(colon + 1).trimmed());
    }
    const qint64 length = request.headers.value("content-length").toLongLong();
    if (connection.buffer.size() - (headEnd + 4) < length)
        return;
    request.body = connection.buffer.sliced(headEnd + 4, length);
    connection.answered = true;
    m_requests.append(request);
    respond(socket, request);
}

void FakeWebServer::respond(QTcpSocket *socket, const FakeWebRequest &request)
{
    FakeWebResponse response;
    if (const auto route = m_routes.constFind(request.path); route != m_routes.constEnd())
        response = *route;
    else if (m_fallback)
        response = m_fallback(request);
    else {
        response = FakeWebResponse::html("<html><body><h1>Not Found</h1></body></html>");
        response.status = 404;
    }

    auto send = [this, socket, response] {
        const auto it = m_connections.find(socket);
        if (it == m_connections.end())
            return;
        Connection &connection = *it->second;
        connection.response = response;
        connection.generatedLeft = response.generatedBytes;
        if (!response.file.isEmpty()) {
            connection.file = std::make_unique<QFile>(response.file);
            if (connection.file->open(QIODevice::ReadOnly) && connection.file->seek(response.fileOffset))
                connection.fileLeft = response.fileBytes;
            else
                qCWarning(lcFakeWeb) << "cannot serve" << response.file;
        }
        connection.headSent = true;
        QByteArray head =
            "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + reasonPhrase(response.status) + "\r\n";
        for (const auto &[name, value] : response.headers)
            head += name + ": " + value + "\r\n";
        if (response.chunked)
            head += "Transfer-Encoding: chunked\r\n";
        else
            head += "Content-Length: " +
                    QByteArray::number(response.body.size() + response.generatedBytes + response.fileBytes) + "\r\n";
        head += "Connection: close\r\n\r\n";
        socket->write(head);
        if (!response.body.isEmpty()) {
            const QByteArray body =
                response.dropAfter >= 0
                    ? response.body.first(std::min<qint64>(response.dropAfter, response.body.size()))
                    : response.body;
            socket->write(response.chunked ? chunk(body) : body);
            m_bodyBytesSent += body.size();
            connection.bodySent = body.size();
        }
        pump(socket);
    };
    if (response.delay.count() > 0)
        QTimer::singleShot(response.delay, socket, send);
    else
        send();
}

void FakeWebServer::pump(QTcpSocket *socket)
{
    const auto it = m_connections.find(socket);
    if (it == m_connections.end() || !it->second->headSent)
        return;
    Connection &connection = *it->second;
    if (connection.finished || connection.response.stall)
        return;
    const qint64 dropAfter = connection.response.dropAfter;
    const auto dropped = [&] {
        return dropAfter >= 0 && connection.bodySent >= dropAfter;
    };
    const QByteArray &pattern = connection.response.generatedPattern;
    while ((connection.generatedLeft > 0 || connection.fileLeft > 0) && !dropped() &&
           socket->bytesToWrite() < writeAhead) {
        qint64 size = pieceSize;
        if (dropAfter >= 0)
            size = std::min(size, dropAfter - connection.bodySent);
        QByteArray piece;
        if (connection.generatedLeft > 0) {
            size = std::min(size, connection.generatedLeft);
            piece.reserve(size);
            while (piece.size() < size) {
                const qsizetype take = std::min<qint64>(pattern.size() - connection.patternOffset, size - piece.size());
                piece += pattern.sliced(connection.patternOffset, take);
                connection.patternOffset = (connection.patternOffset + take) % pattern.size();
            }
            connection.generatedLeft -= piece.size();
        } else {
            piece = connection.file->read(std::min(size, connection.fileLeft));
            if (piece.isEmpty()) {
                qCWarning(lcFakeWeb) << "cannot read" << connection.file->fileName();
                connection.fileLeft = 0;
                break;
            }
            connection.fileLeft -= piece.size();
        }
        connection.bodySent += piece.size();
        m_bodyBytesSent += piece.size();
        socket->write(connection.response.chunked ? chunk(piece) : piece);
    }
    if (!dropped() && (connection.generatedLeft > 0 || connection.fileLeft > 0))
        return;
    connection.finished = true;
    if (dropped()) {
        // A moment later, as a connection that drops does: the client has read the head by then
        // (one that closes at once may be taken for a stale connection and asked again).
        QTimer::singleShot(200, socket, [socket] { socket->disconnectFromHost(); });
        return;
    }
    if (connection.response.chunked)
        socket->write("0\r\n\r\n");
    socket->disconnectFromHost();
}

} // namespace Sandpiper::Test
