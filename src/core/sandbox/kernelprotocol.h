#pragma once

#include "sandbox/executionresult.h"
#include "sandbox/sandboxfolder.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QObject>

#include <array>
#include <optional>

namespace Sandpiper {

// What a conversation's kernel says on its standard output (JSON lines, see
// sandbox/kernel/kernel.py), read as untrusted input: the model's code runs in the kernel's
// interpreter and can write any line. Lines are size-capped and parsed defensively, events are
// believed only for the run they name, and what a run keeps is capped: output, figures (checked
// beneath the conversation's folder), tables, Markdown and SVG, listed files. What is refused goes
// into the result's `refused`, a sentence each; what was only counted is told once, at the end.
//
// Knows nothing of containers or engines: SandboxSession feeds it the kernel's output and acts on
// its signals.
class KernelProtocol : public QObject
{
    Q_OBJECT

public:
    // What a run may keep, and how its figures are checked.
    struct Limits {
        qint64 outputLimitBytes = 0; // per stream; Markdown and SVG together
        int maxFigures = 0;
        // Whether the sandbox has the network: if not, pip's failures get a note that says why.
        bool network = false;
        // A remote engine's figures are only names until they are copied here (remoteNames()).
        bool remote = false;
    };

    // No honest line comes near this: output is sent in 64 KiB batches, values and HTML are capped
    // at the output limit. A longer line is skipped without being kept.
    static constexpr qsizetype maxLineBytes = 16 * 1024 * 1024;
    // Names of new files checked and listed per run; the rest are only counted.
    static constexpr int maxListedFiles = 1000;
    // Refusals kept per run, a sentence each; the rest are only counted.
    static constexpr int maxRefusals = 20;
    // Tables kept per run; the rest are counted in a note.
    static constexpr int maxTables = 20;

    // FOLDER is the conversation's, where the kernel's figures and files must be.
    explicit KernelProtocol(SandboxFolder folder, QObject *parent = nullptr);

    // A new kernel: what the last one left of a line is dropped.
    void reset();
    // The kernel's output as it comes, in pieces of any size: each whole line is handled.
    void read(QByteArrayView data);

    // Run ID starts: its events are taken, those of any other id are counted as stray.
    void begin(const QString &id, Limits limits);
    // Whether a run waits for its end (finish()).
    bool isRunning() const { return m_run && !m_run->id.isEmpty(); }
    // The running run's id; empty when none runs.
    QString runningId() const { return m_run ? m_run->id : QString(); }
    // Whether a run was begun and not taken yet.
    bool hasRun() const { return m_run.has_value(); }
    // The result of the run begun last, as far as it got; only while hasRun().
    ExecutionResult &result() { return m_run->result; }
    // The run is being interrupted by its timeout (an interrupted result then timed out).
    void setInterruptedByTimeout(bool timeout) { m_run->interruptedByTimeout = timeout; }
    bool interruptedByTimeout() const { return m_run->interruptedByTimeout; }

    // Adds SENTENCE to what the host refused in the run.
    void refuse(const QString &sentence);
    // Keeps the figure at PATH (relative to the folder) if it is one and the run has room for it.
    void acceptFigure(const QString &path);
    // Lists the regular files of FILES (names relative to the folder); refuses the others.
    void acceptFiles(const QJsonArray &files);
    // What a remote engine's kernel reported, to be copied here: the figures (once each) and the
    // files of FILES, with checked names, as many as the run may keep or refuse.
    struct RemoteNames {
        QStringList figures;
        QStringList files;
    };
    RemoteNames remoteNames(const QJsonArray &files) const;
    // The figures a remote engine's kernel reported, as it reported them, taken from the run: each
    // is accepted (acceptFigure) once it is here.
    QStringList takeRemoteFigures();

    // Ends the run: its duration by the host's clock unless the kernel's is possible, and what was
    // only counted, told once. Returns its id.
    QString finish();
    // The result of the run begun last; forgets the run.
    ExecutionResult take();

    // Whether pip failed for want of the network (it was called some other way than %pip).
    static bool pipWantedNetwork(const ExecutionResult &result);

Q_SIGNALS:
    // The kernel is up and reads requests.
    void ready();
    // The libraries of a preload request are imported.
    void preloaded();
    // Live output of the run; stream is "stdout" or "stderr".
    void output(const QString &stream, const QString &text);
    // The run ID reported its result, with the FILES it wrote, their SIZES and (a remote engine's
    // kernel) the names REMOVED it deleted, none checked yet. The run goes on until finish(); a
    // second result of the same run is stray.
    void resultReported(const QString &id, const QJsonArray &files, const QJsonArray &removed,
                        const QJsonObject &sizes);
    // The running run's file channel (a remote engine, see RemoteFileSync): a piece of the tar
    // stream the kernel sends, as it sent it (base64, unchecked); the stream's end; what the
    // kernel says it could not write of an upload.
    void fileData(const QByteArray &base64);
    void filesSent();
    void filesReceived(const QJsonArray &failed, const QJsonArray &errors);

private:
    struct Run {
        QString id;
        Limits limits;
        ExecutionResult result;
        QElapsedTimer elapsed; // since the run began
        qint64 stdoutBytes = 0;
        qint64 stderrBytes = 0;
        bool interruptedByTimeout = false;
        bool durationReported = false;
        bool resultTaken = false; // a later result is stray
        // What went wrong on the protocol, told once at the end.
        int invalidLines = 0;
        int strayEvents = 0;
        int refusedFigures = 0;
        int unlistedFiles = 0;
        int unlistedRefusals = 0;
        qint64 richChars = 0; // Markdown and SVG kept so far
        int tablesDropped = 0;
        QStringList remoteFigures; // reported by a remote engine's kernel, checked once copied
    };
    // How many tables, Markdown, SVG and figures a result holds, in that order.
    using DisplayCounts = std::array<qsizetype, 4>;

    void handleLine(QByteArrayView line);
    // A file_data line as the kernel writes it, read without a JSON parser; false when LINE is not one.
    bool takeFileData(QByteArrayView line);
    void lineTooLong(qint64 bytes);
    void handleEvent(const QJsonObject &event);
    void takeResult(const QJsonObject &event);
    void appendStream(const QString &name, const QString &text);
    void acceptDisplay(const QJsonObject &event);
    void acceptRichDisplay(const QString &mime, const QJsonObject &event);
    void keepRemoteFigure(const QString &path);
    static DisplayCounts displayCounts(const ExecutionResult &result);
    // A display of the cell's last value ("of_value") added what RESULT holds beyond BEFORE.
    static void noteValueDisplay(const DisplayCounts &before, ExecutionResult &result);

    SandboxFolder m_folder;
    QByteArray m_lineBuffer;
    qint64 m_skippedLineBytes = 0; // inside a line too long to keep: what was skipped so far
    std::optional<Run> m_run;
};

} // namespace Sandpiper
