#pragma once

#include "tools/searchbackend.h"

class QByteArray;
class QUrl;

namespace Sandpiper {

// DuckDuckGo's HTML results page (html.duckduckgo.com/html/): needs no key, so it is the
// default. It is a page for browsers, not an API, so the parser recognises its markup and
// says clearly when it sees a bot check or a layout it does not know.
class DuckDuckGoBackend : public SearchBackend
{
public:
    DuckDuckGoBackend(WebFetcher *fetcher, QString endpoint);

    QString displayName() const override { return QStringLiteral("DuckDuckGo"); }
    QCoro::Task<SearchResponse> search(QString query, int maxResults) override;

    static SearchResponse parse(const QByteArray &html, int maxResults);
    // The target of a result link: DuckDuckGo wraps it as //duckduckgo.com/l/?uddg=<target>&rut=…
    static QString resultUrl(const QString &href);

private:
    QString m_endpoint;
};

} // namespace Sandpiper
