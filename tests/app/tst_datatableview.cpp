// The native table of a DataFrame: sorting, selection and copy as TSV, the caption, saving.
#include <chat/datatablemodel.h>
#include <chat/datatableview.h>
#include <chat/markdownview.h>
#include <chat/sandboxfilerow.h>
#include <chat/toolcallcard.h>
#include <presenters/pythonpresenter.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDir>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>

using namespace Sandpiper;

namespace {

DataTable sample()
{
    DataTable table;
    table.tableId = QStringLiteral("t-1");
    table.kind = QStringLiteral("DataFrame");
    table.columns = {QStringLiteral("name"), QStringLiteral("value"), QStringLiteral("when")};
    table.dtypes = {QStringLiteral("object"), QStringLiteral("float64"), QStringLiteral("datetime64[ns]")};
    table.rows = {QJsonArray{QStringLiteral("b"), 10.5, QStringLiteral("2024-01-02 00:00:00")},
                  QJsonArray{QStringLiteral("a"), QJsonValue(QJsonValue::Null), QJsonValue(QJsonValue::Null)},
                  QJsonArray{QStringLiteral("c\tx"), 2, QStringLiteral("2024-01-01 00:00:00")},
                  QJsonArray{QStringLiteral("d"), QStringLiteral("inf"), QStringLiteral("2024-01-03 00:00:00")}};
    table.totalRows = 1234567;
    table.totalColumns = 3;
    table.exportable = true;
    return table;
}

QStringList column(const QAbstractItemModel &model, int column)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values << model.index(row, column).data().toString();
    return values;
}

QPushButton *button(QWidget *parent, const QString &text)
{
    for (QPushButton *candidate : parent->findChildren<QPushButton *>()) {
        if (candidate->text() == text)
            return candidate;
    }
    return nullptr;
}

// A finished execute_python_code call that ran CODE and gave RESULT.
TurnItem finishedCall(const QString &code, const ExecutionResult &result)
{
    TurnItem item;
    item.kind = TurnItem::Kind::ToolCall;
    item.call = {QStringLiteral("call_1"), QStringLiteral("execute_python_code"),
                 QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("code"), code}}).toJson())};
    item.callKey = CallKey{7, 0};
    item.toolState = TurnItem::ToolState::Finished;
    item.result = result;
    return item;
}

} // namespace

