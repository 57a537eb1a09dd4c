#pragma once

#include "tools/webtool.h"

namespace Sandpiper {

class SearchBackend;
struct SearchResponse;

// search_web: searches with the backend chosen in the settings and gives the model numbered
// results to cite.
class SearchTool : public WebTool
{
public:
    SearchTool(WebConfig config, std::shared_ptr<CitationIndex> citations);
    ~SearchTool() override;

    QString name() const override { return toolName(); }
    QString description() const override;
    QJsonObject parameters() const override;
    PreparedCall prepare(const ToolCall &call) const override;
    QCoro::Task<ToolOutcome> run(PreparedCall call) override;

    static QString toolName() { return QStringLiteral("search_web"); }
    static constexpr int maxResultsLimit = 10;

private:
    ToolOutcome outcomeFor(const QString &query, SearchResponse response);

    // Uses the fetcher of WebTool, which outlives it.
    std::unique_ptr<SearchBackend> m_backend; // null when the settings name no known backend
};

} // namespace Sandpiper
