#include "tools/pythontool.h"

#include "llm/argumentrepair.h"
#include "llm/contextbudget.h"
#include "sandbox/sandboxsession.h"
#include "tools/resultbudget.h"

#include <QJsonArray>
#include <QLocale>

namespace Sandpiper {

namespace {

// Names listed in the report; the rest are counted.
constexpr int maxListedNames = 20;
constexpr int maxListedRefusals = 5;
// Each end of a refusal kept, whose sentence quotes a name the sandbox chose.
constexpr int refusalSide = 120;
// A notice or an error message gets no more than this of the budget, the list of files this.
constexpr int maxLineChars = 2000;
constexpr int maxFilesChars = 4000;

// ITEMS, the first of TOTAL, joined by SEPARATOR, and how many more there are.
QString listSome(const QStringList &items, qsizetype total, const QString &separator = QStringLiteral(", "))
{
    QString text = items.join(separator);
    if (total > items.size())
        text += QStringLiteral(" (and %1 more)").arg(total - items.size());
    return text;
}

QStringList shortNames(const QStringList &names)
{
    QStringList shortened;
    for (const QString &name : names)
        shortened << ResultBudget::shortName(name);
    return shortened;
}

// All figures in one line: a cell that draws 400 of them must not cost the model 400 lines.
QString figureLine(const ExecutionResult &result)
{
    const QStringList &figures = result.figures;
    QString line;
    if (figures.size() == 1)
        line = QStringLiteral("Figure shown to the user: %1").arg(ResultBudget::shortName(figures.constFirst()));
    else if (figures.size() > 1 && figures.size() <= 5)
        line = QStringLiteral("Figures shown to the user: %1").arg(shortNames(figures).join(QStringLiteral(", ")));
    else if (figures.size() > 5)
        line = QStringLiteral("Figures shown to the user: %1 (%2 … %3)")
                   .arg(figures.size())
                   .arg(ResultBudget::shortName(figures.constFirst()), ResultBudget::shortName(figures.constLast()));
    if (result.figuresNotKept > 0) {
        line += (line.isEmpty() ? QStringLiteral("No figure was shown to the user: %1 figures were not kept "
                                                 "(too many for one execution)")
                                : QStringLiteral(", and %1 more figures that were not kept (too many for one "
                                                 "execution)"))
                    .arg(result.figuresNotKept);
    }
    return line;
}

} // namespace

int ModelTextLimits::resultBudget(qint64 window) const
{
    if (resultChars > 0)
        return std::max(resultChars, ResultBudget::minimumChars);
    // About a character per token of the window: a third of a small window, less of a large one.
    return int(std::clamp<qint64>(window > 0 ? window : ContextBudget::defaultWindow, 2000, 32000));
}

PythonTool::PythonTool(SandboxSession *session, ModelTextLimits limits)
    : m_session(session)
    , m_limits(limits)
{}

QString PythonTool::name() const
{
    return toolName();
}

QString PythonTool::description() const
{
    return QStringLiteral(
        "Run Python 3 code in a persistent sandbox, like a Jupyter cell: variables, imports and functions persist "
        "between calls; the value of the last expression is shown (no print() needed); matplotlib figures are shown "
        "to the user automatically, DataFrames as tables (display() works too). numpy, pandas, matplotlib, scipy, "
        "sympy, seaborn, pillow, scikit-learn, statsmodels, networkx, openpyxl, pypdf, python-docx, bs4, requests and "
        "tqdm are installed; %pip install adds more when the network is on. Files live in /mnt/data (the user's "
        "uploads are there). No network access unless the user enabled it.");
}

QJsonObject PythonTool::parameters() const
{
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("code"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                      {QStringLiteral("description"), QStringLiteral("The Python code to run.")}}}}},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("code")}}};
}

PreparedCall PythonTool::prepare(const ToolCall &call) const
{
    PreparedCall prepared;
    prepared.call = call;
    const RepairedArgument code =
        repairStringArgument(call.arguments, QStringLiteral("code"),
                             {QStringLiteral("source"), QStringLiteral("python"), QStringLiteral("script"),
                              QStringLiteral("python_code"), QStringLiteral("program")});
    if (!code.ok()) {
        prepared.error = code.error;
        return prepared;
    }
    prepared.preview = code.value;
    prepared.repaired = code.repaired;
    prepared.arguments = {{QStringLiteral("code"), code.value}};
    return prepared;
}

QCoro::Task<ToolOutcome> PythonTool::run(PreparedCall call)
{
    ToolOutcome outcome;
    if (!m_session) {
        outcome.modelText = QStringLiteral("Status: the sandbox is not available.");
        co_return outcome;
    }
    const ExecutionResult result = co_await m_session->execute(call.arguments.value(QLatin1String("code")).toString());
    outcome.success = result.status == ExecutionResult::Status::Ok;
    outcome.modelText = reportForModel(result, m_limits, call.resultChars);
    outcome.result = result;
    co_return outcome;
}

void PythonTool::cancel()
{
    if (m_session)
        m_session->interrupt();
}

