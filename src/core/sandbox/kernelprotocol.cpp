#include "sandbox/kernelprotocol.h"

#include "logging.h"
#include "sandbox/sandboxfigure.h"
#include "sandbox/terminaltext.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace Sandpiper {

namespace {

const auto tableMime = QLatin1String("application/vnd.sandpiper.table+json");

} // namespace

KernelProtocol::KernelProtocol(SandboxFolder folder, QObject *parent)
    : QObject(parent)
    , m_folder(std::move(folder))
{}

void KernelProtocol::reset()
{
    m_lineBuffer.clear();
    m_skippedLineBytes = 0;
}

void KernelProtocol::read(QByteArrayView data)
{
    QByteArrayView rest(data);
    if (m_skippedLineBytes > 0) {
        const qsizetype end = rest.indexOf('\n');
        m_skippedLineBytes += end < 0 ? rest.size() : end;
        if (end < 0)
            return;
        lineTooLong(std::exchange(m_skippedLineBytes, 0));
        rest = rest.sliced(end + 1);
    }
    // A long line (the file channel's) comes in many pieces: only the new ones are searched.
    if (!rest.contains('\n')) {
        m_lineBuffer += rest;
        if (m_lineBuffer.size() > maxLineBytes) {
            m_skippedLineBytes = m_lineBuffer.size();
            m_lineBuffer.clear();
        }
        return;
    }
    m_lineBuffer += rest;
    qsizetype start = 0;
    while (true) {
        const qsizetype end = m_lineBuffer.indexOf('\n', start);
        if (end < 0)
            break;
        const QByteArrayView line(m_lineBuffer.constData() + start, end - start);
        start = end + 1;
        if (line.size() > maxLineBytes)
            lineTooLong(line.size());
        else
            handleLine(line);
    }
    m_lineBuffer.remove(0, start);
    if (m_lineBuffer.size() > maxLineBytes) {
        m_skippedLineBytes = m_lineBuffer.size();
        m_lineBuffer.clear();
    }
}

void KernelProtocol::begin(const QString &id, Limits limits)
{
    m_run = Run{.id = id, .limits = limits, .result = {}};
    m_run->elapsed.start();
}

bool KernelProtocol::takeFileData(QByteArrayView line)
{
    // {"event":"file_data","id":"ID","data":"BASE64"}: the only long line there is, parsed by hand
    // for speed. Anything else, the same event written differently too, takes the JSON parser.
    if (!isRunning() || !line.startsWith("{\"event\":\"file_data\",\"id\":\"") || !line.endsWith("\"}"))
        return false;
    const QByteArray head = "{\"event\":\"file_data\",\"id\":\"" + m_run->id.toUtf8() + "\",\"data\":\"";
    if (!line.startsWith(head))
        return false;
    const QByteArrayView data = line.sliced(head.size(), line.size() - head.size() - 2);
    if (data.contains('"') || data.contains('\\'))
        return false;
    Q_EMIT fileData(data.toByteArray());
    return true;
}

void KernelProtocol::handleLine(QByteArrayView line)
{
    if (takeFileData(line))
        return;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line.toByteArray(), &error);
    if (document.isObject()) {
        handleEvent(document.object());
        return;
    }
    qCWarning(lcSandbox) << "not a kernel event:" << line.left(200);
    if (isRunning())
        ++m_run->invalidLines;
}

void KernelProtocol::lineTooLong(qint64 bytes)
{
    qCWarning(lcSandbox) << "the kernel sent a protocol line of" << bytes << "bytes; skipped";
    if (isRunning())
        refuse(tr("The sandbox sent a message of %1, more than the %2 a message may have; it was ignored.")
                   .arg(SandboxFolder::formatBytes(bytes), SandboxFolder::formatBytes(maxLineBytes)));
}

void KernelProtocol::refuse(const QString &sentence)
{
    if (m_run->result.refused.size() < maxRefusals)
        m_run->result.refused << sentence;
    else
        ++m_run->unlistedRefusals;
}

void KernelProtocol::acceptFigure(const QString &path)
{
    ExecutionResult &result = m_run->result;
    // Past the limit nothing is looked at: forged events are only counted.
    if (result.figures.size() >= m_run->limits.maxFigures || m_run->refusedFigures >= maxRefusals) {
        ++result.figuresNotKept;
        return;
    }
    if (const QString problem = SandboxFigure::problem(m_folder, path); !problem.isEmpty()) {
        ++m_run->refusedFigures;
        refuse(problem);
        return;
    }
    result.figures << path;
}

void KernelProtocol::acceptFiles(const QJsonArray &files)
{
    ExecutionResult &result = m_run->result;
    for (const QJsonValue &file : files) {
        if (result.files.size() >= maxListedFiles) {
            ++m_run->unlistedFiles;
            continue;
        }
        // Only regular files inside the folder are offered; a link, a FIFO or a name that
        // leaves the folder is refused with its reason.
        const QString name = file.toString();
        if (result.onEngine.contains(name)) {
            result.files << name; // listed as a regular file there; checked here when fetched
            continue;
        }
        if (const SandboxFolder::Opened opened = m_folder.open(name, std::numeric_limits<qint64>::max()); !opened)
            refuse(opened.error);
        else
            result.files << name;
    }
}

