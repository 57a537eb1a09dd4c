#pragma once

#include <sandbox/datatable.h>

#include <QAbstractTableModel>

namespace Sandpiper {

// The rows of a table the sandbox showed, for a QTableView: sortable by any column (numbers as
// numbers, missing values last either way), the vertical header numbering rows as the frame did.
class DataTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    explicit DataTableModel(DataTable table, QObject *parent = nullptr);

    const DataTable &table() const { return m_table; }
    // The row of the table shown at ROW, after sorting.
    int sourceRow(int row) const { return m_order.value(row, row); }
    // ROWS x COLUMNS of cells (in the order shown) as tab-separated text, with the header if asked.
    QString tsv(const QList<int> &rows, const QList<int> &columns, bool withHeader) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    DataTable m_table;
    QList<int> m_order; // rows of m_table in the order shown
};

} // namespace Sandpiper
