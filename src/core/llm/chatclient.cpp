#include "llm/chatclient.h"

#include "llm/completionaccumulator.h"
#include "llm/contentfilter.h"
#include "llm/sseparser.h"
#include "logging.h"

#include <sandpiper/buildinfo.h>

#include <QCoroNetworkReply>
#include <QCoroSignal>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

using namespace std::chrono_literals;

namespace Sandpiper {

struct ChatClient::Attempt {
    std::optional<std::chrono::milliseconds> retryAfter;
};

namespace {

bool retryable(const ChatError &error)
{
    // llama.cpp answers what a model cannot do with a 500 ("image input is not supported"):
    // trying again only makes the user wait for the same answer.
    if (error.kind == ChatError::Kind::Server && error.message.contains(QLatin1String("not supported")))
        return false;
    return error.kind == ChatError::Kind::RateLimited || error.kind == ChatError::Kind::Server;
}

// Retry-After is either a number of seconds or an HTTP date.
std::optional<std::chrono::milliseconds> parseRetryAfter(const QByteArray &value)
{
    bool isNumber = false;
    const double seconds = value.trimmed().toDouble(&isNumber);
    if (isNumber)
        return std::chrono::milliseconds(qint64(std::max(0.0, seconds) * 1000));
    const QDateTime when = QDateTime::fromString(QString::fromLatin1(value.trimmed()), Qt::RFC2822Date);
    if (when.isValid())
        return std::chrono::milliseconds(std::max<qint64>(0, QDateTime::currentDateTimeUtc().msecsTo(when)));
    return std::nullopt;
}

// Words from outside (a server's message, Qt's error string) end a sentence, so that the
// sentence that follows them in a message reads as one of its own.
QString asSentence(QString text)
{
    text = text.trimmed();
    static const QString endings = QStringLiteral(".!?…");
    if (!text.isEmpty() && !endings.contains(text.back()))
        text += QLatin1Char('.');
    return text;
}

} // namespace

QString providerErrorMessage(const QByteArray &body)
{
    const QJsonDocument document = QJsonDocument::fromJson(body);
    if (document.isObject()) {
        const QJsonObject object = document.object();
        const QJsonValue error = object.value(QLatin1String("error"));
        if (error.isObject()) {
            const QString message = error.toObject().value(QLatin1String("message")).toString();
            if (!message.isEmpty())
                return asSentence(message);
        }
        if (error.isString())
            return asSentence(error.toString());
        for (const char *key : {"message", "detail"}) {
            const QString message = object.value(QLatin1String(key)).toString();
            if (!message.isEmpty())
                return asSentence(message);
        }
    }
    // Not JSON: an HTML error page or plain text from a proxy; keep it short.
    QString text = QString::fromUtf8(body).simplified();
    if (text.size() > 300)
        text = text.left(300) + QStringLiteral("…");
    return asSentence(text);
}

ChatClient::ChatClient(ProviderConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_network(new QNetworkAccessManager(this))
{
    setConfig(m_config);
}

void ChatClient::setConfig(ProviderConfig config)
{
    m_config = std::move(config);
    while (m_config.baseUrl.endsWith(QLatin1Char('/')))
        m_config.baseUrl.chop(1);
}

void ChatClient::cancel()
{
    m_cancelled = true;
    if (m_reply)
        m_reply->abort();
    Q_EMIT cancelRequested();
}

QNetworkRequest ChatClient::request(const ProviderConfig &config, const QUrl &url)
{
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::UserAgentHeader,
                      QStringLiteral("Sandpiper/%1").arg(QLatin1String(BuildInfo::version)));
    if (!config.apiKey.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + config.apiKey.toUtf8());
    for (const auto &[name, value] : config.extraHeaders)
        request.setRawHeader(name, value);
    return request;
}

QJsonArray ChatClient::wireMessages(const QList<ChatMessage> &messages, bool reasoningBack)
{
    const qsizetype turnStart = ChatMessage::currentTurnStart(messages);
    QJsonArray wire;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const ChatMessage &message = messages.at(i);
        QJsonObject object = message.toOpenAi();
        if (reasoningBack && i >= turnStart && message.role == ChatMessage::Role::Assistant &&
            !message.reasoning.isEmpty())
            object.insert(QStringLiteral("reasoning_content"), message.reasoning);
        wire.append(object);
    }
    return wire;
}

