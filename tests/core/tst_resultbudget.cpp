// One budget for what a tool's result tells the model, whatever it is made of: output, display
// items, tables, files, refusals and errors (issue 28).
#include <tools/pythontool.h>
#include <tools/resultbudget.h>

#include <QRegularExpression>
#include <QTest>

using namespace Sandpiper;
using Status = ExecutionResult::Status;

namespace {

ExecutionResult ran(Status status = Status::Ok)
{
    ExecutionResult result;
    result.status = status;
    result.durationMs = 100;
    return result;
}

DataTable htmlTable(int columns, int headerChars)
{
    DataTable table;
    table.kind = QStringLiteral("HTML");
    for (int c = 0; c < columns; ++c)
        table.columns << QString(headerChars, QLatin1Char('a' + c % 26));
    table.totalColumns = columns;
    table.totalRows = 3;
    return table;
}

// A name of about 4 000 characters, as sixteen folders and a file make it.
QString longName(int i)
{
    QStringList folders;
    for (const char c : QByteArrayView("abcdefghijklmnop"))
        folders << QString(230, QLatin1Char(c));
    return folders.join(QLatin1Char('/')) + QStringLiteral("/%1").arg(i, 2, 10, QLatin1Char('0')) +
           QString(200, QLatin1Char('x')) + QStringLiteral(".csv");
}

} // namespace

