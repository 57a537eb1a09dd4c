#include "charts/chartspec.h"

#include "charts/chartspecvalidator.h"
#include "llm/argumentrepair.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace Sandpiper {

namespace {

QString csvField(const QString &text)
{
    static const QRegularExpression special(QStringLiteral("[,\"\r\n]"));
    if (!text.contains(special))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QJsonObject describedString(const QString &description)
{
    return {{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("description"), description}};
}

} // namespace

QString chartNumberText(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString chartCounted(qsizetype count, const QString &noun)
{
    return QStringLiteral("%1 %2%3").arg(count).arg(noun, count == 1 ? QString() : QStringLiteral("s"));
}

const QList<ChartSpec::Type> &ChartSpec::allTypes()
{
    static const QList<Type> types{Type::Line,    Type::Bar,  Type::HorizontalBar, Type::StackedBar,
                                   Type::Scatter, Type::Area, Type::Pie,           Type::Donut};
    return types;
}

QString ChartSpecError::message() const
{
    return (path.isEmpty() ? QString() : path + QStringLiteral(": ")) +
           QStringLiteral("expected %1, got %2.").arg(expected, given);
}

QString chartDateTimeText(double milliseconds)
{
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(qint64(milliseconds), QTimeZone::UTC);
    if (time.time() == QTime(0, 0))
        return time.date().toString(Qt::ISODate);
    if (time.time().msec() != 0)
        return time.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz"));
    return time.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
}

QString ChartSpec::typeName(Type type)
{
    switch (type) {
    case Type::Line:
        return QStringLiteral("line");
    case Type::Bar:
        return QStringLiteral("bar");
    case Type::HorizontalBar:
        return QStringLiteral("horizontal_bar");
    case Type::StackedBar:
        return QStringLiteral("stacked_bar");
    case Type::Scatter:
        return QStringLiteral("scatter");
    case Type::Area:
        return QStringLiteral("area");
    case Type::Pie:
        return QStringLiteral("pie");
    case Type::Donut:
        return QStringLiteral("donut");
    }
    return {};
}

QString ChartSpec::xKindName(XKind kind)
{
    switch (kind) {
    case XKind::Category:
        return QStringLiteral("category");
    case XKind::Number:
        return QStringLiteral("number");
    case XKind::DateTime:
        return QStringLiteral("datetime");
    }
    return {};
}

qsizetype ChartSpec::pointCount() const
{
    qsizetype count = 0;
    for (const ChartSeries &s : series)
        count += s.points.size();
    return count;
}

QJsonObject ChartSpec::toJson() const
{
    QJsonObject object{{QStringLiteral("type"), typeName(type)}};
    const std::pair<QString, QString> texts[] = {{QStringLiteral("title"), title},
                                                 {QStringLiteral("x_title"), xTitle},
                                                 {QStringLiteral("y_title"), yTitle},
                                                 {QStringLiteral("x_unit"), xUnit},
                                                 {QStringLiteral("y_unit"), yUnit}};
    for (const auto &[key, text] : texts) {
        if (!text.isEmpty())
            object.insert(key, text);
    }
    if (xKind == XKind::Category)
        object.insert(QStringLiteral("categories"), QJsonArray::fromStringList(categories));
    if (!colors.isEmpty())
        object.insert(QStringLiteral("colors"), QJsonArray::fromStringList(colors));
    QJsonArray seriesArray;
    for (const ChartSeries &s : series) {
        QJsonArray data;
        for (const QPointF &point : s.points) {
            switch (xKind) {
            case XKind::Category:
                data.append(point.y());
                break;
            case XKind::Number:
                data.append(QJsonArray{point.x(), point.y()});
                break;
            case XKind::DateTime:
                data.append(QJsonArray{chartDateTimeText(point.x()), point.y()});
                break;
            }
        }
        QJsonObject item;
        if (!s.name.isEmpty())
            item.insert(QStringLiteral("name"), s.name);
        item.insert(QStringLiteral("data"), data);
        if (!s.color.isEmpty())
            item.insert(QStringLiteral("color"), s.color);
        seriesArray.append(item);
    }
    object.insert(QStringLiteral("series"), seriesArray);
    return object;
}

QString ChartSpec::toCsv() const
{
    auto xText = [this](double x) {
        switch (xKind) {
        case XKind::Category:
            return categories.value(qsizetype(x));
        case XKind::Number:
            return chartNumberText(x);
        case XKind::DateTime:
            return chartDateTimeText(x);
        }
        return QString();
    };
    QString header = xTitle;
    if (header.isEmpty()) {
        header = isPie()                    ? QStringLiteral("label")
                 : xKind == XKind::Category ? QStringLiteral("category")
                 : xKind == XKind::DateTime ? QStringLiteral("date")
                                            : QStringLiteral("x");
    }
    QStringList row{csvField(header)};
    for (qsizetype i = 0; i < series.size(); ++i)
        row << csvField(series[i].name.isEmpty() ? QStringLiteral("series %1").arg(i + 1) : series[i].name);
    QString csv = row.join(QLatin1Char(',')) + QLatin1Char('\n');

    // Rows by x; a series with several points at one x (a scatter) fills several rows.
    QMap<double, QList<QList<double>>> byX;
    for (qsizetype s = 0; s < series.size(); ++s) {
        for (const QPointF &point : series[s].points) {
            auto &cells = byX[point.x()];
            cells.resize(series.size());
            cells[s] << point.y();
        }
    }
    for (auto it = byX.cbegin(); it != byX.cend(); ++it) {
        qsizetype rows = 0;
        for (const QList<double> &cell : *it)
            rows = std::max(rows, cell.size());
        for (qsizetype r = 0; r < rows; ++r) {
            row = {csvField(xText(it.key()))};
            for (const QList<double> &cell : *it)
                row << (r < cell.size() ? chartNumberText(cell[r]) : QString());
            csv += row.join(QLatin1Char(',')) + QLatin1Char('\n');
        }
    }
    return csv;
}

QString ChartSpec::summary() const
{
    QStringList parts;
    if (isPie()) {
        parts = categories;
        return QStringLiteral("%1 chart%2 with %3 slices: %4")
            .arg(typeName(type), title.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(title))
            .arg(categories.size())
            .arg(parts.join(QStringLiteral(", ")));
    }
    for (qsizetype i = 0; i < series.size(); ++i) {
        parts << QStringLiteral("%1 (%2)").arg(series[i].name.isEmpty() ? QStringLiteral("series %1").arg(i + 1)
                                                                        : series[i].name,
                                               chartCounted(series[i].points.size(), QStringLiteral("point")));
    }
    return QStringLiteral("%1 chart%2 with %3 series: %4")
        .arg(typeName(type), title.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(title))
        .arg(series.size())
        .arg(parts.join(QStringLiteral(", ")));
}

Result<ChartSpec, ChartSpecError> ChartSpec::fromJson(const QJsonValue &arguments, const ChartLimits &limits)
{
    ChartSpecValidator validator(limits);
    if (auto spec = validator.run(arguments))
        return std::move(*spec);
    return validator.error();
}

Result<ChartSpec, ChartSpecError> ChartSpec::fromToolArguments(const QString &arguments, const ChartLimits &limits)
{
    QString text = stripCodeFence(arguments.trimmed());
    QJsonParseError parseError;
    for (int depth = 0; depth < 3; ++depth) {
        const QJsonDocument document = QJsonDocument::fromJson(("[" + text + "]").toUtf8(), &parseError);
        if (parseError.error != QJsonParseError::NoError || document.array().size() != 1)
            break;
        const QJsonValue value = document.array().first();
        // A JSON string holding the JSON: doubly encoded arguments.
        if (value.isString()) {
            text = stripCodeFence(value.toString().trimmed());
            continue;
        }
        return fromJson(value, limits);
    }
    // The offset counts the bracket added above; the text around it shows the model what
    // broke, e.g. a NaN, which JSON has no word for.
    const int offset = std::clamp(parseError.offset - 1, 0, int(text.size()));
    return ChartSpecError{QStringLiteral("arguments"), QStringLiteral("a JSON object with \"type\" and \"series\""),
                          text.isEmpty() ? QStringLiteral("nothing")
                                         : QStringLiteral("invalid JSON (%1 at character %2, near \"%3\")")
                                               .arg(parseError.errorString())
                                               .arg(offset)
                                               .arg(text.mid(std::max(0, offset - 10), 20))};
}

QJsonObject ChartSpec::schema(const ChartLimits &limits)
{
    QJsonArray types;
    for (const Type type : ChartSpec::allTypes())
        types.append(typeName(type));
    const QJsonObject numberOrString{
        {QStringLiteral("anyOf"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("number")}},
                                             QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}};
    const QJsonObject pair{{QStringLiteral("type"), QStringLiteral("array")},
                           {QStringLiteral("items"), numberOrString},
                           {QStringLiteral("minItems"), 2},
                           {QStringLiteral("maxItems"), 2}};
    const QJsonObject data{
        {QStringLiteral("type"), QStringLiteral("array")},
        {QStringLiteral("maxItems"), limits.maxPoints},
        {QStringLiteral("description"),
         QStringLiteral("Numbers, one per category or x value; or [x, y] pairs, x a number or an ISO 8601 date.")},
        {QStringLiteral("items"),
         QJsonObject{{QStringLiteral("anyOf"),
                      QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("number")}}, pair}}}}};
    const QJsonObject series{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("name"), describedString(QStringLiteral("Shown in the legend."))},
                     {QStringLiteral("data"), data},
                     {QStringLiteral("color"), describedString(QStringLiteral("#rrggbb or a CSS colour name."))}}},
        {QStringLiteral("required"), QJsonArray{QStringLiteral("name"), QStringLiteral("data")}}};
    const QJsonObject properties{
        {QStringLiteral("type"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("enum"), types}}},
        {QStringLiteral("title"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
        {QStringLiteral("x_title"),
         describedString(QStringLiteral("Title of the category or x axis (vertical for horizontal_bar)."))},
        {QStringLiteral("y_title"), describedString(QStringLiteral("Title of the value axis."))},
        {QStringLiteral("x_unit"), describedString(QStringLiteral("Unit of numeric x values, e.g. \"cm\"."))},
        {QStringLiteral("y_unit"), describedString(QStringLiteral("Unit of the values, e.g. \"%\", \"kg\", \"$\"."))},
        {QStringLiteral("categories"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                     {QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
                     {QStringLiteral("description"),
                      QStringLiteral("Unique labels of the bars, pie slices or points; each series then has one "
                                     "number per category. Required for bar types and pies unless the data are "
                                     "[label, value] pairs.")}}},
        {QStringLiteral("x"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                     {QStringLiteral("items"), numberOrString},
                     {QStringLiteral("description"),
                      QStringLiteral("Shared x values, all numbers or all ISO 8601 dates (\"2024-03-01\"); each "
                                     "series then has one number per x value. Instead of categories.")}}},
        {QStringLiteral("series"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                     {QStringLiteral("minItems"), 1},
                     {QStringLiteral("maxItems"), limits.maxSeries},
                     {QStringLiteral("description"), QStringLiteral("Pie and donut: exactly one series.")},
                     {QStringLiteral("items"), series}}},
        {QStringLiteral("colors"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                     {QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
                     {QStringLiteral("description"),
                      QStringLiteral("Optional colours of the series (pie: of the slices) in order.")}}},
    };
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), properties},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("type"), QStringLiteral("series")}}};
}

} // namespace Sandpiper
