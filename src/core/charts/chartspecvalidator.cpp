#include "charts/chartspecvalidator.h"

#include "charts/chartvalues.h"

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

using XToken = ChartSpecValidator::XToken;
using RawSeries = ChartSpecValidator::RawSeries;

// One x value as the model wrote it.

QString kindWord(XToken::Kind kind)
{
    switch (kind) {
    case XToken::Kind::Number:
        return QStringLiteral("a number");
    case XToken::Kind::Date:
        return QStringLiteral("an ISO 8601 date");
    case XToken::Kind::Label:
        return QStringLiteral("a label");
    }
    return {};
}

QJsonValue firstOf(const QJsonObject &object, const QStringList &keys, QString *found = nullptr)
{
    for (const QString &key : keys) {
        if (object.contains(key)) {
            if (found)
                *found = key;
            return object.value(key);
        }
    }
    return QJsonValue(QJsonValue::Undefined);
}

} // namespace

bool ChartSpecValidator::fail(const QString &path, const QString &expected, const QString &given)
{
    m_error = {path, expected, given};
    return false;
}

bool ChartSpecValidator::fail(const QString &path, const QString &expected, const QJsonValue &given)
{
    return fail(path, expected, ChartValues::describe(given));
}

bool ChartSpecValidator::readText(const QJsonObject &object, const QStringList &keys, QString &out)
{
    QString key;
    const QJsonValue value = firstOf(object, keys, &key);
    if (value.isUndefined() || value.isNull())
        return true;
    if (value.isString())
        out = value.toString().trimmed();
    else if (value.isDouble())
        out = chartNumberText(value.toDouble());
    else
        return fail(key, QStringLiteral("a string"), value);
    return true;
}

bool ChartSpecValidator::readNumber(const QJsonValue &value, const QString &path, double &out)
{
    if (value.isNull())
        return fail(path, QStringLiteral("a number (leave out points that have no value)"), value);
    bool ok = value.isDouble();
    if (ok)
        out = value.toDouble();
    else if (value.isString())
        out = value.toString().trimmed().toDouble(&ok); // "3.5" is clear enough
    if (value.isString() && ChartValues::isNonFiniteWord(value.toString()))
        return fail(path, QStringLiteral("a finite number"), value);
    if (!ok)
        return fail(path, QStringLiteral("a number"), value);
    if (!std::isfinite(out))
        return fail(path, QStringLiteral("a finite number"), value);
    return true;
}

bool ChartSpecValidator::readX(const QJsonValue &value, const QString &path, XToken &out)
{
    out.path = path;
    if (value.isDouble()) {
        if (!std::isfinite(value.toDouble()))
            return fail(path, QStringLiteral("a finite number"), value);
        out.kind = XToken::Kind::Number;
        out.value = value.toDouble();
        out.text = chartNumberText(out.value);
        return true;
    }
    if (!value.isString())
        return fail(path, QStringLiteral("a number, an ISO 8601 date or a label"), value);
    out.text = value.toString().trimmed();
    if (ChartValues::isNonFiniteWord(out.text))
        return fail(path, QStringLiteral("a finite number"), value);
    bool isNumber = false;
    const double number = out.text.toDouble(&isNumber);
    if (isNumber) {
        if (!std::isfinite(number))
            return fail(path, QStringLiteral("a finite number"), value);
        out.kind = XToken::Kind::Number;
        out.value = number;
    } else if (const auto date = ChartValues::dateFromText(out.text)) {
        out.kind = XToken::Kind::Date;
        out.value = *date;
    } else if (out.text.isEmpty()) {
        return fail(path, QStringLiteral("a non-empty label"), value);
    } else {
        out.kind = XToken::Kind::Label;
    }
    return true;
}

