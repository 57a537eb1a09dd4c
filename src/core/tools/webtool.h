#pragma once

#include "tools/tool.h"
#include "tools/webconfig.h"

#include <chrono>
#include <memory>

namespace Sandpiper {

class CitationIndex;
class WebFetcher;

// What search_web and fetch_url share: their settings, the numbering of the sources the model
// may cite (one for both, so a page keeps its number from search to fetch), and the fetcher
// every request goes through, with its address checks, timeouts and size limits.
class WebTool : public Tool
{
public:
    ~WebTool() override;

    // Search and reading change nothing; private addresses are refused anyway.
    ApprovalPolicy defaultApproval() const override { return ApprovalPolicy::Auto; }
    void cancel() override;

protected:
    // TOTALTIMEOUT bounds one request of this tool, redirects included.
    WebTool(WebConfig config, std::shared_ptr<CitationIndex> citations, std::chrono::milliseconds totalTimeout);

    WebConfig m_config;
    std::shared_ptr<CitationIndex> m_citations;
    std::unique_ptr<WebFetcher> m_fetcher;
};

} // namespace Sandpiper
