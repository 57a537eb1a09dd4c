#pragma once

#include "tools/webtool.h"

namespace Sandpiper {

struct FetchResult;

// fetch_url: reads one web page safely (see WebFetcher) and hands the model its text.
class FetchTool : public WebTool
{
public:
    FetchTool(WebConfig config, std::shared_ptr<CitationIndex> citations);

    QString name() const override { return toolName(); }
    QString description() const override;
    QJsonObject parameters() const override;
    PreparedCall prepare(const ToolCall &call) const override;
    QCoro::Task<ToolOutcome> run(PreparedCall call) override;

    static QString toolName() { return QStringLiteral("fetch_url"); }

private:
    // MAXCHARS: how much of the page's text the model is given.
    ToolOutcome outcomeFor(const QUrl &requested, const FetchResult &result, int maxChars);
};

} // namespace Sandpiper
