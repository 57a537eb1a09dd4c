#pragma once

#include "tools/searchbackend.h"

class QByteArray;

namespace Sandpiper {

// A SearXNG instance (usually the user's own), through its JSON API: /search?q=…&format=json.
class SearxngBackend : public SearchBackend
{
public:
    SearxngBackend(WebFetcher *fetcher, QString instanceUrl);

    QString displayName() const override { return QStringLiteral("SearXNG"); }
    QCoro::Task<SearchResponse> search(QString query, int maxResults) override;

    static SearchResponse parse(const QByteArray &body, int maxResults);

private:
    QString m_instanceUrl;
};

} // namespace Sandpiper
