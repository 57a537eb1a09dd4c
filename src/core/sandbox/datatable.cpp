#include "sandbox/datatable.h"

#include <QJsonDocument>
#include <QLocale>

#include <cmath>

namespace Sandpiper {

namespace {

QJsonValue normalisedCell(const QJsonValue &cell)
{
    switch (cell.type()) {
    case QJsonValue::Null:
    case QJsonValue::Bool:
    case QJsonValue::Double:
        return cell;
    case QJsonValue::String:
        return cell.toString().left(DataTable::maxCellChars);
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(cell.toArray()).toJson(QJsonDocument::Compact))
            .left(DataTable::maxCellChars);
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(cell.toObject()).toJson(QJsonDocument::Compact))
            .left(DataTable::maxCellChars);
    case QJsonValue::Undefined:
        break;
    }
    return QJsonValue(QJsonValue::Null);
}

QStringList stringList(const QJsonValue &value, int limit)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray()) {
        if (list.size() >= limit)
            break;
        list << (item.isString() ? item.toString()
                                 : QString::fromUtf8(QJsonDocument(QJsonArray{item}).toJson(QJsonDocument::Compact))
                                       .mid(1)
                                       .chopped(1))
                    .left(DataTable::maxCellChars);
    }
    return list;
}

} // namespace

QJsonObject DataTable::toJson() const
{
    QJsonArray rowArray;
    for (const QJsonArray &row : rows)
        rowArray.append(row);
    return {{QStringLiteral("table_id"), tableId},
            {QStringLiteral("kind"), kind},
            {QStringLiteral("columns"), QJsonArray::fromStringList(columns)},
            {QStringLiteral("dtypes"), QJsonArray::fromStringList(dtypes)},
            {QStringLiteral("index_columns"), indexColumns},
            {QStringLiteral("rows"), rowArray},
            {QStringLiteral("total_rows"), totalRows},
            {QStringLiteral("total_columns"), totalColumns},
            {QStringLiteral("exportable"), exportable}};
}

QJsonObject DataTable::toCliJson() const
{
    QJsonArray rowArray;
    for (const QJsonArray &row : rows)
        rowArray.append(row);
    return {{QStringLiteral("columns"), QJsonArray::fromStringList(columns)},
            {QStringLiteral("rows"), rowArray},
            {QStringLiteral("total_rows"), totalRows},
            {QStringLiteral("total_columns"), totalColumns}};
}

std::optional<DataTable> DataTable::fromJson(const QJsonObject &object)
{
    if (!object.value(QLatin1String("columns")).isArray() || !object.value(QLatin1String("rows")).isArray())
        return std::nullopt;
    DataTable table;
    table.tableId = object.value(QLatin1String("table_id")).toString().left(100);
    table.kind = object.value(QLatin1String("kind")).toString(QStringLiteral("DataFrame")).left(20);
    table.columns = stringList(object.value(QLatin1String("columns")), maxColumns);
    table.dtypes = stringList(object.value(QLatin1String("dtypes")), int(table.columns.size()));
    while (table.dtypes.size() < table.columns.size())
        table.dtypes << QString();
    table.indexColumns = std::clamp(object.value(QLatin1String("index_columns")).toInt(), 0, int(table.columns.size()));
    const qsizetype width = table.columns.size();
    for (const QJsonValue &value : object.value(QLatin1String("rows")).toArray()) {
        if (table.rows.size() >= maxRows)
            break;
        const QJsonArray cells = value.toArray();
        QJsonArray row;
        for (qsizetype column = 0; column < width; ++column)
            row.append(column < cells.size() ? normalisedCell(cells.at(column)) : QJsonValue(QJsonValue::Null));
        table.rows << row;
    }
    // The shape is the kernel's word, but never less than what came.
    table.totalRows = std::max<qint64>(table.rows.size(), object.value(QLatin1String("total_rows")).toInteger());
    table.totalColumns = std::max<qint64>(width, object.value(QLatin1String("total_columns")).toInteger());
    table.exportable = object.value(QLatin1String("exportable")).toBool() && !table.tableId.isEmpty();
    return table;
}

QString DataTable::cellText(int row, int column) const
{
    if (row < 0 || row >= rows.size() || column < 0 || column >= columns.size())
        return {};
    const QJsonValue cell = rows.at(row).at(column);
    switch (cell.type()) {
    case QJsonValue::Null: {
        const QString dtype = dtypes.value(column);
        if (dtype.startsWith(QLatin1String("datetime")) || dtype.startsWith(QLatin1String("timedelta")))
            return QStringLiteral("NaT");
        if (dtype == QLatin1String("object") || kind == QLatin1String("HTML"))
            return dtype.isEmpty() ? QString() : QStringLiteral("None");
        return QStringLiteral("NaN");
    }
    case QJsonValue::Bool:
        return cell.toBool() ? QStringLiteral("True") : QStringLiteral("False");
    case QJsonValue::Double: {
        const double number = cell.toDouble();
        // Integers as integers; other numbers with up to 10 significant digits, as pandas rounds.
        if (dtypes.value(column).startsWith(QLatin1String("int")) ||
            (number == qint64(number) && !dtypes.value(column).startsWith(QLatin1String("float")) &&
             std::abs(number) < 1e15))
            return QString::number(qint64(number));
        QString text = QString::number(number, 'g', 10);
        // A float stays a float, as Python writes it: 3.0, not 3.
        if (std::isfinite(number) && !text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e')))
            text += QLatin1String(".0");
        return text;
    }
    default:
        return cell.toString();
    }
}

QString DataTable::summary(int rowsShown) const
{
    QStringList lines;
    // Headers are the sandbox's text too: each is cut as the cells are.
    QStringList headers;
    for (const QString &column : columns.mid(0, 30))
        headers << (column.size() > 40 ? column.left(39) + QStringLiteral("…") : column);
    lines << QStringLiteral("%1 rows × %2 columns: %3")
                 .arg(totalRows)
                 .arg(totalColumns)
                 .arg(headers.join(QStringLiteral(", ")));
    for (int row = 0; row < std::min<int>(rowsShown, int(rows.size())); ++row) {
        QStringList cells;
        for (int column = 0; column < std::min<int>(12, int(columns.size())); ++column)
            cells << cellText(row, column).left(40);
        lines << cells.join(QStringLiteral(" | "));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace Sandpiper