QString PythonTool::reportForModel(const ExecutionResult &result, const ModelTextLimits &limits, int budget)
{
    using Status = ExecutionResult::Status;
    using Rank = ResultBudget::Rank;
    ResultBudget report(budget > 0 ? budget : limits.resultBudget(0));
    auto say = [&report](const QString &line) {
        report.add(Rank::Essential, {}, line, maxLineChars);
    };
    const QString seconds = QString::number(double(result.durationMs) / 1000.0, 'f', 2);
    switch (result.status) {
    case Status::Ok:
        say(QStringLiteral("Status: ok (%1 s)").arg(seconds));
        break;
    case Status::Error:
        say(QStringLiteral("Status: error (%1 s)").arg(seconds));
        break;
    case Status::Interrupted:
        say(!result.stopReason.isEmpty()
                ? QStringLiteral("Status: stopped by Sandpiper (%1 s): %2").arg(seconds, result.stopReason)
            : result.timedOut ? QStringLiteral("Status: interrupted: the time limit was reached (%1 s)").arg(seconds)
                              : QStringLiteral("Status: interrupted: the user stopped it (%1 s)").arg(seconds));
        break;
    case Status::Crashed:
        say(QStringLiteral("Status: crashed: %1 The next execution starts in a fresh kernel; variables and imports "
                           "are gone.")
                .arg(result.errorMessage));
        break;
    case Status::Unavailable:
        say(QStringLiteral("Status: the sandbox is unavailable: %1").arg(result.errorMessage));
        return report.text();
    }
    if (result.stateReset)
        say(QStringLiteral("Note: this ran in a fresh kernel. %1").arg(result.errorMessage));
    if (result.stateLost)
        say(QStringLiteral("Note: the sandbox was replaced; variables and imports from earlier are gone."));
    if (!result.stopReason.isEmpty() && result.status != Status::Interrupted)
        say(QStringLiteral("Note: %1").arg(result.stopReason));

    auto addStream = [&](const QString &title, const QString &text, qint64 droppedBytes) {
        if (text.isEmpty() && droppedBytes == 0)
            return;
        report.add(Rank::Output, title, text.trimmed(), limits.streamChars);
        if (droppedBytes > 0)
            say(QStringLiteral("[... %1 more bytes of output were not kept ...]").arg(droppedBytes));
    };
    addStream(QStringLiteral("stdout:"), result.standardOutput, result.droppedStdoutBytes);
    addStream(QStringLiteral("stderr:"), result.standardError, result.droppedStderrBytes);
    if (!result.value.isEmpty())
        report.add(Rank::Output, QStringLiteral("Value of the last expression:"), result.value, limits.valueChars);
    if (const QString figures = figureLine(result); !figures.isEmpty())
        say(figures);
    for (const DataTable &table : result.tables) {
        // A frame's text is in the value already (or printed); an HTML table has nothing else.
        report.addItem(
            table.kind, {},
            table.kind == QLatin1String("HTML")
                ? QStringLiteral("Table shown to the user: %1").arg(table.summary())
                : QStringLiteral("Table shown to the user (%1, %2 rows × %3 columns).")
                      .arg(table.kind, QString::number(table.totalRows), QString::number(table.totalColumns)),
            limits.valueChars);
    }
    for (const QString &markdown : result.markdown)
        report.addItem(QStringLiteral("Markdown"), QStringLiteral("Markdown shown to the user:"), markdown,
                       limits.valueChars);
    if (!result.svg.isEmpty())
        say(QStringLiteral("SVG images shown to the user: %1").arg(result.svg.size()));
    for (const QString &note : result.notes)
        say(QStringLiteral("Note: %1").arg(note));
    if (!result.files.isEmpty()) {
        // Those a remote engine kept are there for the code as the others are; the user's
        // machine gets them when the user opens one.
        QStringList files;
        for (const QString &file : result.files.mid(0, maxListedNames)) {
            files << ResultBudget::shortName(file);
            if (const auto kept = result.onEngine.constFind(file); kept != result.onEngine.cend())
                files.last() += QStringLiteral(" (%1, in the sandbox only until the user opens it)")
                                    .arg(SandboxFolder::formatBytes(*kept));
        }
        report.add(Rank::Essential, {},
                   QStringLiteral("New or changed files in /mnt/data: %1").arg(listSome(files, result.files.size())),
                   maxFilesChars);
    }
    // One line, however much was refused: the model learns what happened, not every detail.
    if (!result.refused.isEmpty()) {
        QStringList refused;
        for (const QString &sentence : result.refused.mid(0, maxListedRefusals))
            refused << ResultBudget::shortName(sentence, refusalSide);
        say(QStringLiteral("Refused by Sandpiper, not shown or offered to the user: %1")
                .arg(listSome(refused, result.refused.size(), QStringLiteral(" "))));
    }
    if (result.status == Status::Error || result.status == Status::Interrupted) {
        if (!result.errorType.isEmpty())
            say(QStringLiteral("Error: %1: %2").arg(result.errorType, result.errorMessage));
        if (!result.traceback.isEmpty())
            report.add(Rank::Traceback, QStringLiteral("Traceback:"), result.traceback.trimmed(),
                       limits.tracebackChars);
    }
    if (result.status == Status::Ok && result.standardOutput.isEmpty() && result.standardError.isEmpty() &&
        result.value.isEmpty() && result.figures.isEmpty() && result.files.isEmpty() && result.refused.isEmpty() &&
        result.figuresNotKept == 0 && result.tables.isEmpty() && result.markdown.isEmpty() && result.svg.isEmpty())
        say(QStringLiteral("(no output: nothing was printed and the last line was not an expression)"));
    return report.text();
}

} // namespace Sandpiper
