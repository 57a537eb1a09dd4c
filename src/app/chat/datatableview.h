#pragma once

#include <sandbox/datatable.h>

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;
class QVBoxLayout;

namespace Sandpiper {

class DataTableModel;

// A table the sandbox showed, natively: sortable by a click on a column, cells selectable and
// copied as tab-separated text (Ctrl+C, or Copy for the whole table), wide tables scroll
// sideways, a caption that says how much of the frame this is ("showing 200 of 1 234 567 rows").
// Save as CSV / Excel ask the kernel for the whole frame (saveRequested); once it is written,
// showSaved() offers the file.
class DataTableView : public QWidget
{
    Q_OBJECT

public:
    // FOLDER: the conversation's folder on this machine, where saved files land.
    DataTableView(DataTable table, const QString &folder, QWidget *parent = nullptr);

    QTableView *tableView() const { return m_view; }
    DataTableModel *model() const { return m_model; }
    QString caption() const;
    // The selected cells as tab-separated text (the whole table with its header when none are).
    QString selectionAsTsv() const;
    void copySelection();

    // How an export asked for by saveRequested() ended: FILENAME is in the folder, or ERROR says why.
    void showSaved(const QString &fileName, const QString &error);

Q_SIGNALS:
    // FORMAT: "csv" or "xlsx".
    void saveRequested(const QString &format);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void requestSave(const QString &format);
    void fitColumns();

    QString m_folder;
    DataTableModel *m_model;
    QTableView *m_view;
    QLabel *m_caption;
    QLabel *m_status;
    QPushButton *m_csvButton;
    QPushButton *m_excelButton;
    QVBoxLayout *m_savedFiles;
};

} // namespace Sandpiper
