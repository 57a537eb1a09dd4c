#pragma once

#include "llm/chatmessage.h"
#include "llm/contextoverflow.h"
#include "llm/providerconfig.h"

#include <QJsonArray>
#include <QObject>
#include <QPointer>

#include <QCoroTask>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace Sandpiper {

struct StreamError;

struct ChatError {
    enum class Kind {
        None,
        Authentication,  // 401 / 403: the key
        UnknownModel,    // 404
        RateLimited,     // 429, after the retries
        Server,          // 5xx, after the retries
        BadRequest,      // other 4xx
        ContextExceeded, // the request does not fit the model's context window; see overflow
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
    ContextOverflow overflow;
};

struct ChatResponse {
    ChatMessage message; // the assistant message, partial when the stream failed
    QString finishReason;
    ChatError error;
    // For the user: tool-call markup in the answer that could not be used (it stays as text).
    QStringList notices;
    // How the answer came back: the text dialect its calls were recovered from (empty when
    // they came as native tool_calls, or there were none), and whether its reasoning was
    // written into the content as tags rather than sent in a field of its own.
    QString textCallDialect;
    bool reasoningInContent = false;
    bool ok() const { return error.kind == ChatError::Kind::None; }
};

struct ModelList {
    QStringList models;
    ChatError error;
};

// Talks to an OpenAI-compatible /chat/completions endpoint, streaming (SSE) when the server
// allows and falling back to a plain request when it refuses to stream with tools. Retries
// rate limits and server errors with backoff, honouring Retry-After. The content passes through
// a ContentFilter: <think> blocks come out as reasoning and tool calls written as text as calls.
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

    // A request to URL with the provider's key and headers, as every call to it needs.
    static QNetworkRequest request(const ProviderConfig &config, const QUrl &url);
    // The "messages" of a request. With REASONINGBACK the reasoning of the current turn's
    // answers goes along as "reasoning_content".
    static QJsonArray wireMessages(const QList<ChatMessage> &messages, bool reasoningBack);

Q_SIGNALS:
    void textDelta(const QString &text);
    void reasoningDelta(const QString &text);
    void retrying(int attempt, int maxAttempts, qint64 delayMs, const QString &reason);
    // Internal: wakes a retry wait.
    void cancelRequested();

private:
    struct Attempt;
    QCoro::Task<ChatResponse> send(QByteArray body, bool streaming, QJsonArray tools, Attempt &attempt);
    QNetworkReply *post(const QString &path, const QByteArray &body, bool streaming);
    QString describeNetworkError(QNetworkReply *reply) const;
    ChatError httpError(int status, const QByteArray &body) const;
    ChatError streamError(const StreamError &said, int status) const;

    ProviderConfig m_config;
    QNetworkAccessManager *m_network;
    QPointer<QNetworkReply> m_reply;
    bool m_cancelled = false;
    bool m_streamingRefused = false;
    bool m_usageOptionRefused = false;
    bool m_maxTokensRefused = false;
};

// The provider's own explanation in an error body ({"error": {"message": ...}} and variants),
// ending a sentence.
QString providerErrorMessage(const QByteArray &body);

} // namespace Sandpiper
