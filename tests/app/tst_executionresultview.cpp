// What a run produced, as the chat's card and the code inspector both draw it: each notice in
// one wording in both places, as plain text; figures wide on the card and as a row of
// thumbnails in the inspector; Save of a table goes up with its index; nothing takes no room.
#include "sandboxfiles.h"

#include <chat/datatableview.h>
#include <chat/executionresultview.h>
#include <chat/figureview.h>
#include <chat/sandboxfilerow.h>

#include <QApplication>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using Place = ExecutionResultView::Place;

class TestExecutionResultView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_folder;

    // The notices VIEW shows, by their accessible name ("Warning", "Note"), as "NAME: TEXT".
    static QStringList notices(const ExecutionResultView &view)
    {
        QStringList found;
        for (const QLabel *label : view.findChildren<QLabel *>()) {
            const QString name = label->accessibleName();
            if (name != QLatin1String("Warning") && name != QLatin1String("Note"))
                continue;
            found << name + QStringLiteral(": ") + label->text();
            if (label->textFormat() != Qt::PlainText)
                found << QStringLiteral("NOT PLAIN TEXT");
        }
        return found;
    }

    static ExecutionResult stoppedRun()
    {
        ExecutionResult r;
        r.status = ExecutionResult::Status::Interrupted;
        r.figures = {QStringLiteral("figures/one.png"), QStringLiteral("figures/two.png")};
        r.figuresNotKept = 7;
        for (int i = 0; i < 23; ++i)
            r.files << QStringLiteral("out/part-%1.csv").arg(i);
        r.refused = {QStringLiteral("“<b>x</b>” is or goes through a symbolic link.")};
        r.stopReason = QStringLiteral("The conversation's files reached the 1 GiB limit; the execution was stopped.");
        r.notes = {QStringLiteral("pip could not download packages.")};
        return r;
    }

    static DataTable table(const QString &id)
    {
        DataTable t;
        t.tableId = id;
        t.kind = QStringLiteral("DataFrame");
        t.columns = {QStringLiteral("n")};
        t.dtypes = {QStringLiteral("int64")};
        t.rows = {QJsonArray{1}, QJsonArray{2}};
        t.totalRows = 2;
        t.totalColumns = 1;
        t.exportable = true;
        return t;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(Sandpiper::Test::writeFile(m_folder.filePath(QStringLiteral("figures/one.png")),
                                           Sandpiper::Test::pngImage(400, 300)));
        QVERIFY(Sandpiper::Test::writeFile(m_folder.filePath(QStringLiteral("figures/two.png")),
                                           Sandpiper::Test::pngImage(400, 300)));
    }

    void theCardAndTheInspectorWordEachNoticeAlike()
    {
        const ExecutionResultView card(stoppedRun(), m_folder.path(), Place::Card);
        const ExecutionResultView inspector(stoppedRun(), m_folder.path(), Place::Inspector);
        const QStringList onCard = notices(card);
        const QStringList inInspector = notices(inspector);
        QVERIFY2(!onCard.contains(QStringLiteral("NOT PLAIN TEXT")), qPrintable(onCard.join(u'\n')));
        QVERIFY2(!inInspector.contains(QStringLiteral("NOT PLAIN TEXT")), qPrintable(inInspector.join(u'\n')));
        const QStringList expected{
            QStringLiteral("Warning: ⚠ And 7 more figures that were not kept: too many for one run."),
            QStringLiteral("Warning: ⚠ And 3 more files; they are in the conversation's folder."),
            QStringLiteral("Warning: ⚠ Sandpiper refused what the sandbox reported:\n• “<b>x</b>” is or goes "
                           "through a symbolic link."),
            QStringLiteral("Note: Note: pip could not download packages.")};
        QCOMPARE(inInspector, expected);
        // The card's header says only that Sandpiper stopped the run; the notice says why. The
        // inspector's status line says why itself.
        QStringList cardExpected = expected;
        cardExpected.insert(2, QStringLiteral("Warning: ⚠ ") + stoppedRun().stopReason);
        QCOMPARE(onCard, cardExpected);
        // Twenty files listed in both, the rest counted.
        QCOMPARE(card.findChildren<SandboxFileRow *>().size(), 20);
        QCOMPARE(inspector.findChildren<SandboxFileRow *>().size(), 20);
    }

    void figuresAreWideOnTheCardAndThumbnailsInTheInspector()
    {
        const ExecutionResultView card(stoppedRun(), m_folder.path(), Place::Card);
        const ExecutionResultView inspector(stoppedRun(), m_folder.path(), Place::Inspector);
        QCOMPARE(card.figureCount(), 2);
        QCOMPARE(inspector.figureCount(), 2);
        for (const FigureView *figure : card.findChildren<FigureView *>()) {
            QVERIFY2(figure->problem().isEmpty(), qPrintable(figure->problem()));
            QCOMPARE(figure->pixmap().width(), 400);
        }
        for (const FigureView *figure : inspector.findChildren<FigureView *>())
            QCOMPARE(figure->pixmap().width(), 220);
        QVERIFY(card.findChildren<QScrollArea *>().isEmpty());
        const auto rows = inspector.findChildren<QScrollArea *>();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first()->accessibleName(), QStringLiteral("Figures"));
        QCOMPARE(rows.first()->widget()->findChildren<FigureView *>().size(), 2);
    }

    void aTableAsksToBeSavedByItsIndexAndShowsTheFile()
    {
        ExecutionResult r;
        r.status = ExecutionResult::Status::Ok;
        r.tables = {table(QStringLiteral("t-1")), table(QStringLiteral("t-2"))};
        ExecutionResultView view(r, m_folder.path(), Place::Inspector);
        const QList<DataTableView *> tables = view.findChildren<DataTableView *>();
        QCOMPARE(tables.size(), 2);
        QSignalSpy requested(&view, &ExecutionResultView::tableSaveRequested);
        QPushButton *csv = nullptr;
        for (QPushButton *button : tables.at(1)->findChildren<QPushButton *>())
            csv = button->text() == QLatin1String("Save as CSV") ? button : csv;
        QVERIFY(csv);
        csv->click();
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.first(), (QVariantList{1, QStringLiteral("csv")}));
        view.showTableSaved(1, QStringLiteral("table-2.csv"), {});
        QCOMPARE(tables.at(0)->findChildren<SandboxFileRow *>().size(), 0);
        QCOMPARE(tables.at(1)->findChildren<SandboxFileRow *>().size(), 1);
    }

    void aFigureGoesToTheModelThroughTheView()
    {
        ExecutionResultView view(stoppedRun(), m_folder.path(), Place::Card);
        QSignalSpy shown(&view, &ExecutionResultView::imageShowRequested);
        Q_EMIT view.findChildren<FigureView *>().at(1)->showToModelRequested(QStringLiteral("figures/two.png"));
        QCOMPARE(shown.size(), 1);
        QCOMPARE(shown.first().first().toString(), QStringLiteral("figures/two.png"));
    }

    void aRunThatProducedNothingTakesNoRoom()
    {
        ExecutionResult r;
        r.status = ExecutionResult::Status::Ok;
        r.standardOutput = QStringLiteral("hello\n");
        r.value = QStringLiteral("42");
        QWidget card;
        QVERIFY(!(new ExecutionResultView(r, m_folder.path(), Place::Card, {}, &card))->isVisibleTo(&card));
        r.notes = {QStringLiteral("a note")};
        QVERIFY((new ExecutionResultView(r, m_folder.path(), Place::Card, {}, &card))->isVisibleTo(&card));
    }

    void theStatusSaysWhoStoppedTheRun()
    {
        ExecutionResult r;
        r.status = ExecutionResult::Status::Error;
        QCOMPARE(ExecutionResultView::statusText(r), QStringLiteral("error"));
        r.status = ExecutionResult::Status::Interrupted;
        QCOMPARE(ExecutionResultView::statusText(r), QStringLiteral("interrupted"));
        r.timedOut = true;
        QCOMPARE(ExecutionResultView::statusText(r), QStringLiteral("timed out"));
        r.stopReason = QStringLiteral("The disk is almost full.");
        QCOMPARE(ExecutionResultView::statusText(r), QStringLiteral("stopped by Sandpiper"));
    }
};

QTEST_MAIN(TestExecutionResultView)
#include "tst_executionresultview.moc"