QNetworkReply *ChatClient::post(const QString &path, const QByteArray &body, bool streaming)
{
    QNetworkRequest request = ChatClient::request(m_config, QUrl(m_config.baseUrl + path));
    if (body.isNull())
        return m_network->get(request);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    if (streaming)
        request.setRawHeader("Accept", "text/event-stream");
    return m_network->post(request, body);
}

QString ChatClient::describeNetworkError(QNetworkReply *reply) const
{
    const QUrl url = reply->url();
    const QString where = url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
    switch (reply->error()) {
    case QNetworkReply::ConnectionRefusedError:
        return tr("Could not connect to %1: the connection was refused. Is the server running?").arg(where);
    case QNetworkReply::HostNotFoundError:
        return tr("The host %1 was not found. Check the base URL and your network.").arg(url.host());
    case QNetworkReply::SslHandshakeFailedError:
        return tr("The secure connection to %1 failed: %2").arg(where, asSentence(reply->errorString()));
    default:
        return tr("Network error talking to %1: %2").arg(where, asSentence(reply->errorString()));
    }
}

ChatError ChatClient::streamError(const StreamError &said, int status) const
{
    const QString words = asSentence(said.message);
    ChatError error;
    error.httpStatus = status;
    if (const auto overflow = ContextOverflow::fromMessage(said.message)) {
        error.kind = ChatError::Kind::ContextExceeded;
        error.overflow = *overflow;
    } else {
        // Not retried here: what arrived before the error has been shown, and a second answer
        // would follow it. The user decides, told whether it is likely to help.
        error.kind = ChatError::Kind::Stream;
    }
    error.message = said.code.isEmpty()
                        ? tr("The provider stopped the answer with an error: %1").arg(words)
                        : tr("The provider stopped the answer with an error (%1): %2").arg(said.code, words);
    if (said.worthRetrying && error.kind == ChatError::Kind::Stream)
        error.message += QLatin1Char(' ') + tr("This is usually temporary: Retry in a moment may work.");
    return error;
}

ChatError ChatClient::httpError(int status, const QByteArray &body) const
{
    ChatError error;
    error.httpStatus = status;
    const QString detail = providerErrorMessage(body);
    const auto overflow = status == 401 || status == 403 || status == 404 || status == 429
                              ? std::nullopt
                              : ContextOverflow::fromBody(body);
    if (overflow) {
        error.kind = ChatError::Kind::ContextExceeded;
        error.overflow = *overflow;
        error.message =
            tr("The conversation does not fit the model's context window (HTTP %1): %2").arg(status).arg(detail);
    } else if (status == 401 || status == 403) {
        error.kind = ChatError::Kind::Authentication;
        error.message =
            tr("The provider refused the request (HTTP %1): %2 Check the API key in Settings.").arg(status).arg(detail);
    } else if (status == 404) {
        error.kind = ChatError::Kind::UnknownModel;
        error.message = tr("The model \"%1\" or the endpoint was not found (HTTP 404): %2").arg(m_config.model, detail);
    } else if (status == 429) {
        error.kind = ChatError::Kind::RateLimited;
        error.message = tr("The provider is rate limiting requests (HTTP 429): %1").arg(detail);
    } else if (status >= 500) {
        error.kind = ChatError::Kind::Server;
        error.message = tr("The provider had a server error (HTTP %1): %2").arg(status).arg(detail);
    } else {
        error.kind = ChatError::Kind::BadRequest;
        error.message = tr("The provider rejected the request (HTTP %1): %2").arg(status).arg(detail);
    }
    return error;
}

