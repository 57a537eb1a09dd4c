#pragma once

#include "mcp/mcptransport.h"

#include <QMap>
#include <QPointer>
#include <QUrl>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace Sandpiper {

class SseParser;

// The HTTP+SSE transport of MCP 2024-11-05, for servers that have nothing newer: a GET opens an
// event stream whose first "endpoint" event names the URL to POST messages to; every answer
// comes back on that stream as a "message" event.
class McpLegacySseTransport : public McpTransport
{
    Q_OBJECT

public:
    McpLegacySseTransport(QNetworkAccessManager *network, QUrl url, QMap<QString, QString> headers,
                          QObject *parent = nullptr);
    ~McpLegacySseTransport() override;

    void open() override;
    void send(const QJsonObject &message) override;
    void close() override;

private:
    void readStream();
    void streamEnded();

    QNetworkAccessManager *m_network;
    QUrl m_url;
    QMap<QString, QString> m_headers;
    QPointer<QNetworkReply> m_stream;
    std::unique_ptr<SseParser> m_parser;
    QUrl m_postUrl;
    bool m_closed = false;
};

} // namespace Sandpiper
