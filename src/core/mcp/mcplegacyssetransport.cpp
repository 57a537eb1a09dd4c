#include "mcp/mcplegacyssetransport.h"

#include "llm/sseparser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace Sandpiper {

McpLegacySseTransport::McpLegacySseTransport(QNetworkAccessManager *network, QUrl url, QMap<QString, QString> headers,
                                             QObject *parent)
    : McpTransport(parent)
    , m_network(network)
    , m_url(std::move(url))
    , m_headers(std::move(headers))
    , m_parser(std::make_unique<SseParser>())
{}

McpLegacySseTransport::~McpLegacySseTransport()
{
    close();
}

void McpLegacySseTransport::open()
{
    QNetworkRequest request(m_url);
    request.setRawHeader("Accept", "text/event-stream");
    for (auto it = m_headers.begin(); it != m_headers.end(); ++it)
        request.setRawHeader(it.key().toUtf8(), it.value().toUtf8());
    m_stream = m_network->get(request);
    connect(m_stream, &QNetworkReply::readyRead, this, &McpLegacySseTransport::readStream);
    connect(m_stream, &QNetworkReply::finished, this, &McpLegacySseTransport::streamEnded);
}

void McpLegacySseTransport::readStream()
{
    if (!m_stream)
        return;
    const int status = m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status < 200 || status >= 300)
        return;
    for (const SseParser::Event &event : m_parser->feed(m_stream->readAll())) {
        if (event.name == "endpoint") {
            const bool first = m_postUrl.isEmpty();
            m_postUrl = m_url.resolved(QUrl(QString::fromUtf8(event.data.trimmed())));
            if (first)
                Q_EMIT opened();
            continue;
        }
        if (!event.name.isEmpty() && event.name != "message")
            continue;
        if (!deliver(event.data) && !event.data.trimmed().isEmpty())
            Q_EMIT problem(tr("It sent something that is not JSON-RPC: \"%1\"")
                               .arg(QString::fromUtf8(event.data.left(200)).simplified()));
    }
}

void McpLegacySseTransport::streamEnded()
{
    if (m_closed || !m_stream)
        return;
    QNetworkReply *stream = m_stream;
    m_stream = nullptr;
    stream->deleteLater();
    const int status = stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 0 && (status < 200 || status >= 300))
        Q_EMIT failed(tr("The server answered the event stream with HTTP %1.").arg(status));
    else if (m_postUrl.isEmpty())
        Q_EMIT failed(stream->error() != QNetworkReply::NoError
                          ? stream->errorString()
                          : tr("The server's event stream ended before it named its message endpoint."));
    else
        Q_EMIT failed(tr("The server closed its event stream."));
}

void McpLegacySseTransport::send(const QJsonObject &message)
{
    if (m_closed || m_postUrl.isEmpty())
        return;
    QNetworkRequest request(m_postUrl);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    for (auto it = m_headers.begin(); it != m_headers.end(); ++it)
        request.setRawHeader(it.key().toUtf8(), it.value().toUtf8());
    QNetworkReply *reply = m_network->post(request, QJsonDocument(message).toJson(QJsonDocument::Compact));
    const QJsonValue id = message.contains(QLatin1String("method")) ? message.value(QLatin1String("id")) : QJsonValue();
    connect(reply, &QNetworkReply::finished, this, [this, reply, id] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (m_closed || (status >= 200 && status < 300))
            return;
        const QString why = status != 0 ? tr("HTTP %1").arg(status) : reply->errorString();
        if (id.isUndefined()) {
            Q_EMIT problem(tr("A message to the server was not accepted: %1").arg(why));
            return;
        }
        answerWithError(id, why);
    });
}

void McpLegacySseTransport::close()
{
    if (m_closed)
        return;
    m_closed = true;
    if (m_stream) {
        disconnect(m_stream, nullptr, this, nullptr);
        m_stream->abort();
        m_stream->deleteLater();
    }
}

} // namespace Sandpiper
