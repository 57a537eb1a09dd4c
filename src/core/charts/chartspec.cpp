#include "charts/chartspec.h"

#include "tools/argumentrepair.h"

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

constexpr ChartSpec::Type allTypes[] = {
    ChartSpec::Type::Line,    ChartSpec::Type::Bar,  ChartSpec::Type::HorizontalBar, ChartSpec::Type::StackedBar,
    ChartSpec::Type::Scatter, ChartSpec::Type::Area, ChartSpec::Type::Pie,           ChartSpec::Type::Donut};

// The colour names QColor understands (SVG 1.1), so that the GUI never meets one it cannot draw.
const QSet<QString> &colorNames()
{
    static const QSet<QString> names = [] {
        const QString all = QStringLiteral(
            "aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown "
            "burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan "
            "darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid "
            "darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet "
            "deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro "
            "ghostwhite gold goldenrod gray grey green greenyellow honeydew hotpink indianred indigo ivory khaki "
            "lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow "
            "lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray "
            "lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine "
            "mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise "
            "mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab "
            "orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru "
            "pink plum powderblue purple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell "
            "sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato "
            "turquoise violet wheat white whitesmoke yellow yellowgreen");
        const QStringList list = all.split(QLatin1Char(' '));
        return QSet<QString>(list.cbegin(), list.cend());
    }();
    return names;
}

QString numberText(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

// "1 value", "2 values"
QString counted(qsizetype count, const QString &noun)
{
    return QStringLiteral("%1 %2%3").arg(count).arg(noun, count == 1 ? QString() : QStringLiteral("s"));
}

// "NaN", "Infinity", "-inf": what Python prints for values that JSON cannot hold.
bool isNonFiniteWord(const QString &text)
{
    static const QRegularExpression word(QStringLiteral("^[+-]?(nan|inf|infinity)$"),
                                         QRegularExpression::CaseInsensitiveOption);
    return word.match(text.trimmed()).hasMatch();
}

// What the model sent, short enough to quote back in an error.
QString describe(const QJsonValue &value)
{
    constexpr qsizetype maxChars = 60;
    QString text;
    switch (value.type()) {
    case QJsonValue::Undefined:
        return QStringLiteral("nothing");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return numberText(value.toDouble());
    case QJsonValue::String:
        text = QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
        break;
    case QJsonValue::Array:
        text = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
        break;
    case QJsonValue::Object:
        text = QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
        break;
    }
    return text.size() > maxChars ? text.left(maxChars - 1) + QChar(0x2026) : text;
}

std::optional<ChartSpec::Type> typeFromText(const QString &text)
{
    // camelCase, spaces and dashes all become snake_case; "bar chart" is a bar.
    QString name;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c.isUpper() && i > 0 && text[i - 1].isLower())
            name += QLatin1Char('_');
        name += c == QLatin1Char(' ') || c == QLatin1Char('-') ? QLatin1Char('_') : c.toLower();
    }
    name = name.trimmed();
    if (name.endsWith(QLatin1String("_chart")))
        name.chop(6);
    static const QHash<QString, ChartSpec::Type> aliases = {
        {QStringLiteral("lines"), ChartSpec::Type::Line},
        {QStringLiteral("column"), ChartSpec::Type::Bar},
        {QStringLiteral("columns"), ChartSpec::Type::Bar},
        {QStringLiteral("bars"), ChartSpec::Type::Bar},
        {QStringLiteral("hbar"), ChartSpec::Type::HorizontalBar},
        {QStringLiteral("barh"), ChartSpec::Type::HorizontalBar},
        {QStringLiteral("horizontal"), ChartSpec::Type::HorizontalBar},
        {QStringLiteral("stacked"), ChartSpec::Type::StackedBar},
        {QStringLiteral("stacked_column"), ChartSpec::Type::StackedBar},
        {QStringLiteral("points"), ChartSpec::Type::Scatter},
        {QStringLiteral("doughnut"), ChartSpec::Type::Donut},
        {QStringLiteral("ring"), ChartSpec::Type::Donut},
    };
    if (const auto alias = aliases.find(name); alias != aliases.end())
        return *alias;
    for (const ChartSpec::Type type : allTypes) {
        if (name == ChartSpec::typeName(type))
            return type;
    }
    return std::nullopt;
}

QString typeList()
{
    QStringList names;
    for (const ChartSpec::Type type : allTypes)
        names << ChartSpec::typeName(type);
    return QStringLiteral("one of ") + names.join(QStringLiteral(", "));
}

// "#RGB" and "#RRGGBB" become "#rrggbb"; names lose spaces and capitals ("Dark Blue").
std::optional<QString> normalisedColor(const QString &text)
{
    static const QRegularExpression hex(QStringLiteral("^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"));
    const QString trimmed = text.trimmed();
    if (hex.match(trimmed).hasMatch()) {
        if (trimmed.size() == 7)
            return trimmed.toLower();
        QString expanded = QStringLiteral("#");
        for (qsizetype i = 1; i < 4; ++i)
            expanded += QString(2, trimmed[i].toLower());
        return expanded;
    }
    QString name = trimmed.toLower();
    name.remove(QLatin1Char(' '));
    if (colorNames().contains(name))
        return name;
    return std::nullopt;
}

