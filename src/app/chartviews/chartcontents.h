#pragma once

#include "charts/chartspec.h"

#include <QList>

class QAbstractBarSeries;
class QAbstractSeries;
class QBarSet;
class QChart;
class QPieSeries;
class QPieSlice;
class QXYSeries;

namespace Sandpiper {

// The series and axes a ChartSpec makes in a QChart: what is drawn, before anything is themed,
// hovered, hidden or zoomed (ChartWidget does that). One entry per spec series (the slices of a
// pie), in the spec's order.
struct ChartContents {
    QList<QAbstractSeries *> xySeries; // line, scatter and area charts: one per spec series
    QList<QXYSeries *> pointSeries;    // the series holding the points (an area's upper line)
    QAbstractBarSeries *bars = nullptr;
    QList<QBarSet *> barSets;
    QPieSeries *pie = nullptr;
    QList<QPieSlice *> slices;

    // Adds SPEC's series and axes to CHART, which owns them.
    static ChartContents build(const ChartSpec &spec, QChart *chart);

private:
    void buildXY(const ChartSpec &spec, QChart *chart);
    void buildBars(const ChartSpec &spec, QChart *chart);
    void buildPie(const ChartSpec &spec, QChart *chart);
};

} // namespace Sandpiper