void KernelProtocol::keepRemoteFigure(const QString &path)
{
    // Checked once copied; forged events past what could be kept are only counted.
    if (m_run->remoteFigures.size() >= m_run->limits.maxFigures + maxRefusals)
        ++m_run->result.figuresNotKept;
    else
        m_run->remoteFigures << path;
}

QStringList KernelProtocol::takeRemoteFigures()
{
    return std::exchange(m_run->remoteFigures, {});
}

KernelProtocol::RemoteNames KernelProtocol::remoteNames(const QJsonArray &files) const
{
    RemoteNames names;
    for (const QString &figure : m_run->remoteFigures)
        if (!names.figures.contains(figure) && SandboxFolder::nameProblem(figure).isEmpty())
            names.figures << figure;
    const int room = m_run->limits.maxFigures + maxRefusals + maxListedFiles;
    for (const QJsonValue &file : files)
        if (const QString name = file.toString();
            names.figures.size() + names.files.size() < room && SandboxFolder::nameProblem(name).isEmpty())
            names.files << name;
    names.files.removeDuplicates();
    return names;
}

QString KernelProtocol::finish()
{
    Run &run = *m_run;
    ExecutionResult &result = run.result;
    // The host's clock: a replaced container reports nothing, and the kernel's figure is only
    // believed when it is possible.
    const qint64 elapsed = run.elapsed.elapsed();
    if (!run.durationReported || result.durationMs < 0 || result.durationMs > elapsed)
        result.durationMs = elapsed;
    if (run.unlistedFiles > 0)
        refuse(tr("More new files than are listed were written; not checked or listed: %1.").arg(run.unlistedFiles));
    if (run.invalidLines > 0)
        refuse(tr("Lines from the sandbox that are not valid messages (JSON objects in UTF-8) were ignored: %1.")
                   .arg(run.invalidLines));
    if (run.strayEvents > 0)
        refuse(tr("Events from the sandbox for requests that are not running were ignored: %1.").arg(run.strayEvents));
    if (run.unlistedRefusals > 0)
        result.refused << tr("Further refusals, not listed: %1.").arg(run.unlistedRefusals);
    if (run.tablesDropped > 0)
        result.notes
            << tr("%n more tables were shown than are kept (%1 per run).", nullptr, run.tablesDropped).arg(maxTables);
    // Marked answered, so that a late crash of the same run is not reported twice.
    return std::exchange(run.id, QString());
}

ExecutionResult KernelProtocol::take()
{
    ExecutionResult result = m_run ? std::move(m_run->result) : ExecutionResult{};
    m_run.reset();
    return result;
}

void KernelProtocol::handleEvent(const QJsonObject &event)
{
    const QString kind = event.value(QLatin1String("event")).toString();
    if (kind == QLatin1String("ready")) {
        Q_EMIT ready();
        return;
    }
    const QString id = event.value(QLatin1String("id")).toString();
    if (id == QLatin1String("preload") && kind == QLatin1String("result")) {
        Q_EMIT preloaded();
        return;
    }
    if (!isRunning())
        return; // output of a background thread after the result, or a forged line
    if (id != m_run->id) {
        // Late output of a background thread has no id; an event for another request is forged.
        if (kind != QLatin1String("stream"))
            ++m_run->strayEvents;
        return;
    }
    if (kind == QLatin1String("file_data"))
        Q_EMIT fileData(event.value(QLatin1String("data")).toString().toLatin1());
    else if (kind == QLatin1String("files_sent"))
        Q_EMIT filesSent();
    else if (kind == QLatin1String("files_received"))
        Q_EMIT filesReceived(event.value(QLatin1String("failed")).toArray(),
                             event.value(QLatin1String("errors")).toArray());
    else if (kind == QLatin1String("stream"))
        appendStream(event.value(QLatin1String("name")).toString(), event.value(QLatin1String("text")).toString());
    else if (kind == QLatin1String("display"))
        acceptDisplay(event);
    else if (kind == QLatin1String("result"))
        takeResult(event);
}