// Milliseconds of an ISO 8601 date ("2024-03", "2024-03-01", "2024-03-01T10:30[:00[.000]]",
// a space for the T, an optional Z or offset), or nothing.
std::optional<double> dateFromText(const QString &text)
{
    static const QRegularExpression iso(QStringLiteral(
        R"(^(\d{4}-\d{2})(-\d{2})?(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?))?(Z|[+-]\d{2}:?\d{2})?$)"));
    const QRegularExpressionMatch match = iso.match(text.trimmed());
    if (!match.hasMatch())
        return std::nullopt;
    const QString date = match.captured(1) + (match.hasCaptured(2) ? match.captured(2) : QStringLiteral("-01"));
    const QString time = match.hasCaptured(3) ? match.captured(3) : QStringLiteral("00:00");
    // Without an offset the wall-clock time is kept as it is, read as UTC.
    const QString zone = match.hasCaptured(4) ? match.captured(4) : QStringLiteral("Z");
    const QDateTime parsed = QDateTime::fromString(date + QLatin1Char('T') + time + zone, Qt::ISODateWithMs);
    if (!parsed.isValid())
        return std::nullopt;
    return double(parsed.toMSecsSinceEpoch());
}

// One x value as the model wrote it.
struct XToken {
    enum class Kind { Number, Date, Label } kind = Kind::Label;
    double value = 0; // Number and Date
    QString text;     // as written, for labels
    QString path;
};

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

// A series before its x values are resolved.
struct RawSeries {
    QString dataPath; // where the data came from, e.g. series[1].data
    QString name;
    QString color;
    bool pairs = false;
    QList<XToken> xs; // with pairs
    QList<double> ys;
    QList<QString> yPaths;
};

class Validator
{
public:
    explicit Validator(const ChartLimits &limits)
        : m_limits(limits)
    {}

    std::optional<ChartSpec> run(const QJsonValue &input);
    ChartSpecError error() const { return m_error; }

private:
    bool fail(const QString &path, const QString &expected, const QString &given)
    {
        m_error = {path, expected, given};
        return false;
    }
    bool fail(const QString &path, const QString &expected, const QJsonValue &given)
    {
        return fail(path, expected, describe(given));
    }

    bool readText(const QJsonObject &object, const QStringList &keys, QString &out);
    bool readNumber(const QJsonValue &value, const QString &path, double &out);
    bool readX(const QJsonValue &value, const QString &path, XToken &out);
    bool readColors(const QJsonObject &object);
    bool readSeriesList(const QJsonObject &object);
    bool readSeries(const QJsonObject &object, const QString &prefix);
    bool readData(const QJsonValue &data, RawSeries &series);
    void mergePieSlices();
    bool readCategories(const QJsonValue &value, const QString &path);
    bool readSharedX(const QJsonValue &value);
    bool resolveX();
    bool resolveCategories(const QList<XToken> &tokens, bool fromSharedX);
    bool checkPie();

    ChartLimits m_limits;
    ChartSpecError m_error;
    ChartSpec m_spec;
    QList<RawSeries> m_series;
    std::optional<QStringList> m_categories; // given as "categories"
    std::optional<QList<XToken>> m_sharedX;  // given as "x"
};

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

bool Validator::readText(const QJsonObject &object, const QStringList &keys, QString &out)
{
    QString key;
    const QJsonValue value = firstOf(object, keys, &key);
    if (value.isUndefined() || value.isNull())
        return true;
    if (value.isString())
        out = value.toString().trimmed();
    else if (value.isDouble())
        out = numberText(value.toDouble());
    else
        return fail(key, QStringLiteral("a string"), value);
    return true;
}

bool Validator::readNumber(const QJsonValue &value, const QString &path, double &out)
{
    if (value.isNull())
        return fail(path, QStringLiteral("a number (leave out points that have no value)"), value);
    bool ok = value.isDouble();
    if (ok)
        out = value.toDouble();
    else if (value.isString())
        out = value.toString().trimmed().toDouble(&ok); // "3.5" is clear enough
    if (value.isString() && isNonFiniteWord(value.toString()))
        return fail(path, QStringLiteral("a finite number"), value);
    if (!ok)
        return fail(path, QStringLiteral("a number"), value);
    if (!std::isfinite(out))
        return fail(path, QStringLiteral("a finite number"), value);
    return true;
}

bool Validator::readX(const QJsonValue &value, const QString &path, XToken &out)
{
    out.path = path;
    if (value.isDouble()) {
        if (!std::isfinite(value.toDouble()))
            return fail(path, QStringLiteral("a finite number"), value);
        out.kind = XToken::Kind::Number;
        out.value = value.toDouble();
        out.text = numberText(out.value);
        return true;
    }
    if (!value.isString())
        return fail(path, QStringLiteral("a number, an ISO 8601 date or a label"), value);
    out.text = value.toString().trimmed();
    if (isNonFiniteWord(out.text))
        return fail(path, QStringLiteral("a finite number"), value);
    bool isNumber = false;
    const double number = out.text.toDouble(&isNumber);
    if (isNumber) {
        if (!std::isfinite(number))
            return fail(path, QStringLiteral("a finite number"), value);
        out.kind = XToken::Kind::Number;
        out.value = number;
    } else if (const auto date = dateFromText(out.text)) {
        out.kind = XToken::Kind::Date;
        out.value = *date;
    } else if (out.text.isEmpty()) {
        return fail(path, QStringLiteral("a non-empty label"), value);
    } else {
        out.kind = XToken::Kind::Label;
    }
    return true;
}

