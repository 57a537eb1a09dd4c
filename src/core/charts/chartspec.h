#pragma once

#include "result.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMetaType>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <optional>

namespace Sandpiper {

// How much data one chart may carry: a chart is for looking at, not for bulk data (that is
// what Python is for), and every point becomes a graphics item in the chat.
struct ChartLimits {
    int maxSeries = 12;
    int maxPoints = 5000; // per series
};

// Why a chart spec was refused, worded for the model so that it can fix the call:
// PATH names the field like series[1].data[3], EXPECTED says what fits there, GIVEN what came.
struct ChartSpecError {
    QString path;
    QString expected;
    QString given;

    QString message() const;
};

struct ChartSeries {
    QString name; // empty when the model gave none; the GUI numbers such series
    // Category charts: x is the category's index. Date-time charts: x is milliseconds since
    // the epoch of the date's wall-clock time read as UTC (see ChartSpec::XKind::DateTime).
    QList<QPointF> points;
    QString color; // "#rrggbb" or a CSS colour name in lower case; empty: the theme's

    friend bool operator==(const ChartSeries &, const ChartSeries &) = default;
};

// A chart that create_chart draws: checked, with the model's sloppiness cleaned up. The same
// validator reads the model's call and, when a conversation is loaded again, the stored call
// arguments, so that a chart looks the same whenever it is drawn.
struct ChartSpec {
    enum class Type { Line, Bar, HorizontalBar, StackedBar, Scatter, Area, Pie, Donut };
    enum class XKind {
        Category, // CATEGORIES name the points (always for bars and pies)
        Number,
        // Dates keep the wall-clock time they were written with (an offset is converted to
        // UTC), so "2024-03-01" is shown as 1 March wherever the chart is opened.
        DateTime,
    };

    Type type = Type::Line;
    XKind xKind = XKind::Category;
    QString title;
    QString xTitle; // the categories' or x values' axis (the vertical one of a horizontal_bar)
    QString yTitle; // the values' axis
    QString xUnit;
    QString yUnit;
    QStringList categories; // for XKind::Category: one label per point, pie slice or bar group
    QList<ChartSeries> series;
    QStringList colors; // for pies: the slices' colours in order; otherwise copied onto the series

    friend bool operator==(const ChartSpec &, const ChartSpec &) = default;

    static QString typeName(Type type);
    static const QList<Type> &allTypes();
    static QString xKindName(XKind kind);

    bool isPie() const { return type == Type::Pie || type == Type::Donut; }
    bool isBar() const { return type == Type::Bar || type == Type::HorizontalBar || type == Type::StackedBar; }
    qsizetype pointCount() const;

    // The normalised spec: what fromJson() accepts back unchanged, and what the GUI receives.
    QJsonObject toJson() const;
    // The data as CSV (RFC 4180): a header of the x axis's name and the series' names, then a
    // row per category or x value; a series without a value at some x leaves its cell empty.
    QString toCsv() const;
    // "line chart "Revenue" with 2 series: North (12 points), South (12 points)"
    QString summary() const;

    // Checks and normalises ARGUMENTS, the JSON object the model sent; on failure, says why.
    static Result<ChartSpec, ChartSpecError> fromJson(const QJsonValue &arguments, const ChartLimits &limits = {});
    // The same from the raw argument text of a create_chart call, as the model sent it and the
    // store keeps it (a Markdown fence or a doubly encoded JSON string around it is tolerated).
    static Result<ChartSpec, ChartSpecError> fromToolArguments(const QString &arguments,
                                                               const ChartLimits &limits = {});

    // The JSON Schema of create_chart's parameters.
    static QJsonObject schema(const ChartLimits &limits = {});
};

// A date-time value of a chart (milliseconds, see ChartSpec::XKind::DateTime) as ISO 8601.
QString chartDateTimeText(double milliseconds);
// A number as short as it reads exactly ("0.1", "1e+20"), for messages to the model.
QString chartNumberText(double value);
// "1 value", "2 values", for messages to the model.
QString chartCounted(qsizetype count, const QString &noun);

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::ChartSpec)
