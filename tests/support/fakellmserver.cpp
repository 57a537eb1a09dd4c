#include "fakellmserver.h"

#include "fakestreams.h"
#include "httpreason.h"

#include <QDateTime>
#include <QHostAddress>
#include <QJsonDocument>
#include <QLocale>
#include <QLoggingCategory>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <optional>

namespace Sandpiper::Test {

namespace {

Q_LOGGING_CATEGORY(lcFakeLlm, "sandpiper.test.fakellm", QtInfoMsg)

enum class ParseStatus { Incomplete, Complete, Malformed };

struct ParseResult {
    ParseStatus status = ParseStatus::Incomplete;
    qsizetype consumed = 0;
    bool keepAlive = true;
    // The head is in and asks for "Expect: 100-continue" while the body is still missing.
    bool expectsContinue = false;
};

// The line starting at POS without its line break (CRLF or a lenient bare LF); POS moves past
// it. Nothing while the line break has not arrived yet.
std::optional<QByteArrayView> takeLine(QByteArrayView data, qsizetype &pos)
{
    const qsizetype end = data.indexOf('\n', pos);
    if (end < 0)
        return std::nullopt;
    QByteArrayView line = data.sliced(pos, end - pos);
    if (line.endsWith('\r'))
        line.chop(1);
    pos = end + 1;
    return line;
}

bool headerHasToken(const QByteArray &value, QByteArrayView token)
{
    for (const QByteArray &part : value.split(','))
        if (part.trimmed().compare(token, Qt::CaseInsensitive) == 0)
            return true;
    return false;
}

// Parses one request from the start of DATA. Stateless, so a request that trickles in byte by
// byte is simply parsed again from the top whenever more arrives.
ParseResult parseRequest(QByteArrayView data, RecordedRequest *request)
{
    ParseResult result;
    qsizetype pos = 0;
    const auto malformed = [&result] {
        result.status = ParseStatus::Malformed;
        return result;
    };

    // Clients may send stray line breaks between requests (RFC 9112, 2.2).
    std::optional<QByteArrayView> requestLine;
    do {
        requestLine = takeLine(data, pos);
        if (!requestLine)
            return result;
    } while (requestLine->isEmpty());

    const QList<QByteArray> parts = requestLine->toByteArray().split(' ');
    if (parts.size() != 3 || parts[0].isEmpty() || !parts[1].startsWith('/') || !parts[2].startsWith("HTTP/1."))
        return malformed();
    request->method = parts[0];
    request->path = parts[1];
    request->headers.clear();
    request->body.clear();

    for (;;) {
        const std::optional<QByteArrayView> line = takeLine(data, pos);
        if (!line)
            return result;
        if (line->isEmpty())
            break;
        const qsizetype colon = line->indexOf(':');
        if (colon <= 0)
            return malformed();
        const QByteArray name = line->first(colon).trimmed().toByteArray().toLower();
        const QByteArray value = line->sliced(colon + 1).trimmed().toByteArray();
        QByteArray &stored = request->headers[name];
        stored = stored.isEmpty() ? value : QByteArray(stored + ", " + value);
    }

    const QByteArray connection = request->headers.value("connection");
    result.keepAlive =
        parts[2] == "HTTP/1.0" ? headerHasToken(connection, "keep-alive") : !headerHasToken(connection, "close");
    result.expectsContinue = request->headers.value("expect").compare("100-continue", Qt::CaseInsensitive) == 0;

    if (headerHasToken(request->headers.value("transfer-encoding"), "chunked")) {
        for (;;) {
            const std::optional<QByteArrayView> sizeLine = takeLine(data, pos);
            if (!sizeLine)
                return result;
            const qsizetype extension = sizeLine->indexOf(';');
            bool ok = false;
            const qlonglong size =
                (extension < 0 ? *sizeLine : sizeLine->first(extension)).trimmed().toLongLong(&ok, 16);
            if (!ok || size < 0)
                return malformed();
            if (size == 0) {
                // Trailer fields, if any, end with an empty line.
                for (;;) {
                    const std::optional<QByteArrayView> trailer = takeLine(data, pos);
                    if (!trailer)
                        return result;
                    if (trailer->isEmpty())
                        break;
                }
                break;
            }
            if (data.size() - pos < size)
                return result;
            request->body += data.sliced(pos, size);
            pos += size;
            const std::optional<QByteArrayView> end = takeLine(data, pos);
            if (!end)
                return result;
            if (!end->isEmpty())
                return malformed();
        }
    } else if (request->headers.contains("content-length")) {
        bool ok = false;
        const qlonglong length = request->headers.value("content-length").toLongLong(&ok);
        if (!ok || length < 0)
            return malformed();
        if (data.size() - pos < length)
            return result;
        request->body = data.sliced(pos, length).toByteArray();
        pos += length;
    }

    result.status = ParseStatus::Complete;
    result.consumed = pos;
    result.expectsContinue = false;
    return result;
}

QByteArray responseHead(const FakeResponse &response, bool keepAlive)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + reasonPhrase(response.status) + "\r\n";
    head += "Date: " +
            QLocale::c()
                .toString(QDateTime::currentDateTimeUtc(), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
                .toLatin1() +
            "\r\n";
    for (const auto &[name, value] : response.headers)
        head += name + ": " + value + "\r\n";
    if (response.chunked)
        head += "Transfer-Encoding: chunked\r\n";
    else
        head += "Content-Length: " + QByteArray::number(response.body().size()) + "\r\n";
    head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    head += "\r\n";
    return head;
}

// OpenAI shows a wrong key with most of it starred out.
QString maskedKey(const QString &key)
{
    if (key.size() < 8)
        return QStringLiteral("***");
    return key.left(5) + QStringLiteral("***") + key.right(2);
}

} // namespace

QJsonObject RecordedRequest::json() const
{
    return QJsonDocument::fromJson(body).object();
}

struct FakeLlmServer::Connection {
    struct Playback {
        int requestIndex = -1; // -1: the answer to a request too malformed to record
        FakeResponse response;
        qsizetype nextChunk = 0;
        bool headersSent = false;
        bool keepAlive = true;
        bool outOfResponses = false;
    };