QCoro::Task<ChatResponse> ChatClient::complete(QList<ChatMessage> messages, QJsonArray tools)
{
    QPointer<ChatClient> self(this);
    m_cancelled = false;
    const QJsonArray wire = wireMessages(messages, m_config.sendReasoningBack);

    ChatResponse response;
    for (int attemptNumber = 0;; ++attemptNumber) {
        QJsonObject body{{QStringLiteral("model"), m_config.model}, {QStringLiteral("messages"), wire}};
        if (!tools.isEmpty())
            body.insert(QStringLiteral("tools"), tools);
        const bool streaming = !m_streamingRefused;
        body.insert(QStringLiteral("stream"), streaming);
        if (streaming && !m_usageOptionRefused)
            body.insert(QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}});
        // OpenAI's reasoning models know only the newer name.
        if (m_config.maxAnswerTokens > 0)
            body.insert(m_maxTokensRefused ? QStringLiteral("max_completion_tokens") : QStringLiteral("max_tokens"),
                        m_config.maxAnswerTokens);

        Attempt attempt;
        const QByteArray bytes = QJsonDocument(body).toJson(QJsonDocument::Compact);
        qCDebug(lcWire).noquote() << "request" << bytes;
        response = co_await send(bytes, streaming, tools, attempt);
        if (!self)
            co_return response;

        if (response.error.kind == ChatError::Kind::BadRequest && m_config.maxAnswerTokens > 0 && !m_maxTokensRefused &&
            response.error.message.contains(QLatin1String("max_completion_tokens"))) {
            m_maxTokensRefused = true;
            --attemptNumber;
            continue;
        }
        // Servers that cannot stream (with tools, or with stream_options) say so in a 400.
        if (response.error.kind == ChatError::Kind::BadRequest && streaming) {
            const QString said = response.error.message.toLower();
            if (said.contains(QLatin1String("stream_options")) && !m_usageOptionRefused) {
                m_usageOptionRefused = true;
                --attemptNumber;
                continue;
            }
            if (said.contains(QLatin1String("stream"))) {
                qCInfo(lcAgent) << "the server refuses to stream; falling back to plain requests";
                m_streamingRefused = true;
                --attemptNumber;
                continue;
            }
        }
        if (response.error.kind == ChatError::Kind::UnknownModel) {
            const ModelList available = co_await listModels();
            if (!self)
                co_return response;
            if (!available.models.isEmpty())
                response.error.message +=
                    QLatin1Char(' ') + tr("Available models: %1.").arg(available.models.join(QStringLiteral(", ")));
        }
        if (!retryable(response.error) || attemptNumber >= m_config.maxRetries || m_cancelled)
            co_return response;

        const auto backoff = std::chrono::milliseconds(1000 << attemptNumber);
        const auto delay = std::min(attempt.retryAfter.value_or(backoff), m_config.maxRetryDelay);
        qCInfo(lcAgent) << "retrying in" << delay.count() << "ms:" << response.error.message;
        Q_EMIT retrying(attemptNumber + 1, m_config.maxRetries, delay.count(), response.error.message);
        if (!m_cancelled) // a slot on retrying() may have cancelled already
            co_await qCoro(this, &ChatClient::cancelRequested, delay);
        if (!self)
            co_return response;
        if (m_cancelled) {
            response.error = {ChatError::Kind::Cancelled, tr("Cancelled."), 0};
            co_return response;
        }
    }
}

