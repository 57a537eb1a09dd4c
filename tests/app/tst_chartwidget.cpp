// ChartWidget offscreen: every chart type draws something, the theme follows the palette, the
// legend hides and shows series, hovering names the values, and the exports write what they say.
#include <chartviews/chartwidget.h>
#include <storage/conversationexport.h>

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QClipboard>
#include <QFile>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMimeData>
#include <QPieSeries>
#include <QPieSlice>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

using namespace Sandpiper;

namespace {

ChartSpec spec(const QString &json)
{
    const auto parsed = ChartSpec::fromToolArguments(json);
    if (!parsed)
        qFatal("bad test spec: %s", qPrintable(parsed.error().message()));
    return *parsed;
}

const QString barJson = QStringLiteral(
    R"({"type": "bar", "title": "Revenue", "y_unit": "k€", "categories": ["Q1", "Q2", "Q3"],)"
    R"( "series": [{"name": "North", "data": [10, 11, 9.5]}, {"name": "South", "data": [7, 8, 12.5]}]})");
const QString lineJson = QStringLiteral(
    R"({"type": "line", "title": "Visitors", "x": [1, 2, 3, 4, 5, 6],)"
    R"( "series": [{"name": "Web", "data": [3, 5, 4, 6, 8, 7]}, {"name": "App", "data": [1, 2, 4, 3, 5, 6]}]})");
const QString pieJson =
    QStringLiteral(R"({"type": "pie", "title": "Share", "categories": ["Chrome", "Safari", "Other"],)"
                   R"( "series": [{"name": "Share", "data": [65, 25, 10]}]})");

QPalette themePalette(bool dark)
{
    return dark ? QPalette(QColor(0x2b, 0x2b, 0x2b)) : QPalette(QColor(0xf2, 0xf2, 0xf2));
}

// The share of pixels that differ clearly from the corner's (the background's) colour.
double inkShare(const QImage &image)
{
    const QColor background = image.pixelColor(2, 2);
    qint64 ink = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            const int difference = std::abs(pixel.red() - background.red()) +
                                   std::abs(pixel.green() - background.green()) +
                                   std::abs(pixel.blue() - background.blue());
            ink += difference > 60 ? 1 : 0;
        }
    }
    return double(ink) / (double(image.width()) * image.height());
}

} // namespace