class TestResultBudget : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theReportKeepsToItsBudget_data()
    {
        QTest::addColumn<ExecutionResult>("result");
        QTest::addColumn<int>("budget");
        QTest::addColumn<QStringList>("said");

        ExecutionResult markdown = ran();
        for (int i = 0; i < 1500; ++i)
            markdown.markdown << QStringLiteral("**item %1** ").arg(i) + QStringLiteral("text ").repeated(20);
        QTest::newRow("1500 Markdown displays")
            << markdown << 8192
            << QStringList{QStringLiteral("Markdown shown to the user:\n**item 0** text"),
                           QStringLiteral("**item 9** text"),
                           QStringLiteral("… 1490 more display items shown to the user (Markdown 1490) not shown here "
                                          "(this result is limited to 8192 characters)")};

        ExecutionResult mixed = ran();
        for (int i = 0; i < 20; ++i)
            mixed.tables << htmlTable(30, 2000);
        mixed.markdown = QStringList(1470, QStringLiteral("*a small note*"));
        QTest::newRow("HTML tables with headers of 2000 characters, then Markdown")
            << mixed << 8192
            << QStringList{QStringLiteral("Table shown to the user: 3 rows × 30 columns: aaaaaaaa"),
                           QStringLiteral("1480 more display items shown to the user (Markdown 1470, HTML 10)")};

        ExecutionResult files = ran();
        for (int i = 0; i < 30; ++i)
            files.files << longName(i);
        QTest::newRow("30 files with names of 4000 characters")
            << files << 8192
            << QStringList{QStringLiteral(
                               "New or changed files in /mnt/data: "
                               "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.csv, "),
                           QStringLiteral("(and 10 more)")};

        ExecutionResult flood = ran(Status::Error);
        flood.standardOutput = QString(1 << 20, QLatin1Char('o'));
        flood.standardError = QString(1 << 20, QLatin1Char('e'));
        flood.markdown = QStringList(100, QStringLiteral("# heading"));
        flood.errorType = QStringLiteral("ValueError");
        flood.errorMessage = QStringLiteral("bad input");
        flood.traceback = QStringLiteral("Traceback (most recent call last):\n") +
                          QStringLiteral("  File \"<cell>\", line 3, in f\n    g()\n").repeated(100) +
                          QStringLiteral("ValueError: bad input");
        QTest::newRow("a traceback outlasts a flood of output")
            << flood << 4000
            << QStringList{QStringLiteral("Status: error"), QStringLiteral("Error: ValueError: bad input"),
                           QStringLiteral("Traceback:\nTraceback (most recent call last):"),
                           QStringLiteral("\nValueError: bad input"), QStringLiteral("characters of output not shown")};

        ExecutionResult message = ran(Status::Error);
        message.errorType = QStringLiteral("RuntimeError");
        message.errorMessage = QString(1 << 20, QLatin1Char('m'));
        message.traceback = QStringLiteral("Traceback (most recent call last):\nRuntimeError: mmm");
        QTest::newRow("an error message of a megabyte")
            << message << 8192
            << QStringList{QStringLiteral("Error: RuntimeError: mmm"),
                           QStringLiteral("Traceback:\nTraceback (most recent call last):\nRuntimeError: mmm")};

        ExecutionResult refused = ran();
        for (int i = 0; i < 8; ++i)
            refused.refused << QStringLiteral("“%1” is or goes through a symbolic link.").arg(longName(i));
        QTest::newRow("refusals that quote long names")
            << refused << 8192
            << QStringList{QStringLiteral("Refused by Sandpiper, not shown or offered to the user: “aaaa"),
                           QStringLiteral(".csv” is or goes through a symbolic link."), QStringLiteral("(and 3 more)")};

        ExecutionResult figures = ran();
        figures.figures = {QStringLiteral("figures/") + QString(3000, QLatin1Char('f')) + QStringLiteral(".png")};
        figures.value = QString(100000, QLatin1Char('v'));
        QTest::newRow("a budget below the smallest")
            << figures << 10
            << QStringList{QStringLiteral("Figure shown to the user: figures/ffff"), QStringLiteral("ffff.png"),
                           QStringLiteral("this result is limited to 1000 characters")};
    }

    void theReportKeepsToItsBudget()
    {
        QFETCH(ExecutionResult, result);
        QFETCH(int, budget);
        QFETCH(QStringList, said);
        const QString report = PythonTool::reportForModel(result, ModelTextLimits{}, budget);
        QVERIFY2(report.size() <= std::max(budget, ResultBudget::minimumChars),
                 qPrintable(QString::number(report.size())));
        QVERIFY2(report.startsWith(QLatin1String("Status: ")), qPrintable(report.left(300)));
        QVERIFY(report.isValidUtf16());
        for (const QString &text : std::as_const(said))
            QVERIFY2(report.contains(text), qPrintable(text + QStringLiteral("\n---\n") + report.left(3000)));
        // What was left out is said once at most, at the end (files and refusals past the first are
        // counted in their own line).
        QVERIFY(report.count(QLatin1String("not shown here")) <= 1);
        QCOMPARE(report.section(QLatin1Char('\n'), -1).contains(QLatin1String("not shown here")),
                 report.contains(QLatin1String("not shown here")));
    }

    // A result that fits is told as it was, with nothing added.
    void aSmallResultIsToldWhole()
    {
        ExecutionResult result = ran();
        result.standardOutput = QStringLiteral("hello\n");
        result.value = QStringLiteral("4");
        result.markdown = {QStringLiteral("**bold**")};
        result.files = {QStringLiteral("out.csv")};
        QCOMPARE(
            PythonTool::reportForModel(result, ModelTextLimits{}, 8192),
            QStringLiteral("Status: ok (0.10 s)\nstdout:\nhello\nValue of the last expression:\n4\nMarkdown shown to "
                           "the user:\n**bold**\nNew or changed files in /mnt/data: out.csv"));
    }

    // Each stream keeps its own cap (agent/output_chars) within the whole budget.
    void aStreamKeepsItsOwnCap()
    {
        ExecutionResult result = ran();
        result.standardOutput = QString(20000, QLatin1Char('o'));
        ModelTextLimits limits;
        limits.streamChars = 500;
        const QString report = PythonTool::reportForModel(result, limits, 30000);
        QVERIFY2(report.size() < 1000, qPrintable(report));
        QVERIFY(report.contains(QLatin1String("characters omitted")));
        QVERIFY(report.endsWith(QLatin1String("characters of output not shown here (this result is limited to 30000 "
                                              "characters)")));
    }

    void theBudgetComesFromTheWindow_data()
    {
        QTest::addColumn<int>("setting");
        QTest::addColumn<qint64>("window");
        QTest::addColumn<int>("budget");
        QTest::newRow("unknown window") << 0 << qint64(0) << 8192;
        QTest::newRow("small window") << 0 << qint64(1024) << 2000;
        QTest::newRow("32k window") << 0 << qint64(32768) << 32000;
        QTest::newRow("1M window") << 0 << qint64(1 << 20) << 32000;
        QTest::newRow("set by the user") << 12000 << qint64(1 << 20) << 12000;
        QTest::newRow("set too small") << 5 << qint64(8192) << ResultBudget::minimumChars;
    }

    void theBudgetComesFromTheWindow()
    {
        QFETCH(int, setting);
        QFETCH(qint64, window);
        QFETCH(int, budget);
        ModelTextLimits limits;
        limits.resultChars = setting;
        QCOMPARE(limits.resultBudget(window), budget);
    }

    void namesAreShortenedInTheMiddle_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("shortened");
        QTest::newRow("short") << QStringLiteral("data.csv") << QStringLiteral("data.csv");
        const QString eightyOne = QString(77, QLatin1Char('n')) + QStringLiteral(".csv");
        QTest::newRow("81 characters stay") << eightyOne << eightyOne;
        QTest::newRow("long") << QString(40, QLatin1Char('h')) + QString(4000, QLatin1Char('m')) +
                                     QString(36, QLatin1Char('t')) + QStringLiteral(".csv")
                              << QString(40, QLatin1Char('h')) + QStringLiteral("…") + QString(36, QLatin1Char('t')) +
                                     QStringLiteral(".csv");
        // 😀 is two UTF-16 units: neither end cuts one in half.
        const QString smile = QStringLiteral("😀");
        QTest::newRow("pairs") << smile.repeated(100) << smile.repeated(20) + QStringLiteral("…") + smile.repeated(20);
        QTest::newRow("a pair at the head's end")
            << QStringLiteral("x") + smile.repeated(100)
            << QStringLiteral("x") + smile.repeated(19) + QStringLiteral("…") + smile.repeated(20);
        QTest::newRow("a pair at the tail's start")
            << smile.repeated(100) + QStringLiteral("x")
            << smile.repeated(20) + QStringLiteral("…") + smile.repeated(19) + QStringLiteral("x");
    }

    void namesAreShortenedInTheMiddle()
    {
        QFETCH(QString, name);
        QFETCH(QString, shortened);
        QCOMPARE(ResultBudget::shortName(name), shortened);
    }

    void shorteningKeepsToTheLimit_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("limit");
        QTest::newRow("ascii") << QString(10000, QLatin1Char('a')) << 500;
        QTest::newRow("pairs, even") << QStringLiteral("😀").repeated(5000) << 500;
        QTest::newRow("pairs, odd") << QStringLiteral("x") + QStringLiteral("😀").repeated(5000) << 501;
        QTest::newRow("no room for the note") << QString(10000, QLatin1Char('a')) << 10;
        QTest::newRow("fits") << QStringLiteral("abc") << 3;
    }

    void shorteningKeepsToTheLimit()
    {
        QFETCH(QString, text);
        QFETCH(int, limit);
        qint64 cut = -1;
        const QString shortened = ResultBudget::shorten(text, limit, &cut);
        QVERIFY2(shortened.size() <= limit, qPrintable(QString::number(shortened.size())));
        QVERIFY(shortened.isValidUtf16());
        if (text.size() <= limit) {
            QCOMPARE(shortened, text);
            QCOMPARE(cut, qint64(0));
            return;
        }
        const QRegularExpression note(QStringLiteral("\\[\\.\\.\\. (\\d+) characters omitted \\.\\.\\.\\]"));
        const auto match = note.match(shortened);
        QCOMPARE(match.hasMatch() ? match.captured(1).toLongLong() : qint64(text.size()), cut);
        QCOMPARE(shortened.size() - (match.hasMatch() ? match.capturedLength() + 2 : 0) + cut, text.size());
    }

    // The parts that matter most are served first: a result of nothing but lines of notice
    // still says each, and the output gets what is left.
    void essentialPartsComeFirst()
    {
        ResultBudget budget(2000);
        budget.add(ResultBudget::Rank::Output, QStringLiteral("stdout:"), QString(5000, QLatin1Char('o')));
        budget.add(ResultBudget::Rank::Essential, {}, QStringLiteral("Status: ok"));
        budget.add(ResultBudget::Rank::Traceback, QStringLiteral("Traceback:"), QString(600, QLatin1Char('t')));
        const QString text = budget.text();
        QVERIFY2(text.size() <= 2000, qPrintable(QString::number(text.size())));
        QVERIFY(text.startsWith(QLatin1String("stdout:\nooo")));
        QVERIFY(text.contains(QLatin1String("\nStatus: ok\nTraceback:\n") + QString(600, QLatin1Char('t')) +
                              QLatin1Char('\n')));
        QVERIFY(text.contains(QLatin1String("characters of output not shown here")));
    }
};

QTEST_GUILESS_MAIN(TestResultBudget)
#include "tst_resultbudget.moc"
