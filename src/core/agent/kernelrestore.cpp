#include "agent/kernelrestore.h"

#include <QRegularExpression>

namespace Sandpiper {

namespace {

// Calls that write, move or delete files, or run something that may. The kernel's own figures
// do not count: a replay draws none.
struct WritingCall {
    const char *pattern;
    const char *what; // how it is named to the user
};

constexpr WritingCall writingCalls[] = {
    {R"(\bopen\s*\([^)]*,\s*(mode\s*=\s*)?['"][^'"]*[wax+])",
     QT_TRANSLATE_NOOP("Sandpiper::KernelRestore", "opens a file for writing")},
    {R"(\.open\s*\(\s*(mode\s*=\s*)?['"][^'"]*[wax+])",
     QT_TRANSLATE_NOOP("Sandpiper::KernelRestore", "opens a file for writing")},
    {R"(\.to_(csv|excel|parquet|json|pickle|feather|hdf|html|latex|markdown|sql|stata|xml|orc)\s*\(\s*[^)\s])",
     QT_TRANSLATE_NOOP("Sandpiper::KernelRestore", "saves a table to a file")},
    {R"(\.savefig\s*\()", QT_TRANSLATE_NOOP("Sandpiper::KernelRestore", "saves a figure to a file")},
    // Not .write(), .replace() or .rename(): printing, strings and DataFrames use those names.
    {R"(\.(save|dump|write_text|write_bytes|touch|mkdir|unlink|rmdir|extractall)\s*\()",
     QT_TRANSLATE_NOOP("Sandpiper::KernelRestore", "saves, dumps, writes or deletes files")},
    {R"(\b(np|numpy)\.(save|savez|savez_compressed|savetxt)\s*\()",
     QT_TRANSLATE_NOOP("Sandpiper::KernelRestore", "saves an array to a file")},
    {R"(\b(shutil|subprocess|zipfile|tarfile)\.)",
     QT_TRANSLATE_NOOP("Sandpiper::KernelRestore", "copies, archives or runs programs")},
    {R"(\bos\.(remove|unlink|rename|replace|makedirs|mkdir|rmdir|system|popen|link|symlink)\s*\()",
     QT_TRANSLATE_NOOP("Sandpiper::KernelRestore", "changes files through os")},
    {R"((^|\n)\s*[!%])", QT_TRANSLATE_NOOP("Sandpiper::KernelRestore", "runs a shell command or pip")},
};

QString firstLine(const QString &code)
{
    const QString line = code.trimmed().section(QLatin1Char('\n'), 0, 0).trimmed();
    return line.size() > 60 ? line.left(57) + QStringLiteral("…") : line;
}

} // namespace

QString KernelRestore::writesFiles(const StoredExecution &execution)
{
    const QStringList &files = execution.result.files;
    if (!files.isEmpty()) {
        const QString some = QStringList(files.mid(0, 3)).join(QStringLiteral(", "));
        return files.size() > 3 ? tr("it changed %1 and %n more file(s)", "", int(files.size() - 3)).arg(some)
                                : tr("it changed %1").arg(some);
    }
    static const QList<QRegularExpression> patterns = [] {
        QList<QRegularExpression> compiled;
        for (const WritingCall &call : writingCalls)
            compiled << QRegularExpression(QLatin1String(call.pattern));
        return compiled;
    }();
    for (qsizetype i = 0; i < patterns.size(); ++i) {
        if (patterns[i].match(execution.code).hasMatch())
            return tr("its code %1").arg(tr(writingCalls[i].what));
    }
    return {};
}

QString KernelRestore::reopenedReason()
{
    return tr("Sandpiper was started again or the conversation was reopened");
}

QString KernelRestore::branchReason()
{
    return tr("the conversation moved to another branch");
}

QList<StoredExecution> KernelRestore::replayable(const QList<StoredExecution> &executions)
{
    QList<StoredExecution> result;
    for (const StoredExecution &execution : executions) {
        if (execution.result.status != ExecutionResult::Status::Ok || execution.code.trimmed().isEmpty())
            continue;
        // What the cell printed and showed is not needed again; a long conversation keeps little.
        StoredExecution cell;
        cell.id = execution.id;
        cell.code = execution.code;
        cell.origin = execution.origin;
        cell.created = execution.created;
        cell.result.status = execution.result.status;
        cell.result.files = execution.result.files;
        // Of its tables only their names, which the cell run again gives them.
        for (const DataTable &table : execution.result.tables) {
            DataTable name;
            name.tableId = table.tableId;
            cell.result.tables << name;
        }
        result << cell;
    }
    return result;
}

KernelRestore KernelRestore::offer(const QList<StoredExecution> &executions, const QString &reason)
{
    KernelRestore restore;
    restore.reason = reason;
    restore.cells = int(executions.size());
    for (int i = 0; i < executions.size(); ++i) {
        if (const QString why = writesFiles(executions[i]); !why.isEmpty())
            restore.writers << tr("%1: %2").arg(cellName(i, executions[i].code), why);
    }
    return restore;
}

QString KernelRestore::cellName(int index, const QString &code)
{
    return tr("cell %1 (%2)").arg(index + 1).arg(firstLine(code));
}

QString KernelRestore::failure(const ExecutionResult &result)
{
    using Status = ExecutionResult::Status;
    switch (result.status) {
    case Status::Ok:
        return {};
    case Status::Error:
        return result.errorMessage.isEmpty() ? result.errorType
                                             : tr("%1: %2").arg(result.errorType, result.errorMessage.left(200));
    case Status::Interrupted:
        return result.timedOut ? tr("it timed out") : tr("it was interrupted");
    case Status::Crashed:
        return tr("the kernel died (%1)").arg(result.errorMessage);
    case Status::Unavailable:
        return tr("the sandbox is unavailable (%1)").arg(result.errorMessage);
    }
    return {};
}

QString KernelRestore::modelNote() const
{
    // Plain English, as everything else the tools tell the model.
    QString note;
    if (branch && cells == 0)
        note = QStringLiteral("Note: %1. This branch ran no code before this point, so the Python kernel was started "
                              "afresh: nothing is defined in it.")
                   .arg(reason);
    else if (branch && stopped)
        note = QStringLiteral("Note: %1. Sandpiper began to bring the Python kernel to this branch, but only %2 of "
                              "its %3 successful cells ran again before it stopped: what the others defined is "
                              "missing.")
                   .arg(reason)
                   .arg(restored)
                   .arg(cells);
    else if (branch)
        note = QStringLiteral("Note: %1. Sandpiper brought the Python kernel to this branch by running %2 of its %3 "
                              "successful cells again, in order.")
                   .arg(reason)
                   .arg(restored)
                   .arg(cells);
    else
        note = QStringLiteral("Note: the Python kernel of this conversation was new (%1). Sandpiper restored its state "
                              "by running %2 of the %3 earlier successful cells again, in order.")
                   .arg(reason)
                   .arg(restored)
                   .arg(cells);
    if (!failures.isEmpty())
        note += QStringLiteral(" These failed on replay, so what they defined may be missing: %1.")
                    .arg(failures.join(QStringLiteral("; ")));
    if (skipped > 0)
        note += QStringLiteral(" %1 cells that write files in /mnt/data were not run again, at the user's choice; "
                               "what they defined is missing.")
                    .arg(skipped);
    if (stopped && !branch)
        note += QStringLiteral(" The replay was stopped before the end; later cells did not run again.");
    if (filesBack)
        note += QStringLiteral(" The files in /mnt/data are as this branch left them.");
    else if (!filesProblem.isEmpty())
        note += QStringLiteral(" The files in /mnt/data could not be put back as this branch left them: %1")
                    .arg(filesProblem);
    return note;
}

QString KernelRestore::userSummary() const
{
    QString summary;
    if (branch && cells == 0)
        summary = tr("The sandbox is on this branch: a fresh kernel, since this branch ran no code before.");
    else if (branch)
        summary = stopped ? tr("Bringing the sandbox to this branch stopped after %1 of %2 cells.").arg(done).arg(cells)
                          : tr("The sandbox is on this branch: %1 of %2 cells ran again.").arg(restored).arg(cells);
    else
        summary = stopped ? tr("Restoring the variables stopped after %1 of %2 cells.").arg(done).arg(cells)
                          : tr("The variables were restored: %1 of %2 cells ran again.").arg(restored).arg(cells);
    if (!failures.isEmpty())
        summary += QLatin1Char(' ') + tr("Failed on replay: %1.").arg(failures.join(QStringLiteral("; ")));
    if (skipped > 0)
        summary += QLatin1Char(' ') + tr("%n cell(s) that write files were skipped.", "", skipped);
    if (filesBack)
        summary += QLatin1Char(' ') + tr("The files in the sandbox's folder are as this branch left them.");
    else if (!filesProblem.isEmpty())
        summary +=
            QLatin1Char(' ') + tr("The files could not be put back as this branch left them: %1").arg(filesProblem);
    return summary;
}

} // namespace Sandpiper