class TestChartWidget : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        // Numbers and dates in the tooltips are written the way the locale does.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void rendersEveryTypeToPng_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<bool>("dark");
        const QList<std::pair<const char *, QString>> charts = {
            {"line", lineJson},
            {"bar", barJson},
            {"horizontal_bar",
             QStringLiteral(
                 R"({"type": "horizontal_bar", "categories": ["English", "Hindi"], "series": [{"name": "Speakers", "data": [1500, 600]}]})")},
            {"stacked_bar",
             QStringLiteral(
                 R"({"type": "stacked_bar", "categories": ["2023", "2024"], "series": [{"name": "Coal", "data": [130, 108]}, {"name": "Wind", "data": [142, 136]}]})")},
            {"scatter",
             QStringLiteral(
                 R"({"type": "scatter", "series": [{"name": "People", "data": [[160, 55], [170, 68], [180, 80], [175, 72], [165, 60], [158, 52], [172, 75], [185, 90], [168, 61], [177, 83], [162, 58], [190, 95]]}]})")},
            {"area",
             QStringLiteral(
                 R"({"type": "area", "x": ["2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01"], "series": [{"name": "Visits", "data": [5, 7, 6, 9]}]})")},
            {"pie", pieJson},
            {"donut",
             QStringLiteral(
                 R"({"type": "donut", "categories": ["Rent", "Food", "Fun"], "series": [{"name": "Budget", "data": [50, 30, 20]}]})")},
        };
        for (const auto &[name, json] : charts) {
            QTest::addRow("%s light", name) << json << false;
            QTest::addRow("%s dark", name) << json << true;
        }
    }

    void rendersEveryTypeToPng()
    {
        QFETCH(QString, json);
        QFETCH(bool, dark);
        const QString path = m_dir.filePath(QStringLiteral("%1.png").arg(QString::fromLatin1(QTest::currentDataTag())));
        QVERIFY(ChartWidget::renderToPng(spec(json), path, QSize(480, 320), dark));
        const QImage image(path);
        QCOMPARE(image.size(), QSize(480, 320));
        const double share = inkShare(image);
        QVERIFY2(share > 0.02 && share < 0.8, qPrintable(QString::number(share)));
        const int backgroundLightness = image.pixelColor(2, 2).lightness();
        QVERIFY2(dark ? backgroundLightness < 100 : backgroundLightness > 200,
                 qPrintable(QString::number(backgroundLightness)));
    }

    void theThemeFollowsThePalette()
    {
        ChartWidget widget(spec(QStringLiteral("{\"type\": \"line\", \"series\": [{\"name\": \"a\", \"data\": [1, 2], "
                                               "\"color\": \"#ff0000\"}, {\"name\": \"b\", \"data\": [2, 1]}]}")));
        widget.setPalette(themePalette(true));
        QVERIFY(widget.isDark());
        QCOMPARE(widget.chart()->theme(), QChart::ChartThemeDark);
        widget.setPalette(themePalette(false));
        QVERIFY(!widget.isDark());
        QCOMPARE(widget.chart()->theme(), QChart::ChartThemeLight);
        // The spec's colour outlives theme changes; the other series takes the theme's.
        const auto lines = widget.chart()->series();
        QCOMPARE(qobject_cast<QLineSeries *>(lines.at(0))->color(), QColor(Qt::red));
        QVERIFY(qobject_cast<QLineSeries *>(lines.at(1))->color() != QColor(Qt::red));
    }

    void clickingALegendMarkerTogglesItsSeries()
    {
        ChartWidget widget(spec(lineJson));
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        QCOMPARE(widget.entryCount(), 2);
        QLegendMarker *marker = widget.legendMarker(0);
        QVERIFY(marker);
        const QList<QAbstractSeries *> series = widget.chart()->series();
        Q_EMIT marker->clicked();
        QVERIFY(!widget.isEntryVisible(0));
        QVERIFY(!series.at(0)->isVisible());
        QVERIFY(series.at(1)->isVisible());
        QVERIFY(marker->isVisible()); // still there to be clicked again
        QVERIFY(marker->labelBrush().color().alphaF() < 1);
        Q_EMIT marker->clicked();
        QVERIFY(widget.isEntryVisible(0));
        QVERIFY(series.at(0)->isVisible());
        QCOMPARE(marker->labelBrush().color().alphaF(), 1.0);
    }

    void hidingABarSetOrASliceEmptiesIt()
    {
        ChartWidget bars(spec(barJson));
        auto *barSeries = qobject_cast<QAbstractBarSeries *>(bars.chart()->series().constFirst());
        QBarSet *south = barSeries->barSets().at(1);
        bars.setEntryVisible(1, false);
        QCOMPARE(south->at(2), 0.0);
        bars.setEntryVisible(1, true);
        QCOMPARE(south->at(2), 12.5);

        ChartWidget pie(spec(pieJson));
        QCOMPARE(pie.entryCount(), 3);
        auto *pieSeries = qobject_cast<QPieSeries *>(pie.chart()->series().constFirst());
        Q_EMIT pie.legendMarker(0)->clicked();
        QCOMPARE(pieSeries->slices().at(0)->value(), 0.0);
        QVERIFY(!pieSeries->slices().at(0)->isLabelVisible());
        QCOMPARE(pieSeries->slices().at(1)->percentage(), 25.0 / 35.0);
    }

    void tooltipsNameTheValues()
    {
        ChartWidget bars(spec(barJson));
        QCOMPARE(bars.toolTipText(1, 2), QStringLiteral("South\nQ3: 12.5 k€"));
        QCOMPARE(bars.toolTipText(0, 0), QStringLiteral("North\nQ1: 10 k€"));
        QVERIFY(bars.toolTipText(5, 0).isEmpty());

        ChartWidget pie(spec(pieJson));
        QCOMPARE(pie.toolTipText(0, 1), QStringLiteral("Safari\n25 (25.0%)"));

        ChartWidget scatter(spec(QStringLiteral(
            R"({"type": "scatter", "x_unit": "cm", "y_unit": "kg", "series": [{"data": [[170.5, 65], [1800, 1234.25]]}]})")));
        QCOMPARE(scatter.toolTipText(0, 0), QStringLiteral("170.5 cm, 65 kg"));
        QCOMPARE(scatter.toolTipText(0, 1), QStringLiteral("1,800 cm, 1,234.25 kg"));

        ChartWidget dates(spec(QStringLiteral(
            R"({"type": "line", "y_unit": "%", "series": [{"name": "Rate", "data": [["2024-03-01", 4.5], ["2024-03-02T14:30", 4.75]]}]})")));
        QCOMPARE(dates.toolTipText(0, 0), QStringLiteral("Rate\n1 Mar 2024: 4.5%"));
        QCOMPARE(dates.toolTipText(0, 1), QStringLiteral("Rate\n2 Mar 2024 14:30: 4.75%"));
    }

    void hoveringShowsTheTooltip()
    {
        ChartWidget widget(spec(barJson));
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        auto *barSeries = qobject_cast<QAbstractBarSeries *>(widget.chart()->series().constFirst());
        Q_EMIT barSeries->hovered(true, 1, barSeries->barSets().at(0));
        QTRY_COMPARE(QToolTip::text(), QStringLiteral("North\nQ2: 11 k€"));
        Q_EMIT barSeries->hovered(false, 1, barSeries->barSets().at(0));
        QTRY_VERIFY(!QToolTip::isVisible());

        ChartWidget line(spec(lineJson));
        line.resize(640, 320);
        line.show();
        QVERIFY(QTest::qWaitForWindowExposed(&line));
        // The line reports a position on it; the tooltip takes the nearest point.
        auto *web = qobject_cast<QLineSeries *>(line.chart()->series().constFirst());
        Q_EMIT web->hovered(QPointF(3.1, 4.1), true);
        QTRY_COMPARE(QToolTip::text(), QStringLiteral("Web\n3: 4"));
    }

    void csvGoesToTheClipboard()
    {
        ChartWidget widget(spec(barJson));
        widget.copyCsv();
        const QMimeData *data = QGuiApplication::clipboard()->mimeData();
        QVERIFY(data);
        const QString expected = QStringLiteral("category,North,South\nQ1,10,7\nQ2,11,8\nQ3,9.5,12.5\n");
        QCOMPARE(data->text(), expected);
        QCOMPARE(QString::fromUtf8(data->data(QStringLiteral("text/csv"))), expected);
    }

    void imagesAndSvgAreWritten()
    {
        ChartWidget widget(spec(barJson));
        widget.resize(600, 320);
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));

        const QString png = m_dir.filePath(QStringLiteral("saved.png"));
        QVERIFY(widget.savePng(png));
        QCOMPARE(QImage(png).size(), QSize(1200, 640)); // twice the size on screen

        const QString svg = m_dir.filePath(QStringLiteral("saved.svg"));
        QVERIFY(widget.saveSvg(svg));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("<title>Revenue</title>"));
        QVERIFY(text.contains("Q3")); // the labels are text, not pixels

        QVERIFY(!widget.saveSvg(m_dir.filePath(QStringLiteral("missing/folder/saved.svg"))));

        widget.copyImage();
        QVERIFY(!QGuiApplication::clipboard()->image().isNull());
    }

    void keyboardZoomsAndResets()
    {
        ChartWidget widget(spec(lineJson));
        widget.resize(640, 320);
        widget.show();
        widget.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&widget));
        widget.setFocus();
        QVERIFY(widget.hasFocus());
        QVERIFY(!widget.chart()->isZoomed());
        QTest::keyClick(&widget, Qt::Key_Plus);
        QVERIFY(widget.chart()->isZoomed());
        QTest::keyClick(&widget, Qt::Key_0);
        QVERIFY(!widget.chart()->isZoomed());
        QTest::keyClick(&widget, Qt::Key_Minus);
        QVERIFY(widget.chart()->isZoomed());
        QTest::mouseDClick(widget.viewport(), Qt::LeftButton, {}, QPoint(300, 150));
        QVERIFY(!widget.chart()->isZoomed());

        // The wheel zooms a chart that has the focus, and leaves the others to the chat's scrolling.
        QWheelEvent wheel(QPointF(300, 150), widget.mapToGlobal(QPointF(300, 150)), {}, QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(widget.viewport(), &wheel);
        QVERIFY(widget.chart()->isZoomed());
        widget.resetZoom();
        widget.clearFocus();
        QWheelEvent scroll(QPointF(300, 150), widget.mapToGlobal(QPointF(300, 150)), {}, QPoint(0, 120), Qt::NoButton,
                           Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(widget.viewport(), &scroll);
        QVERIFY(!widget.chart()->isZoomed());
        QVERIFY(!scroll.isAccepted());
    }

    void isAccessibleAndSizedForTheChat()
    {
        ChartWidget widget(spec(lineJson));
        QCOMPARE(widget.accessibleName(), QStringLiteral("Visitors"));
        QVERIFY2(widget.accessibleDescription().startsWith(QLatin1String("Line chart of Web and App.")),
                 qPrintable(widget.accessibleDescription()));
        QCOMPARE(widget.focusPolicy(), Qt::StrongFocus);
        QCOMPARE(widget.sizeHint().height(), 320);
        QCOMPARE(widget.sizePolicy().verticalPolicy(), QSizePolicy::Fixed);
        QStringList actions;
        for (const QAction *action : widget.actions())
            actions << action->text();
        for (const char *expected :
             {"Zoom In", "Zoom Out", "Reset Zoom", "Copy Image", "Copy Data as CSV", "Save as PNG…", "Save as SVG…"})
            QVERIFY2(actions.contains(QString::fromUtf8(expected)), expected);

        ChartWidget untitled(
            spec(QStringLiteral(R"({"type": "donut", "categories": ["a", "b"], "series": [{"data": [1, 2]}]})")));
        QCOMPARE(untitled.accessibleName(), QStringLiteral("Donut chart"));
    }

    void exportsOfConversationsDrawTheirCharts()
    {
        // What the app hands to the Markdown export.
        ConversationExport::MarkdownOptions options;
        options.renderChart = [](const QJsonObject &json, const QString &pngPath) {
            const auto chart = ChartSpec::fromJson(json);
            return chart && ChartWidget::renderToPng(*chart, pngPath, QSize(800, 480), false);
        };
        ConversationSnapshot snapshot;
        snapshot.conversation.title = QStringLiteral("Charts");
        ChatMessage assistant;
        assistant.role = ChatMessage::Role::Assistant;
        assistant.toolCalls = {{QStringLiteral("c1"), QStringLiteral("create_chart"), pieJson}};
        snapshot.messages = {assistant};
        const QString path = m_dir.filePath(QStringLiteral("export.md"));
        QVERIFY(ConversationExport::writeMarkdown(snapshot, m_dir.path(), path, options).ok());
        const QImage image(m_dir.filePath(QStringLiteral("export_files/charts/chart-1.png")));
        QCOMPARE(image.size(), QSize(800, 480));
    }
};

QTEST_MAIN(TestChartWidget)
#include "tst_chartwidget.moc"
