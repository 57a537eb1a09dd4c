#include "chartviews/chartformat.h"

#include "chartviews/chartwidget.h"

#include <QBarCategoryAxis>
#include <QDateTimeAxis>
#include <QGraphicsScene>
#include <QImage>
#include <QLocale>
#include <QPainter>
#include <QSvgGenerator>
#include <QTimeZone>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace Sandpiper::ChartFormat {

qreal axisDateTime(double milliseconds)
{
    const QDateTime utc = QDateTime::fromMSecsSinceEpoch(qint64(milliseconds), QTimeZone::UTC);
    return qreal(QDateTime(utc.date(), utc.time()).toMSecsSinceEpoch());
}

QString numberText(double value)
{
    const QLocale locale;
    if (value != 0 && (std::abs(value) >= 1e15 || std::abs(value) < 1e-6))
        return locale.toString(value, 'g', 6);
    const QString shortest = QString::number(value, 'f', QLocale::FloatingPointShortest);
    const qsizetype point = shortest.indexOf(QLatin1Char('.'));
    const int decimals = point < 0 ? 0 : int(std::min<qsizetype>(6, shortest.size() - point - 1));
    QString text = locale.toString(value, 'f', decimals);
    if (decimals > 0) {
        while (text.endsWith(locale.zeroDigit()))
            text.chop(locale.zeroDigit().size());
        if (text.endsWith(locale.decimalPoint()))
            text.chop(locale.decimalPoint().size());
    }
    return text;
}

QString withUnit(const QString &number, const QString &unit)
{
    static const QStringList prefixes = {QStringLiteral("$"), QStringLiteral("£"), QStringLiteral("¥"),
                                         QStringLiteral("₹")};
    if (unit.isEmpty())
        return number;
    if (unit == QLatin1String("%"))
        return number + unit;
    if (prefixes.contains(unit))
        return unit + number;
    return number + QLatin1Char(' ') + unit;
}

QString axisTitle(const QString &title, const QString &unit)
{
    if (unit.isEmpty() || title.isEmpty())
        return title.isEmpty() ? unit : title;
    return ChartWidget::tr("%1 (%2)", "axis title and unit").arg(title, unit);
}

QString typeDisplayName(ChartSpec::Type type)
{
    switch (type) {
    case ChartSpec::Type::Line:
        return ChartWidget::tr("Line chart");
    case ChartSpec::Type::Bar:
        return ChartWidget::tr("Bar chart");
    case ChartSpec::Type::HorizontalBar:
        return ChartWidget::tr("Horizontal bar chart");
    case ChartSpec::Type::StackedBar:
        return ChartWidget::tr("Stacked bar chart");
    case ChartSpec::Type::Scatter:
        return ChartWidget::tr("Scatter plot");
    case ChartSpec::Type::Area:
        return ChartWidget::tr("Area chart");
    case ChartSpec::Type::Pie:
        return ChartWidget::tr("Pie chart");
    case ChartSpec::Type::Donut:
        return ChartWidget::tr("Donut chart");
    }
    return {};
}

QString dateFormat(const QDateTime &first, const QDateTime &last)
{
    constexpr qint64 day = 24 * 3600 * 1000;
    const qint64 span = first.msecsTo(last);
    if (span >= 3 * 365 * day)
        return QStringLiteral("MMM yyyy");
    if (span >= 3 * day)
        return first.date().year() == last.date().year() ? QStringLiteral("d MMM") : QStringLiteral("d MMM yyyy");
    if (span >= day)
        return QStringLiteral("d MMM HH:mm");
    return QStringLiteral("HH:mm");
}

int dateTickCount(qsizetype points)
{
    if (points <= 7)
        return int(std::max<qsizetype>(2, points));
    for (int ticks = 7; ticks >= 4; --ticks) {
        if ((points - 1) % (ticks - 1) == 0)
            return ticks;
    }
    return 6;
}

