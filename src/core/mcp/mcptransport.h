#pragma once

#include <QJsonObject>
#include <QObject>

namespace Sandpiper {

// How JSON-RPC messages travel between Sandpiper and one MCP server. Lives on the MCP thread.
// Every signal is emitted from the event loop, never from inside a call to the transport.
class McpTransport : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    virtual void open() = 0;
    virtual void send(const QJsonObject &message) = 0;
    // Ends the connection (stdio: closes the server's input, then SIGTERM, then SIGKILL).
    virtual void close() = 0;
    // After the initialize answer: the version every later HTTP request names.
    virtual void setProtocolVersion(const QString &) {}
    // The process of a stdio server, 0 otherwise.
    virtual qint64 processId() const { return 0; }

Q_SIGNALS:
    void opened();
    void received(const QJsonObject &message);
    // A line the server wrote to stderr, or what the transport has to say about itself.
    void logLine(const QString &line);
    // Something the server did wrong without ending the connection (garbage on stdout).
    void problem(const QString &description);
    // The connection ended without close() being asked for; REASON says why, for the user.
    void failed(const QString &reason);
    // An HTTP server that answered the first POST with 400, 404 or 405: it may only speak the
    // old HTTP+SSE transport.
    void legacyFallbackSuggested();

protected:
    // Emits the message (or each message of a batch) that JSON holds; false when it is not JSON-RPC.
    bool deliver(QByteArrayView json);
    // The answer to request ID that a transport gives itself when the server could not: an error.
    void answerWithError(const QJsonValue &id, const QString &message);
};

} // namespace Sandpiper
