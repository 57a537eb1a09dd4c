#pragma once

#include "tools/tool.h"
#include "tools/webconfig.h"

#include <memory>

namespace Sandpiper {

class CitationIndex;
class SearchBackend;
class WebFetcher;
struct SearchResponse;

// search_web: searches with the backend chosen in the settings and gives the model numbered
// results to cite.
class SearchTool : public Tool
{
public:
    SearchTool(WebConfig config, std::shared_ptr<CitationIndex> citations);
    ~SearchTool() override;

    QString name() const override { return toolName(); }
    QString description() const override;
    QJsonObject parameters() const override;
    // Searching reads public pages and changes nothing.
    ApprovalPolicy defaultApproval() const override { return ApprovalPolicy::Auto; }
    PreparedCall prepare(const ToolCall &call) const override;
    QCoro::Task<ToolOutcome> run(PreparedCall call) override;
    void cancel() override;

    static QString toolName() { return QStringLiteral("search_web"); }
    static constexpr int maxResultsLimit = 10;

private:
    ToolOutcome outcomeFor(const QString &query, SearchResponse response);

    WebConfig m_config;
    std::shared_ptr<CitationIndex> m_citations;
    // Declared before the backend, which uses it, so that it is destroyed after it.
    std::unique_ptr<WebFetcher> m_fetcher;
    std::unique_ptr<SearchBackend> m_backend; // null when the settings name no known backend
};

} // namespace Sandpiper
