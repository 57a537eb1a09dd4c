// chart-screenshots FOLDER [--window]: draws one chart of every create_chart type with realistic
// data, light and dark, into FOLDER/<type>-<theme>.png, for the documentation and for looking
// at what changes to ChartWidget do. Without --window the charts go through
// ChartWidget::renderToPng (what exports use); with it each is shown in a real window and grabbed.
#include <chartviews/chartwidget.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <cstdio>

using namespace Sandpiper;

namespace {

constexpr QSize shotSize(800, 480);

QJsonObject series(const QString &name, const QJsonArray &data)
{
    return {{QStringLiteral("name"), name}, {QStringLiteral("data"), data}};
}

QJsonArray numbers(std::initializer_list<double> values)
{
    QJsonArray array;
    for (const double value : values)
        array.append(value);
    return array;
}

QJsonObject lineChart()
{
    QJsonArray months;
    for (int month = 1; month <= 12; ++month)
        months.append(QStringLiteral("2024-%1").arg(month, 2, 10, QLatin1Char('0')));
    return {
        {QStringLiteral("type"), QStringLiteral("line")},
        {QStringLiteral("title"), QStringLiteral("Monthly revenue by region, 2024")},
        {QStringLiteral("y_title"), QStringLiteral("Revenue")},
        {QStringLiteral("y_unit"), QStringLiteral("k€")},
        {QStringLiteral("x"), months},
        {QStringLiteral("series"),
         QJsonArray{
             series(QStringLiteral("North"), numbers({182, 175, 198, 210, 224, 231, 219, 226, 248, 262, 281, 305})),
             series(QStringLiteral("South"), numbers({141, 150, 149, 163, 170, 188, 201, 196, 190, 204, 215, 238})),
             series(QStringLiteral("West"), numbers({96, 101, 110, 108, 121, 129, 140, 151, 149, 160, 172, 190}))}}};
}

QJsonObject barChart()
{
    return {{QStringLiteral("type"), QStringLiteral("bar")},
            {QStringLiteral("title"), QStringLiteral("Quarterly sales by product")},
            {QStringLiteral("x_title"), QStringLiteral("Quarter")},
            {QStringLiteral("y_title"), QStringLiteral("Units sold")},
            {QStringLiteral("categories"), QJsonArray{QStringLiteral("Q1 2024"), QStringLiteral("Q2 2024"),
                                                      QStringLiteral("Q3 2024"), QStringLiteral("Q4 2024")}},
            {QStringLiteral("series"), QJsonArray{series(QStringLiteral("Laptops"), numbers({1240, 1385, 1190, 1720})),
                                                  series(QStringLiteral("Phones"), numbers({2410, 2250, 2630, 3180})),
                                                  series(QStringLiteral("Tablets"), numbers({640, 590, 710, 980}))}}};
}

QJsonObject horizontalBarChart()
{
    return {{QStringLiteral("type"), QStringLiteral("horizontal_bar")},
            {QStringLiteral("title"), QStringLiteral("Most spoken languages")},
            {QStringLiteral("y_title"), QStringLiteral("Speakers")},
            {QStringLiteral("y_unit"), QStringLiteral("million")},
            {QStringLiteral("categories"),
             QJsonArray{QStringLiteral("English"), QStringLiteral("Mandarin Chinese"), QStringLiteral("Hindi"),
                        QStringLiteral("Spanish"), QStringLiteral("Arabic"), QStringLiteral("French"),
                        QStringLiteral("Bengali")}},
            {QStringLiteral("series"),
             QJsonArray{series(QStringLiteral("Total speakers"), numbers({1515, 1140, 609, 560, 332, 312, 278}))}}};
}

QJsonObject stackedBarChart()
{
    return {
        {QStringLiteral("type"), QStringLiteral("stacked_bar")},
        {QStringLiteral("title"), QStringLiteral("Electricity generation by source")},
        {QStringLiteral("y_title"), QStringLiteral("Generation")},
        {QStringLiteral("y_unit"), QStringLiteral("TWh")},
        {QStringLiteral("categories"),
         QJsonArray{QStringLiteral("2019"), QStringLiteral("2020"), QStringLiteral("2021"), QStringLiteral("2022"),
                    QStringLiteral("2023"), QStringLiteral("2024")}},
        {QStringLiteral("series"), QJsonArray{series(QStringLiteral("Coal"), numbers({171, 134, 165, 181, 131, 108})),
                                              series(QStringLiteral("Gas"), numbers({91, 95, 90, 80, 76, 79})),
                                              series(QStringLiteral("Nuclear"), numbers({75, 64, 69, 35, 7, 0})),
                                              series(QStringLiteral("Wind"), numbers({126, 132, 114, 125, 142, 136})),
                                              series(QStringLiteral("Solar"), numbers({46, 50, 49, 60, 62, 72}))}}};
}

QJsonObject scatterChart()
{
    // Deterministic, so that the pictures change only when the drawing does.
    QRandomGenerator random(42);
    auto gauss = [&random] {
        const double u = std::max(1e-9, random.generateDouble());
        const double v = random.generateDouble();
        return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
    };
    auto people = [&](double meanHeight, double sdHeight, double bmi) {
        QJsonArray points;
        for (int i = 0; i < 60; ++i) {
            const double height = std::round((meanHeight + sdHeight * gauss()) * 10) / 10;
            const double weight = std::round((bmi + 2.5 * gauss()) * std::pow(height / 100, 2) * 10) / 10;
            points.append(QJsonArray{height, weight});
        }
        return points;
    };
    return {{QStringLiteral("type"), QStringLiteral("scatter")},
            {QStringLiteral("title"), QStringLiteral("Height and weight of 120 adults")},
            {QStringLiteral("x_title"), QStringLiteral("Height")},
            {QStringLiteral("x_unit"), QStringLiteral("cm")},
            {QStringLiteral("y_title"), QStringLiteral("Weight")},
            {QStringLiteral("y_unit"), QStringLiteral("kg")},
            {QStringLiteral("series"), QJsonArray{series(QStringLiteral("Women"), people(165, 7, 23.5)),
                                                  series(QStringLiteral("Men"), people(178, 7.5, 25.5))}}};
}

QJsonObject areaChart()
{
    QJsonArray desktop;
    QJsonArray mobile;
    const QDate start(2024, 1, 1);
    for (int week = 0; week < 26; ++week) {
        const QString date = start.addDays(7 * week).toString(Qt::ISODate);
        const double season = std::sin(week / 26.0 * M_PI);
        desktop.append(QJsonArray{date, std::round(5200 + 900 * season + 60 * (week % 3))});
        mobile.append(QJsonArray{date, std::round(3100 + 140 * week + 400 * season)});
    }
    return {{QStringLiteral("type"), QStringLiteral("area")},
            {QStringLiteral("title"), QStringLiteral("Weekly visitors, first half of 2024")},
            {QStringLiteral("y_title"), QStringLiteral("Visitors")},
            {QStringLiteral("series"),
             QJsonArray{series(QStringLiteral("Desktop"), desktop), series(QStringLiteral("Mobile"), mobile)}}};
}

QJsonObject pieChart()
{
    return {{QStringLiteral("type"), QStringLiteral("pie")},
            {QStringLiteral("title"), QStringLiteral("Browser market share, 2024")},
            {QStringLiteral("y_unit"), QStringLiteral("%")},
            {QStringLiteral("categories"),
             QJsonArray{QStringLiteral("Chrome"), QStringLiteral("Safari"), QStringLiteral("Edge"),
                        QStringLiteral("Firefox"), QStringLiteral("Samsung Internet"), QStringLiteral("Opera"),
                        QStringLiteral("Other")}},
            {QStringLiteral("series"),
             QJsonArray{series(QStringLiteral("Share"), numbers({65.3, 18.6, 5.2, 2.7, 2.6, 2.2, 3.4}))}}};
}

QJsonObject donutChart()
{
    return {{QStringLiteral("type"), QStringLiteral("donut")},
            {QStringLiteral("title"), QStringLiteral("Household budget")},
            {QStringLiteral("y_unit"), QStringLiteral("€")},
            {QStringLiteral("categories"),
             QJsonArray{QStringLiteral("Housing"), QStringLiteral("Food"), QStringLiteral("Transport"),
                        QStringLiteral("Savings"), QStringLiteral("Health"), QStringLiteral("Leisure"),
                        QStringLiteral("Other")}},
            {QStringLiteral("colors"),
             QJsonArray{QStringLiteral("#4e79a7"), QStringLiteral("#f28e2b"), QStringLiteral("#e15759"),
                        QStringLiteral("#76b7b2"), QStringLiteral("#59a14f"), QStringLiteral("#edc948"),
                        QStringLiteral("#b07aa1")}},
            {QStringLiteral("series"),
             QJsonArray{series(QStringLiteral("Monthly spending"), numbers({1150, 520, 310, 400, 180, 260, 230}))}}};
}

bool grabFromWindow(const ChartSpec &spec, const QString &path, bool dark)
{
    QWidget window;
    window.setPalette(dark ? QPalette(QColor(0x2b, 0x2b, 0x2b)) : QPalette(QColor(0xf2, 0xf2, 0xf2)));
    window.resize(shotSize);
    auto *chart = new ChartWidget(spec, &window);
    chart->setGeometry(QRect(QPoint(), shotSize));
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    QTest::qWait(50);
    return chart->toImage(1).save(path, "PNG");
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Draws one chart of each create_chart type, light and dark."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("folder"), QStringLiteral("Where the PNG files go."));
    const QCommandLineOption window(QStringLiteral("window"), QStringLiteral("Grab each chart from a shown window."));
    parser.addOption(window);
    parser.process(app);
    if (parser.positionalArguments().size() != 1)
        parser.showHelp(1);
    const QDir folder(parser.positionalArguments().constFirst());
    if (!QDir().mkpath(folder.path())) {
        std::fprintf(stderr, "cannot create %s\n", qPrintable(folder.path()));
        return 1;
    }

    const std::pair<const char *, QJsonObject> charts[] = {
        {"line", lineChart()},
        {"bar", barChart()},
        {"horizontal_bar", horizontalBarChart()},
        {"stacked_bar", stackedBarChart()},
        {"scatter", scatterChart()},
        {"area", areaChart()},
        {"pie", pieChart()},
        {"donut", donutChart()},
    };
    int failures = 0;
    for (const auto &[name, json] : charts) {
        const auto spec = ChartSpec::fromJson(json);
        if (!spec) {
            std::fprintf(stderr, "%s: %s\n", name, qPrintable(spec.error().message()));
            ++failures;
            continue;
        }
        for (const bool dark : {false, true}) {
            const QString path =
                folder.filePath(QStringLiteral("%1-%2.png").arg(QLatin1String(name), dark ? "dark" : "light"));
            const bool ok = parser.isSet(window) ? grabFromWindow(*spec, path, dark)
                                                 : ChartWidget::renderToPng(*spec, path, shotSize, dark);
            std::printf("%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
            failures += ok ? 0 : 1;
        }
    }
    return failures == 0 ? 0 : 1;
}
