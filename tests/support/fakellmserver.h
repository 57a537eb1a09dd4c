#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QQueue>
#include <QStringList>
#include <QUrl>

#include <chrono>
#include <functional>
#include <memory>
#include <unordered_map>
#include <utility>

class QTcpServer;
class QTcpSocket;

namespace Sandpiper::Test {

// One scripted answer. The server adds the framing headers itself (Date, Content-Length or
// Transfer-Encoding, Connection), so HEADERS holds what the imitated server adds on top.
struct FakeResponse {
    int status = 200;
    QList<std::pair<QByteArray, QByteArray>> headers;
    // Each element goes out in its own write and flush (and, when chunked, its own HTTP chunk),
    // so a client meets the body in exactly these pieces unless its own reads merge them.
    QList<QByteArray> chunks;
    std::chrono::milliseconds delayBeforeHeaders{0};
    std::chrono::milliseconds chunkDelay{0};
    // Transfer-Encoding: chunked, as real servers stream; otherwise Content-Length.
    bool chunked = true;
    // Close the socket after the chunks without the terminating 0-chunk: a stream cut mid-way.
    // Mind that QNetworkAccessManager may report such a reply as finished without error: it
    // takes a close in the middle of the body for its end, chunked or not.
    bool cutAfterChunks = false;
    // Keep the connection open after the chunks and send nothing more (idle timeouts).
    // Ignored when cutAfterChunks is set.
    bool stallAfterChunks = false;

    QByteArray body() const { return chunks.join(); }
};

struct RecordedRequest {
    QByteArray method;
    QByteArray path;                       // the request target as sent, query included
    QHash<QByteArray, QByteArray> headers; // lower-case names; repeated headers joined with ", "
    QByteArray body;                       // de-chunked when it came chunked
    int connection = 0;                    // which TCP connection it came on, counted from 0

    QJsonObject json() const;
};

// An OpenAI-compatible server on 127.0.0.1 that replays scripted answers byte for byte,
// written on raw sockets so that tests control exactly how the bytes are framed and split.
// Event-driven, never blocking: the client may live in the same thread or another process.
//
// Routes: POST /v1/chat/completions serves the queued responses in order (a 500 once they
// run out), GET /v1/models lists setModels(), routes set with setRoute() answer as they say
// (a server's own API: llama.cpp's /props, Ollama's /api/show, ...); anything else is a 404.
// Every request is recorded, including the refused ones.
class FakeLlmServer : public QObject
{
    Q_OBJECT

public:
    explicit FakeLlmServer(QObject *parent = nullptr);
    ~FakeLlmServer() override;

    bool listen(quint16 port = 0);
    quint16 port() const;
    // http://127.0.0.1:PORT/v1
    QUrl baseUrl() const;
    // The settings (KEY=VALUE, as Settings::addOverride takes them) that point the Custom
    // provider at this server with MODEL.
    QStringList providerSettings(const QString &model) const;

    // Responses are served first in, first out. A slot on requestReceived() may still enqueue
    // the answer to the request it was told about.
    void enqueue(FakeResponse response);
    qsizetype queuedResponses() const { return m_queue.size(); }
    // What GET /v1/models lists; "gpt-4o-mini" until set.
    void setModels(QStringList ids);
    // When set, requests need "Authorization: Bearer KEY" or get OpenAI's 401.
    void setRequiredApiKey(QString key);
    // METHOD PATH (without the query) is answered by ANSWER, every time; it wins over the
    // built-in routes.
    using Answer = std::function<FakeResponse(const RecordedRequest &)>;
    void setRoute(const QByteArray &method, const QByteArray &path, Answer answer);
    void setRoute(const QByteArray &method, const QByteArray &path, FakeResponse response);
    // The requests to POST /v1/chat/completions only.
    QList<RecordedRequest> chatRequests() const;

    QList<RecordedRequest> requests() const { return m_requests; }

Q_SIGNALS:
    // INDEX is the request's position in requests().
    void requestReceived(int index);
    // The client closed a connection, whether idle or in the middle of a response.
    void connectionClosedByClient();
    // The client closed the connection before the response to request INDEX was complete
    // (or while it stalled): what a cancelled stream looks like from the server.
    void responseAbortedByClient(int index);
    // The 500 for a chat request that found the queue empty has been handed to the network.
    void outOfResponses(int index);

private:
    struct Connection;

    void acceptConnections();
    void readFrom(QTcpSocket *socket);
    void serveBufferedRequests(Connection &connection);
    FakeResponse route(const RecordedRequest &request, bool *outOfResponses);
    void playNextStep(Connection &connection);
    void finishResponse(Connection &connection);
    // False when the client turned out to be gone: CONNECTION is forgotten then.
    bool send(Connection &connection, const QByteArray &bytes);
    void closeByServer(Connection &connection);
    void forget(QTcpSocket *socket);

    QTcpServer *m_server;
    QQueue<FakeResponse> m_queue;
    QStringList m_models;
    QString m_requiredApiKey;
    QHash<QByteArray, Answer> m_routes;
    QList<RecordedRequest> m_requests;
    std::unordered_map<QTcpSocket *, std::unique_ptr<Connection>> m_connections;
    int m_connectionCount = 0;
};

} // namespace Sandpiper::Test
