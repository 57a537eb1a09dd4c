#pragma once

#include "tools/tool.h"
#include "tools/webconfig.h"

#include <memory>

namespace Sandpiper {

class CitationIndex;
class WebFetcher;
struct FetchResult;

// fetch_url: reads one web page safely (see WebFetcher) and hands the model its text.
class FetchTool : public Tool
{
public:
    FetchTool(WebConfig config, std::shared_ptr<CitationIndex> citations);
    ~FetchTool() override;

    QString name() const override { return toolName(); }
    QString description() const override;
    QJsonObject parameters() const override;
    // Reading a public page changes nothing; private addresses are refused anyway.
    ApprovalPolicy defaultApproval() const override { return ApprovalPolicy::Auto; }
    PreparedCall prepare(const ToolCall &call) const override;
    QCoro::Task<ToolOutcome> run(PreparedCall call) override;
    void cancel() override;

    static QString toolName() { return QStringLiteral("fetch_url"); }

private:
    ToolOutcome outcomeFor(const QUrl &requested, const FetchResult &result);

    WebConfig m_config;
    std::shared_ptr<CitationIndex> m_citations;
    std::unique_ptr<WebFetcher> m_fetcher;
};

} // namespace Sandpiper