    QTcpSocket *socket = nullptr;
    // Drives the playback; a child of the socket, so it dies with it.
    QTimer *timer = nullptr;
    int number = 0;
    QByteArray buffer;
    bool continueSent = false;
    bool closingByServer = false;
    // Requests that arrive while a response plays wait in the buffer (pipelining).
    std::optional<Playback> playback;
};

FakeLlmServer::FakeLlmServer(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
    , m_models{QStringLiteral("gpt-4o-mini")}
{
    connect(m_server, &QTcpServer::newConnection, this, &FakeLlmServer::acceptConnections);
}

FakeLlmServer::~FakeLlmServer() = default;

bool FakeLlmServer::listen(quint16 port)
{
    if (!m_server->listen(QHostAddress::LocalHost, port)) {
        qCWarning(lcFakeLlm) << "cannot listen on port" << port << ":" << m_server->errorString();
        return false;
    }
    return true;
}

quint16 FakeLlmServer::port() const
{
    return m_server->serverPort();
}

QStringList FakeLlmServer::providerSettings(const QString &model) const
{
    // A scripted server's model has nothing to show on a report card: no offer to test it.
    return {QStringLiteral("provider=custom"), QStringLiteral("providers/custom/base_url=") + baseUrl().toString(),
            QStringLiteral("providers/custom/model=") + model, QStringLiteral("models/test_first_use=never")};
}

QUrl FakeLlmServer::baseUrl() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(port()));
}

void FakeLlmServer::enqueue(FakeResponse response)
{
    m_queue.enqueue(std::move(response));
}

void FakeLlmServer::setModels(QStringList ids)
{
    m_models = std::move(ids);
}

void FakeLlmServer::setRequiredApiKey(QString key)
{
    m_requiredApiKey = std::move(key);
}

void FakeLlmServer::setRoute(const QByteArray &method, const QByteArray &path, Answer answer)
{
    m_routes.insert(method + ' ' + path, std::move(answer));
}

void FakeLlmServer::setRoute(const QByteArray &method, const QByteArray &path, FakeResponse response)
{
    setRoute(method, path, [response](const RecordedRequest &) { return response; });
}

