#include "chat/datatablemodel.h"

#include <QColor>
#include <QFont>

#include <algorithm>
#include <numeric>

namespace Sandpiper {

namespace {

// Numbers before text; missing values are placed by the caller.
bool cellLess(const QJsonValue &a, const QJsonValue &b)
{
    const bool aNumber = a.isDouble() || a.isBool();
    const bool bNumber = b.isDouble() || b.isBool();
    if (aNumber != bNumber)
        return aNumber;
    if (aNumber)
        return a.toDouble() < b.toDouble();
    return QString::localeAwareCompare(a.toString(), b.toString()) < 0;
}

QString tsvCell(QString text)
{
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text.remove(QLatin1Char('\r'));
    return text;
}

} // namespace

DataTableModel::DataTableModel(DataTable table, QObject *parent)
    : QAbstractTableModel(parent)
    , m_table(std::move(table))
    , m_order(int(m_table.rows.size()))
{
    std::iota(m_order.begin(), m_order.end(), 0);
}

int DataTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_table.rows.size());
}

int DataTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_table.columns.size());
}

QVariant DataTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int row = sourceRow(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return m_table.cellText(row, index.column());
    case Qt::TextAlignmentRole: {
        const QString dtype = m_table.dtypes.value(index.column());
        const bool number = m_table.rows.at(row).at(index.column()).isDouble() ||
                            dtype.startsWith(QLatin1String("int")) || dtype.startsWith(QLatin1String("uint")) ||
                            dtype.startsWith(QLatin1String("float"));
        return QVariant::fromValue(Qt::Alignment(number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    }
    case Qt::FontRole:
        if (index.column() < m_table.indexColumns) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        return m_table.rows.at(row).at(index.column()).isNull() ? QVariant(QColor(Qt::gray)) : QVariant();
    default:
        return {};
    }
}

QVariant DataTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= m_table.columns.size())
            return {};
        if (role == Qt::DisplayRole)
            return m_table.columns.at(section);
        if (role == Qt::ToolTipRole) {
            const QString dtype = m_table.dtypes.value(section);
            return dtype.isEmpty() ? m_table.columns.at(section)
                                   : tr("%1 (%2)").arg(m_table.columns.at(section), dtype);
        }
        return {};
    }
    // Rows are numbered as the frame numbered them, whatever the sort.
    if (role == Qt::DisplayRole && section >= 0 && section < m_order.size())
        return sourceRow(section);
    return QAbstractTableModel::headerData(section, orientation, role);
}

void DataTableModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= m_table.columns.size())
        return;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QList<int> sourceRows;
    for (const QModelIndex &index : before)
        sourceRows << sourceRow(index.row());
    std::stable_sort(m_order.begin(), m_order.end(), [&](int a, int b) {
        const QJsonValue &x = m_table.rows.at(a).at(column);
        const QJsonValue &y = m_table.rows.at(b).at(column);
        if (x.isNull() != y.isNull())
            return y.isNull(); // missing values last, in both orders
        if (x.isNull())
            return false;
        return order == Qt::AscendingOrder ? cellLess(x, y) : cellLess(y, x);
    });
    QList<int> placeOf(m_order.size());
    for (int i = 0; i < m_order.size(); ++i)
        placeOf[m_order[i]] = i;
    QModelIndexList after;
    for (qsizetype i = 0; i < before.size(); ++i)
        after << index(placeOf.value(sourceRows[i]), before[i].column());
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

QString DataTableModel::tsv(const QList<int> &rows, const QList<int> &columns, bool withHeader) const
{
    QStringList lines;
    if (withHeader) {
        QStringList header;
        for (int column : columns)
            header << tsvCell(m_table.columns.value(column));
        lines << header.join(QLatin1Char('\t'));
    }
    for (int row : rows) {
        QStringList cells;
        for (int column : columns)
            cells << tsvCell(m_table.cellText(sourceRow(row), column));
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace Sandpiper
