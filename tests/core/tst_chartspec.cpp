// create_chart's validator: precise errors for what cannot be drawn, quiet repairs for what
// is sloppy but clear, and a normalised form that reads back unchanged.
#include "toolresults.h"

#include <charts/chartspec.h>
#include <tools/charttool.h>

#include <QCoroTask>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

using namespace Sandpiper;
using namespace Sandpiper::Test;

namespace {

QString compact(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// A series of COUNT points 0, 1, 2, ...
QString numbers(int count)
{
    QStringList values;
    for (int i = 0; i < count; ++i)
        values << QString::number(i);
    return QLatin1Char('[') + values.join(QLatin1Char(',')) + QLatin1Char(']');
}

} // namespace

class TestChartSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refusesWithAPreciseError_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("given");

        const QString types =
            QStringLiteral("one of line, bar, horizontal_bar, stacked_bar, scatter, area, pie, donut");
        QTest::newRow("not an object") << QStringLiteral("[1, 2]") << QStringLiteral("arguments")
                                       << QStringLiteral("a JSON object with \"type\" and \"series\"")
                                       << QStringLiteral("[1,2]");
        QTest::newRow("no type") << QStringLiteral(R"({"series": [{"name": "a", "data": [1]}]})")
                                 << QStringLiteral("type") << types << QStringLiteral("nothing");
        QTest::newRow("unknown type") << QStringLiteral(R"({"type": "radar", "series": [{"name": "a", "data": [1]}]})")
                                      << QStringLiteral("type") << types << QStringLiteral("\"radar\"");
        QTest::newRow("title not a string")
            << QStringLiteral(R"({"type": "line", "title": true, "series": [{"name": "a", "data": [1]}]})")
            << QStringLiteral("title") << QStringLiteral("a string") << QStringLiteral("true");
        QTest::newRow("no series") << QStringLiteral(R"({"type": "line"})") << QStringLiteral("series")
                                   << QStringLiteral(
                                          "an array of series like [{\"name\": \"Sales\", \"data\": [1, 2]}]")
                                   << QStringLiteral("nothing");
        QTest::newRow("empty series") << QStringLiteral(R"({"type": "line", "series": []})") << QStringLiteral("series")
                                      << QStringLiteral("at least one series") << QStringLiteral("an empty array");
        QTest::newRow("series item not an object")
            << QStringLiteral(R"({"type": "line", "series": [{"name": "a", "data": [1]}, "b"]})")
            << QStringLiteral("series[1]")
            << QStringLiteral("a series object like {\"name\": \"Sales\", \"data\": [1, 2]}")
            << QStringLiteral("\"b\"");
        QTest::newRow("no data") << QStringLiteral(R"({"type": "line", "series": [{"name": "a"}]})")
                                 << QStringLiteral("series[0].data")
                                 << QStringLiteral("an array of numbers or [x, y] pairs") << QStringLiteral("nothing");
        QTest::newRow("empty data") << QStringLiteral(R"({"type": "line", "series": [{"name": "a", "data": []}]})")
                                    << QStringLiteral("series[0].data") << QStringLiteral("at least one point")
                                    << QStringLiteral("an empty array");
        QTest::newRow("data as an object")
            << QStringLiteral(R"({"type": "bar", "series": [{"name": "a", "data": {"Jan": 1, "Feb": 2}}]})")
            << QStringLiteral("series[0].data")
            << QStringLiteral("an array of numbers or [x, y] pairs (an object's keys lose their order); write "
                              "[[\"label\", 1], ...] instead")
            << QStringLiteral("an object");
        QTest::newRow("NaN as a string")
            << QStringLiteral(
                   R"({"type": "line", "series": [{"name": "a", "data": [1, 2]}, {"name": "b", "data": [1, 2, 3, "NaN"]}]})")
            << QStringLiteral("series[1].data[3]") << QStringLiteral("a finite number") << QStringLiteral("\"NaN\"");
        QTest::newRow("Infinity as a string")
            << QStringLiteral(R"({"type": "line", "series": [{"name": "a", "data": ["-Infinity"]}]})")
            << QStringLiteral("series[0].data[0]") << QStringLiteral("a finite number")
            << QStringLiteral("\"-Infinity\"");
        QTest::newRow("a word for a number")
            << QStringLiteral(R"({"type": "line", "series": [{"name": "a", "data": [1, "twelve"]}]})")
            << QStringLiteral("series[0].data[1]") << QStringLiteral("a number") << QStringLiteral("\"twelve\"");
        QTest::newRow("null value") << QStringLiteral(
                                           R"({"type": "line", "series": [{"name": "a", "data": [1, null]}]})")
                                    << QStringLiteral("series[0].data[1]")
                                    << QStringLiteral("a number (leave out points that have no value)")
                                    << QStringLiteral("null");
        QTest::newRow("categories and data differ in length")
            << QStringLiteral(
                   R"({"type": "bar", "categories": ["a", "b", "c"], "series": [{"name": "s", "data": [1, 2]}]})")
            << QStringLiteral("series[0].data") << QStringLiteral("3 values, one per category")
            << QStringLiteral("2 values");
        QTest::newRow("x and data differ in length")
            << QStringLiteral(
                   R"({"type": "line", "x": [1, 2, 3], "series": [{"name": "s", "data": [1, 2, 3]}, {"name": "t", "data": [1]}]})")
            << QStringLiteral("series[1].data") << QStringLiteral("3 values, one per x value")
            << QStringLiteral("1 value");
        QTest::newRow("categories and x")
            << QStringLiteral(
                   R"({"type": "line", "categories": ["a"], "x": [1], "series": [{"name": "s", "data": [1]}]})")
            << QStringLiteral("x") << QStringLiteral("either \"categories\" or \"x\", not both")
            << QStringLiteral("both");
        QTest::newRow("duplicate category")
            << QStringLiteral(
                   R"({"type": "bar", "categories": ["a", "b", "a"], "series": [{"name": "s", "data": [1, 2, 3]}]})")
            << QStringLiteral("categories[2]") << QStringLiteral("a label not used before (categories must be unique)")
            << QStringLiteral("\"a\"");
        QTest::newRow("pair outside the categories")
            << QStringLiteral(
                   R"({"type": "bar", "categories": ["a", "b"], "series": [{"name": "s", "data": [["a", 1], ["c", 2]]}]})")
            << QStringLiteral("series[0].data[1][0]") << QStringLiteral("one of the categories ([\"a\",\"b\"])")
            << QStringLiteral("\"c\"");
        QTest::newRow("category missing in a series")
            << QStringLiteral(
                   R"({"type": "bar", "series": [{"name": "s", "data": [["a", 1], ["b", 2]]}, {"name": "t", "data": [["a", 3]]}]})")
            << QStringLiteral("series[1].data") << QStringLiteral("a value for every category (missing: \"b\")")
            << QStringLiteral("1 value");
        QTest::newRow("category twice in a series")
            << QStringLiteral(R"({"type": "bar", "series": [{"name": "s", "data": [["a", 1], ["a", 2]]}]})")
            << QStringLiteral("series[0].data[1][0]") << QStringLiteral("a category not used before in this series")
            << QStringLiteral("\"a\"");
        QTest::newRow("triple instead of a pair")
            << QStringLiteral(R"({"type": "scatter", "series": [{"name": "s", "data": [[1, 2, 3]]}]})")
            << QStringLiteral("series[0].data[0]") << QStringLiteral("an [x, y] pair") << QStringLiteral("[1,2,3]");
        QTest::newRow("numbers and pairs mixed")
            << QStringLiteral(R"({"type": "line", "series": [{"name": "s", "data": [1, [2, 3]]}]})")
            << QStringLiteral("series[0].data[1]") << QStringLiteral("a number like series[0].data[0]")
            << QStringLiteral("[2,3]");
        QTest::newRow("object point without y")
            << QStringLiteral(R"({"type": "scatter", "series": [{"name": "s", "data": [{"x": 1, "size": 2}]}]})")
            << QStringLiteral("series[0].data[0]")
            << QStringLiteral("an {\"x\": ..., \"y\": ...} object or an [x, y] pair")
            << QStringLiteral("{\"size\":2,\"x\":1}");
        QTest::newRow("dates and numbers mixed")
            << QStringLiteral(R"({"type": "line", "series": [{"name": "a", "data": [["2024-01-01", 1], [5, 2]]}]})")
            << QStringLiteral("series[0].data[1][0]")
            << QStringLiteral(
                   "an ISO 8601 date like series[0].data[0][0] (x values must all be numbers, all dates or all "
                   "labels)")
            << QStringLiteral("\"5\"");
        QTest::newRow("dates and numbers mixed in x")
            << QStringLiteral(
                   R"({"type": "bar", "x": [2023, "2024-06-01"], "series": [{"name": "a", "data": [1, 2]}]})")
            << QStringLiteral("x[1]")
            << QStringLiteral("a number like x[0] (x values must all be numbers, all dates or all labels)")
            << QStringLiteral("\"2024-06-01\"");
        QTest::newRow("an impossible date is a label, and labels do not mix with numbers")
            << QStringLiteral(R"({"type": "line", "x": [1, "2024-02-30"], "series": [{"name": "a", "data": [1, 2]}]})")
            << QStringLiteral("x[1]")
            << QStringLiteral("a number like x[0] (x values must all be numbers, all dates or all labels)")
            << QStringLiteral("\"2024-02-30\"");
        QTest::newRow("plain series beside pairs")
            << QStringLiteral(
                   R"({"type": "line", "series": [{"name": "a", "data": [[1, 2]]}, {"name": "b", "data": [3]}]})")
            << QStringLiteral("series[1].data")
            << QStringLiteral("[x, y] pairs like series[0].data, or a shared \"x\" array")
            << QStringLiteral("plain numbers");
        QTest::newRow("bar without categories")
            << QStringLiteral(R"({"type": "bar", "series": [{"name": "a", "data": [1, 2]}]})")
            << QStringLiteral("categories") << QStringLiteral("one label per bar") << QStringLiteral("nothing");
        QTest::newRow("pie without labels")
            << QStringLiteral(R"({"type": "pie", "series": [{"name": "a", "data": [1, 2]}]})")
            << QStringLiteral("categories") << QStringLiteral("one label per slice") << QStringLiteral("nothing");
        QTest::newRow("pie with a negative value")
            << QStringLiteral(
                   R"({"type": "pie", "categories": ["a", "b"], "series": [{"name": "s", "data": [3, -1]}]})")
            << QStringLiteral("series[0].data[1]")
            << QStringLiteral("a value of 0 or more (slices are parts of a whole)") << QStringLiteral("-1");
        QTest::newRow("pie of zeros")
            << QStringLiteral(
                   R"({"type": "donut", "categories": ["a", "b"], "series": [{"name": "s", "data": [0, 0]}]})")
            << QStringLiteral("series[0].data") << QStringLiteral("at least one value above 0")
            << QStringLiteral("only zeros");
        QTest::newRow("pie with two series")
            << QStringLiteral(
                   R"({"type": "pie", "categories": ["a", "b"], "series": [{"name": "s", "data": [1, 2]}, {"name": "t", "data": [3, 4]}]})")
            << QStringLiteral("series") << QStringLiteral("exactly one series for a pie chart (one value per slice)")
            << QStringLiteral("2 series");
        QTest::newRow("unknown colour")
            << QStringLiteral(R"({"type": "line", "series": [{"name": "a", "data": [1], "color": "bluish"}]})")
            << QStringLiteral("series[0].color") << QStringLiteral("#rrggbb or a CSS colour name")
            << QStringLiteral("\"bluish\"");
        QTest::newRow("malformed colour in colors")
            << QStringLiteral("{\"type\": \"line\", \"colors\": [\"#ff0000\", \"#12345\"], \"series\": [{\"name\": "
                              "\"a\", \"data\": [1]}]}")
            << QStringLiteral("colors[1]") << QStringLiteral("#rrggbb or a CSS colour name")
            << QStringLiteral("\"#12345\"");

