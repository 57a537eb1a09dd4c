#include "tools/tavilybackend.h"

#include "tools/webfetcher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>

namespace Sandpiper {

TavilyBackend::TavilyBackend(WebFetcher *fetcher, QString endpoint)
    : SearchBackend(fetcher)
    , m_endpoint(std::move(endpoint))
{}

QCoro::Task<SearchResponse> TavilyBackend::search(QString query, int maxResults)
{
    SearchResponse response;
    response.error = co_await requireApiKey(QStringLiteral("Tavily"), QStringLiteral("Tavily"),
                                            QStringLiteral("tavily"), QStringLiteral("TAVILY_API_KEY"));
    if (!response.ok())
        co_return response;
    // The tool owns the fetcher and this backend: when the fetcher is gone, so is this.
    QPointer<WebFetcher> alive(m_fetcher);
    const QJsonObject body{{QStringLiteral("query"), query},
                           {QStringLiteral("max_results"), std::clamp(maxResults, 1, 20)},
                           {QStringLiteral("search_depth"), QStringLiteral("basic")},
                           {QStringLiteral("include_answer"), false},
                           {QStringLiteral("include_raw_content"), false}};
    FetchRequest request;
    request.url = QUrl(m_endpoint);
    request.method = "POST";
    request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    request.checkAddresses = false;
    // The key goes in the Authorization header, the current API's way, rather than the body.
    request.headers = {{"Content-Type", "application/json"},
                       {"Accept", "application/json"},
                       {"Authorization", "Bearer " + m_apiKey.toUtf8()}};
    const FetchResult result = co_await m_fetcher->fetch(request);
    if (!alive)
        co_return response;

    response.error = failureOf(
        result, keyAdvice(QStringLiteral("Tavily"), QStringLiteral("tavily"), QStringLiteral("TAVILY_API_KEY")));
    if (response.error.kind == SearchError::Kind::Authentication)
        m_apiKey.clear(); // read again next time: the user may have fixed it
    if (!response.ok())
        co_return response;
    co_return parse(result.body, maxResults);
}

SearchResponse TavilyBackend::parse(const QByteArray &body, int maxResults)
{
    const QJsonValue results = QJsonDocument::fromJson(body).object().value(QLatin1String("results"));
    if (!results.isArray()) {
        return unreadable(QStringLiteral("Tavily's answer could not be read: it is not the JSON of its search API."),
                          QStringLiteral("Check search/tavily_url in Settings; until then, answer from what you know "
                                         "and say that you could not search."));
    }
    SearchResponse response;
    // published_date comes with topic "news" only.
    appendJsonResults(response.results, results.toArray(), maxResults, QLatin1StringView("published_date"));
    return response;
}

} // namespace Sandpiper
