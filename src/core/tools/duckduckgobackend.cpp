#include "tools/duckduckgobackend.h"

#include "tools/htmltokenizer.h"
#include "tools/webfetcher.h"

#include <QPointer>
#include <QRegularExpression>
#include <QUrlQuery>

namespace Sandpiper {

namespace {

const QString elsewhere = QStringLiteral("answer from what you know and say that the web search failed");

struct ParsedResult {
    QString title;
    QString href;
    QString snippet;
    QString date;
    bool ad = false;
};

} // namespace

DuckDuckGoBackend::DuckDuckGoBackend(WebFetcher *fetcher, QString endpoint)
    : SearchBackend(fetcher)
    , m_endpoint(std::move(endpoint))
{}

QCoro::Task<SearchResponse> DuckDuckGoBackend::search(QString query, int maxResults)
{
    QPointer<WebFetcher> alive(m_fetcher); // owned by the tool, like this backend
    FetchRequest request;
    request.url = QUrl(m_endpoint);
    request.method = "POST";
    // The form a browser sends from the page; "b" is the (empty) paging cursor.
    request.body = "q=" + QUrl::toPercentEncoding(query) + "&b=";
    request.checkAddresses = false;
    request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "text/html"}};
    const FetchResult result = co_await m_fetcher->fetch(request);
    SearchResponse response;
    if (!alive)
        co_return response;
    response.error = failureOf(result);
    if (!response.ok())
        co_return response;
    co_return parse(result.body, maxResults);
}

QString DuckDuckGoBackend::resultUrl(const QString &href)
{
    QUrl url(href.startsWith(QLatin1String("//")) ? QStringLiteral("https:") + href : href);
    const bool duckDuckGo =
        url.host() == QLatin1String("duckduckgo.com") || url.host().endsWith(QLatin1String(".duckduckgo.com"));
    if (duckDuckGo || url.isRelative()) {
        const QUrlQuery query(url);
        if (url.path() == QLatin1String("/l/") && query.hasQueryItem(QStringLiteral("uddg")))
            return query.queryItemValue(QStringLiteral("uddg"), QUrl::FullyDecoded);
        return {}; // ads (/y.js) and DuckDuckGo's own pages are not results
    }
    return url.toString();
}

SearchResponse DuckDuckGoBackend::parse(const QByteArray &html, int maxResults)
{
    using Token = HtmlTokenizer::Token;
    const QString page = QString::fromUtf8(html);
    HtmlTokenizer tokenizer(page);

    QList<ParsedResult> parsed;
    bool noResults = false;
    bool botCheck = false;
    enum class Field { None, Title, Snippet, ExtrasUrl } field = Field::None;
    QString fieldTag;
    int fieldDepth = 0;
    static const QRegularExpression isoDate(QStringLiteral(R"(\b(\d{4}-\d{2}-\d{2})T\d{2}:\d{2})"));

    for (Token token = tokenizer.next(); token.type != Token::Type::End; token = tokenizer.next()) {
        if (token.type == Token::Type::StartTag) {
            if (token.hasClass(u"no-results") || token.hasClass(u"result--no-result"))
                noResults = true;
            // The bot check ("Unfortunately, bots use DuckDuckGo too.") comes with a challenge form.
            if (token.attribute(u"class").contains(QLatin1String("anomaly-modal")) ||
                token.attribute(u"id") == QLatin1String("challenge-form") ||
                token.attribute(u"action").contains(QLatin1String("anomaly.js")))
                botCheck = true;
            if (token.name == QLatin1String("div") && token.hasClass(u"result") &&
                !token.hasClass(u"result--no-result")) {
                parsed.append(ParsedResult{});
                parsed.last().ad = token.hasClass(u"result--ad");
                field = Field::None;
                continue;
            }
            if (parsed.isEmpty())
                continue;
            if (field != Field::None) {
                if (token.name == fieldTag && !token.selfClosing)
                    ++fieldDepth;
                continue;
            }
            if (token.hasClass(u"result__a")) {
                parsed.last().href = token.attribute(u"href");
                field = Field::Title;
            } else if (token.hasClass(u"result__snippet")) {
                field = Field::Snippet;
            } else if (token.hasClass(u"result__extras__url")) {
                field = Field::ExtrasUrl;
            } else {
                continue;
            }
            fieldTag = token.name;
            fieldDepth = 1;
        } else if (token.type == Token::Type::EndTag && field != Field::None && token.name == fieldTag) {
            if (--fieldDepth == 0)
                field = Field::None;
        } else if (token.type == Token::Type::Text && !parsed.isEmpty()) {
            ParsedResult &result = parsed.last();
            if (field == Field::Title) {
                result.title += token.text;
            } else if (field == Field::Snippet) {
                result.snippet += token.text;
            } else if (field == Field::ExtrasUrl && result.date.isEmpty()) {
                // The date sits beside the displayed URL: "  2024-10-08T00:00:00.0000000".
                const QRegularExpressionMatch match = isoDate.match(token.text);
                if (match.hasMatch())
                    result.date = match.captured(1);
            }
        }
    }

    if (botCheck) {
        SearchResponse response;
        response.error = {SearchError::Kind::Blocked,
                          QStringLiteral("DuckDuckGo showed a bot check (a captcha) instead of results: it takes the "
                                         "searches for automated traffic."),
                          QStringLiteral("Do not search again for a few minutes. The user can choose another search "
                                         "backend in Settings (SearXNG, Brave or Tavily); for now, %1.")
                              .arg(elsewhere)};
        return response;
    }
    const bool recognised =
        std::any_of(parsed.cbegin(), parsed.cend(), [](const ParsedResult &result) { return !result.href.isEmpty(); });
    if (!recognised && !noResults) {
        return unreadable(QStringLiteral("The results page could not be read: DuckDuckGo's page has no results in the "
                                         "layout Sandpiper knows (the page may have changed)."),
                          QStringLiteral("Searching again will not help. The user can choose another search backend "
                                         "in Settings (SearXNG, Brave or Tavily); for now, %1.")
                              .arg(elsewhere));
    }
    SearchResponse response;
    for (const ParsedResult &result : std::as_const(parsed)) {
        if (response.results.size() >= maxResults)
            break;
        if (result.ad || result.href.isEmpty())
            continue;
        appendUnique(response.results,
                     makeSource(result.title, resultUrl(result.href), result.snippet, result.date, Markup::Text));
    }
    return response;
}

} // namespace Sandpiper
