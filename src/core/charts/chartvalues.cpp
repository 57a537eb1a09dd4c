#include "charts/chartvalues.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace Sandpiper::ChartValues {

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

bool isNonFiniteWord(const QString &text)
{
    static const QRegularExpression word(QStringLiteral("^[+-]?(nan|inf|infinity)$"),
                                         QRegularExpression::CaseInsensitiveOption);
    return word.match(text.trimmed()).hasMatch();
}

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
        return chartNumberText(value.toDouble());
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
    for (const ChartSpec::Type type : ChartSpec::allTypes()) {
        if (name == ChartSpec::typeName(type))
            return type;
    }
    return std::nullopt;
}

QString typeList()
{
    QStringList names;
    for (const ChartSpec::Type type : ChartSpec::allTypes())
        names << ChartSpec::typeName(type);
    return QStringLiteral("one of ") + names.join(QStringLiteral(", "));
}

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

} // namespace Sandpiper::ChartValues
