#include "tools/charttool.h"

namespace Sandpiper {

ChartTool::ChartTool(ChartLimits limits)
    : m_limits(limits)
{}

QString ChartTool::name() const
{
    return toolName();
}

QString ChartTool::description() const
{
    return QStringLiteral(
        "Show the user a native interactive chart (hover for values, zoom, toggle series, save as PNG, SVG or CSV) "
        "drawn from the data you pass. For simple data the user wants to see: a handful of series, up to a few "
        "hundred points. For statistics, large data or custom figures use matplotlib in Python instead. You do not "
        "see the chart; do not describe it beyond the data you sent.");
}

QJsonObject ChartTool::parameters() const
{
    return ChartSpec::schema(m_limits);
}

PreparedCall ChartTool::prepare(const ToolCall &call) const
{
    PreparedCall prepared;
    prepared.call = call;
    const auto spec = ChartSpec::fromToolArguments(call.arguments, m_limits);
    if (!spec) {
        prepared.error = QStringLiteral("The chart was not shown. %1 Fix this and call create_chart again.")
                             .arg(spec.error().message());
        return prepared;
    }
    prepared.arguments = spec->toJson();
    prepared.preview = spec->summary();
    return prepared;
}

QCoro::Task<ToolOutcome> ChartTool::run(PreparedCall call)
{
    ToolOutcome outcome;
    // The arguments were normalised by prepare(); checking them again costs little and keeps
    // run() safe for callers that built the call themselves.
    const auto spec = ChartSpec::fromJson(call.arguments, m_limits);
    if (!spec) {
        outcome.modelText = QStringLiteral("Error: the chart was not shown. %1 Fix this and call create_chart again.")
                                .arg(spec.error().message());
        co_return outcome;
    }
    outcome.success = true;
    outcome.result = ChartResult{spec->toJson()};
    outcome.modelText =
        QStringLiteral("Chart shown to the user: %1. The user can hover, zoom and save it.").arg(spec->summary());
    co_return outcome;
}

} // namespace Sandpiper