bool Validator::readColors(const QJsonObject &object)
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
        const auto color = colors[i].isString() ? normalisedColor(colors[i].toString()) : std::nullopt;
        if (!color)
            return fail(QStringLiteral("%1[%2]").arg(key).arg(i), QStringLiteral("#rrggbb or a CSS colour name"),
                        colors[i]);
        m_spec.colors << *color;
    }
    return true;
}

bool Validator::readSeriesList(const QJsonObject &object)
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

bool Validator::readSeries(const QJsonObject &object, const QString &prefix)
{
    RawSeries series;
    const QJsonValue name = firstOf(object, {QStringLiteral("name"), QStringLiteral("label")});
    if (name.isString())
        series.name = name.toString().trimmed();
    else if (name.isDouble())
        series.name = numberText(name.toDouble());
    else if (!name.isUndefined() && !name.isNull())
        return fail(prefix + QStringLiteral("name"), QStringLiteral("a string"), name);
    QString key;
    const QJsonValue color = firstOf(object, {QStringLiteral("color"), QStringLiteral("colour")}, &key);
    if (!color.isUndefined() && !color.isNull()) {
        const auto normalised = color.isString() ? normalisedColor(color.toString()) : std::nullopt;
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

bool Validator::readData(const QJsonValue &data, RawSeries &series)
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
        return fail(path, QStringLiteral("at most %1").arg(counted(m_limits.maxPoints, QStringLiteral("point"))),
                    counted(points.size(), QStringLiteral("point")));
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

bool Validator::readCategories(const QJsonValue &value, const QString &path)
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
            label = numberText(list[i].toDouble());
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

bool Validator::readSharedX(const QJsonValue &value)
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
bool Validator::resolveCategories(const QList<XToken> &tokens, bool fromSharedX)
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

bool Validator::resolveX()
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
                    return fail(dataPath,
                                QStringLiteral("%1, one per %2").arg(counted(expected, QStringLiteral("value")), perX),
                                counted(raw.ys.size(), QStringLiteral("value")));
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
                                    .arg(describe(QJsonArray::fromStringList(m_spec.categories))),
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
                        counted(raw.ys.size(), QStringLiteral("value")));
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
void Validator::mergePieSlices()
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

bool Validator::checkPie()
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
                        numberText(series.ys[i]));
        anyPositive = anyPositive || series.ys[i] > 0;
    }
    if (!anyPositive)
        return fail(series.dataPath, QStringLiteral("at least one value above 0"), QStringLiteral("only zeros"));
    return true;
}

std::optional<ChartSpec> Validator::run(const QJsonValue &input)
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
    const auto parsedType = type.isString() ? typeFromText(type.toString()) : std::nullopt;
    if (!parsedType) {
        fail(typeKey.isEmpty() ? QStringLiteral("type") : typeKey, typeList(), type);
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
            return numberText(x);
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
                row << (r < cell.size() ? numberText(cell[r]) : QString());
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
                                               counted(series[i].points.size(), QStringLiteral("point")));
    }
    return QStringLiteral("%1 chart%2 with %3 series: %4")
        .arg(typeName(type), title.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(title))
        .arg(series.size())
        .arg(parts.join(QStringLiteral(", ")));
}

std::optional<ChartSpec> ChartSpec::fromJson(const QJsonValue &arguments, ChartSpecError *error,
                                             const ChartLimits &limits)
{
    Validator validator(limits);
    auto spec = validator.run(arguments);
    if (!spec && error)
        *error = validator.error();
    return spec;
}

std::optional<ChartSpec> ChartSpec::fromToolArguments(const QString &arguments, ChartSpecError *error,
                                                      const ChartLimits &limits)
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
        return fromJson(value, error, limits);
    }
    if (error) {
        // The offset counts the bracket added above; the text around it shows the model what
        // broke, e.g. a NaN, which JSON has no word for.
        const int offset = std::clamp(parseError.offset - 1, 0, int(text.size()));
        *error = {QStringLiteral("arguments"), QStringLiteral("a JSON object with \"type\" and \"series\""),
                  text.isEmpty() ? QStringLiteral("nothing")
                                 : QStringLiteral("invalid JSON (%1 at character %2, near \"%3\")")
                                       .arg(parseError.errorString())
                                       .arg(offset)
                                       .arg(text.mid(std::max(0, offset - 10), 20))};
    }
    return std::nullopt;
}

QJsonObject ChartSpec::schema(const ChartLimits &limits)
{
    QJsonArray types;
    for (const Type type : allTypes)
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