std::pair<double, double> valueExtent(const ChartSpec &spec)
{
    double low = std::numeric_limits<double>::max();
    double high = std::numeric_limits<double>::lowest();
    if (spec.type == ChartSpec::Type::StackedBar) {
        for (qsizetype i = 0; i < spec.categories.size(); ++i) {
            double up = 0;
            double down = 0;
            for (const ChartSeries &series : spec.series) {
                const double y = series.points.value(i).y();
                (y >= 0 ? up : down) += y;
            }
            low = std::min(low, down);
            high = std::max(high, up);
        }
    } else {
        for (const ChartSeries &series : spec.series) {
            for (const QPointF &point : series.points) {
                low = std::min(low, point.y());
                high = std::max(high, point.y());
            }
        }
    }
    if (spec.isBar() || spec.type == ChartSpec::Type::Area) {
        low = std::min(low, 0.0);
        high = std::max(high, 0.0);
    }
    if (low == high) {
        low -= 1;
        high += 1;
    }
    return {low, high};
}

std::pair<double, double> xExtent(const ChartSpec &spec)
{
    double low = std::numeric_limits<double>::max();
    double high = std::numeric_limits<double>::lowest();
    for (const ChartSeries &series : spec.series) {
        for (const QPointF &point : series.points) {
            low = std::min(low, point.x());
            high = std::max(high, point.x());
        }
    }
    if (low == high) {
        const double margin = spec.xKind == ChartSpec::XKind::DateTime ? 24 * 3600 * 1000 : 1;
        low -= margin;
        high += margin;
    }
    return {low, high};
}

void fitLabelFormat(QValueAxis *axis)
{
    const double step = (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
    if (!(step > 0))
        return;
    auto isWhole = [](double value) {
        return std::abs(value - std::round(value)) < 1e-6 * std::max(1.0, std::abs(value));
    };
    int decimals = 0;
    for (double scale = 1; decimals <= 3; ++decimals, scale *= 10) {
        if (isWhole(step * scale) && isWhole(axis->min() * scale))
            break;
    }
    if (decimals > 3)
        decimals = std::clamp(1 - int(std::floor(std::log10(step))), 0, 6);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

QColor sliceColor(qsizetype index)
{
    static const QColor palette[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59),
                                     QColor(0x76, 0xb7, 0xb2), QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                                     QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7), QColor(0x9c, 0x75, 0x5f),
                                     QColor(0xba, 0xb0, 0xac)};
    constexpr qsizetype count = std::size(palette);
    const QColor color = palette[index % count];
    return index < count ? color : color.lighter(100 + 25 * int(index / count));
}

QPalette themePalette(bool dark)
{
    return dark ? QPalette(QColor(0x2b, 0x2b, 0x2b)) : QPalette(QColor(0xf2, 0xf2, 0xf2));
}

QColor specColor(const QString &name)
{
    return name.isEmpty() ? QColor() : QColor::fromString(name);
}

QString seriesName(const ChartSpec &spec, qsizetype series)
{
    const QString name = spec.series.value(series).name;
    return name.isEmpty() ? ChartWidget::tr("Series %1").arg(series + 1) : name;
}

QString xText(const ChartSpec &spec, double x)
{
    switch (spec.xKind) {
    case ChartSpec::XKind::Category:
        return spec.categories.value(qsizetype(x));
    case ChartSpec::XKind::Number:
        return ChartFormat::withUnit(ChartFormat::numberText(x), spec.xUnit);
    case ChartSpec::XKind::DateTime: {
        const QDateTime time = QDateTime::fromMSecsSinceEpoch(qint64(x), QTimeZone::UTC);
        return QLocale().toString(time, time.time() == QTime(0, 0) ? QStringLiteral("d MMM yyyy")
                                                                   : QStringLiteral("d MMM yyyy HH:mm"));
    }
    }
    return {};
}

QString yText(const ChartSpec &spec, double y)
{
    return ChartFormat::withUnit(ChartFormat::numberText(y), spec.yUnit);
}