QList<RecordedRequest> FakeLlmServer::chatRequests() const
{
    QList<RecordedRequest> chat;
    for (const RecordedRequest &request : m_requests) {
        if (request.method == "POST" && request.path.startsWith("/v1/chat/completions"))
            chat << request;
    }
    return chat;
}

void FakeLlmServer::acceptConnections()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        // Each scripted chunk should leave as its own TCP segment instead of waiting for the
        // next one (Nagle), or the awkward splits would be merged before they reach the client.
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);

        auto connection = std::make_unique<Connection>();
        connection->socket = socket;
        connection->number = m_connectionCount++;
        connection->timer = new QTimer(socket);
        connection->timer->setSingleShot(true);
        // Coarse timers fire up to 5 % early; tests of timeouts need the delays as scripted.
        connection->timer->setTimerType(Qt::PreciseTimer);

        connect(connection->timer, &QTimer::timeout, this, [this, socket] {
            if (const auto it = m_connections.find(socket); it != m_connections.end())
                playNextStep(*it->second);
        });
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { readFrom(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            const auto it = m_connections.find(socket);
            if (it == m_connections.end())
                return;
            const bool byClient = !it->second->closingByServer;
            const int abortedIndex = it->second->playback ? it->second->playback->requestIndex : -1;
            forget(socket);
            if (!byClient)
                return;
            Q_EMIT connectionClosedByClient();
            if (abortedIndex >= 0)
                Q_EMIT responseAbortedByClient(abortedIndex);
        });

        m_connections.emplace(socket, std::move(connection));
    }
}

void FakeLlmServer::readFrom(QTcpSocket *socket)
{
    const auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    Connection &connection = *it->second;
    connection.buffer += socket->readAll();
    if (!connection.playback)
        serveBufferedRequests(connection);
}

void FakeLlmServer::serveBufferedRequests(Connection &connection)
{
    RecordedRequest request;
    const ParseResult parsed = parseRequest(connection.buffer, &request);

    if (parsed.status == ParseStatus::Incomplete) {
        if (parsed.expectsContinue && !connection.continueSent) {
            connection.continueSent = true;
            send(connection, "HTTP/1.1 100 Continue\r\n\r\n");
        }
        return;
    }

    if (parsed.status == ParseStatus::Malformed) {
        qCWarning(lcFakeLlm) << "malformed request:" << connection.buffer.left(200);
        connection.buffer.clear();
        connection.playback = Connection::Playback{};
        connection.playback->response =
            FakeStreams::httpError(400, QStringLiteral("fake server: malformed HTTP request"));
        connection.playback->keepAlive = false;
        connection.timer->start(0);
        return;
    }

    connection.buffer.remove(0, parsed.consumed);
    connection.continueSent = false;
    request.connection = connection.number;
    const int index = int(m_requests.size());
    m_requests.append(request);

    // A slot may enqueue the answer now; it runs before the request is routed.
    QTcpSocket *socket = connection.socket;
    Q_EMIT requestReceived(index);
    if (!m_connections.contains(socket))
        return;

    Connection::Playback playback;
    playback.requestIndex = index;
    playback.response = route(m_requests.at(index), &playback.outOfResponses);
    playback.response.chunks.removeIf([](const QByteArray &chunk) { return chunk.isEmpty(); });
    playback.keepAlive = parsed.keepAlive;
    connection.playback = std::move(playback);
    connection.timer->start(connection.playback->response.delayBeforeHeaders);
}