bool ChartSpecValidator::readColors(const QJsonObject &object)
{
    QString key;
    QJsonValue value = firstOf(object, {QStringLiteral("colors"), QStringLiteral("colours")}, &key);
    if (value.isUndefined() || value.isNull())
        return true;
    if (value.isString())
        value = QJsonArray{value};
    if (!value.isArray())
        return fail(key, QStringLiteral("an array of colours (#rrggbb or CSS names)"), value);
    const QJsonArray colors = value.toArray();
    for (qsizetype i = 0; i < colors.size(); ++i) {
        const auto color = colors[i].isString() ? ChartValues::normalisedColor(colors[i].toString()) : std::nullopt;
        if (!color)
            return fail(QStringLiteral("%1[%2]").arg(key).arg(i), QStringLiteral("#rrggbb or a CSS colour name"),
                        colors[i]);
        m_spec.colors << *color;
    }
    return true;
}

bool ChartSpecValidator::readSeriesList(const QJsonObject &object)
{
    const QJsonValue series = object.value(QLatin1String("series"));
    if (series.isUndefined() || series.isNull()) {
        // {"type": "bar", "categories": [...], "data": [...]}: one series written inline.
        if (object.contains(QLatin1String("data")))
            return readSeries(object, QString());
        return fail(QStringLiteral("series"),
                    QStringLiteral("an array of series like [{\"name\": \"Sales\", \"data\": [1, 2]}]"), series);
    }
    if (series.isObject())
        return readSeries(series.toObject(), QStringLiteral("series."));
    if (!series.isArray())
        return fail(QStringLiteral("series"), QStringLiteral("an array of series objects"), series);
    const QJsonArray list = series.toArray();
    if (list.isEmpty())
        return fail(QStringLiteral("series"), QStringLiteral("at least one series"), QStringLiteral("an empty array"));
    if (list.size() > m_limits.maxSeries) {
        return fail(QStringLiteral("series"), QStringLiteral("at most %1 series").arg(m_limits.maxSeries),
                    QStringLiteral("%1 series").arg(list.size()));
    }
    // "series": [1, 2, 3]: the numbers of a single series.
    if (std::all_of(list.begin(), list.end(), [](const QJsonValue &v) { return v.isDouble(); })) {
        RawSeries single;
        single.dataPath = QStringLiteral("series");
        if (!readData(list, single))
            return false;
        m_series << single;
        return true;
    }
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!list[i].isObject()) {
            return fail(QStringLiteral("series[%1]").arg(i),
                        QStringLiteral("a series object like {\"name\": \"Sales\", \"data\": [1, 2]}"), list[i]);
        }
        if (!readSeries(list[i].toObject(), QStringLiteral("series[%1].").arg(i)))
            return false;
    }
    return true;
}

bool ChartSpecValidator::readSeries(const QJsonObject &object, const QString &prefix)
{
    RawSeries series;
    const QJsonValue name = firstOf(object, {QStringLiteral("name"), QStringLiteral("label")});
    if (name.isString())
        series.name = name.toString().trimmed();
    else if (name.isDouble())
        series.name = chartNumberText(name.toDouble());
    else if (!name.isUndefined() && !name.isNull())
        return fail(prefix + QStringLiteral("name"), QStringLiteral("a string"), name);
    QString key;
    const QJsonValue color = firstOf(object, {QStringLiteral("color"), QStringLiteral("colour")}, &key);
    if (!color.isUndefined() && !color.isNull()) {
        const auto normalised = color.isString() ? ChartValues::normalisedColor(color.toString()) : std::nullopt;
        if (!normalised)
            return fail(prefix + key, QStringLiteral("#rrggbb or a CSS colour name"), color);
        series.color = *normalised;
    }
    const QJsonValue data =
        firstOf(object, {QStringLiteral("data"), QStringLiteral("values"), QStringLiteral("points")}, &key);
    if (data.isUndefined())
        return fail(prefix + QStringLiteral("data"), QStringLiteral("an array of numbers or [x, y] pairs"), data);
    series.dataPath = prefix + key;
    if (!readData(data, series))
        return false;
    m_series << series;
    return true;
}

