#include "chat/datatableview.h"

#include "flowlayout.h"

#include "chat/datatablemodel.h"
#include "chat/sandboxfilerow.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QTableView>
#include <QVBoxLayout>

#include <climits>

namespace Sandpiper {

namespace {

constexpr int visibleRows = 12; // the table's height; more rows scroll
constexpr int maxColumnWidth = 280;
constexpr int measuredRows = 40; // columns are fitted to the first rows, not all of them

} // namespace

DataTableView::DataTableView(DataTable table, const QString &folder, QWidget *parent)
    : QWidget(parent)
    , m_folder(folder)
    , m_model(new DataTableModel(std::move(table), this))
    , m_view(new QTableView)
    , m_caption(new QLabel)
    , m_status(new QLabel)
    , m_csvButton(new QPushButton(tr("Save as CSV")))
    , m_excelButton(new QPushButton(tr("Save as Excel")))
    , m_savedFiles(new QVBoxLayout)
{
    setObjectName(QStringLiteral("dataTableView"));
    setAccessibleName(tr("Table"));
    const DataTable &data = m_model->table();

    m_view->setModel(m_model);
    m_view->setAccessibleName(tr("Table rows"));
    // No column sorted at first: the rows stay as the frame had them.
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->horizontalHeader()->setSortIndicatorShown(true);
    m_view->setSortingEnabled(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setWordWrap(false);
    m_view->setTabKeyNavigation(false);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    // An index of its own is shown as leading columns; the row numbers would only repeat it.
    m_view->verticalHeader()->setVisible(data.indexColumns == 0);
    m_view->installEventFilter(this);
    fitColumns();
    const int rows = std::clamp<int>(int(data.rows.size()), 1, visibleRows);
    const int scrollBar = m_view->horizontalScrollBar()->sizeHint().height();
    m_view->setFixedHeight(m_view->horizontalHeader()->sizeHint().height() +
                           rows * m_view->verticalHeader()->defaultSectionSize() + scrollBar + 4);

    m_caption->setText(caption());
    m_caption->setAccessibleName(tr("Table size"));
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setAccessibleName(tr("Saving the table"));
    // The reason comes from the sandbox: as HTML, an <img> in it would have Qt open a file here.
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setVisible(false);
    auto *copyButton = new QPushButton(tr("Copy"));
    copyButton->setAccessibleName(tr("Copy the selected cells, or the whole table, as tab-separated text"));
    m_csvButton->setAccessibleName(tr("Save the whole table as a CSV file"));
    m_excelButton->setAccessibleName(tr("Save the whole table as an Excel file"));
    const QString unavailable = tr("Only tables of pandas frames can be saved from the sandbox.");
    for (QPushButton *button : {m_csvButton, m_excelButton}) {
        button->setEnabled(data.exportable);
        if (!data.exportable)
            button->setToolTip(unavailable);
    }
    connect(copyButton, &QPushButton::clicked, this, &DataTableView::copySelection);
    connect(m_csvButton, &QPushButton::clicked, this, [this] { requestSave(QStringLiteral("csv")); });
    connect(m_excelButton, &QPushButton::clicked, this, [this] { requestSave(QStringLiteral("xlsx")); });

    // The caption and the buttons wrap in a narrow inspector instead of widening it.
    auto *bar = new FlowLayout;
    m_caption->setWordWrap(true);
    bar->addWidget(m_caption);
    bar->addWidget(copyButton);
    bar->addWidget(m_csvButton);
    bar->addWidget(m_excelButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_view);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addLayout(m_savedFiles);
}

QString DataTableView::caption() const
{
    const DataTable &data = m_model->table();
    const QLocale locale;
    const qint64 rows = data.rows.size();
    const qint64 columns = data.columns.size();
    QString text = rows < data.totalRows
                       ? tr("Showing %1 of %2 rows").arg(locale.toString(rows), locale.toString(data.totalRows))
                       : tr("%n rows", nullptr, int(std::min<qint64>(rows, INT_MAX)));
    if (columns < data.totalColumns)
        text += QStringLiteral(" · ") +
                tr("%1 of %2 columns").arg(locale.toString(columns), locale.toString(data.totalColumns));
    else
        text += QStringLiteral(" · ") + tr("%n columns", nullptr, int(columns));
    return text;
}

void DataTableView::fitColumns()
{
    // Measuring every cell of a wide table would cost more than showing it.
    const QFontMetrics metrics = m_view->fontMetrics();
    const QFontMetrics headerMetrics = m_view->horizontalHeader()->fontMetrics();
    const int rows = std::min(measuredRows, m_model->rowCount());
    for (int column = 0; column < m_model->columnCount(); ++column) {
        int width = headerMetrics.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()) + 28;
        for (int row = 0; row < rows; ++row)
            width = std::max(width, metrics.horizontalAdvance(m_model->table().cellText(row, column)) + 14);
        m_view->setColumnWidth(column, std::min(width, maxColumnWidth));
    }
}

QString DataTableView::selectionAsTsv() const
{
    const QModelIndexList selected = m_view->selectionModel()->selectedIndexes();
    QList<int> rows;
    QList<int> columns;
    if (selected.isEmpty()) {
        for (int row = 0; row < m_model->rowCount(); ++row)
            rows << row;
        for (int column = 0; column < m_model->columnCount(); ++column)
            columns << column;
        return m_model->tsv(rows, columns, true);
    }
    QSet<int> rowSet;
    QSet<int> columnSet;
    for (const QModelIndex &index : selected) {
        rowSet.insert(index.row());
        columnSet.insert(index.column());
    }
    rows = rowSet.values();
    columns = columnSet.values();
    std::sort(rows.begin(), rows.end());
    std::sort(columns.begin(), columns.end());
    // Whole columns come with their names, as a spreadsheet's paste expects.
    return m_model->tsv(rows, columns, rows.size() == m_model->rowCount());
}

void DataTableView::copySelection()
{
    QApplication::clipboard()->setText(selectionAsTsv());
}

bool DataTableView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent *>(event)->matches(QKeySequence::Copy)) {
        copySelection();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void DataTableView::requestSave(const QString &format)
{
    m_csvButton->setEnabled(false);
    m_excelButton->setEnabled(false);
    m_status->setText(tr("The sandbox writes the whole table…"));
    m_status->setVisible(true);
    Q_EMIT saveRequested(format);
}

void DataTableView::showSaved(const QString &fileName, const QString &error)
{
    m_csvButton->setEnabled(true);
    m_excelButton->setEnabled(true);
    if (!error.isEmpty()) {
        m_status->setText(tr("The table could not be saved: %1").arg(error));
        m_status->setVisible(true);
        return;
    }
    m_status->setVisible(false);
    m_savedFiles->addWidget(new SandboxFileRow(m_folder, fileName));
}

} // namespace Sandpiper
