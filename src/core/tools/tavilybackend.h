#pragma once

#include "tools/searchbackend.h"

class QByteArray;

namespace Sandpiper {

// Tavily's search API (an API key from app.tavily.com), made for language models.
class TavilyBackend : public SearchBackend
{
public:
    TavilyBackend(WebFetcher *fetcher, QString endpoint);

    QString displayName() const override { return QStringLiteral("Tavily"); }
    QCoro::Task<SearchResponse> search(QString query, int maxResults) override;

    static SearchResponse parse(const QByteArray &body, int maxResults);

private:
    QString m_endpoint;
};

} // namespace Sandpiper
