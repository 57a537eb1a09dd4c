#include "chartviews/chartcontents.h"

#include "chartviews/chartformat.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QPieSeries>
#include <QPieSlice>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

namespace Sandpiper {

namespace {

constexpr int markerPointsUpTo = 60; // more points than this and a line shows no markers

} // namespace

ChartContents ChartContents::build(const ChartSpec &spec, QChart *chart)
{
    ChartContents contents;
    if (spec.isPie())
        contents.buildPie(spec, chart);
    else if (spec.isBar())
        contents.buildBars(spec, chart);
    else
        contents.buildXY(spec, chart);
    return contents;
}

void ChartContents::buildXY(const ChartSpec &spec, QChart *chart)
{
    for (qsizetype i = 0; i < spec.series.size(); ++i) {
        QList<QPointF> points;
        points.reserve(spec.series[i].points.size());
        for (const QPointF &point : std::as_const(spec.series[i].points)) {
            points << QPointF(
                spec.xKind == ChartSpec::XKind::DateTime ? ChartFormat::axisDateTime(point.x()) : point.x(), point.y());
        }
        QAbstractSeries *series = nullptr;
        QXYSeries *holder = nullptr;
        if (spec.type == ChartSpec::Type::Area) {
            auto *upper = new QLineSeries;
            upper->append(points);
            auto *area = new QAreaSeries(upper);
            upper->setParent(area); // an area series leaves its lines to whoever made them
            series = area;
            holder = upper;
        } else {
            QXYSeries *xy = nullptr;
            if (spec.type == ChartSpec::Type::Scatter) {
                auto *scatter = new QScatterSeries;
                scatter->setMarkerSize(9);
                xy = scatter;
            } else {
                auto *line = new QLineSeries;
                line->setPointsVisible(points.size() <= markerPointsUpTo);
                xy = line;
            }
            xy->append(points);
            series = xy;
            holder = xy;
        }
        series->setName(ChartFormat::seriesName(spec, i));
        chart->addSeries(series);
        xySeries << series;
        pointSeries << holder;
    }

    QAbstractAxis *xAxis = ChartFormat::xAxis(spec);
    QValueAxis *yAxis = ChartFormat::valueAxis(spec);
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);
    for (QAbstractSeries *series : std::as_const(xySeries)) {
        series->attachAxis(xAxis);
        series->attachAxis(yAxis);
    }
}

void ChartContents::buildBars(const ChartSpec &spec, QChart *chart)
{
    if (spec.type == ChartSpec::Type::StackedBar)
        bars = new QStackedBarSeries;
    else if (spec.type == ChartSpec::Type::HorizontalBar)
        bars = new QHorizontalBarSeries;
    else
        bars = new QBarSeries;
    for (qsizetype i = 0; i < spec.series.size(); ++i) {
        auto *set = new QBarSet(ChartFormat::seriesName(spec, i));
        for (const QPointF &point : std::as_const(spec.series[i].points))
            set->append(point.y());
        bars->append(set);
        barSets << set;
    }
    chart->addSeries(bars);

    auto *categoryAxis = new QBarCategoryAxis;
    categoryAxis->append(spec.categories);
    categoryAxis->setTitleText(ChartFormat::axisTitle(spec.xTitle, spec.xUnit));
    QValueAxis *values = ChartFormat::valueAxis(spec);
    const bool horizontal = spec.type == ChartSpec::Type::HorizontalBar;
    // Read from the top down, like a table.
    categoryAxis->setReverse(horizontal);
    chart->addAxis(categoryAxis, horizontal ? Qt::AlignLeft : Qt::AlignBottom);
    chart->addAxis(values, horizontal ? Qt::AlignBottom : Qt::AlignLeft);
    bars->attachAxis(categoryAxis);
    bars->attachAxis(values);
}

void ChartContents::buildPie(const ChartSpec &spec, QChart *chart)
{
    pie = new QPieSeries;
    if (spec.type == ChartSpec::Type::Donut) {
        pie->setHoleSize(0.45);
        pie->setPieSize(0.8);
    } else {
        pie->setPieSize(0.75);
    }
    const ChartSeries &values = spec.series.first();
    for (qsizetype i = 0; i < spec.categories.size(); ++i) {
        QPieSlice *slice = pie->append(spec.categories[i], values.points.value(i).y());
        slice->setExplodeDistanceFactor(0.06);
        slices << slice;
    }
    chart->addSeries(pie);
}

} // namespace Sandpiper
