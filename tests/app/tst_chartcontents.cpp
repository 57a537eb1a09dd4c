// The series and axes a chart spec makes: one per spec series (or pie slice), of the kind its
// type asks for, with the spec's values, on axes that span them.
#include <chartviews/chartcontents.h>

#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QPieSeries>
#include <QPieSlice>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QTest>
#include <QValueAxis>

using namespace Sandpiper;

namespace {

// What the spec of the tool's arguments JSON makes in CHART; nothing for a spec that does not parse.
ChartContents build(QChart &chart, const QString &json)
{
    const auto parsed = ChartSpec::fromToolArguments(json);
    return parsed ? ChartContents::build(*parsed, &chart) : ChartContents{};
}

} // namespace

class TestChartContents : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void linesHoldTheSpecsPointsOnRangedAxes()
    {
        QChart chart;
        const ChartContents contents = build(
            chart, QStringLiteral(R"({"type": "line", "x": [1, 2, 3], "series": [{"name": "Web", "data": [3, 5, 4]},)"
                                  R"( {"name": "App", "data": [1, 2, 9]}]})"));
        QCOMPARE(contents.xySeries.size(), 2);
        QCOMPARE(chart.series().size(), 2);
        QVERIFY(!contents.bars && !contents.pie);
        auto *app = qobject_cast<QLineSeries *>(contents.xySeries.at(1));
        QVERIFY(app);
        QCOMPARE(app->name(), QStringLiteral("App"));
        QCOMPARE(contents.pointSeries.at(1), app);
        QCOMPARE(app->points(), (QList<QPointF>{{1, 1}, {2, 2}, {3, 9}}));
        const auto values = chart.axes(Qt::Vertical);
        QCOMPARE(values.size(), 1);
        auto *valueAxis = qobject_cast<QValueAxis *>(values.first());
        QVERIFY(valueAxis && valueAxis->min() <= 1 && valueAxis->max() >= 9);
        QCOMPARE(app->attachedAxes().size(), 2);
    }

    void anAreaKeepsItsPointsInItsUpperLine()
    {
        QChart chart;
        const ChartContents contents =
            build(chart, QStringLiteral(R"({"type": "area", "x": [1, 2], "series": [{"name": "A", "data": [5, 7]}]})"));
        auto *area = qobject_cast<QAreaSeries *>(contents.xySeries.value(0));
        QVERIFY(area);
        QCOMPARE(contents.pointSeries.value(0), area->upperSeries());
        QCOMPARE(area->upperSeries()->parent(), area);
        QCOMPARE(area->upperSeries()->count(), 2);
    }

    void scatterAndBarsAreOfTheirType_data()
    {
        QTest::addColumn<QString>("type");
        QTest::newRow("stacked") << "stacked_bar";
        QTest::newRow("horizontal") << "horizontal_bar";
        QTest::newRow("bar") << "bar";
    }

    void scatterAndBarsAreOfTheirType()
    {
        QFETCH(QString, type);
        QChart chart;
        const ChartContents contents = build(chart, QStringLiteral(R"({"type": "%1", "categories": ["Q1", "Q2"],)"
                                                                   R"( "series": [{"name": "N", "data": [10, 11]},)"
                                                                   R"( {"name": "S", "data": [7, 8]}]})")
                                                        .arg(type));
        QVERIFY(contents.bars);
        QVERIFY(contents.xySeries.isEmpty());
        QCOMPARE(contents.barSets.size(), 2);
        QCOMPARE(contents.barSets.at(1)->label(), QStringLiteral("S"));
        QCOMPARE(contents.barSets.at(1)->at(1), 8.0);
        if (type == QLatin1String("stacked_bar"))
            QVERIFY(qobject_cast<QStackedBarSeries *>(contents.bars));
        else if (type == QLatin1String("horizontal_bar"))
            QVERIFY(qobject_cast<QHorizontalBarSeries *>(contents.bars));
        else
            QVERIFY(qobject_cast<QBarSeries *>(contents.bars));
        const auto categories = chart.axes(type == QLatin1String("horizontal_bar") ? Qt::Vertical : Qt::Horizontal);
        QCOMPARE(categories.size(), 1);
        auto *categoryAxis = qobject_cast<QBarCategoryAxis *>(categories.first());
        QVERIFY(categoryAxis);
        QCOMPARE(categoryAxis->categories(), (QStringList{QStringLiteral("Q1"), QStringLiteral("Q2")}));

        const ChartContents scatter =
            build(chart, QStringLiteral(R"({"type": "scatter", "series": [{"name": "P", "data": [[1, 2], [3, 4]]}]})"));
        QVERIFY(qobject_cast<QScatterSeries *>(scatter.xySeries.value(0)));
    }

    void aDonutHasASlicePerCategoryAndAHole()
    {
        QChart chart;
        const ChartContents contents =
            build(chart, QStringLiteral(R"({"type": "donut", "categories": ["Rent", "Food", "Fun"],)"
                                        R"( "series": [{"name": "Budget", "data": [50, 30, 20]}]})"));
        QVERIFY(contents.pie);
        QCOMPARE(contents.slices.size(), 3);
        QCOMPARE(contents.slices.at(1)->label(), QStringLiteral("Food"));
        QCOMPARE(contents.slices.at(1)->value(), 30.0);
        QVERIFY(contents.pie->holeSize() > 0);
        QVERIFY(chart.axes().isEmpty());
    }
};

QTEST_MAIN(TestChartContents)
#include "tst_chartcontents.moc"
