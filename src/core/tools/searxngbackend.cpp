#include "tools/searxngbackend.h"

#include "tools/webfetcher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QUrlQuery>

namespace Sandpiper {

SearxngBackend::SearxngBackend(WebFetcher *fetcher, QString instanceUrl)
    : SearchBackend(fetcher)
    , m_instanceUrl(std::move(instanceUrl))
{}

QCoro::Task<SearchResponse> SearxngBackend::search(QString query, int maxResults)
{
    SearchResponse response;
    QString endpoint = m_instanceUrl.trimmed();
    if (endpoint.isEmpty()) {
        response.error = {SearchError::Kind::Configuration,
                          QStringLiteral("Web search is set to SearXNG, but no SearXNG address is configured."),
                          QStringLiteral("The user can set it in Settings (search/searxng_url, e.g. "
                                         "http://localhost:8888) or choose another search backend; until then, answer "
                                         "from what you know and say that you could not search.")};
        co_return response;
    }
    while (endpoint.endsWith(QLatin1Char('/')))
        endpoint.chop(1);
    if (!endpoint.endsWith(QLatin1String("/search")))
        endpoint += QStringLiteral("/search");
    QUrl url(endpoint);
    QUrlQuery parameters;
    parameters.addQueryItem(QStringLiteral("q"), query);
    parameters.addQueryItem(QStringLiteral("format"), QStringLiteral("json"));
    url.setQuery(parameters);

    FetchRequest request;
    request.url = url;
    request.checkAddresses = false;
    request.headers = {{"Accept", "application/json"}};
    QPointer<WebFetcher> alive(m_fetcher); // owned by the tool, like this backend
    const FetchResult result = co_await m_fetcher->fetch(request);
    if (!alive)
        co_return response;

    if (result.status == 403 && result.ok()) {
        // What SearXNG answers when its settings do not list json under search.formats.
        response.error = {SearchError::Kind::Configuration,
                          QStringLiteral("The SearXNG instance refused the JSON API (HTTP 403)."),
                          QStringLiteral("Its administrator must add json to search.formats in settings.yml. Until "
                                         "then, answer from what you know and say that you could not search.")};
        co_return response;
    }
    response.error = failureOf(result);
    if (!response.ok())
        co_return response;
    co_return parse(result.body, maxResults);
}

SearchResponse SearxngBackend::parse(const QByteArray &body, int maxResults)
{
    const QJsonDocument document = QJsonDocument::fromJson(body);
    const QJsonValue results = document.object().value(QLatin1String("results"));
    if (!results.isArray()) {
        return unreadable(QStringLiteral("SearXNG's answer could not be read: it is not the JSON of its search API."),
                          QStringLiteral("Check that search/searxng_url points at a SearXNG instance; until then, "
                                         "answer from what you know and say that you could not search."));
    }
    SearchResponse response;
    appendJsonResults(response.results, results.toArray(), maxResults, QLatin1StringView("publishedDate"));
    if (response.results.isEmpty()) {
        // SearXNG lists the engines that failed, e.g. [["brave", "too many requests"]].
        QStringList failed;
        for (const QJsonValue &engine : document.object().value(QLatin1String("unresponsive_engines")).toArray()) {
            const QJsonArray pair = engine.toArray();
            failed << QStringLiteral("%1 (%2)").arg(pair.at(0).toString(), pair.at(1).toString());
        }
        if (!failed.isEmpty())
            response.note = QStringLiteral("These search engines did not answer SearXNG: %1.")
                                .arg(failed.join(QStringLiteral(", ")));
    }
    return response;
}

} // namespace Sandpiper