void KernelProtocol::takeResult(const QJsonObject &event)
{
    if (m_run->resultTaken) {
        ++m_run->strayEvents;
        return;
    }
    m_run->resultTaken = true;
    ExecutionResult &result = m_run->result;
    const QString status = event.value(QLatin1String("status")).toString();
    result.status = status == QLatin1String("ok")            ? ExecutionResult::Status::Ok
                    : status == QLatin1String("interrupted") ? ExecutionResult::Status::Interrupted
                                                             : ExecutionResult::Status::Error;
    result.value = event.value(QLatin1String("value")).toString();
    const QJsonObject error = event.value(QLatin1String("error")).toObject();
    result.errorType = error.value(QLatin1String("type")).toString();
    if (!error.isEmpty())
        result.errorMessage = error.value(QLatin1String("message")).toString();
    result.traceback = error.value(QLatin1String("traceback")).toString();
    result.durationMs = event.value(QLatin1String("duration_ms")).toInteger(-1);
    m_run->durationReported = true;
    const QJsonObject dropped = event.value(QLatin1String("dropped")).toObject();
    result.droppedStdoutBytes += std::max<qint64>(0, dropped.value(QLatin1String("stdout")).toInteger());
    result.droppedStderrBytes += std::max<qint64>(0, dropped.value(QLatin1String("stderr")).toInteger());
    result.figuresNotKept +=
        int(std::clamp<qint64>(event.value(QLatin1String("figures_dropped")).toInteger(), 0, 1000000));
    if (!m_run->limits.network && pipWantedNetwork(result))
        result.notes << tr("pip could not download packages: this conversation's sandbox has no network access. "
                           "Allow it with the \"Network in sandbox\" switch below the message box.");
    result.timedOut = event.value(QLatin1String("reason")).toString() == QLatin1String("timeout") ||
                      (result.status == ExecutionResult::Status::Interrupted && m_run->interruptedByTimeout);
    // Last: whoever hears it may end the run and begin the next one.
    Q_EMIT resultReported(m_run->id, event.value(QLatin1String("files")).toArray(),
                          event.value(QLatin1String("removed")).toArray(),
                          event.value(QLatin1String("sizes")).toObject());
}

void KernelProtocol::appendStream(const QString &name, const QString &text)
{
    const bool isStdout = name == QLatin1String("stdout");
    ExecutionResult &result = m_run->result;
    QString &target = isStdout ? result.standardOutput : result.standardError;
    qint64 &kept = isStdout ? m_run->stdoutBytes : m_run->stderrBytes;
    qint64 &dropped = isStdout ? result.droppedStdoutBytes : result.droppedStderrBytes;
    const qint64 size = text.size();
    const qint64 limit = m_run->limits.outputLimitBytes;
    // Kept as a terminal shows it: a progress bar's redraws replace its line.
    if (kept + size <= limit) {
        TerminalText::append(target, text);
        kept += size;
    } else {
        const qint64 room = std::max<qint64>(0, limit - kept);
        TerminalText::append(target, QStringView(text).left(room));
        kept += room;
        dropped += size - room;
    }
    Q_EMIT output(name, text);
}

void KernelProtocol::acceptDisplay(const QJsonObject &event)
{
    ExecutionResult &result = m_run->result;
    const QString mime = event.value(QLatin1String("mime")).toString();
    const DisplayCounts before = displayCounts(result);
    if (mime == QLatin1String("image/png"))
        m_run->limits.remote ? keepRemoteFigure(event.value(QLatin1String("path")).toString())
                             : acceptFigure(event.value(QLatin1String("path")).toString());
    else
        acceptRichDisplay(mime, event);
    if (event.value(QLatin1String("of_value")).toBool())
        noteValueDisplay(before, result);
}

void KernelProtocol::acceptRichDisplay(const QString &mime, const QJsonObject &event)
{
    ExecutionResult &result = m_run->result;
    const QString data = event.value(QLatin1String("data")).toString();
    qint64 &shown = m_run->richChars;
    if (mime == tableMime) {
        if (result.tables.size() >= maxTables) {
            ++m_run->tablesDropped;
            return;
        }
        if (auto table = DataTable::fromJson(event.value(QLatin1String("table")).toObject()))
            result.tables << *table;
    } else if ((mime == QLatin1String("text/markdown") || mime == QLatin1String("image/svg+xml")) &&
               shown + data.size() <= m_run->limits.outputLimitBytes) {
        shown += data.size();
        (mime == QLatin1String("text/markdown") ? result.markdown : result.svg) << data;
    }
}

KernelProtocol::DisplayCounts KernelProtocol::displayCounts(const ExecutionResult &result)
{
    return {result.tables.size(), result.markdown.size(), result.svg.size(), result.figures.size()};
}

void KernelProtocol::noteValueDisplay(const DisplayCounts &before, ExecutionResult &result)
{
    // What the display added, if it was kept, is the value's.
    const DisplayCounts after = displayCounts(result);
    ExecutionResult::ValueDisplays &values = result.valueDisplays;
    QList<int> *lists[] = {&values.tables, &values.markdown, &values.svg, &values.figures};
    for (size_t i = 0; i < after.size(); ++i) {
        if (after[i] > before[i])
            *lists[i] << int(after[i] - 1);
    }
}

bool KernelProtocol::pipWantedNetwork(const ExecutionResult &result)
{
    const QString output = result.standardOutput + result.standardError;
    if (output.contains(QLatin1String("Network in sandbox")))
        return false; // the kernel said so already
    return output.contains(QLatin1String("No matching distribution found")) ||
           output.contains(QLatin1String("Could not find a version that satisfies the requirement")) ||
           (output.contains(QLatin1String("pip")) &&
            output.contains(QLatin1String("Temporary failure in name resolution")));
}

} // namespace Sandpiper
