// scripts/bench scanners [KIB]: everything that reads a model's or the sandbox's text, fed 1 MB
// (or KIB kibibytes) of the worst pattern we know for it, beside as much prose through the same
// code in the same run. At 1 MB each worst case should stay within 100 ms (linear time).
#include "benchstats.h"

#include <chat/markdownsource.h>
#include <llm/contentfilter.h>
#include <math/mathscanner.h>
#include <sandbox/terminaltext.h>
#include <tools/htmltotext.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextDocument>

#include <cstdio>
#include <functional>

using namespace Sandpiper;

namespace {

qsizetype inputSize = 1 << 20; // the input's size: 1 MB unless the command line says otherwise

// PIECE repeated to 1 MB, after HEAD.
QString fill(const QString &head, const QString &piece)
{
    QString text = head;
    text.reserve(inputSize + piece.size());
    while (text.size() < inputSize)
        text += piece;
    return text;
}

const QString prose =
    fill(QString(), QStringLiteral("The quick brown fox jumps over the lazy dog, and then it rests. "));

QJsonArray pythonTool()
{
    return {QJsonObject{
        {QStringLiteral("type"), QStringLiteral("function")},
        {QStringLiteral("function"),
         QJsonObject{
             {QStringLiteral("name"), QStringLiteral("execute_python_code")},
             {QStringLiteral("parameters"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                          {QStringLiteral("properties"),
                           QJsonObject{{QStringLiteral("code"),
                                        QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}}}}}}};
}

// The content filter as a stream feeds it: four characters at a time, as tokens arrive.
void filter(const QString &text)
{
    ContentFilter contentFilter(pythonTool(), true);
    for (qsizetype at = 0; at < text.size(); at += 4)
        (void)contentFilter.feed(QStringView(text).sliced(at, std::min<qsizetype>(4, text.size() - at)));
    (void)contentFilter.finish();
}

// The terminal filter as the sandbox's output arrives: in pieces of 4 KiB.
void terminal(const QString &text)
{
    QString shown;
    for (qsizetype at = 0; at < text.size(); at += 4096)
        TerminalText::append(shown, QStringView(text).sliced(at, std::min<qsizetype>(4096, text.size() - at)));
}

// An answer as the chat renders it: prepared, then read by Qt's Markdown reader.
void markdown(const QString &text)
{
    QStringList codeBlocks;
    QStringList languages;
    QTextDocument document;
    document.setMarkdown(MarkdownSource(QString(), nullptr).prepare(text, &codeBlocks, &languages));
}

struct Case {
    const char *scanner;
    const char *input;
    QString text;
    std::function<void(const QString &)> run;
};

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    if (argc > 1)
        inputSize = QByteArray(argv[1]).toLongLong() * 1024;
    const QString prose =
        fill(QString(), QStringLiteral("The quick brown fox jumps over the lazy dog, and then it rests. "));
    const auto math = [](const QString &text) {
        (void)MathScanner::find(text);
    };
    const auto html = [](const QString &text) {
        (void)HtmlToText::convert(text);
    };
    QString backtickRuns;
    for (int length = 1; backtickRuns.size() < inputSize; ++length)
        backtickRuns += QString(length, QLatin1Char('`')) + QLatin1Char('a');
    const QString code = QStringLiteral("x = 1\\n");
    const QList<Case> cases = {
        {"content filter", "prose", prose, filter},
        {"content filter", "unclosed <tool_call> JSON",
         fill(QStringLiteral("<tool_call>{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \""), code),
         filter},
        {"content filter", "unclosed [TOOL_CALLS]",
         fill(QStringLiteral("[TOOL_CALLS][{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \""), code),
         filter},
        {"content filter", "unclosed bare JSON call",
         fill(QStringLiteral("{\"name\": \"execute_python_code\", \"parameters\": {\"code\": \""), code), filter},
        {"content filter", "unclosed Python call list", fill(QStringLiteral("[execute_python_code(code=\""), code),
         filter},
        {"content filter", "unclosed DeepSeek block",
         fill(QStringLiteral(
                  "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>execute_python_code<｜tool▁sep｜>{\"code\": \""),
              code),
         filter},
        {"content filter", "unclosed <think>", QStringLiteral("<think>") + prose, filter},
        {"content filter", "white space only", QString(inputSize, QLatin1Char(' ')), filter},
        {"content filter", "'<' only", QString(inputSize, QLatin1Char('<')), filter},
        {"math scanner", "prose", prose, math},
        {"math scanner", "unclosed \\( in one paragraph", fill(QString(), QStringLiteral("\\( a ")), math},
        {"math scanner", "unclosed \\[ in one paragraph", fill(QString(), QStringLiteral("\\[ a ")), math},
        {"math scanner", "backtick runs, each unclosed", backtickRuns, math},
        {"math scanner", "$ and $$ that close nothing", fill(QString(), QStringLiteral("$a $$ b ")), math},
        {"terminal filter", "prose lines", fill(QString(), QStringLiteral("a line of output\n")), terminal},
        {"terminal filter", "carriage returns", fill(QString(), QStringLiteral("progress 42%\r")), terminal},
        {"html reader", "prose", fill(QStringLiteral("<p>"), QStringLiteral("Some text <b>bold</b>. ")), html},
        {"html reader", "nested elements", fill(QString(), QStringLiteral("<div>")), html},
        {"html reader", "'<' only", QString(inputSize, QLatin1Char('<')), html},
        {"markdown", "prose", prose, markdown},
        {"markdown", "nested lists", fill(QString(), QStringLiteral("- ")), markdown},
        {"markdown", "nested quotes", fill(QString(), QStringLiteral("> ")), markdown},
        {"markdown", "nested ordered lists", fill(QString(), QStringLiteral("1. ")), markdown},
    };

    std::printf("%lld KiB through (ms)%31s %6s %10s %10s %10s\n", qlonglong(inputSize / 1024), "", "runs", "median",
                "p95", "min");
    QJsonObject figures;
    double worst = 0;
    for (const Case &c : cases) {
        QList<double> samples;
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer timer;
            timer.start();
            c.run(c.text);
            samples << Test::elapsedMs(timer);
        }
        const QString name = QStringLiteral("%1: %2").arg(QLatin1String(c.scanner), QLatin1String(c.input));
        Test::printRow(qPrintable(name), samples, 48);
        const double median = Test::percentile(samples, 0.5);
        figures.insert(name, median);
        if (QLatin1String(c.input) != QLatin1String("prose"))
            worst = std::max(worst, median);
    }
    figures.insert(QStringLiteral("worst_case_ms"), worst);
    figures.insert(QStringLiteral("kib"), double(inputSize / 1024));
    figures.insert(QStringLiteral("worst_within_100ms"), worst <= 100);
    std::printf("%s\n", QJsonDocument(figures).toJson(QJsonDocument::Compact).constData());
    return 0;
}
