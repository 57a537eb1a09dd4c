#include "tools/bravebackend.h"

#include "tools/webfetcher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QUrlQuery>

namespace Sandpiper {

BraveBackend::BraveBackend(WebFetcher *fetcher, QString endpoint)
    : SearchBackend(fetcher)
    , m_endpoint(std::move(endpoint))
{}

QCoro::Task<SearchResponse> BraveBackend::search(QString query, int maxResults)
{
    SearchResponse response;
    response.error = co_await requireApiKey(QStringLiteral("Brave Search"), QStringLiteral("Brave"),
                                            QStringLiteral("brave"), QStringLiteral("BRAVE_API_KEY"));
    if (!response.ok())
        co_return response;
    // The tool owns the fetcher and this backend: when the fetcher is gone, so is this.
    QPointer<WebFetcher> alive(m_fetcher);
    const QString advice =
        keyAdvice(QStringLiteral("Brave Search"), QStringLiteral("brave"), QStringLiteral("BRAVE_API_KEY"));
    QUrl url(m_endpoint);
    QUrlQuery parameters;
    parameters.addQueryItem(QStringLiteral("q"), query);
    parameters.addQueryItem(QStringLiteral("count"), QString::number(std::clamp(maxResults, 1, 20)));
    url.setQuery(parameters);

    FetchRequest request;
    request.url = url;
    request.checkAddresses = false;
    request.headers = {{"Accept", "application/json"}, {"X-Subscription-Token", m_apiKey.toUtf8()}};
    const FetchResult result = co_await m_fetcher->fetch(request);
    if (!alive)
        co_return response;

    // Brave answers a wrong key with 422 and the code SUBSCRIPTION_TOKEN_INVALID.
    const QJsonObject error = QJsonDocument::fromJson(result.body).object().value(QLatin1String("error")).toObject();
    if (result.ok() && error.value(QLatin1String("code")).toString().startsWith(QLatin1String("SUBSCRIPTION_TOKEN"))) {
        m_apiKey.clear();
        response.error = {SearchError::Kind::Authentication,
                          QStringLiteral("Brave Search refused the API key (HTTP %1: %2).")
                              .arg(result.status)
                              .arg(errorDetail(result.body)),
                          advice + QStringLiteral(" Do not search again until then; answer from what you know and "
                                                  "say that the web search failed.")};
        co_return response;
    }
    response.error = failureOf(result, advice);
    if (response.error.kind == SearchError::Kind::Authentication)
        m_apiKey.clear(); // read again next time: the user may have fixed it
    if (!response.ok())
        co_return response;
    co_return parse(result.body, maxResults);
}

SearchResponse BraveBackend::parse(const QByteArray &body, int maxResults)
{
    const QJsonObject document = QJsonDocument::fromJson(body).object();
    if (document.value(QLatin1String("type")).toString() != QLatin1String("search")) {
        return unreadable(QStringLiteral("Brave Search's answer could not be read: it is not the JSON of its web "
                                         "search API."),
                          QStringLiteral("Check search/brave_url in Settings; until then, answer from what you know "
                                         "and say that you could not search."));
    }
    // Without web results Brave leaves out the "web" object altogether.
    SearchResponse response;
    const QJsonArray results =
        document.value(QLatin1String("web")).toObject().value(QLatin1String("results")).toArray();
    for (const QJsonValue &value : results) {
        if (response.results.size() >= maxResults)
            break;
        const QJsonObject result = value.toObject();
        // page_age is the page's own date (ISO); age is Brave's wording of it ("2 days ago").
        QString date = result.value(QLatin1String("page_age")).toString();
        if (date.isEmpty())
            date = result.value(QLatin1String("age")).toString();
        appendUnique(response.results, makeSource(result.value(QLatin1String("title")).toString(),
                                                  result.value(QLatin1String("url")).toString(),
                                                  result.value(QLatin1String("description")).toString(), date));
    }
    return response;
}

} // namespace Sandpiper
