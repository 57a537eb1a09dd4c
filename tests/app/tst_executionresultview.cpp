// What a run produced, as the chat's card and the code inspector both draw it: each notice in
// one wording in both places, as plain text; figures wide on the card and as a row of
// thumbnails in the inspector; Save of a table goes up with its index; nothing takes no room.
// An SVG the sandbox sent shows what it contains and nothing of this computer, and never holds
// the window: not even when it names a FIFO.
#include "fiforeleaser.h"
#include "sandboxfiles.h"
#include "svgpicture.h"

#include <chat/datatableview.h>
#include <chat/executionresultview.h>
#include <chat/figureview.h>
#include <chat/sandboxfilerow.h>
#include <chat/svgfigure.h>

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QVBoxLayout>

#include <sys/stat.h>

using namespace Sandpiper;
using Place = ExecutionResultView::Place;
using Sandpiper::Test::pixelsOf;
using Sandpiper::Test::svgPicture;

namespace {

constexpr QRgb hostRed = qRgb(255, 0, 0);
constexpr QRgb insideGreen = qRgb(0, 255, 0);

// An SVG of 40 x 30 pixels: a green square it holds, and BODY.
QByteArray svgWith(const QByteArray &body)
{
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"40\" "
           "height=\"30\"><rect width=\"10\" height=\"10\" fill=\"#00ff00\"/>" +
           body + "</svg>";
}

ExecutionResult runShowing(const QByteArray &svg)
{
    ExecutionResult r;
    r.status = ExecutionResult::Status::Ok;
    r.svg = {QString::fromUtf8(svg)};
    return r;
}

} // namespace

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

    void anSvgShowsNothingOfThisComputer()
    {
        // A red picture on the host, named as the sandbox's code can name it: by its absolute path.
        QImage red(40, 30, QImage::Format_RGB32);
        red.fill(hostRed);
        const QString host = m_folder.filePath(QStringLiteral("host/secret.png"));
        QVERIFY(QDir().mkpath(QFileInfo(host).path()));
        QVERIFY(red.save(host));
        const QByteArray path = host.toUtf8();
        const ExecutionResultView view(
            runShowing(svgWith("<image href=\"" + path + "\" width=\"40\" height=\"30\"/><image xlink:href=\"" + path +
                               "\" width=\"40\" height=\"30\"/>")),
            m_folder.path(), Place::Card);
        QTRY_VERIFY(!svgPicture(view).isNull());
        const QImage picture = svgPicture(view);
        QCOMPARE(picture.size(), QSize(40, 30));
        QCOMPARE(pixelsOf(picture, hostRed), 0);
        QVERIFY2(pixelsOf(picture, insideGreen) >= 90, "what the SVG holds is drawn");
        // Under the figure, what was not loaded.
        QTRY_COMPARE(notices(view),
                     QStringList{QStringLiteral("Warning: ⚠ 2 external reference(s) were not loaded: the "
                                                "figure shows only what it contains.")});
    }

    // The drawing arrives after the card was laid out: the card makes room for all of it and for
    // the whole note under it.
    void anSvgIsShownWhole()
    {
        QWidget card;
        auto *layout = new QVBoxLayout(&card);
        auto *view = new ExecutionResultView(
            runShowing(svgWith("<rect width=\"40\" height=\"30\" fill=\"green\"/><image href=\"/etc/hostname\"/>")),
            m_folder.path(), Place::Card);
        layout->addWidget(view);
        layout->addStretch(1);
        card.resize(600, 800);
        card.show();
        auto *figure = view->findChild<SvgFigure *>();
        QVERIFY(figure);
        QTRY_VERIFY(figure->isDrawn());
        QTest::qWait(50);
        const QList<QLabel *> labels = figure->findChildren<QLabel *>();
        QCOMPARE(labels.size(), 2);
        const QLabel *picture = labels.at(0)->pixmap().isNull() ? labels.at(1) : labels.at(0);
        const QLabel *note = picture == labels.at(0) ? labels.at(1) : labels.at(0);
        QVERIFY2(picture->height() >= 30, qPrintable(QString::number(picture->height())));
        QVERIFY2(note->isVisible() && note->height() >= note->heightForWidth(note->width()),
                 qPrintable(QStringLiteral("%1 < %2 at %3")
                                .arg(note->height())
                                .arg(note->heightForWidth(note->width()))
                                .arg(note->width())));
        QVERIFY2(note->width() > 200, "the note takes the card's width, not the figure's");
    }

    void anSvgShowsTheImagesItHolds()
    {
        QImage blue(40, 30, QImage::Format_RGB32);
        blue.fill(Qt::blue);
        QByteArray png;
        QBuffer buffer(&png);
        QVERIFY(buffer.open(QIODevice::WriteOnly) && blue.save(&buffer, "PNG"));
        const ExecutionResultView view(
            runShowing(svgWith("<image x=\"20\" width=\"20\" height=\"15\" href=\"data:image/png;base64," +
                               png.toBase64() + "\"/>")),
            m_folder.path(), Place::Card);
        QTRY_VERIFY(!svgPicture(view).isNull());
        QVERIFY(pixelsOf(svgPicture(view), qRgb(0, 0, 255)) >= 200);
        QVERIFY(notices(view).isEmpty());
    }

    void anSvgThatNamesAFifoDoesNotHoldTheWindow()
    {
        // The sandbox makes a FIFO in its folder, whose path on the host is easy to guess.
        const QByteArray fifo = QFile::encodeName(m_folder.filePath(QStringLiteral("pipe")));
        QVERIFY(::mkfifo(fifo.constData(), 0600) == 0);
        // Should the window open it after all, it is let go after 5 s, and the test fails.
        Sandpiper::Test::FifoReleaser releaser(fifo, std::chrono::seconds(5));
        QElapsedTimer clock;
        clock.start();
        const ExecutionResultView view(
            runShowing(svgWith("<image href=\"" + fifo + "\" width=\"9\" height=\"9\"/><image xlink:href=\"file://" +
                               fifo + "\"/><use href=\"" + fifo + "#x\"/>")),
            m_folder.path(), Place::Card);
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QStringLiteral("the view took %1 ms").arg(clock.elapsed())));
        QTRY_VERIFY_WITH_TIMEOUT(!svgPicture(view).isNull(), 4000);
        QCOMPARE(releaser.stop(), 0);
        QCOMPARE(pixelsOf(svgPicture(view), insideGreen), 100);
        QCOMPARE(notices(view).size(), 1);
        QVERIFY2(notices(view).first().contains(QLatin1String("3 external reference")),
                 qPrintable(notices(view).first()));
    }

    void anSvgThatCannotBeDrawnSaysWhy_data()
    {
        QTest::addColumn<QByteArray>("svg");
        QTest::addColumn<QString>("reason");
        QTest::newRow("entities")
            << svgWith("<text>&x;</text>").prepend("<!DOCTYPE svg [<!ENTITY x SYSTEM \"/etc/passwd\">]>")
            << "declares XML entities";
        QTest::newRow("malformed") << QByteArray("<svg><g></svg>") << "not well-formed XML";
        QTest::newRow("no size") << QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\"/>")
                                 << "could not be drawn";
    }

    void anSvgThatCannotBeDrawnSaysWhy()
    {
        QFETCH(QByteArray, svg);
        QFETCH(QString, reason);
        const ExecutionResultView view(runShowing(svg), m_folder.path(), Place::Inspector);
        auto *figure = view.findChild<SvgFigure *>();
        QVERIFY(figure);
        QTRY_VERIFY(figure->isDrawn());
        QVERIFY(figure->image().isNull());
        const QLabel *label = nullptr;
        for (const QLabel *each : figure->findChildren<QLabel *>())
            label = each->accessibleName() == QLatin1String("SVG image not drawn") ? each : label;
        QVERIFY(label);
        QCOMPARE(label->textFormat(), Qt::PlainText);
        QVERIFY2(label->text().contains(reason), qPrintable(label->text()));
    }

    void aFigureClosedBeforeItsDrawingArrivesLetsItGo()
    {
        // Many parts take a while to draw; the view is gone long before.
        const QByteArray svg =
            svgWith(QByteArray("<circle cx=\"20\" cy=\"15\" r=\"14\" fill=\"#123456\"/>").repeated(10000));
        for (int i = 0; i < 2; ++i)
            delete new ExecutionResultView(runShowing(svg), m_folder.path(), Place::Card);
        QVERIFY(QThreadPool::globalInstance()->waitForDone(60000));
        QCoreApplication::processEvents();
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
