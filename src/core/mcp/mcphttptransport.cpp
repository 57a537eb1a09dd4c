#include "mcp/mcphttptransport.h"

#include "llm/sseparser.h"
#include "logging.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

using namespace std::chrono_literals;

namespace Sandpiper {

struct McpHttpTransport::Exchange {
    QJsonValue id; // of the request it carries; undefined for notifications, responses and the GET stream
    bool first = false;
    bool sse = false;
    bool answered = false;
    SseParser parser;
    QByteArray body;
};

namespace {

constexpr qsizetype maxBodyBytes = 128 * 1024 * 1024;

QString bodySnippet(const QByteArray &body)
{
    // A JSON-RPC error in the body says more than the status line.
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    const QString message = object.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
    if (!message.isEmpty())
        return message;
    return QString::fromUtf8(body.left(300)).simplified();
}

} // namespace

McpHttpTransport::McpHttpTransport(QNetworkAccessManager *network, QUrl url, QMap<QString, QString> headers,
                                   QObject *parent)
    : McpTransport(parent)
    , m_url(std::move(url))
    , m_headers(std::move(headers))
    , m_network(network)
    , m_relisten(this)
{
    m_relisten.setSingleShot(true);
    m_relisten.setInterval(5s);
    connect(&m_relisten, &QTimer::timeout, this, &McpHttpTransport::listen);
}

McpHttpTransport::~McpHttpTransport()
{
    close();
}

void McpHttpTransport::open()
{
    // HTTP has nothing to set up before the first POST.
    QMetaObject::invokeMethod(this, &McpTransport::opened, Qt::QueuedConnection);
}

void McpHttpTransport::setProtocolVersion(const QString &version)
{
    m_protocolVersion = version;
}

void McpHttpTransport::applyHeaders(QNetworkRequest &request) const
{
    for (auto it = m_headers.begin(); it != m_headers.end(); ++it)
        request.setRawHeader(it.key().toUtf8(), it.value().toUtf8());
    if (!m_sessionId.isEmpty())
        request.setRawHeader("Mcp-Session-Id", m_sessionId.toLatin1());
    if (!m_protocolVersion.isEmpty())
        request.setRawHeader("MCP-Protocol-Version", m_protocolVersion.toLatin1());
}

void McpHttpTransport::send(const QJsonObject &message)
{
    if (m_closed)
        return;
    post(message);
    if (message.value(QLatin1String("method")).toString() == QLatin1String("notifications/initialized"))
        listen();
}

void McpHttpTransport::post(const QJsonObject &message)
{
    QNetworkRequest request(m_url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setRawHeader("Accept", "application/json, text/event-stream");
    applyHeaders(request);
    QNetworkReply *reply = m_network->post(request, QJsonDocument(message).toJson(QJsonDocument::Compact));
    auto exchange = std::make_shared<Exchange>();
    if (message.contains(QLatin1String("method")))
        exchange->id = message.value(QLatin1String("id"));
    exchange->first =
        !m_initialized && message.value(QLatin1String("method")).toString() == QLatin1String("initialize");
    m_exchanges.insert(reply, exchange);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { readReply(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { finishReply(reply); });
}

void McpHttpTransport::listen()
{
    if (m_closed || m_listener)
        return;
    QNetworkRequest request(m_url);
    request.setRawHeader("Accept", "text/event-stream");
    applyHeaders(request);
    QNetworkReply *reply = m_network->get(request);
    m_listener = reply;
    m_exchanges.insert(reply, std::make_shared<Exchange>());
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { readReply(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { finishReply(reply); });
}

void McpHttpTransport::readReply(QNetworkReply *reply)
{
    const auto found = m_exchanges.find(reply);
    if (found == m_exchanges.end())
        return;
    Exchange &exchange = **found;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status < 200 || status >= 300) {
        exchange.body += reply->readAll().left(64 * 1024);
        return;
    }
    if (!m_initialized && exchange.first) {
        m_initialized = true;
        m_sessionId = QString::fromLatin1(reply->rawHeader("Mcp-Session-Id"));
    }
    exchange.sse =
        reply->header(QNetworkRequest::ContentTypeHeader).toString().startsWith(QLatin1String("text/event-stream"));
    const QByteArray bytes = reply->readAll();
    if (!exchange.sse) {
        exchange.body += bytes;
        if (exchange.body.size() > maxBodyBytes) {
            reply->abort();
            return;
        }
        return;
    }
    for (const SseParser::Event &event : exchange.parser.feed(bytes)) {
        if (event.name.isEmpty() || event.name == "message") {
            exchange.answered = exchange.answered || !event.data.trimmed().isEmpty();
            deliverEvent(event.data);
        }
    }
}

void McpHttpTransport::finishReply(QNetworkReply *reply)
{
    reply->deleteLater();
    readReply(reply); // what came with the end
    const std::shared_ptr<Exchange> exchange = m_exchanges.take(reply);
    if (!exchange || m_closed)
        return;
    const bool isListener = reply == m_listener;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (exchange->sse) {
        for (const SseParser::Event &event : exchange->parser.finish()) {
            if (event.name.isEmpty() || event.name == "message")
                deliverEvent(event.data);
        }
    }
    if (isListener) {
        // 405: the server has no stream for unasked messages; anything else is tried again later.
        if (status != 405 && status != 404 && status != 400 && status != 401 && status != 403)
            m_relisten.start();
        return;
    }
    if (status >= 200 && status < 300) {
        if (!exchange->sse && !exchange->body.trimmed().isEmpty())
            deliverEvent(exchange->body);
        else if (exchange->sse && !exchange->answered && !exchange->id.isUndefined())
            answerWithError(exchange->id, tr("The server ended its answer stream without an answer."));
        return;
    }
    if (exchange->first && (status == 400 || status == 404 || status == 405)) {
        qCInfo(lcMcp) << m_url << "answered the first POST with" << status << "- trying the HTTP+SSE transport";
        Q_EMIT legacyFallbackSuggested();
        return;
    }
    if (status == 404 && !m_sessionId.isEmpty()) {
        Q_EMIT failed(tr("The server ended the session (HTTP 404)."));
        return;
    }
    QString why;
    if (status == 401 || status == 403)
        why = tr("The server refused access (HTTP %1): check the headers of this server, such as its token. %2")
                  .arg(status)
                  .arg(bodySnippet(exchange->body));
    else if (status != 0)
        why = tr("HTTP %1: %2").arg(status).arg(bodySnippet(exchange->body));
    else
        why = reply->errorString();
    Q_EMIT logLine(QStringLiteral("HTTP: ") + why);
    if (!exchange->id.isUndefined())
        answerWithError(exchange->id, why);
    else
        Q_EMIT problem(tr("A message to the server was not accepted: %1").arg(why));
}

void McpHttpTransport::deliverEvent(const QByteArray &json)
{
    // An empty event primes a resumable stream.
    if (!json.trimmed().isEmpty() && !deliver(json))
        Q_EMIT problem(
            tr("It sent something that is not JSON-RPC: \"%1\"").arg(QString::fromUtf8(json.left(200)).simplified()));
}

void McpHttpTransport::close()
{
    if (m_closed)
        return;
    m_closed = true;
    m_relisten.stop();
    const auto replies = m_exchanges.keys();
    m_exchanges.clear();
    for (QNetworkReply *reply : replies) {
        disconnect(reply, nullptr, this, nullptr);
        reply->abort();
        reply->deleteLater();
    }
    if (m_sessionId.isEmpty())
        return;
    // Ends the session on the server; nobody waits for the answer.
    QNetworkRequest request(m_url);
    applyHeaders(request);
    request.setTransferTimeout(2000);
    QNetworkReply *goodbye = m_network->deleteResource(request);
    connect(goodbye, &QNetworkReply::finished, goodbye, &QObject::deleteLater);
}

} // namespace Sandpiper