bool ChartSpecValidator::readData(const QJsonValue &data, RawSeries &series)
{
    const QString &path = series.dataPath;
    if (data.isObject()) {
        return fail(path,
                    QStringLiteral("an array of numbers or [x, y] pairs (an object's keys lose their order); write "
                                   "[[\"label\", 1], ...] instead"),
                    QStringLiteral("an object"));
    }
    if (!data.isArray())
        return fail(path, QStringLiteral("an array of numbers or [x, y] pairs"), data);
    const QJsonArray points = data.toArray();
    if (points.isEmpty())
        return fail(path, QStringLiteral("at least one point"), QStringLiteral("an empty array"));
    if (points.size() > m_limits.maxPoints) {
        return fail(path, QStringLiteral("at most %1").arg(chartCounted(m_limits.maxPoints, QStringLiteral("point"))),
                    chartCounted(points.size(), QStringLiteral("point")));
    }
    static const QStringList xKeys = {QStringLiteral("x"),        QStringLiteral("label"), QStringLiteral("name"),
                                      QStringLiteral("category"), QStringLiteral("date"),  QStringLiteral("time")};
    static const QStringList yKeys = {QStringLiteral("y"), QStringLiteral("value")};
    const QString firstPath = path + QStringLiteral("[0]");
    for (qsizetype i = 0; i < points.size(); ++i) {
        const QJsonValue point = points[i];
        const QString pointPath = QStringLiteral("%1[%2]").arg(path).arg(i);
        const bool isPair = point.isArray() || point.isObject();
        if (i == 0) {
            series.pairs = isPair;
        } else if (isPair != series.pairs) {
            return fail(pointPath,
                        series.pairs ? QStringLiteral("an [x, y] pair like %1").arg(firstPath)
                                     : QStringLiteral("a number like %1").arg(firstPath),
                        point);
        }
        double y = 0;
        if (!isPair) {
            if (!readNumber(point, pointPath, y))
                return false;
            series.ys << y;
            series.yPaths << pointPath;
            continue;
        }
        XToken x;
        if (point.isArray()) {
            const QJsonArray pair = point.toArray();
            if (pair.size() != 2)
                return fail(pointPath, QStringLiteral("an [x, y] pair"), point);
            if (!readX(pair[0], pointPath + QStringLiteral("[0]"), x) ||
                !readNumber(pair[1], pointPath + QStringLiteral("[1]"), y))
                return false;
            series.yPaths << pointPath + QStringLiteral("[1]");
        } else {
            const QJsonObject object = point.toObject();
            QString xKey;
            QString yKey;
            const QJsonValue xValue = firstOf(object, xKeys, &xKey);
            const QJsonValue yValue = firstOf(object, yKeys, &yKey);
            if (xValue.isUndefined() || yValue.isUndefined())
                return fail(pointPath, QStringLiteral("an {\"x\": ..., \"y\": ...} object or an [x, y] pair"), point);
            if (!readX(xValue, pointPath + QLatin1Char('.') + xKey, x) ||
                !readNumber(yValue, pointPath + QLatin1Char('.') + yKey, y))
                return false;
            series.yPaths << pointPath + QLatin1Char('.') + yKey;
        }
        series.xs << x;
        series.ys << y;
    }
    return true;
}

bool ChartSpecValidator::readCategories(const QJsonValue &value, const QString &path)
{
    if (!value.isArray())
        return fail(path, QStringLiteral("an array of labels"), value);
    const QJsonArray list = value.toArray();
    if (list.isEmpty())
        return fail(path, QStringLiteral("at least one label"), QStringLiteral("an empty array"));
    QStringList categories;
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString itemPath = QStringLiteral("%1[%2]").arg(path).arg(i);
        QString label;
        if (list[i].isString())
            label = list[i].toString().trimmed();
        else if (list[i].isDouble() && std::isfinite(list[i].toDouble()))
            label = chartNumberText(list[i].toDouble());
        else
            return fail(itemPath, QStringLiteral("a label (a string)"), list[i]);
        if (label.isEmpty())
            return fail(itemPath, QStringLiteral("a non-empty label"), list[i]);
        if (categories.contains(label))
            return fail(itemPath, QStringLiteral("a label not used before (categories must be unique)"), list[i]);
        categories << label;
    }
    m_categories = categories;
    return true;
}