FakeResponse FakeLlmServer::route(const RecordedRequest &request, bool *outOfResponses)
{
    if (!m_requiredApiKey.isEmpty()) {
        const QByteArray authorization = request.headers.value("authorization");
        const qsizetype space = authorization.indexOf(' ');
        const bool bearer = space > 0 && authorization.first(space).compare("Bearer", Qt::CaseInsensitive) == 0;
        const QString key = bearer ? QString::fromUtf8(authorization.sliced(space + 1).trimmed()) : QString();
        if (key.isEmpty()) {
            return FakeStreams::httpError(
                401, QStringLiteral("You didn't provide an API key. You need to provide your API key in an "
                                    "Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), "
                                    "or as the password field (with blank username) if you're accessing the API "
                                    "from your browser and are prompted for a username and password. You can "
                                    "obtain an API key from https://platform.openai.com/account/api-keys."));
        }
        if (key != m_requiredApiKey) {
            return FakeStreams::httpError(401, QStringLiteral("Incorrect API key provided: %1. You can find your API "
                                                              "key at https://platform.openai.com/account/api-keys.")
                                                   .arg(maskedKey(key)));
        }
    }

    const qsizetype query = request.path.indexOf('?');
    const QByteArray path = query < 0 ? request.path : request.path.first(query);
    if (const auto custom = m_routes.constFind(request.method + ' ' + path); custom != m_routes.cend())
        return (*custom)(request);

    if (request.method == "POST" && path == "/v1/chat/completions") {
        if (m_queue.isEmpty()) {
            *outOfResponses = true;
            return FakeStreams::httpError(500, QStringLiteral("fake server: no scripted response left"));
        }
        return m_queue.dequeue();
    }
    if (request.method == "GET" && path == "/v1/models")
        return FakeStreams::modelList(m_models);
    return FakeStreams::httpError(
        404, QStringLiteral("Invalid URL (%1 %2)").arg(QString::fromLatin1(request.method), QString::fromUtf8(path)));
}

void FakeLlmServer::playNextStep(Connection &connection)
{
    Connection::Playback &playback = *connection.playback;
    const FakeResponse &response = playback.response;

    if (!playback.headersSent) {
        playback.headersSent = true;
        if (!send(connection, responseHead(response, playback.keepAlive)))
            return;
    }

    if (playback.nextChunk < response.chunks.size()) {
        const QByteArray chunk = response.chunks.at(playback.nextChunk++);
        if (!send(connection,
                  response.chunked ? QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n" : chunk))
            return;
    }

    // Even without a delay the next chunk waits for the next turn of the event loop, which is
    // when a client that went away gets noticed.
    if (playback.nextChunk < response.chunks.size())
        connection.timer->start(response.chunkDelay);
    else
        finishResponse(connection);
}

void FakeLlmServer::finishResponse(Connection &connection)
{
    const Connection::Playback &playback = *connection.playback;
    if (playback.response.cutAfterChunks) {
        closeByServer(connection);
        return;
    }
    if (playback.response.stallAfterChunks)
        return;

    if (playback.response.chunked && !send(connection, "0\r\n\r\n"))
        return;

    const bool keepAlive = playback.keepAlive;
    if (playback.outOfResponses) {
        // Only once the bytes have left, so that a process quitting on this signal still
        // delivers the 500.
        QTcpSocket *socket = connection.socket;
        const int index = playback.requestIndex;
        if (socket->bytesToWrite() == 0) {
            Q_EMIT outOfResponses(index);
        } else {
            auto flushed = std::make_shared<QMetaObject::Connection>();
            *flushed = connect(socket, &QTcpSocket::bytesWritten, this, [this, socket, index, flushed] {
                if (socket->bytesToWrite() > 0)
                    return;
                disconnect(*flushed);
                Q_EMIT outOfResponses(index);
            });
        }
        if (!m_connections.contains(socket))
            return;
    }

    connection.playback.reset();
    if (!keepAlive) {
        closeByServer(connection);
        return;
    }
    serveBufferedRequests(connection);
}

bool FakeLlmServer::send(Connection &connection, const QByteArray &bytes)
{
    QTcpSocket *socket = connection.socket;
    socket->write(bytes);
    // A write that finds the client gone emits disconnected() before flush() returns.
    socket->flush();
    return m_connections.contains(socket);
}

void FakeLlmServer::closeByServer(Connection &connection)
{
    connection.closingByServer = true;
    connection.timer->stop();
    // May emit disconnected() at once, which forgets CONNECTION: nothing may touch it after.
    connection.socket->disconnectFromHost();
}

void FakeLlmServer::forget(QTcpSocket *socket)
{
    const auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    it->second->timer->stop();
    socket->deleteLater();
    m_connections.erase(it);
}

} // namespace Sandpiper::Test
