#pragma once

#include "charts/chartspec.h"

#include <QColor>
#include <QDateTime>
#include <QPalette>
#include <QRectF>
#include <QString>

#include <utility>

class QAbstractAxis;
class QGraphicsScene;
class QImage;
class QValueAxis;

// How a chart reads on screen: numbers and dates on its axes, their ranges, its colours.
namespace Sandpiper::ChartFormat {

// Date-time x values are wall-clock times stored as UTC (see ChartSpec::XKind); the axis draws
// local time, so it gets the same wall-clock time in the local zone.
qreal axisDateTime(double milliseconds);
// A number as people read it: grouped as the locale does, without trailing zeros.
QString numberText(double value);
QString withUnit(const QString &number, const QString &unit);
QString axisTitle(const QString &title, const QString &unit);
QString typeDisplayName(ChartSpec::Type type);
// Labels as fine as the span of the dates needs. The axis spaces its ticks evenly, so they miss
// the first of the month: below three years the day is shown, lest a tick on 30 January read as
// January when it stands for February.
QString dateFormat(const QDateTime &first, const QDateTime &last);
// Ticks that fall on the data when the points are evenly spaced: N points make N - 1 gaps, and
// a tick count that divides them puts a tick on every k-th point.
int dateTickCount(qsizetype points);
// What the value axis must show: stacks add up, and bars and areas grow from zero.
std::pair<double, double> valueExtent(const ChartSpec &spec);
std::pair<double, double> xExtent(const ChartSpec &spec);
// As many decimals as the ticks need: exact for the round steps of an unzoomed axis, two
// significant digits of the step once zooming made it crooked.
void fitLabelFormat(QValueAxis *axis);
// Distinct colours for the slices of a pie: the themes shade a single hue, which tells
// neighbouring slices apart but not a slice from its legend entry.
QColor sliceColor(qsizetype index);
QPalette themePalette(bool dark);
QColor specColor(const QString &name);
// How the chart names series SERIES (a number when the model gave no name), an x value and a
// value, in the user's language and with their units.
QString seriesName(const ChartSpec &spec, qsizetype series);
QString xText(const ChartSpec &spec, double x);
QString yText(const ChartSpec &spec, double y);
// What hovering over point POINT of series SERIES shows (not for pies).
QString pointText(const ChartSpec &spec, qsizetype series, qsizetype point);
// The part of AREA (the plot area) that zooming by FACTOR around CENTER shows.
QRectF zoomedArea(const ChartSpec &spec, const QRectF &area, const QPointF &center, qreal factor);
// The x axis of a line, scatter or area chart, titled and ranged for SPEC.
QAbstractAxis *xAxis(const ChartSpec &spec);
// The value axis, titled and ranged for SPEC. Ranges are set here rather than left to the
// series: an axis ranges over the first series attached to it only, and a stack's height is no
// single value's.
QValueAxis *valueAxis(const ChartSpec &spec);
// SOURCE of SCENE drawn at DEVICEPIXELRATIO times its size, or into an SVG file at PATH.
QImage image(QGraphicsScene &scene, const QRectF &source, qreal devicePixelRatio);
bool writeSvg(QGraphicsScene &scene, const QRectF &source, const QString &path, const QString &title,
              const QString &description);

} // namespace Sandpiper::ChartFormat