QCoro::Task<ChatResponse> ChatClient::send(QByteArray body, bool streaming, QJsonArray tools, Attempt &attempt)
{
    QPointer<ChatClient> self(this);
    QNetworkReply *reply = post(QStringLiteral("/chat/completions"), body, streaming);
    m_reply = reply;

    SseParser parser;
    CompletionAccumulator accumulator;
    ContentFilter filter(tools, m_config.recoverTextToolCalls);
    const auto show = [this](const ContentFilter::Output &out) {
        if (!out.reasoning.isEmpty())
            Q_EMIT reasoningDelta(out.reasoning);
        if (!out.text.isEmpty())
            Q_EMIT textDelta(out.text);
    };
    QByteArray plainBody; // an error body or a non-streamed answer
    bool sawDone = false;
    // Events that are not JSON are skipped; a stream of nothing else is no chat completion.
    int jsonEvents = 0;
    QByteArray firstNotJson;
    bool isEventStream = false;
    enum class Timeout { None, Connect, Idle } timedOut = Timeout::None;

    QTimer connectTimer;
    connectTimer.setSingleShot(true);
    QTimer idleTimer;
    idleTimer.setSingleShot(true);
    connect(&connectTimer, &QTimer::timeout, reply, [&] {
        timedOut = Timeout::Connect;
        reply->abort();
    });
    connect(&idleTimer, &QTimer::timeout, reply, [&] {
        timedOut = Timeout::Idle;
        reply->abort();
    });
    connectTimer.start(m_config.connectTimeout);

    auto handleEvents = [&](const QList<SseParser::Event> &events) {
        for (const SseParser::Event &event : events) {
            if (event.data.trimmed() == "[DONE]") {
                sawDone = true;
                continue;
            }
            QJsonParseError parseError;
            const QJsonDocument document = QJsonDocument::fromJson(event.data, &parseError);
            if (!document.isObject()) {
                qCWarning(lcAgent) << "skipping a stream event that is not JSON:" << event.data.left(200);
                if (firstNotJson.isEmpty())
                    firstNotJson = event.data.left(200);
                continue;
            }
            ++jsonEvents;
            if (event.name == "error") {
                accumulator.applyErrorEvent(document.object());
                continue;
            }
            const auto delta = accumulator.apply(document.object());
            if (!delta.reasoning.isEmpty())
                Q_EMIT reasoningDelta(delta.reasoning);
            if (!delta.text.isEmpty())
                show(filter.feed(delta.text));
        }
    };
    connect(reply, &QNetworkReply::metaDataChanged, reply, [&] {
        connectTimer.stop();
        idleTimer.start(m_config.idleTimeout);
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        isEventStream =
            status == 200 &&
            reply->header(QNetworkRequest::ContentTypeHeader).toString().contains(QLatin1String("event-stream"));
    });
    connect(reply, &QNetworkReply::readyRead, reply, [&] {
        connectTimer.stop();
        idleTimer.start(m_config.idleTimeout);
        const QByteArray bytes = reply->readAll();
        if (isEventStream)
            handleEvents(parser.feed(bytes));
        else if (plainBody.size() < 16 * 1024 * 1024)
            plainBody += bytes;
    });

    co_await reply;
    connectTimer.stop();
    idleTimer.stop();
    if (isEventStream)
        handleEvents(parser.finish());
    reply->deleteLater();
    if (!self)
        co_return {};

    ChatResponse response;
    accumulator.finish();
    response.message = accumulator.message();
    response.finishReason = accumulator.finishReason();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError networkError = reply->error();

    if (m_cancelled) {
        response.error = {ChatError::Kind::Cancelled, tr("Cancelled."), status};
    } else if (timedOut == Timeout::Connect) {
        response.error = {ChatError::Kind::ConnectTimeout,
                          tr("The server did not answer within %1 s.")
                              .arg(std::chrono::duration_cast<std::chrono::seconds>(m_config.connectTimeout).count()),
                          0};
    } else if (timedOut == Timeout::Idle) {
        response.error = {ChatError::Kind::IdleTimeout,
                          tr("The answer stopped arriving: nothing came for %1 s.")
                              .arg(std::chrono::duration_cast<std::chrono::seconds>(m_config.idleTimeout).count()),
                          status};
    } else if (status >= 400) {
        response.error = httpError(status, plainBody);
        if (reply->hasRawHeader("Retry-After"))
            attempt.retryAfter = parseRetryAfter(reply->rawHeader("Retry-After"));
    } else if (status == 0) {
        response.error = {networkError == QNetworkReply::ConnectionRefusedError ? ChatError::Kind::ConnectionRefused
                                                                                : ChatError::Kind::Network,
                          describeNetworkError(reply), 0};
    } else if (!isEventStream) {
        const QJsonDocument document = QJsonDocument::fromJson(plainBody);
        if (!document.isObject()) {
            response.error = {ChatError::Kind::Protocol,
                              tr("The server's answer is not an OpenAI-compatible chat completion: %1")
                                  .arg(providerErrorMessage(plainBody)),
                              status};
        } else {
            accumulator.applyCompleteResponse(document.object());
            accumulator.finish();
            response.message = accumulator.message();
            response.finishReason = accumulator.finishReason();
            if (!accumulator.error().isEmpty())
                response.error = streamError(accumulator.error(), status);
        }
    } else if (!accumulator.error().isEmpty()) {
        // The provider's own words end the answer, however the stream closed after them.
        response.error = streamError(accumulator.error(), status);
    } else if (jsonEvents == 0 && !firstNotJson.isEmpty() && networkError == QNetworkReply::NoError) {
        response.error = {ChatError::Kind::Protocol,
                          tr("The server's stream is not an OpenAI-compatible chat completion: its events are not "
                             "JSON (the first: \"%1\"). Is the base URL that of an OpenAI-compatible API?")
                              .arg(QString::fromUtf8(firstNotJson).simplified()),
                          status};
    } else if (!sawDone && (networkError != QNetworkReply::NoError || accumulator.finishReason().isEmpty())) {
        // Without [DONE] a stream is complete only with a finish_reason: Qt may report a
        // connection cut mid-body as a normal end.
        const QString why = networkError != QNetworkReply::NoError
                                ? reply->errorString()
                                : tr("the stream ended before the answer was finished");
        response.error = {ChatError::Kind::Stream,
                          tr("The connection broke while the answer was streaming: %1").arg(asSentence(why)), status};
    }

    // What the model wrote into the content: its thinking, and tool calls as text. A whole
    // (non-streamed) answer goes through at once, with nothing shown before it is complete.
    if (!isEventStream)
        (void)filter.feed(response.message.content);
    const ContentFilter::Result filtered = filter.finish(response.message.toolCalls.isEmpty());
    if (isEventStream)
        show(filtered.released);
    response.message.content = filtered.content;
    response.message.reasoning += filtered.reasoning;
    response.reasoningInContent = !filtered.reasoning.isEmpty();
    if (response.message.toolCalls.isEmpty()) {
        response.message.toolCalls = filtered.calls;
        response.textCallDialect = filtered.dialect;
    }
    if (response.ok())
        response.notices = filtered.problems;

    // Some servers finish with "stop" although they sent tool calls.
    if (response.ok() && !response.message.toolCalls.isEmpty())
        response.finishReason = QStringLiteral("tool_calls");
    co_return response;
}

