#pragma once

#include "tools/searchbackend.h"

class QByteArray;

namespace Sandpiper {

// Brave Search's web search API (an API key from api-dashboard.search.brave.com).
class BraveBackend : public SearchBackend
{
public:
    BraveBackend(WebFetcher *fetcher, QString endpoint);

    QString displayName() const override { return QStringLiteral("Brave Search"); }
    QCoro::Task<SearchResponse> search(QString query, int maxResults) override;

    static SearchResponse parse(const QByteArray &body, int maxResults);

private:
    QString m_endpoint;
};

} // namespace Sandpiper