bool ChartSpecValidator::readSharedX(const QJsonValue &value)
{
    if (!value.isArray())
        return fail(QStringLiteral("x"), QStringLiteral("an array of numbers or ISO 8601 dates"), value);
    const QJsonArray list = value.toArray();
    if (list.isEmpty())
        return fail(QStringLiteral("x"), QStringLiteral("at least one x value"), QStringLiteral("an empty array"));
    QList<XToken> tokens;
    for (qsizetype i = 0; i < list.size(); ++i) {
        XToken token;
        if (!readX(list[i], QStringLiteral("x[%1]").arg(i), token))
            return false;
        tokens << token;
    }
    m_sharedX = tokens;
    return true;
}

// Categories taken from x values (shared or in pairs), in order of first appearance.
bool ChartSpecValidator::resolveCategories(const QList<XToken> &tokens, bool fromSharedX)
{
    QStringList categories;
    for (const XToken &token : tokens) {
        if (categories.contains(token.text)) {
            if (fromSharedX)
                return fail(token.path, QStringLiteral("an x value not used before (x values name the categories)"),
                            QLatin1Char('"') + token.text + QLatin1Char('"'));
            continue;
        }
        categories << token.text;
    }
    m_spec.categories = categories;
    return true;
}

bool ChartSpecValidator::resolveX()
{
    const bool pairs = std::any_of(m_series.cbegin(), m_series.cend(), [](const RawSeries &s) { return s.pairs; });
    QList<XToken> tokens = m_sharedX.value_or(QList<XToken>());
    for (const RawSeries &series : std::as_const(m_series))
        tokens << series.xs;

    // What kind of x axis the values call for.
    if (m_categories) {
        m_spec.xKind = ChartSpec::XKind::Category;
        m_spec.categories = *m_categories;
    } else if (tokens.isEmpty()) {
        if (m_spec.isBar() || m_spec.isPie()) {
            return fail(QStringLiteral("categories"),
                        m_spec.isPie() ? QStringLiteral("one label per slice") : QStringLiteral("one label per bar"),
                        QStringLiteral("nothing"));
        }
        m_spec.xKind = ChartSpec::XKind::Number; // plotted against their index, as pandas does
    } else {
        const XToken &first = tokens.first();
        for (const XToken &token : std::as_const(tokens)) {
            const bool dateAndNumber = (token.kind == XToken::Kind::Date && first.kind == XToken::Kind::Number) ||
                                       (token.kind == XToken::Kind::Number && first.kind == XToken::Kind::Date);
            // Bars and pies label their categories with whatever they are given, but a mix of
            // dates and numbers is a mistake either way.
            if (dateAndNumber || (!m_spec.isBar() && !m_spec.isPie() && token.kind != first.kind)) {
                return fail(token.path,
                            QStringLiteral("%1 like %2 (x values must all be numbers, all dates or all labels)")
                                .arg(kindWord(first.kind), first.path),
                            QLatin1Char('"') + token.text + QLatin1Char('"'));
            }
        }
        if (m_spec.isBar() || m_spec.isPie() || first.kind == XToken::Kind::Label) {
            m_spec.xKind = ChartSpec::XKind::Category;
            if (!resolveCategories(tokens, m_sharedX.has_value()))
                return false;
        } else {
            m_spec.xKind = first.kind == XToken::Kind::Date ? ChartSpec::XKind::DateTime : ChartSpec::XKind::Number;
        }
    }

    const bool categorical = m_spec.xKind == ChartSpec::XKind::Category;
    const QString perX = m_sharedX ? QStringLiteral("x value") : QStringLiteral("category");
    const RawSeries *firstWithPairs = nullptr;
    for (const RawSeries &series : std::as_const(m_series)) {
        if (series.pairs && !firstWithPairs)
            firstWithPairs = &series;
    }
    for (const RawSeries &raw : std::as_const(m_series)) {
        ChartSeries series;
        series.name = raw.name;
        series.color = raw.color;
        const QString &dataPath = raw.dataPath;
        if (!raw.pairs) {
            if (categorical || m_sharedX) {
                const qsizetype expected = categorical ? m_spec.categories.size() : m_sharedX->size();
                if (raw.ys.size() != expected) {
                    return fail(
                        dataPath,
                        QStringLiteral("%1, one per %2").arg(chartCounted(expected, QStringLiteral("value")), perX),
                        chartCounted(raw.ys.size(), QStringLiteral("value")));
                }
            } else if (pairs) {
                return fail(
                    dataPath,
                    QStringLiteral("[x, y] pairs like %1, or a shared \"x\" array").arg(firstWithPairs->dataPath),
                    QStringLiteral("plain numbers"));
            }
            for (qsizetype i = 0; i < raw.ys.size(); ++i) {
                const double x = categorical || !m_sharedX ? double(i) : m_sharedX->at(i).value;
                series.points << QPointF(x, raw.ys[i]);
            }
        } else if (categorical) {
            QList<std::optional<double>> values(m_spec.categories.size());
            for (qsizetype i = 0; i < raw.xs.size(); ++i) {
                const XToken &x = raw.xs[i];
                const qsizetype index = m_spec.categories.indexOf(x.text);
                if (index < 0) {
                    return fail(x.path,
                                QStringLiteral("one of the categories (%1)")
                                    .arg(ChartValues::describe(QJsonArray::fromStringList(m_spec.categories))),
                                QLatin1Char('"') + x.text + QLatin1Char('"'));
                }
                if (values[index])
                    return fail(x.path, QStringLiteral("a category not used before in this series"),
                                QLatin1Char('"') + x.text + QLatin1Char('"'));
                values[index] = raw.ys[i];
            }
            for (qsizetype i = 0; i < values.size(); ++i) {
                if (!values[i]) {
                    return fail(
                        dataPath,
                        QStringLiteral("a value for every category (missing: \"%1\")").arg(m_spec.categories[i]),
                        chartCounted(raw.ys.size(), QStringLiteral("value")));
                }
                series.points << QPointF(double(i), *values[i]);
            }
        } else {
            for (qsizetype i = 0; i < raw.xs.size(); ++i)
                series.points << QPointF(raw.xs[i].value, raw.ys[i]);
        }
        // Lines and areas join their points from left to right, whatever order they came in.
        if (!categorical && (m_spec.type == ChartSpec::Type::Line || m_spec.type == ChartSpec::Type::Area)) {
            std::stable_sort(series.points.begin(), series.points.end(),
                             [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
        }
        m_spec.series << series;
    }
    return true;
}

// A pie given as one single-value series per slice, as models like to write it: the series'
// names label the slices.
void ChartSpecValidator::mergePieSlices()
{
    if (m_series.size() < 2 || m_categories || m_sharedX)
        return;
    RawSeries merged;
    merged.dataPath = QStringLiteral("series");
    QStringList names;
    QStringList colors;
    for (const RawSeries &series : std::as_const(m_series)) {
        if (series.pairs || series.ys.size() != 1 || series.name.isEmpty() || names.contains(series.name))
            return;
        names << series.name;
        merged.ys << series.ys.first();
        merged.yPaths << series.yPaths.first();
        if (!series.color.isEmpty())
            colors << series.color;
    }
    if (m_spec.colors.isEmpty() && colors.size() == names.size())
        m_spec.colors = colors;
    m_categories = names;
    m_series = {merged};
}

bool ChartSpecValidator::checkPie()
{
    if (m_series.size() != 1) {
        return fail(QStringLiteral("series"),
                    QStringLiteral("exactly one series for a %1 chart (one value per slice)")
                        .arg(ChartSpec::typeName(m_spec.type)),
                    QStringLiteral("%1 series").arg(m_series.size()));
    }
    const RawSeries &series = m_series.first();
    bool anyPositive = false;
    for (qsizetype i = 0; i < series.ys.size(); ++i) {
        if (series.ys[i] < 0)
            return fail(series.yPaths[i], QStringLiteral("a value of 0 or more (slices are parts of a whole)"),
                        chartNumberText(series.ys[i]));
        anyPositive = anyPositive || series.ys[i] > 0;
    }
    if (!anyPositive)
        return fail(series.dataPath, QStringLiteral("at least one value above 0"), QStringLiteral("only zeros"));
    return true;
}

std::optional<ChartSpec> ChartSpecValidator::run(const QJsonValue &input)
{
    if (!input.isObject()) {
        fail(QStringLiteral("arguments"), QStringLiteral("a JSON object with \"type\" and \"series\""), input);
        return std::nullopt;
    }
    QJsonObject object = input.toObject();
    // {"chart": {...}}: the spec wrapped in one more object.
    if (object.size() == 1) {
        const QJsonValue wrapped = firstOf(object, {QStringLiteral("chart"), QStringLiteral("spec"),
                                                    QStringLiteral("arguments"), QStringLiteral("parameters")});
        if (wrapped.isObject())
            object = wrapped.toObject();
    }

    QString typeKey;
    const QJsonValue type =
        firstOf(object, {QStringLiteral("type"), QStringLiteral("chart_type"), QStringLiteral("kind")}, &typeKey);
    const auto parsedType = type.isString() ? ChartValues::typeFromText(type.toString()) : std::nullopt;
    if (!parsedType) {
        fail(typeKey.isEmpty() ? QStringLiteral("type") : typeKey, ChartValues::typeList(), type);
        return std::nullopt;
    }
    m_spec.type = *parsedType;
    if (m_spec.type == ChartSpec::Type::Bar) {
        if (object.value(QLatin1String("stacked")).toBool())
            m_spec.type = ChartSpec::Type::StackedBar;
        else if (object.value(QLatin1String("horizontal")).toBool())
            m_spec.type = ChartSpec::Type::HorizontalBar;
    }

    if (!readText(object, {QStringLiteral("title")}, m_spec.title) ||
        !readText(object, {QStringLiteral("x_title"), QStringLiteral("x_label"), QStringLiteral("xlabel")},
                  m_spec.xTitle) ||
        !readText(object, {QStringLiteral("y_title"), QStringLiteral("y_label"), QStringLiteral("ylabel")},
                  m_spec.yTitle) ||
        !readText(object, {QStringLiteral("x_unit")}, m_spec.xUnit) ||
        !readText(object, {QStringLiteral("y_unit"), QStringLiteral("unit")}, m_spec.yUnit) || !readColors(object))
        return std::nullopt;

    QString categoriesKey;
    const QJsonValue categories =
        firstOf(object, {QStringLiteral("categories"), QStringLiteral("labels")}, &categoriesKey);
    if (!categories.isUndefined() && !categories.isNull() && !readCategories(categories, categoriesKey))
        return std::nullopt;
    const QJsonValue sharedX = object.value(QLatin1String("x"));
    if (!sharedX.isUndefined() && !sharedX.isNull()) {
        if (m_categories) {
            fail(QStringLiteral("x"), QStringLiteral("either \"categories\" or \"x\", not both"),
                 QStringLiteral("both"));
            return std::nullopt;
        }
        if (!readSharedX(sharedX))
            return std::nullopt;
    }
    if (!readSeriesList(object))
        return std::nullopt;
    if (m_spec.isPie())
        mergePieSlices();
    if (m_spec.isPie() && !checkPie())
        return std::nullopt;
    if (!resolveX())
        return std::nullopt;

    if (m_spec.isPie()) {
        m_spec.series.first().color.clear(); // slices take their colours from "colors"
    } else {
        // "colors" is a shorthand for the series' own colours.
        for (qsizetype i = 0; i < m_spec.series.size() && i < m_spec.colors.size(); ++i) {
            if (m_spec.series[i].color.isEmpty())
                m_spec.series[i].color = m_spec.colors[i];
        }
        m_spec.colors.clear();
    }
    return m_spec;
}

} // namespace Sandpiper