        QString many = QStringLiteral(R"({"type": "line", "series": [)");
        for (int i = 0; i < 13; ++i)
            many += QStringLiteral(R"({"name": "s%1", "data": [1]},)").arg(i);
        many.chop(1);
        many += QStringLiteral("]}");
        QTest::newRow("too many series") << many << QStringLiteral("series") << QStringLiteral("at most 12 series")
                                         << QStringLiteral("13 series");
        QTest::newRow("too many points")
            << QStringLiteral(R"({"type": "line", "series": [{"name": "a", "data": %1}]})").arg(numbers(5001))
            << QStringLiteral("series[0].data") << QStringLiteral("at most 5000 points")
            << QStringLiteral("5001 points");
    }

    void refusesWithAPreciseError()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, path);
        QFETCH(QString, expected);
        QFETCH(QString, given);
        const auto spec = ChartSpec::fromToolArguments(arguments);
        QVERIFY(!spec);
        const ChartSpecError &error = spec.error();
        QCOMPARE(error.path, path);
        QCOMPARE(error.expected, expected);
        QCOMPARE(error.given, given);
        QCOMPARE(error.message(), QStringLiteral("%1: expected %2, got %3.").arg(path, expected, given));
    }

    void invalidJsonPointsAtTheProblem()
    {
        const auto nan =
            ChartSpec::fromToolArguments(QStringLiteral(R"({"type": "line", "series": [{"data": [1, NaN]}]})"));
        QVERIFY(!nan);
        QCOMPARE(nan.error().path, QStringLiteral("arguments"));
        QVERIFY2(nan.error().given.startsWith(QLatin1String("invalid JSON (")), qPrintable(nan.error().given));
        QVERIFY2(nan.error().given.contains(QLatin1String("NaN")), qPrintable(nan.error().given));

        const auto blank = ChartSpec::fromToolArguments(QStringLiteral("   "));
        QVERIFY(!blank);
        QCOMPARE(blank.error().given, QStringLiteral("nothing"));
    }

    void limitsComeFromTheCaller()
    {
        const QString twoSeries = QStringLiteral(
            R"({"type": "line", "series": [{"name": "a", "data": [1, 2, 3]}, {"name": "b", "data": [1]}]})");
        const auto fewSeries = ChartSpec::fromToolArguments(twoSeries, ChartLimits{1, 100});
        QVERIFY(!fewSeries);
        QCOMPARE(fewSeries.error().message(), QStringLiteral("series: expected at most 1 series, got 2 series."));
        const auto fewPoints = ChartSpec::fromToolArguments(twoSeries, ChartLimits{5, 2});
        QVERIFY(!fewPoints);
        QCOMPARE(fewPoints.error().message(),
                 QStringLiteral("series[0].data: expected at most 2 points, got 3 points."));
        QVERIFY(ChartSpec::fromToolArguments(twoSeries, ChartLimits{2, 3}));
    }

    void normalisesSloppyInput_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("normalised");

        QTest::newRow("numeric strings")
            << QStringLiteral(
                   R"({"type": "bar", "categories": ["a", "b"], "series": [{"name": "s", "data": ["3.5", " 4 "]}]})")
            << QStringLiteral(R"({"categories":["a","b"],"series":[{"data":[3.5,4],"name":"s"}],"type":"bar"})");
        QTest::newRow("a bare series object")
            << QStringLiteral(R"({"type": "line", "categories": ["a", "b"], "series": {"name": "s", "data": [1, 2]}})")
            << QStringLiteral(R"({"categories":["a","b"],"series":[{"data":[1,2],"name":"s"}],"type":"line"})");
        QTest::newRow("data beside the type")
            << QStringLiteral(R"({"type": "bar", "labels": ["a", "b"], "data": [1, 2], "color": "Red"})")
            << QStringLiteral(R"({"categories":["a","b"],"series":[{"color":"red","data":[1,2]}],"type":"bar"})");
        QTest::newRow("series of bare numbers")
            << QStringLiteral(R"({"type": "area", "series": [4, 5, 6]})")
            << QStringLiteral(R"({"series":[{"data":[[0,4],[1,5],[2,6]]}],"type":"area"})");
        QTest::newRow("xy objects, sorted for a line")
            << QStringLiteral(
                   R"({"type": "line", "series": [{"name": "s", "data": [{"x": 2, "y": 20}, {"x": "1", "value": "10"}]}]})")
            << QStringLiteral(R"({"series":[{"data":[[1,10],[2,20]],"name":"s"}],"type":"line"})");
        QTest::newRow("scatter keeps its order")
            << QStringLiteral(
                   R"({"type": "scatter", "x_unit": "cm", "y_unit": "kg", "series": [{"name": "p", "data": [[180, 80], [160, 55], [180, 75]]}]})")
            << QStringLiteral(
                   R"({"series":[{"data":[[180,80],[160,55],[180,75]],"name":"p"}],"type":"scatter","x_unit":"cm","y_unit":"kg"})");
        QTest::newRow("type spellings")
            << QStringLiteral(
                   R"({"type": "Horizontal Bar", "categories": [2023, 2024], "series": [{"name": "s", "data": [1, 2]}]})")
            << QStringLiteral(
                   R"({"categories":["2023","2024"],"series":[{"data":[1,2],"name":"s"}],"type":"horizontal_bar"})");
        QTest::newRow("camel case type and stacked flag")
            << QStringLiteral(
                   R"({"type": "barChart", "stacked": true, "categories": ["a"], "series": [{"name": "s", "data": [1]}, {"name": "t", "data": [2]}]})")
            << QStringLiteral(
                   R"({"categories":["a"],"series":[{"data":[1],"name":"s"},{"data":[2],"name":"t"}],"type":"stacked_bar"})");
        QTest::newRow("doughnut from label pairs")
            << QStringLiteral(
                   R"({"type": "doughnut", "title": " Share ", "series": [{"name": "share", "data": [["Chrome", 65], ["Safari", 19.5]]}]})")
            << QStringLiteral(
                   R"({"categories":["Chrome","Safari"],"series":[{"data":[65,19.5],"name":"share"}],"title":"Share","type":"donut"})");
        QTest::newRow("pie as one series per slice")
            << QStringLiteral("{\"type\": \"pie\", \"series\": [{\"name\": \"Chrome\", \"data\": [65], \"color\": "
                              "\"#4285F4\"}, {\"name\": \"Firefox\", \"data\": [3], \"color\": \"orange\"}]}")
            << QStringLiteral("{\"categories\":[\"Chrome\",\"Firefox\"],\"colors\":[\"#4285f4\",\"orange\"],\"series\":"
                              "[{\"data\":[65,3]}],\"type\":\"pie\"}");
        QTest::newRow("bar with years as x")
            << QStringLiteral(
                   R"({"type": "bar", "series": [{"name": "a", "data": [[2019, 1], [2020, 2]]}, {"name": "b", "data": [[2020, 4], [2019, 3]]}]})")
            << QStringLiteral(
                   R"({"categories":["2019","2020"],"series":[{"data":[1,2],"name":"a"},{"data":[3,4],"name":"b"}],"type":"bar"})");
        QTest::newRow("line over month names")
            << QStringLiteral(
                   R"({"type": "line", "x": ["Jan", "Feb", "Mar"], "series": [{"name": "a", "data": [1, 2, 3]}]})")
            << QStringLiteral(
                   R"({"categories":["Jan","Feb","Mar"],"series":[{"data":[1,2,3],"name":"a"}],"type":"line"})");
        QTest::newRow("dates in every ISO shape")
            << QStringLiteral(
                   R"({"type": "line", "x": ["2024-01", "2024-02-15", "2024-03-01T12:30:00Z", "2024-03-02 08:00", "2024-03-03T12:00:00+02:00"], "series": [{"name": "a", "data": [1, 2, 3, 4, 5]}]})")
            << QStringLiteral(
                   R"({"series":[{"data":[["2024-01-01",1],["2024-02-15",2],["2024-03-01T12:30:00",3],["2024-03-02T08:00:00",4],["2024-03-03T10:00:00",5]],"name":"a"}],"type":"line"})");
        QTest::newRow("colors onto series")
            << QStringLiteral("{\"type\": \"line\", \"colors\": [\"#F00\", \"Dark Blue\"], \"series\": [{\"name\": "
                              "\"a\", \"data\": [1]}, {\"name\": \"b\", \"data\": [2], \"color\": \"teal\"}]}")
            << QStringLiteral("{\"series\":[{\"color\":\"#ff0000\",\"data\":[[0,1]],\"name\":\"a\"},{\"color\":"
                              "\"teal\",\"data\":[[0,2]],\"name\":\"b\"}],\"type\":\"line\"}");
        QTest::newRow("wrapped in an object")
            << QStringLiteral(
                   R"({"chart": {"type": "pie", "categories": ["a", "b"], "series": [{"name": "s", "data": [1, 1]}]}})")
            << QStringLiteral(R"({"categories":["a","b"],"series":[{"data":[1,1],"name":"s"}],"type":"pie"})");
        QTest::newRow("doubly encoded in a fence")
            << QStringLiteral("```json\n\"{\\\"type\\\": \\\"bar\\\", \\\"categories\\\": [\\\"a\\\"], \\\"series\\\": "
                              "[{\\\"name\\\": \\\"s\\\", \\\"data\\\": [2]}]}\"\n```")
            << QStringLiteral(R"({"categories":["a"],"series":[{"data":[2],"name":"s"}],"type":"bar"})");
        QTest::newRow("titles and units")
            << QStringLiteral(
                   R"({"type": "line", "title": "T", "xlabel": "Month", "y_label": "Revenue", "unit": "€", "x": [1, 2], "series": [{"name": "a", "data": [1, 2]}]})")
            << QStringLiteral(
                   R"({"series":[{"data":[[1,1],[2,2]],"name":"a"}],"title":"T","type":"line","x_title":"Month","y_title":"Revenue","y_unit":"€"})");
    }

    void normalisesSloppyInput()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, normalised);
        const auto spec = ChartSpec::fromToolArguments(arguments);
        QVERIFY2(spec, qPrintable(spec.error().message()));
        QCOMPARE(compact(spec->toJson()), normalised);
        // The normalised form is a fixed point: the GUI and the store read it back unchanged.
        const auto again = ChartSpec::fromJson(spec->toJson());
        QVERIFY2(again, qPrintable(again.error().message()));
        QCOMPARE(*again, *spec);
    }

    void dateTimesKeepTheirWallClock()
    {
        const auto spec = ChartSpec::fromToolArguments(QStringLiteral(
            R"({"type": "line", "series": [{"name": "a", "data": [["2024-03-01", 1], ["2024-03-01T06:30:00", 2]]}]})"));
        QVERIFY(spec);
        QCOMPARE(spec->xKind, ChartSpec::XKind::DateTime);
        const QDateTime first = QDateTime::fromMSecsSinceEpoch(qint64(spec->series[0].points[0].x()), QTimeZone::UTC);
        QCOMPARE(first, QDateTime(QDate(2024, 3, 1), QTime(0, 0), QTimeZone::UTC));
        QCOMPARE(spec->series[0].points[1].x() - spec->series[0].points[0].x(), 6.5 * 3600 * 1000);
    }

    void csvHasAHeaderAndARowPerX()
    {
        auto spec = ChartSpec::fromToolArguments(QStringLiteral(
            "{\"type\": \"bar\", \"x_title\": \"Region\", \"categories\": [\"North\", \"South, East\"], \"series\": "
            "[{\"name\": \"2023\", \"data\": [1.5, 2]}, {\"name\": \"Say \\\"hi\\\"\", \"data\": [3, 4]}]}"));
        QVERIFY(spec);
        QCOMPARE(spec->toCsv(), QStringLiteral("Region,2023,\"Say \"\"hi\"\"\"\nNorth,1.5,3\n\"South, East\",2,4\n"));

        spec = ChartSpec::fromToolArguments(QStringLiteral(
            R"({"type": "scatter", "series": [{"name": "a", "data": [[1, 10], [1, 11], [3, 30]]}, {"data": [[2, 20], [1, 5]]}]})"));
        QVERIFY(spec);
        QCOMPARE(spec->toCsv(), QStringLiteral("x,a,series 2\n1,10,5\n1,11,\n2,,20\n3,30,\n"));

        spec = ChartSpec::fromToolArguments(QStringLiteral(
            R"({"type": "line", "x": ["2024-01-01", "2024-02-01"], "series": [{"name": "a", "data": [1, 2]}]})"));
        QVERIFY(spec);
        QCOMPARE(spec->toCsv(), QStringLiteral("date,a\n2024-01-01,1\n2024-02-01,2\n"));
    }

    void summaryNamesTheSeries()
    {
        auto spec = ChartSpec::fromToolArguments(QStringLiteral(
            R"({"type": "line", "title": "Revenue", "x": [1, 2, 3], "series": [{"name": "North", "data": [1, 2, 3]}, {"data": [4, 5, 6]}]})"));
        QVERIFY(spec);
        QCOMPARE(spec->summary(),
                 QStringLiteral("line chart \"Revenue\" with 2 series: North (3 points), series 2 (3 points)"));
        spec = ChartSpec::fromToolArguments(QStringLiteral(
            R"({"type": "donut", "categories": ["a", "b"], "series": [{"name": "s", "data": [1, 2]}]})"));
        QVERIFY(spec);
        QCOMPARE(spec->summary(), QStringLiteral("donut chart with 2 slices: a, b"));
    }

    void schemaIsPreciseAndFollowsTheLimits()
    {
        const QJsonObject schema = ChartSpec::schema(ChartLimits{3, 100});
        QCOMPARE(schema[QLatin1String("type")].toString(), QStringLiteral("object"));
        QCOMPARE(schema[QLatin1String("required")].toArray(),
                 (QJsonArray{QStringLiteral("type"), QStringLiteral("series")}));
        const QJsonObject properties = schema[QLatin1String("properties")].toObject();
        QCOMPARE(properties[QLatin1String("type")][QLatin1String("enum")].toArray().size(), 8);
        const QJsonObject series = properties[QLatin1String("series")].toObject();
        QCOMPARE(series[QLatin1String("maxItems")].toInt(), 3);
        QCOMPARE(series[QLatin1String("items")][QLatin1String("properties")][QLatin1String("data")]
                       [QLatin1String("maxItems")]
                           .toInt(),
                 100);
        // Compact enough to send with every request.
        QVERIFY(QJsonDocument(schema).toJson(QJsonDocument::Compact).size() < 2500);
    }

    void toolReportsWhatTheUserSees()
    {
        ChartTool tool(ChartLimits{4, 50});
        QCOMPARE(tool.name(), QStringLiteral("create_chart"));
        QCOMPARE(tool.defaultApproval(), ApprovalPolicy::Auto);
        QCOMPARE(
            tool.parameters()[QLatin1String("properties")][QLatin1String("series")][QLatin1String("maxItems")].toInt(),
            4);

        const ToolCall good{
            QStringLiteral("c1"), QStringLiteral("create_chart"),
            QStringLiteral(
                R"({"type": "pie", "title": "Share", "categories": ["a", "b"], "series": {"name": "s", "data": ["1", 3]}})")};
        const PreparedCall prepared = tool.prepare(good);
        QVERIFY(prepared.ok());
        QCOMPARE(prepared.preview, QStringLiteral("pie chart \"Share\" with 2 slices: a, b"));
        const ToolOutcome outcome = QCoro::waitFor(tool.run(prepared));
        QVERIFY(outcome.success);
        QCOMPARE(outcome.modelText,
                 QStringLiteral("Chart shown to the user: pie chart \"Share\" with 2 slices: a, b. The user "
                                "can hover, zoom and save it."));
        QCOMPARE(compact(chartOf(outcome)),
                 QStringLiteral(
                     R"({"categories":["a","b"],"series":[{"data":[1,3],"name":"s"}],"title":"Share","type":"pie"})"));

        const ToolCall bad{
            QStringLiteral("c2"), QStringLiteral("create_chart"),
            QStringLiteral(R"({"type": "line", "series": [{"name": "s", "data": %1}]})").arg(numbers(51))};
        QCOMPARE(tool.prepare(bad).error,
                 QStringLiteral("The chart was not shown. series[0].data: expected at most 50 "
                                "points, got 51 points. Fix this and call create_chart again."));
    }
};

QTEST_GUILESS_MAIN(TestChartSpec)
#include "tst_chartspec.moc"
