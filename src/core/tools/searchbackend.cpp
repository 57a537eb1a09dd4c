#include "tools/searchbackend.h"

#include "llm/apikeystore.h"
#include "tools/htmltotext.h"
#include "tools/webfetcher.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QRegularExpression>
#include <QUrl>

namespace Sandpiper {

namespace {

constexpr int snippetChars = 400;

} // namespace

SearchBackend::SearchBackend(WebFetcher *fetcher)
    : m_fetcher(fetcher)
{}

std::optional<WebSource> SearchBackend::makeSource(const QString &title, const QString &url, const QString &snippet,
                                                   const QString &date, Markup markup)
{
    const auto plain = [markup](const QString &text) {
        return markup == Markup::Html ? HtmlToText::fragmentToPlainText(text)
                                      : QString(text).replace(QChar(0xA0), QLatin1Char(' ')).simplified();
    };
    const QUrl parsed(url.trimmed());
    if (!parsed.isValid() || (parsed.scheme() != QLatin1String("http") && parsed.scheme() != QLatin1String("https")) ||
        parsed.host().isEmpty())
        return std::nullopt;
    WebSource source;
    source.url = parsed.toString();
    source.title = plain(title);
    if (source.title.isEmpty())
        source.title = parsed.host();
    source.snippet = plain(snippet);
    if (source.snippet.size() > snippetChars) {
        source.snippet.truncate(snippetChars);
        const qsizetype space = source.snippet.lastIndexOf(QLatin1Char(' '));
        if (space > snippetChars / 2)
            source.snippet.truncate(space);
        source.snippet += QStringLiteral(" …");
    }
    source.date = normaliseDate(date);
    return source;
}

QString SearchBackend::normaliseDate(const QString &date)
{
    const QString trimmed = date.trimmed();
    if (trimmed.isEmpty())
        return {};
    // Qt's RFC 2822 parser wants a numeric zone; HTTP-style dates end in "GMT".
    static const QRegularExpression namedZone(QStringLiteral(R"(\s(GMT|UTC|UT|Z)$)"));
    const QString numericZone = QString(trimmed).replace(namedZone, QStringLiteral(" +0000"));
    for (const Qt::DateFormat format : {Qt::ISODateWithMs, Qt::ISODate, Qt::RFC2822Date}) {
        const QDateTime parsed = QDateTime::fromString(format == Qt::RFC2822Date ? numericZone : trimmed, format);
        if (parsed.isValid())
            return parsed.date().toString(Qt::ISODate);
    }
    // "2024-10-08T00:00:00.0000000" (seven decimals, as .NET writes them) and other ISO variants.
    const QDate day = QDate::fromString(trimmed.left(10), Qt::ISODate);
    if (day.isValid())
        return day.toString(Qt::ISODate);
    return trimmed;
}

QString SearchBackend::errorDetail(const QByteArray &body)
{
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    const auto textIn = [](const QJsonValue &value) -> QString {
        if (value.isString())
            return value.toString();
        const QJsonObject inner = value.toObject();
        for (const char *key : {"detail", "message", "error"}) {
            if (inner.value(QLatin1String(key)).isString())
                return inner.value(QLatin1String(key)).toString();
        }
        return {};
    };
    // Brave: {"error": {"detail": ...}}; Tavily: {"detail": {"error": ...}}; SearXNG and
    // proxies: {"message": ...} or {"error": "..."}.
    for (const char *key : {"error", "detail", "message"}) {
        const QString text = textIn(object.value(QLatin1String(key)));
        if (!text.isEmpty())
            return text;
    }
    if (!object.isEmpty())
        return {};
    // An HTML error page or plain text from a proxy: its words, briefly.
    QString text = HtmlToText::fragmentToPlainText(QString::fromUtf8(body.left(4096)));
    if (text.size() > 200)
        text = text.left(200) + QStringLiteral(" …");
    return text;
}

SearchError SearchBackend::failureOf(const FetchResult &result, const QString &keyAdvice) const
{
    SearchError error;
    const QString service = displayName();
    const QString elsewhere = QStringLiteral("answer from what you know and say that the web search failed");
    switch (result.error) {
    case FetchResult::Error::None:
        break;
    case FetchResult::Error::Cancelled:
        return {SearchError::Kind::Cancelled, QStringLiteral("The search was cancelled."), {}};
    case FetchResult::Error::ConnectTimeout:
    case FetchResult::Error::Timeout:
        return {SearchError::Kind::Timeout,
                QStringLiteral("%1 did not answer in time: %2").arg(service, result.message),
                QStringLiteral("Try again once; if it fails again, %1.").arg(elsewhere)};
    case FetchResult::Error::InvalidUrl:
        return {SearchError::Kind::Configuration,
                QStringLiteral("The %1 address in the settings is not usable: %2").arg(service, result.message),
                QStringLiteral("The user needs to fix it in Settings; until then, %1.").arg(elsewhere)};
    case FetchResult::Error::HostNotFound:
    case FetchResult::Error::Network:
    case FetchResult::Error::Refused:
    case FetchResult::Error::TooManyRedirects:
        return {SearchError::Kind::Network, QStringLiteral("%1 could not be reached: %2").arg(service, result.message),
                QStringLiteral("Check later; for now, %1.").arg(elsewhere)};
    }
    if (result.status < 400)
        return error;

    const QString detail = errorDetail(result.body);
    const QString said = detail.isEmpty() ? QString() : QStringLiteral(": %1").arg(detail);
    const QString status = QStringLiteral("HTTP %1").arg(result.status);
    if (result.status == 401 || result.status == 403) {
        return {SearchError::Kind::Authentication,
                QStringLiteral("%1 refused the request (%2%3).").arg(service, status, said),
                (keyAdvice.isEmpty() ? QStringLiteral("The search service needs a fix in Settings.") : keyAdvice) +
                    QStringLiteral(" Do not search again until then; %1.").arg(elsewhere)};
    }
    if (result.status == 429) {
        const QByteArray retryAfter = result.header("retry-after").trimmed();
        const QString wait = retryAfter.isEmpty()
                                 ? QString()
                                 : QStringLiteral(" It asks to wait %1 s.").arg(QString::fromLatin1(retryAfter));
        return {SearchError::Kind::RateLimited,
                QStringLiteral("%1 is rate limiting searches (%2%3).%4").arg(service, status, said, wait),
                QStringLiteral("Do not search again right away; work with the results you already have, or %1.")
                    .arg(elsewhere)};
    }
    return {SearchError::Kind::Http, QStringLiteral("%1 answered with an error (%2%3).").arg(service, status, said),
            result.status >= 500
                ? QStringLiteral("The service has a problem; try once more later, or %1.").arg(elsewhere)
                : QStringLiteral("Try different search words, or %1.").arg(elsewhere)};
}

QCoro::Task<QString> SearchBackend::apiKey(QString providerId, QString variable)
{
    // Copies: QCoro 0.12's co_return moves from an lvalue, which would empty the member.
    if (!m_apiKey.isEmpty())
        co_return QString(m_apiKey);
    // The tool owns the fetcher and this backend: when the fetcher is gone, so is this.
    QPointer<WebFetcher> alive(m_fetcher);
    const ApiKeyStore::Lookup lookup = co_await ApiKeyStore::read(providerId, variable);
    if (!alive)
        co_return QString();
    m_apiKey = lookup.key.trimmed();
    co_return QString(m_apiKey);
}

QCoro::Task<SearchError> SearchBackend::requireApiKey(QString service, QString keyName, QString providerId,
                                                      QString variable)
{
    // The tool owns the fetcher and this backend: when the fetcher is gone, so is this.
    QPointer<WebFetcher> alive(m_fetcher);
    const QString key = co_await apiKey(providerId, variable);
    if (!alive)
        co_return SearchError{SearchError::Kind::Cancelled, {}, {}};
    if (!key.isEmpty())
        co_return SearchError{};
    co_return SearchError{
        SearchError::Kind::Configuration,
        QStringLiteral("Web search is set to %1, but no %2 API key is configured.").arg(service, keyName),
        QStringLiteral("The user can store one in Settings (keychain entry \"%1\") or set %2; until then, answer "
                       "from what you know and say that you could not search.")
            .arg(providerId, variable)};
}

QString SearchBackend::keyAdvice(const QString &service, const QString &providerId, const QString &variable)
{
    return QStringLiteral("The %1 API key needs fixing: the user can store it in Settings (keychain entry \"%2\") or "
                          "set %3.")
        .arg(service, providerId, variable);
}

void SearchBackend::appendJsonResults(QList<WebSource> &results, const QJsonArray &found, int maxResults,
                                      QLatin1StringView dateKey)
{
    for (const QJsonValue &value : found) {
        if (results.size() >= maxResults)
            break;
        const QJsonObject result = value.toObject();
        appendUnique(results,
                     makeSource(result.value(QLatin1String("title")).toString(),
                                result.value(QLatin1String("url")).toString(),
                                result.value(QLatin1String("content")).toString(), result.value(dateKey).toString()));
    }
}

void SearchBackend::appendUnique(QList<WebSource> &results, const std::optional<WebSource> &source)
{
    if (source && std::none_of(results.cbegin(), results.cend(),
                               [&source](const WebSource &known) { return known.url == source->url; }))
        results << *source;
}

SearchResponse SearchBackend::unreadable(const QString &what, const QString &advice)
{
    SearchResponse response;
    response.error = {SearchError::Kind::Unreadable, what, advice};
    return response;
}

} // namespace Sandpiper
