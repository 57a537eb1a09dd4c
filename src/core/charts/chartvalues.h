#pragma once

#include "charts/chartspec.h"

#include <QJsonValue>
#include <QSet>

#include <optional>

// How the chart validator reads the values models write: type names, colours, dates, numbers
// spelled as words, and how it quotes back what it could not read.
namespace Sandpiper::ChartValues {

// The colour names QColor understands (SVG 1.1), so that the GUI never meets one it cannot draw.
const QSet<QString> &colorNames();
// "NaN", "Infinity", "-inf": what Python prints for values that JSON cannot hold.
bool isNonFiniteWord(const QString &text);
// What the model sent, short enough to quote back in an error.
QString describe(const QJsonValue &value);
// "bar", "BarChart", "stacked-column", "doughnut": the type they mean, or nothing.
std::optional<ChartSpec::Type> typeFromText(const QString &text);
// "one of line, bar, …" for errors.
QString typeList();
// "#RGB" and "#RRGGBB" become "#rrggbb"; names lose spaces and capitals ("Dark Blue").
std::optional<QString> normalisedColor(const QString &text);
// Milliseconds of an ISO 8601 date ("2024-03", "2024-03-01", "2024-03-01T10:30[:00[.000]]",
// a space for the T, an optional Z or offset), or nothing.
std::optional<double> dateFromText(const QString &text);

} // namespace Sandpiper::ChartValues
