#pragma once

#include "tools/websource.h"

#include <QJsonArray>
#include <QList>
#include <QString>

#include <QCoroTask>

namespace Sandpiper {

struct FetchResult;
class WebFetcher;

struct SearchError {
    enum class Kind {
        None,
        Configuration,  // no API key, no instance URL, an unknown backend
        Authentication, // the service refused the key
        RateLimited,
        Http, // another HTTP error from the service
        Timeout,
        Network,
        Unreadable, // the answer is not in the format the backend knows (layout changed)
        Blocked,    // a bot check instead of results
        Cancelled,
    };
    Kind kind = Kind::None;
    QString message; // what happened
    QString advice;  // what the model (and the user) can do about it
};

struct SearchResponse {
    QList<WebSource> results; // numbers not yet assigned
    QString note;             // why there are no results, when the service said
    SearchError error;
    bool ok() const { return error.kind == SearchError::Kind::None; }
};

// A web search service, its answers normalised to WebSource (title, URL, plain-text snippet,
// date). Requests go through the tool's WebFetcher, which keeps the timeouts and size limits.
class SearchBackend
{
public:
    explicit SearchBackend(WebFetcher *fetcher);
    virtual ~SearchBackend() = default;

    virtual QString displayName() const = 0;
    virtual QCoro::Task<SearchResponse> search(QString query, int maxResults) = 0;

    enum class Markup { Html, Text };
    // A result as the model should see it: HTML removed from title and snippet (unless they
    // are plain TEXT already), the snippet kept short, the date as yyyy-MM-dd when it can be
    // read. Empty when the URL is not http(s).
    static std::optional<WebSource> makeSource(const QString &title, const QString &url, const QString &snippet,
                                               const QString &date, Markup markup = Markup::Html);
    // yyyy-MM-dd from ISO 8601 or RFC 2822 dates; anything else ("3 days ago") as it is.
    static QString normaliseDate(const QString &date);
    // The service's own explanation in an error body, from the shapes search APIs use.
    static QString errorDetail(const QByteArray &body);

protected:
    // The key for PROVIDERID from the keychain or the environment variable VARIABLE, read once
    // and kept in m_apiKey (cleared when the service refuses it); never logged. Empty when
    // none is configured, or when the backend went away meanwhile.
    QCoro::Task<QString> apiKey(QString providerId, QString variable);
    // The key of a SERVICE that needs one (KEYNAME in sentences), from the keychain entry
    // PROVIDERID or the environment variable VARIABLE, in m_apiKey: None when it is there, the
    // configuration error when not, Cancelled when the backend went away meanwhile (then this
    // object must not be touched any more).
    QCoro::Task<SearchError> requireApiKey(QString service, QString keyName, QString providerId, QString variable);
    // What the model and the user can do about a key that SERVICE refused or that is missing.
    static QString keyAdvice(const QString &service, const QString &providerId, const QString &variable);
    // The error for a failed fetch or an HTTP error status; None when RESULT is a success.
    SearchError failureOf(const FetchResult &result, const QString &keyAdvice = {}) const;
    static SearchResponse unreadable(const QString &what, const QString &advice);
    // Adds SOURCE unless it is empty or its URL is already listed.
    static void appendUnique(QList<WebSource> &results, const std::optional<WebSource> &source);
    // Up to MAXRESULTS results of a JSON API that names them title, url and content, with
    // their date under DATEKEY.
    static void appendJsonResults(QList<WebSource> &results, const QJsonArray &found, int maxResults,
                                  QLatin1StringView dateKey);

    WebFetcher *m_fetcher;
    QString m_apiKey;
};

} // namespace Sandpiper