class TestDataTableView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void showsCellsAsPandasDoes()
    {
        DataTableModel model(sample());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // A float column's whole numbers stay floats, as pandas shows them.
        QCOMPARE(column(model, 1), (QStringList{QStringLiteral("10.5"), QStringLiteral("NaN"), QStringLiteral("2.0"),
                                                QStringLiteral("inf")}));
        QCOMPARE(model.index(1, 2).data().toString(), QStringLiteral("NaT"));
        QCOMPARE(model.headerData(1, Qt::Horizontal, Qt::ToolTipRole).toString(), QStringLiteral("value (float64)"));
    }

    void sortsNumbersAsNumbersWithMissingValuesLast()
    {
        DataTableModel model(sample());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.sort(1, Qt::AscendingOrder);
        QCOMPARE(column(model, 1), (QStringList{QStringLiteral("2.0"), QStringLiteral("10.5"), QStringLiteral("inf"),
                                                QStringLiteral("NaN")}));
        // The row numbers stay the frame's.
        QCOMPARE(model.headerData(0, Qt::Vertical).toInt(), 2);
        model.sort(1, Qt::DescendingOrder);
        QCOMPARE(column(model, 1).constLast(), QStringLiteral("NaN"));
        QCOMPARE(column(model, 1).constFirst(), QStringLiteral("inf"));
        model.sort(0, Qt::AscendingOrder);
        QCOMPARE(column(model, 0),
                 (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c\tx"), QStringLiteral("d")}));
    }

    void clickingAHeaderSorts()
    {
        DataTableView view(sample(), QDir::tempPath());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QHeaderView *header = view.tableView()->horizontalHeader();
        const QPoint middle(header->sectionViewportPosition(0) + header->sectionSize(0) / 2, header->height() / 2);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, middle);
        QCOMPARE(view.model()->index(0, 0).data().toString(), QStringLiteral("a"));
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, middle);
        QCOMPARE(view.model()->index(0, 0).data().toString(), QStringLiteral("d"));
    }

    void copiesTheSelectionAsTabSeparatedText()
    {
        DataTableView view(sample(), QDir::tempPath());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTableView *table = view.tableView();
        // Nothing selected: the whole table, with its header; tabs inside cells become spaces.
        QCOMPARE(view.selectionAsTsv(), QStringLiteral("name\tvalue\twhen\nb\t10.5\t2024-01-02 00:00:00\na\tNaN\tNaT\n"
                                                       "c x\t2.0\t2024-01-01 00:00:00\nd\tinf\t2024-01-03 00:00:00\n"));
        table->selectionModel()->select(QItemSelection(table->model()->index(0, 0), table->model()->index(1, 1)),
                                        QItemSelectionModel::Select);
        table->setFocus();
        QTest::keySequence(table, QKeySequence::Copy);
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("b\t10.5\na\tNaN\n"));
        // A whole column comes with its name.
        table->clearSelection();
        table->selectColumn(1);
        QCOMPARE(view.selectionAsTsv(), QStringLiteral("value\n10.5\nNaN\n2.0\ninf\n"));
        button(&view, QStringLiteral("Copy"))->click();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("value\n10.5\nNaN\n2.0\ninf\n"));
    }

    void saysHowMuchOfTheFrameItShows()
    {
        DataTableView view(sample(), QDir::tempPath());
        QCOMPARE(view.caption(), QStringLiteral("Showing 4 of 1,234,567 rows · 3 columns"));
        DataTable wide = sample();
        wide.totalRows = 4;
        wide.totalColumns = 10000;
        QCOMPARE(DataTableView(wide, QDir::tempPath()).caption(), QStringLiteral("4 rows · 3 of 10,000 columns"));
    }

    void savingAsksTheSandboxThenOffersTheFile()
    {
        DataTableView view(sample(), QDir::tempPath());
        QSignalSpy requested(&view, &DataTableView::saveRequested);
        QPushButton *csv = button(&view, QStringLiteral("Save as CSV"));
        QPushButton *excel = button(&view, QStringLiteral("Save as Excel"));
        QVERIFY(csv && excel && csv->isEnabled());
        csv->click();
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.first().first().toString(), QStringLiteral("csv"));
        QVERIFY(!excel->isEnabled()); // one at a time
        view.showSaved(QStringLiteral("table-1.csv"), {});
        QCOMPARE(view.findChildren<SandboxFileRow *>().size(), 1);
        QVERIFY(excel->isEnabled());
        excel->click();
        QCOMPARE(requested.last().first().toString(), QStringLiteral("xlsx"));
        view.showSaved({}, QStringLiteral("Excel holds at most 1048575 rows"));
        bool shown = false;
        for (QLabel *label : view.findChildren<QLabel *>())
            shown = shown || label->text().contains(QLatin1String("could not be saved: Excel holds at most"));
        QVERIFY(shown);
        QCOMPARE(view.findChildren<SandboxFileRow *>().size(), 1);
        // The reason is the sandbox's: shown as it is written, never as HTML that names a file.
        const QString markup = QStringLiteral("<img src=\"/home/user/secret.png\"> no");
        view.showSaved({}, markup);
        const QLabel *status = nullptr;
        for (const QLabel *label : view.findChildren<QLabel *>())
            status = label->text().endsWith(markup) ? label : status;
        QVERIFY(status);
        QCOMPARE(status->textFormat(), Qt::PlainText);
    }

    void aTableWithoutItsFrameCannotBeSaved()
    {
        DataTable html = sample();
        html.kind = QStringLiteral("HTML");
        html.exportable = false;
        DataTableView view(html, QDir::tempPath());
        QVERIFY(!button(&view, QStringLiteral("Save as CSV"))->isEnabled());
        QVERIFY(!button(&view, QStringLiteral("Save as Excel"))->isEnabled());
    }

    // In the chat: the card of a run shows its tables and Markdown, and Save goes up to the session.
    void aCardShowsTablesAndAsksToSaveThem()
    {
        ExecutionResult result;
        result.status = ExecutionResult::Status::Ok;
        result.tables = {sample()};
        result.markdown = {QStringLiteral("**Summary**")};
        ToolCallCard card(finishedCall(QStringLiteral("df"), result), QDir::tempPath());
        const QList<DataTableView *> views = card.findChildren<DataTableView *>();
        QCOMPARE(views.size(), 1);
        QCOMPARE(card.findChildren<MarkdownView *>().size(), 1);
        QSignalSpy requested(&card, &ToolCallCard::tableSaveRequested);
        button(views.first(), QStringLiteral("Save as Excel"))->click();
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.first().at(0).value<CallKey>(), (CallKey{7, 0}));
        QCOMPARE(requested.first().mid(1), (QVariantList{0, QStringLiteral("xlsx")}));
        card.showTableSaved(0, QStringLiteral("table-1.xlsx"), {});
        QCOMPARE(views.first()->findChildren<SandboxFileRow *>().size(), 1);
    }

    void aValueShownAsATableIsNotRepeatedAsText()
    {
        ExecutionResult result;
        result.status = ExecutionResult::Status::Ok;
        result.standardOutput = QStringLiteral("hi\n");
        result.value = QStringLiteral("   x\n0  1");
        result.tables = {sample()};
        const PythonPresenter presenter;
        // Not marked as the value's: the text stays (an older execution, or display() and a value).
        QCOMPARE(presenter.resultText(finishedCall(QStringLiteral("print('hi')\ndf"), result)),
                 QStringLiteral("hi\n   x\n0  1"));
        result.valueDisplays.tables = {0};
        QCOMPARE(presenter.resultText(finishedCall(QStringLiteral("print('hi')\ndf"), result)), QStringLiteral("hi"));
    }

    // While code runs, its card says for how long, and shows the line a progress bar redraws.
    void aRunningCardShowsItsTimeAndItsProgressLine()
    {
        TurnItem item;
        item.kind = TurnItem::Kind::ToolCall;
        item.call = {QStringLiteral("call_2"), QStringLiteral("execute_python_code"), QStringLiteral("{}")};
        item.toolState = TurnItem::ToolState::Running;
        item.startedMs = QDateTime::currentMSecsSinceEpoch() - 65000;
        item.liveOutput = QStringLiteral("loading\n 45%|####     | 45/100\r");
        ToolCallCard card(item, QDir::tempPath());
        QVERIFY2(card.findChild<QToolButton *>()->text().startsWith(QStringLiteral("Running Python… 1:0")),
                 qPrintable(card.findChild<QToolButton *>()->text()));
        bool shown = false;
        for (QLabel *label : card.findChildren<QLabel *>())
            shown = shown || (!label->isHidden() && label->text() == QLatin1String("45%|####     | 45/100"));
        QVERIFY(shown);
        item.toolState = TurnItem::ToolState::Finished;
        item.result = ExecutionResult{};
        card.showItem(item);
        for (QLabel *label : card.findChildren<QLabel *>())
            QVERIFY(label->isHidden() || !label->text().contains(QLatin1String("45/100")));
    }

    void untrustedTablesAreNormalised()
    {
        // What the sandbox sends is checked: ragged rows, nested values, absurd sizes.
        const QJsonObject forged{
            {QStringLiteral("columns"), QJsonArray{QStringLiteral("a"), QStringLiteral("b")}},
            {QStringLiteral("rows"), QJsonArray{QJsonArray{1}, QJsonArray{QJsonArray{1, 2}, QJsonObject{}, 3}}},
            {QStringLiteral("total_rows"), -5},
            {QStringLiteral("index_columns"), 99},
            {QStringLiteral("exportable"), true}};
        const auto table = DataTable::fromJson(forged);
        QVERIFY(table);
        QCOMPARE(table->rows.size(), 2);
        QCOMPARE(table->rows.at(0), (QJsonArray{1, QJsonValue(QJsonValue::Null)}));
        QCOMPARE(table->rows.at(1), (QJsonArray{QStringLiteral("[1,2]"), QStringLiteral("{}")}));
        QCOMPARE(table->totalRows, 2);
        QCOMPARE(table->indexColumns, 2);
        QVERIFY(!table->exportable); // no table id: nothing to save
        QVERIFY(!DataTable::fromJson(QJsonObject{{QStringLiteral("rows"), 3}}));
    }
};

QTEST_MAIN(TestDataTableView)
#include "tst_datatableview.moc"
