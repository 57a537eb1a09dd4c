#pragma once

#include "mcp/mcptransport.h"

#include <QMap>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QUrl>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace Sandpiper {

class SseParser;

// Streamable HTTP (MCP 2025-03-26 and later): every message is a POST to the server's one
// endpoint, answered with JSON, with an SSE stream of messages, or with 202 for notifications;
// Mcp-Session-Id and MCP-Protocol-Version go on every request once known, and a GET stream
// carries what the server says unasked. Failed HTTP requests come back as JSON-RPC errors of
// the request they carried. Proxies, redirects and TLS are Qt's.
class McpHttpTransport : public McpTransport
{
    Q_OBJECT

public:
    // NETWORK (of the MCP thread) outlives the transport, so that the session's DELETE can finish.
    McpHttpTransport(QNetworkAccessManager *network, QUrl url, QMap<QString, QString> headers,
                     QObject *parent = nullptr);
    ~McpHttpTransport() override;

    void open() override;
    void send(const QJsonObject &message) override;
    void close() override;
    void setProtocolVersion(const QString &version) override;

private:
    struct Exchange;

    void post(const QJsonObject &message);
    void listen();
    void applyHeaders(QNetworkRequest &request) const;
    void readReply(QNetworkReply *reply);
    void finishReply(QNetworkReply *reply);
    void deliverEvent(const QByteArray &json);

    QUrl m_url;
    QMap<QString, QString> m_headers;
    QNetworkAccessManager *m_network;
    QString m_sessionId;
    QString m_protocolVersion;
    QMap<QNetworkReply *, std::shared_ptr<Exchange>> m_exchanges;
    QPointer<QNetworkReply> m_listener;
    QTimer m_relisten;
    bool m_initialized = false; // the first POST succeeded
    bool m_closed = false;
};

} // namespace Sandpiper