QCoro::Task<ModelList> ChatClient::listModels()
{
    QPointer<ChatClient> self(this);
    QNetworkReply *reply = post(QStringLiteral("/models"), QByteArray(), false);
    QTimer timeout;
    timeout.setSingleShot(true);
    connect(&timeout, &QTimer::timeout, reply, &QNetworkReply::abort);
    timeout.start(m_config.connectTimeout);
    co_await reply;
    // A client deleted meanwhile took its replies with it.
    if (!self)
        co_return ModelList{};
    reply->deleteLater();
    ModelList list;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    if (status >= 400) {
        list.error = httpError(status, body);
        co_return list;
    }
    if (status == 0) {
        list.error = {reply->error() == QNetworkReply::ConnectionRefusedError ? ChatError::Kind::ConnectionRefused
                                                                              : ChatError::Kind::Network,
                      describeNetworkError(reply), 0};
        co_return list;
    }
    const QJsonDocument document = QJsonDocument::fromJson(body);
    const QJsonValue data = document.object().value(QLatin1String("data"));
    if (!data.isArray()) {
        list.error = {ChatError::Kind::Protocol,
                      tr("The server's model list is not in the OpenAI format (no \"data\" array)."), status};
        co_return list;
    }
    for (const QJsonValue &model : data.toArray())
        list.models << model.toObject().value(QLatin1String("id")).toString();
    list.models.removeAll(QString());
    list.models.sort();
    co_return list;
}

} // namespace Sandpiper
