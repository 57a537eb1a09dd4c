#pragma once

#include "llm/chatmessage.h"
#include "llm/providerconfig.h"

#include <QJsonArray>
#include <QObject>
#include <QPointer>

#include <QCoroTask>

class QNetworkAccessManager;
class QNetworkReply;

namespace Sandpiper {

struct ChatError {
    enum class Kind {
        None,
        Authentication, // 401 / 403: the key
        UnknownModel,   // 404
        RateLimited,    // 429, after the retries
        Server,         // 5xx, after the retries
        BadRequest,     // other 4xx
        ConnectTimeout,
        IdleTimeout,       // the stream went silent
        ConnectionRefused, // nothing listens: is the server running?
        Network,
        Protocol, // the answer is not what an OpenAI-compatible server sends
        Stream,   // an error inside the stream, or the stream was cut
        Cancelled,
    };
    Kind kind = Kind::None;
    QString message; // for the user, with the provider's own words where it gave any
    int httpStatus = 0;
};

struct ChatResponse {
    ChatMessage message; // the assistant message, partial when the stream failed
    QString finishReason;
    ChatError error;
    bool ok() const { return error.kind == ChatError::Kind::None; }
};

struct ModelList {
    QStringList models;
    ChatError error;
};

// Talks to an OpenAI-compatible /chat/completions endpoint, streaming (SSE) when the server
// allows and falling back to a plain request when it refuses to stream with tools. Retries
// rate limits and server errors with backoff, honouring Retry-After.
class ChatClient : public QObject
{
    Q_OBJECT

public:
    explicit ChatClient(ProviderConfig config, QObject *parent = nullptr);

    const ProviderConfig &config() const { return m_config; }
    // For the next request; one in flight keeps the configuration it started with.
    void setConfig(ProviderConfig config);

    QCoro::Task<ChatResponse> complete(QList<ChatMessage> messages, QJsonArray tools);
    QCoro::Task<ModelList> listModels();
    // Aborts the request in flight (or the wait before a retry) at once.
    void cancel();

Q_SIGNALS:
    void textDelta(const QString &text);
    void reasoningDelta(const QString &text);
    void retrying(int attempt, int maxAttempts, qint64 delayMs, const QString &reason);
    // Internal: wakes a retry wait.
    void cancelRequested();

private:
    struct Attempt;
    QCoro::Task<ChatResponse> send(QByteArray body, bool streaming, Attempt &attempt);
    QNetworkReply *post(const QString &path, const QByteArray &body, bool streaming);
    QString describeNetworkError(QNetworkReply *reply) const;
    ChatError httpError(int status, const QByteArray &body) const;

    ProviderConfig m_config;
    QNetworkAccessManager *m_network;
    QPointer<QNetworkReply> m_reply;
    bool m_cancelled = false;
    bool m_streamingRefused = false;
    bool m_usageOptionRefused = false;
};

// The provider's own explanation in an error body ({"error": {"message": ...}} and variants).
QString providerErrorMessage(const QByteArray &body);

} // namespace Sandpiper