QString pointText(const ChartSpec &spec, qsizetype series, qsizetype point)
{
    if (series < 0 || series >= spec.series.size() || point < 0 || point >= spec.series[series].points.size())
        return {};
    const QPointF value = spec.series[series].points[point];
    const QString coordinates = spec.type == ChartSpec::Type::Scatter && spec.xKind != ChartSpec::XKind::Category
                                    ? ChartWidget::tr("%1, %2", "scatter point tooltip: x, y")
                                          .arg(xText(spec, value.x()), yText(spec, value.y()))
                                    : ChartWidget::tr("%1: %2", "tooltip: x or category, value")
                                          .arg(xText(spec, value.x()), yText(spec, value.y()));
    // A single unnamed series needs no name above its values.
    if (spec.series.size() == 1 && spec.series.first().name.isEmpty())
        return coordinates;
    return seriesName(spec, series) + QLatin1Char('\n') + coordinates;
}

QRectF zoomedArea(const ChartSpec &spec, const QRectF &area, const QPointF &center, qreal factor)
{
    QRectF visible(center.x() - (center.x() - area.left()) * factor, center.y() - (center.y() - area.top()) * factor,
                   area.width() * factor, area.height() * factor);
    // Bars zoom along their categories only, as the rubber band does.
    if (spec.type == ChartSpec::Type::Bar || spec.type == ChartSpec::Type::StackedBar) {
        visible.setTop(area.top());
        visible.setHeight(area.height());
    } else if (spec.type == ChartSpec::Type::HorizontalBar) {
        visible.setLeft(area.left());
        visible.setWidth(area.width());
    }
    return visible;
}

QAbstractAxis *xAxis(const ChartSpec &spec)
{
    QAbstractAxis *result = nullptr;
    switch (spec.xKind) {
    case ChartSpec::XKind::Category: {
        auto *axis = new QBarCategoryAxis;
        axis->append(spec.categories);
        result = axis;
        break;
    }
    case ChartSpec::XKind::Number: {
        auto *axis = new QValueAxis;
        const auto [low, high] = xExtent(spec);
        axis->setRange(low, high);
        axis->applyNiceNumbers();
        fitLabelFormat(axis);
        QObject::connect(axis, &QValueAxis::rangeChanged, axis, [axis] { fitLabelFormat(axis); });
        result = axis;
        break;
    }
    case ChartSpec::XKind::DateTime: {
        auto *axis = new QDateTimeAxis;
        const auto [low, high] = xExtent(spec);
        const QDateTime first = QDateTime::fromMSecsSinceEpoch(qint64(axisDateTime(low)));
        const QDateTime last = QDateTime::fromMSecsSinceEpoch(qint64(axisDateTime(high)));
        axis->setRange(first, last);
        axis->setFormat(dateFormat(first, last));
        qsizetype points = 0;
        for (const ChartSeries &series : std::as_const(spec.series))
            points = std::max(points, series.points.size());
        axis->setTickCount(dateTickCount(points));
        result = axis;
        break;
    }
    }
    result->setTitleText(axisTitle(spec.xTitle, spec.xUnit));
    return result;
}

QValueAxis *valueAxis(const ChartSpec &spec)
{
    auto *axis = new QValueAxis;
    axis->setTitleText(axisTitle(spec.yTitle, spec.yUnit));
    const auto [low, high] = valueExtent(spec);
    axis->setRange(low, high);
    axis->applyNiceNumbers();
    fitLabelFormat(axis);
    QObject::connect(axis, &QValueAxis::rangeChanged, axis, [axis] { fitLabelFormat(axis); });
    return axis;
}

QImage image(QGraphicsScene &scene, const QRectF &source, qreal devicePixelRatio)
{
    QImage image((source.size() * devicePixelRatio).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    scene.render(&painter, QRectF(QPointF(), source.size()), source);
    return image;
}

bool writeSvg(QGraphicsScene &scene, const QRectF &source, const QString &path, const QString &title,
              const QString &description)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(source.size().toSize());
    generator.setViewBox(QRectF(QPointF(), source.size()));
    generator.setTitle(title);
    generator.setDescription(description);
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene.render(&painter, QRectF(QPointF(), source.size()), source);
    return painter.end();
}

} // namespace Sandpiper::ChartFormat
