#include "tools/searchtool.h"

#include "llm/argumentrepair.h"
#include "logging.h"
#include "tools/bravebackend.h"
#include "tools/citationindex.h"
#include "tools/duckduckgobackend.h"
#include "tools/searxngbackend.h"
#include "tools/tavilybackend.h"
#include "tools/webfetcher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>

namespace Sandpiper {

namespace {

std::unique_ptr<SearchBackend> makeBackend(const WebConfig &config, WebFetcher *fetcher)
{
    const QString name = config.searchBackend.trimmed().toLower();
    if (name == QLatin1String("duckduckgo"))
        return std::make_unique<DuckDuckGoBackend>(fetcher, config.duckDuckGoUrl);
    if (name == QLatin1String("searxng"))
        return std::make_unique<SearxngBackend>(fetcher, config.searxngUrl);
    if (name == QLatin1String("brave"))
        return std::make_unique<BraveBackend>(fetcher, config.braveUrl);
    if (name == QLatin1String("tavily"))
        return std::make_unique<TavilyBackend>(fetcher, config.tavilyUrl);
    return nullptr;
}

// max_results as the model sent it: a number, a numeric string, or under another name.
std::optional<int> requestedCount(const QString &rawArguments)
{
    const QJsonObject object = QJsonDocument::fromJson(rawArguments.toUtf8()).object();
    for (const char *key : {"max_results", "num_results", "count", "limit", "n"}) {
        const QJsonValue value = object.value(QLatin1String(key));
        if (value.isDouble())
            return int(value.toDouble());
        bool ok = false;
        const int number = value.toString().trimmed().toInt(&ok);
        if (ok)
            return number;
    }
    return std::nullopt;
}

QString quoted(const QString &query)
{
    return QLatin1Char('"') + query + QLatin1Char('"');
}

} // namespace

SearchTool::SearchTool(WebConfig config, std::shared_ptr<CitationIndex> citations)
    : WebTool(config, std::move(citations), config.searchTimeout)
    , m_backend(makeBackend(m_config, m_fetcher.get()))
{}

SearchTool::~SearchTool() = default;

QString SearchTool::description() const
{
    return QStringLiteral(
        "Search the web. Returns numbered results (title, URL, snippet, date where known). Cite them in your answer "
        "by number, like [1]. Use it for current events, facts you are not sure of, documentation and anything newer "
        "than your training; read a promising result in full with fetch_url.");
}

QJsonObject SearchTool::parameters() const
{
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("query"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                      {QStringLiteral("description"),
                                       QStringLiteral("What to search for; a few precise keywords work best.")}}},
                         {QStringLiteral("max_results"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")},
                                      {QStringLiteral("minimum"), 1},
                                      {QStringLiteral("maximum"), maxResultsLimit},
                                      {QStringLiteral("description"),
                                       QStringLiteral("How many results to return (default %1).")
                                           .arg(std::clamp(m_config.maxResults, 1, maxResultsLimit))}}}}},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("query")}}};
}

PreparedCall SearchTool::prepare(const ToolCall &call) const
{
    PreparedCall prepared;
    prepared.call = call;
    const RepairedArgument query = repairStringArgument(
        call.arguments, QStringLiteral("query"),
        {QStringLiteral("q"), QStringLiteral("search"), QStringLiteral("search_query"), QStringLiteral("query_string"),
         QStringLiteral("keywords"), QStringLiteral("question"), QStringLiteral("text"), QStringLiteral("term")});
    if (!query.ok()) {
        prepared.error = query.error;
        return prepared;
    }
    const QString text = query.value.simplified();
    const int count = std::clamp(requestedCount(call.arguments).value_or(m_config.maxResults), 1, maxResultsLimit);
    prepared.preview = text;
    prepared.repaired = query.repaired;
    prepared.arguments = {{QStringLiteral("query"), text}, {QStringLiteral("max_results"), count}};
    return prepared;
}

QCoro::Task<ToolOutcome> SearchTool::run(PreparedCall call)
{
    const QString query = call.arguments.value(QLatin1String("query")).toString();
    const int count = call.arguments.value(QLatin1String("max_results")).toInt();
    if (!m_backend) {
        ToolOutcome outcome;
        outcome.modelText =
            QStringLiteral("Status: search failed: the settings name an unknown search backend (\"%1\"; "
                           "known: duckduckgo, searxng, brave, tavily).\nAnswer from what you know and "
                           "say that you could not search.")
                .arg(m_config.searchBackend);
        outcome.result = WebResult{{},
                                   QStringLiteral("Web search is not set up: search/backend is \"%1\"; choose "
                                                  "duckduckgo, searxng, brave or tavily.")
                                       .arg(m_config.searchBackend)};
        co_return outcome;
    }
    QPointer<WebFetcher> alive(m_fetcher.get()); // gone when this tool is
    SearchResponse response = co_await m_backend->search(query, count);
    if (!alive)
        co_return {};
    co_return outcomeFor(query, std::move(response));
}

ToolOutcome SearchTool::outcomeFor(const QString &query, SearchResponse response)
{
    ToolOutcome outcome;
    const QString service = m_backend->displayName();
    if (response.error.kind == SearchError::Kind::Cancelled) {
        outcome.modelText = QStringLiteral("Cancelled: the user stopped the search.");
        return outcome;
    }
    if (!response.ok()) {
        qCInfo(lcAgent) << "search failed:" << response.error.message;
        outcome.modelText =
            QStringLiteral("Status: search failed: %1\n%2").arg(response.error.message, response.error.advice);
        outcome.result = WebResult{{}, response.error.message};
        return outcome;
    }
    outcome.success = true;
    if (response.results.isEmpty()) {
        QString text = QStringLiteral("No results for %1 (%2).").arg(quoted(query), service);
        if (!response.note.isEmpty())
            text += QLatin1Char(' ') + response.note;
        outcome.modelText = text + QStringLiteral(" Try fewer or different words.");
        return outcome;
    }
    QStringList blocks;
    blocks << QStringLiteral("Search results for %1 (%2):").arg(quoted(query), service);
    for (WebSource &source : response.results) {
        source.number = m_citations->numberFor(source.url);
        QString block = QStringLiteral("[%1] %2\n%3").arg(source.number).arg(source.title, source.url);
        QString detail = source.snippet;
        if (!source.date.isEmpty())
            detail += (detail.isEmpty() ? QStringLiteral("(%1)") : QStringLiteral(" (%1)")).arg(source.date);
        if (!detail.isEmpty())
            block += QLatin1Char('\n') + detail;
        blocks << block;
    }
    blocks << QStringLiteral("Cite these sources by their numbers, like [%1], right after what they support. To read "
                             "a page in full, call fetch_url with its URL.")
                  .arg(response.results.constFirst().number);
    outcome.modelText = blocks.join(QStringLiteral("\n\n"));
    outcome.result = WebResult{response.results, {}};
    return outcome;
}

} // namespace Sandpiper
