#include "tools/webtool.h"

#include "tools/citationindex.h"
#include "tools/webfetcher.h"

namespace Sandpiper {

WebTool::WebTool(WebConfig config, std::shared_ptr<CitationIndex> citations, std::chrono::milliseconds totalTimeout)
    : m_config(std::move(config))
    , m_citations(std::move(citations))
    , m_fetcher(std::make_unique<WebFetcher>(WebFetcher::Limits{.allowLocal = m_config.allowLocal,
                                                                .maxRedirects = m_config.maxRedirects,
                                                                .maxBytes = m_config.maxBytes,
                                                                .connectTimeout = m_config.connectTimeout,
                                                                .totalTimeout = totalTimeout}))
{}

// A request still in flight is not cancelled here: cancelling resumes its coroutine, which must
// not happen in a destructor. The agent cancels its tools before it lets them go.
WebTool::~WebTool() = default;

void WebTool::cancel()
{
    m_fetcher->cancel();
}

} // namespace Sandpiper
