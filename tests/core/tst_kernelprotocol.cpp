// What the kernel says, read without an engine: lines as the kernel writes them and as a hostile
// sandbox could (oversize, broken, of the wrong types, for other runs), and the caps of a run.
#include "sandboxfiles.h"

#include <sandbox/kernelprotocol.h>
#include <sandbox/sandboxfolder.h>

#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Sandpiper;
using Sandpiper::Test::pngHeader;
using Sandpiper::Test::writeFile;
using Status = ExecutionResult::Status;

namespace {

KernelProtocol::Limits limits(qint64 outputLimitBytes = 1024 * 1024, int maxFigures = 20, bool network = false,
                              bool remote = false)
{
    return {.outputLimitBytes = outputLimitBytes, .maxFigures = maxFigures, .network = network, .remote = remote};
}

QByteArray resultLine(const QByteArray &id, const QByteArray &rest = {})
{
    return "{\"id\": \"" + id + "\", \"event\": \"result\", \"status\": \"ok\", \"value\": null, \"error\": null, " +
           "\"duration_ms\": 5, \"files\": [], \"removed\": [], \"dropped\": {\"stdout\": 0, \"stderr\": 0}, " +
           "\"figures_dropped\": 0" + rest + "}\n";
}

bool anyContains(const QStringList &sentences, const QString &part)
{
    return std::any_of(sentences.cbegin(), sentences.cend(),
                       [&part](const QString &sentence) { return sentence.contains(part); });
}

} // namespace

class TestKernelProtocol : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // The run "1" on a protocol over the temporary folder, after LINES; finished.
    ExecutionResult run(const QByteArray &lines, KernelProtocol::Limits runLimits = limits())
    {
        KernelProtocol protocol{SandboxFolder(m_dir.path())};
        protocol.begin(QStringLiteral("1"), runLimits);
        protocol.read(lines);
        protocol.finish();
        return protocol.take();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("figures/a.png")), pngHeader(40, 30)));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("figures/b.png")), pngHeader(40, 30)));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("figures/huge.png")), pngHeader(100000, 30)));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("out.csv")), "a,b\n1,2\n"));
        QVERIFY(::symlink("/etc/passwd", QFile::encodeName(m_dir.filePath(QStringLiteral("passwd"))).constData()) == 0);
    }

    // The file channel's pieces reach their fetch only for the running run, written as the kernel
    // writes them (read without the JSON parser) or otherwise; a long line in many pieces is whole.
    void fileDataIsTheRunningRunsOnly()
    {
        KernelProtocol protocol{SandboxFolder(m_dir.path())};
        QSignalSpy data(&protocol, &KernelProtocol::fileData);
        QSignalSpy sent(&protocol, &KernelProtocol::filesSent);
        const QByteArray piece = QByteArray(300000, 'A');
        const QByteArray line = "{\"event\":\"file_data\",\"id\":\"1\",\"data\":\"" + piece + "\"}\n";
        protocol.read(line); // no run yet
        protocol.begin(QStringLiteral("1"), limits());
        for (qsizetype i = 0; i < line.size(); i += 4096)
            protocol.read(line.sliced(i, std::min<qsizetype>(4096, line.size() - i)));
        protocol.read("{\"event\": \"file_data\", \"id\": \"1\", \"data\": \"QUJD\"}\n"
                      "{\"event\":\"file_data\",\"id\":\"2\",\"data\":\"QUJD\"}\n"
                      "{\"event\":\"file_data\",\"id\":\"1\",\"data\":\"QU\\\"JD\"}\n"
                      "{\"id\": \"1\", \"event\": \"files_sent\"}\n");
        QCOMPARE(data.count(), 3);
        QCOMPARE(data.at(0).at(0).toByteArray(), piece);
        QCOMPARE(data.at(1).at(0).toByteArray(), QByteArray("QUJD"));
        QCOMPARE(data.at(2).at(0).toByteArray(), QByteArray("QU\"JD")); // the parser's reading
        QCOMPARE(sent.count(), 1);
        protocol.finish();
        protocol.read(line);
        QCOMPARE(data.count(), 3);
    }

    // A run's first result is its result; a second one, forged or late, is stray.
    void aSecondResultIsStray()
    {
        KernelProtocol protocol{SandboxFolder(m_dir.path())};
        QSignalSpy reported(&protocol, &KernelProtocol::resultReported);
        protocol.begin(QStringLiteral("1"), limits());
        protocol.read(QByteArray(resultLine("1", ", \"sizes\": {\"out.csv\": 8}") + resultLine("1")));
        QCOMPARE(reported.count(), 1);
        QCOMPARE(reported.at(0).at(3).toJsonObject().value(QLatin1String("out.csv")).toInteger(), 8);
        protocol.finish();
        QVERIFY(anyContains(protocol.take().refused, QStringLiteral("not running were ignored: 1")));
    }

    void readsARunAsTheKernelWritesIt()
    {
        KernelProtocol protocol{SandboxFolder(m_dir.path())};
        QSignalSpy ready(&protocol, &KernelProtocol::ready);
        QSignalSpy output(&protocol, &KernelProtocol::output);
        QSignalSpy reported(&protocol, &KernelProtocol::resultReported);
        const QByteArray lines =
            "{\"event\": \"ready\", \"python\": \"3.12.1\", \"pid\": 7}"
            "\n"
            "{\"id\": \"1\", \"event\": \"stream\", \"name\": \"stdout\", \"text\": \"hello\\n\"}"
            "\n"
            "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"text/markdown\", \"data\": \"**bold**\", "
            "\"of_value\": true}"
            "\n"
            "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"image/png\", \"path\": \"figures/a.png\"}"
            "\n"
            "{\"id\": \"1\", \"event\": \"result\", \"status\": \"error\", \"value\": \"42\", \"error\": {\"type\": "
            "\"ValueError\", "
            "\"message\": \"bad\", \"traceback\": \"Traceback\"}, \"duration_ms\": 3, \"files\": [\"out.csv\", "
            "\"passwd\"], "
            "\"removed\": [\"old.txt\"], \"dropped\": {\"stdout\": 2, \"stderr\": 0}, \"figures_dropped\": 1}"
            "\n";
        protocol.read(lines.first(10)); // the ready line in pieces
        QCOMPARE(ready.count(), 0);
        protocol.begin(QStringLiteral("1"), limits());
        QTest::qSleep(5); // longer than the kernel says the run took: its word is possible
        // Byte by byte: a line is handled once it is whole, whatever the pieces.
        for (qsizetype i = 10; i < lines.size(); ++i)
            protocol.read(lines.sliced(i, 1));
        QCOMPARE(ready.count(), 1);
        QCOMPARE(output.count(), 1);
        QCOMPARE(output.first().at(1).toString(), QStringLiteral("hello\n"));
        QCOMPARE(reported.count(), 1);
        QCOMPARE(reported.first().at(0).toString(), QStringLiteral("1"));
        QCOMPARE(reported.first().at(1).toJsonArray(),
                 QJsonArray({QStringLiteral("out.csv"), QStringLiteral("passwd")}));
        QCOMPARE(reported.first().at(2).toJsonArray(), QJsonArray({QStringLiteral("old.txt")}));
        QVERIFY(protocol.isRunning()); // until the session ends it
        protocol.acceptFiles(reported.first().at(1).toJsonArray());
        QCOMPARE(protocol.finish(), QStringLiteral("1"));
        QVERIFY(!protocol.isRunning());
        // A late line of the finished run changes nothing.
        protocol.read("{\"id\": \"1\", \"event\": \"stream\", \"name\": \"stdout\", \"text\": \"late\"}"
                      "\n");
        const ExecutionResult result = protocol.take();
        QVERIFY(!protocol.hasRun());
        QCOMPARE(result.status, Status::Error);
        QCOMPARE(result.value, QStringLiteral("42"));
        QCOMPARE(result.errorType, QStringLiteral("ValueError"));
        QCOMPARE(result.errorMessage, QStringLiteral("bad"));
        QCOMPARE(result.traceback, QStringLiteral("Traceback"));
        QCOMPARE(result.standardOutput, QStringLiteral("hello\n"));
        QCOMPARE(result.droppedStdoutBytes, qint64(2));
        QCOMPARE(result.markdown, QStringList{QStringLiteral("**bold**")});
        QCOMPARE(result.valueDisplays.markdown, QList<int>{0});
        QCOMPARE(result.figures, QStringList{QStringLiteral("figures/a.png")});
        QCOMPARE(result.figuresNotKept, 1);
        QCOMPARE(result.durationMs, qint64(3));
        // The link is refused with its reason; the regular file is listed.
        QCOMPARE(result.files, QStringList{QStringLiteral("out.csv")});
        QCOMPARE(result.refused.size(), qsizetype(1));
        QVERIFY2(result.refused.first().contains(QStringLiteral("passwd")), qPrintable(result.refused.first()));
    }

    void announcesThePreload()
    {
        KernelProtocol protocol{SandboxFolder(m_dir.path())};
        QSignalSpy preloaded(&protocol, &KernelProtocol::preloaded);
        QSignalSpy reported(&protocol, &KernelProtocol::resultReported);
        protocol.read(resultLine("preload"));
        QCOMPARE(preloaded.count(), 1);
        QCOMPARE(reported.count(), 0);
    }

    void skipsALineOverTheLimit_data()
    {
        QTest::addColumn<int>("pieces");
        QTest::newRow("in one piece") << 1;
        QTest::newRow("in pieces") << 17;
    }

    void skipsALineOverTheLimit()
    {
        QFETCH(int, pieces);
        KernelProtocol protocol{SandboxFolder(m_dir.path())};
        QSignalSpy output(&protocol, &KernelProtocol::output);
        protocol.begin(QStringLiteral("1"), limits());
        // A stream event that would be valid but for its size, then an honest one.
        const QByteArray huge = "{\"id\": \"1\", \"event\": \"stream\", \"name\": \"stdout\", \"text\": \"" +
                                QByteArray(KernelProtocol::maxLineBytes + 1024, 'x') + "\"}\n";
        const qsizetype piece = huge.size() / pieces + 1;
        for (qsizetype at = 0; at < huge.size(); at += piece)
            protocol.read(QByteArrayView(huge).sliced(at, std::min(piece, huge.size() - at)));
        protocol.read(QByteArray("{\"id\": \"1\", \"event\": \"stream\", \"name\": \"stdout\", \"text\": \"after\"}"
                                 "\n" +
                                 resultLine("1")));
        QCOMPARE(output.count(), 1);
        protocol.finish();
        const ExecutionResult result = protocol.take();
        QCOMPARE(result.standardOutput, QStringLiteral("after"));
        QCOMPARE(result.status, Status::Ok);
        QCOMPARE(result.refused.size(), qsizetype(1));
        QVERIFY2(result.refused.first().contains(QStringLiteral("it was ignored")), qPrintable(result.refused.first()));
    }

    void countsLinesThatAreNoEvents()
    {
        const ExecutionResult result =
            run("not json\n"
                "[1, 2, 3]\n"
                "{\"id\": \"1\", \"event\": \"stream\", \"name\": \"stdout\", \"text\": \"\xff\xfe\"}\n"
                "\"a string\"\n"
                "\n" +
                resultLine("1"));
        QCOMPARE(result.status, Status::Ok);
        QVERIFY2(anyContains(result.refused, QStringLiteral("(JSON objects in UTF-8) were ignored: 5.")),
                 qPrintable(result.refused.join(u'|')));
    }

    void takesNothingOfTheWrongType()
    {
        const ExecutionResult result =
            run("{\"id\": \"1\", \"event\": \"stream\", \"name\": \"stdout\", \"text\": 42}"
                "\n"
                "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"image/png\", \"path\": [\"figures/a.png\"]}"
                "\n"
                "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"application/vnd.sandpiper.table+json\", "
                "\"table\": \"rows\"}"
                "\n"
                "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"text/markdown\", \"data\": {\"x\": 1}}"
                "\n"
                "{\"id\": \"1\", \"event\": \"result\", \"status\": 5, \"value\": [1], \"error\": \"boom\", "
                "\"duration_ms\": \"9\", "
                "\"files\": \"out.csv\", \"removed\": 3, \"dropped\": {\"stdout\": -50, \"stderr\": \"7\"}, "
                "\"figures_dropped\": 1e15}"
                "\n");
        QCOMPARE(result.status, Status::Error); // no word the kernel knows: not ok
        QCOMPARE(result.standardOutput, QString());
        QVERIFY(result.value.isEmpty());
        QVERIFY(result.errorType.isEmpty());
        QVERIFY(result.files.isEmpty());
        QVERIFY(result.tables.isEmpty());
        QCOMPARE(result.droppedStdoutBytes, qint64(0));
        QCOMPARE(result.droppedStderrBytes, qint64(0));
        QCOMPARE(result.figuresNotKept, 1000000);
        QVERIFY(result.figures.isEmpty());
        QCOMPARE(result.refused.size(), qsizetype(1)); // the figure without a name
        // A duration that is no number is the host's own measure.
        QVERIFY(result.durationMs >= 0);
    }

    void believesTheKernelsDurationOnlyWhenPossible()
    {
        const ExecutionResult result = run(resultLine("1").replace("\"duration_ms\": 5", "\"duration_ms\": 99999999"));
        QVERIFY2(result.durationMs < 99999999, qPrintable(QString::number(result.durationMs)));
    }

    void countsEventsForOtherRuns()
    {
        KernelProtocol protocol{SandboxFolder(m_dir.path())};
        QSignalSpy reported(&protocol, &KernelProtocol::resultReported);
        // Before any run: ignored, not counted.
        protocol.read(resultLine("1"));
        QCOMPARE(reported.count(), 0);
        protocol.begin(QStringLiteral("2"), limits());
        protocol.read(
            QByteArray(resultLine("1") + resultLine("3") +
                       "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"text/markdown\", \"data\": \"forged\"}"
                       "\n"
                       // Late output of a background thread has no id: not counted.
                       "{\"event\": \"stream\", \"name\": \"stdout\", \"text\": \"late\"}"
                       "\n" +
                       resultLine("2")));
        QCOMPARE(reported.count(), 1);
        QCOMPARE(reported.first().at(0).toString(), QStringLiteral("2"));
        protocol.finish();
        const ExecutionResult result = protocol.take();
        QVERIFY(result.markdown.isEmpty());
        QVERIFY(result.standardOutput.isEmpty());
        QVERIFY2(anyContains(result.refused, QStringLiteral("not running were ignored: 3.")),
                 qPrintable(result.refused.join(u'|')));
    }

    void capsTheOutput()
    {
        KernelProtocol protocol{SandboxFolder(m_dir.path())};
        QSignalSpy output(&protocol, &KernelProtocol::output);
        protocol.begin(QStringLiteral("1"), limits(10));
        protocol.read(QByteArray(
            "{\"id\": \"1\", \"event\": \"stream\", \"name\": \"stderr\", \"text\": \"0123456789abcdefghijklmno\"}"
            "\n"
            "{\"id\": \"1\", \"event\": \"stream\", \"name\": \"stderr\", \"text\": \"more\"}"
            "\n"
            "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"image/svg+xml\", \"data\": \"<svg/>\"}"
            "\n"
            "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"text/markdown\", \"data\": \"too long now\"}"
            "\n" +
            resultLine("1")));
        protocol.finish();
        const ExecutionResult result = protocol.take();
        QCOMPARE(result.standardError, QStringLiteral("0123456789"));
        QCOMPARE(result.droppedStderrBytes, qint64(19));
        // Live output is shown whole; only what is kept is capped.
        QCOMPARE(output.count(), 2);
        QCOMPARE(result.svg, QStringList{QStringLiteral("<svg/>")});
        QVERIFY(result.markdown.isEmpty());
    }

    void capsTheTables()
    {
        QByteArray lines;
        for (int i = 0; i < KernelProtocol::maxTables + 3; ++i)
            lines += "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"application/vnd.sandpiper.table+json\", "
                     "\"table\": {\"table_id\": \"t\", \"columns\": [\"a\"], \"dtypes\": [\"int64\"], \"rows\": [[1]]}}"
                     "\n";
        const ExecutionResult result = run(lines + resultLine("1"));
        QCOMPARE(result.tables.size(), qsizetype(KernelProtocol::maxTables));
        QVERIFY2(anyContains(result.notes, QStringLiteral("(%1 per run)").arg(KernelProtocol::maxTables)),
                 qPrintable(result.notes.join(u'|')));
    }

    void checksAndCapsTheFigures()
    {
        QByteArray lines;
        for (const char *path :
             {"figures/a.png", "figures/huge.png", "../outside.png", "passwd", "figures/b.png", "figures/a.png"})
            lines += "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"image/png\", \"path\": \"" +
                     QByteArray(path) + "\"}\n";
        const ExecutionResult result = run(lines + resultLine("1"), limits(1024, 2));
        QCOMPARE(result.figures, QStringList({QStringLiteral("figures/a.png"), QStringLiteral("figures/b.png")}));
        QCOMPARE(result.figuresNotKept, 1);
        QCOMPARE(result.refused.size(), qsizetype(3));
        QVERIFY2(anyContains(result.refused, QStringLiteral("huge.png")), qPrintable(result.refused.join(u'|')));
    }

    void capsTheRefusals()
    {
        QByteArray lines;
        for (int i = 0; i < 30; ++i)
            lines += "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"image/png\", \"path\": \"../f" +
                     QByteArray::number(i) + ".png\"}\n";
        for (int i = 0; i < 5; ++i)
            lines += "junk\n";
        const ExecutionResult result = run(lines + resultLine("1"), limits(1024, 100));
        // Twenty figures refused, a sentence each; the others only counted.
        QCOMPARE(result.figuresNotKept, 10);
        QCOMPARE(result.refused.size(), qsizetype(KernelProtocol::maxRefusals + 1));
        QCOMPARE(result.refused.last(), QStringLiteral("Further refusals, not listed: 1."));
    }

    void tellsWhyPipFailedWithoutTheNetwork()
    {
        const QByteArray failure = "{\"id\": \"1\", \"event\": \"stream\", \"name\": \"stderr\", \"text\": \"ERROR: No "
                                   "matching distribution found for x\"}"
                                   "\n" +
                                   resultLine("1");
        QVERIFY(anyContains(run(failure).notes, QStringLiteral("no network access")));
        QVERIFY(run(failure, limits(1024, 20, true)).notes.isEmpty());
        QVERIFY(run(resultLine("1")).notes.isEmpty());
    }

    void timesOutWhenTheTimeoutInterrupted()
    {
        KernelProtocol protocol{SandboxFolder(m_dir.path())};
        protocol.begin(QStringLiteral("1"), limits());
        protocol.setInterruptedByTimeout(true);
        protocol.read(resultLine("1").replace("\"status\": \"ok\"", "\"status\": \"interrupted\""));
        protocol.finish();
        const ExecutionResult result = protocol.take();
        QCOMPARE(result.status, Status::Interrupted);
        QVERIFY(result.timedOut);
        QVERIFY(run(resultLine("1", ", \"reason\": \"timeout\"")).timedOut);
        QVERIFY(!run(resultLine("1")).timedOut);
    }

    void keepsARemoteEnginesFiguresAsNames()
    {
        KernelProtocol protocol{SandboxFolder(m_dir.path())};
        protocol.begin(QStringLiteral("1"), limits(1024, 2, false, true));
        QByteArray lines;
        for (const char *path : {"figures/r.png", "figures/r.png", "../x.png", "figures/s.png"})
            lines += "{\"id\": \"1\", \"event\": \"display\", \"mime\": \"image/png\", \"path\": \"" +
                     QByteArray(path) + "\"}\n";
        protocol.read(lines);
        // Not looked for here: they are not here yet.
        QVERIFY(protocol.result().figures.isEmpty());
        QVERIFY(protocol.result().refused.isEmpty());
        const KernelProtocol::RemoteNames names = protocol.remoteNames(
            QJsonArray{QStringLiteral("data.csv"), QStringLiteral("/etc/passwd"), QStringLiteral("data.csv")});
        QCOMPARE(names.figures, QStringList({QStringLiteral("figures/r.png"), QStringLiteral("figures/s.png")}));
        QCOMPARE(names.files, QStringList{QStringLiteral("data.csv")});
        QCOMPARE(protocol.takeRemoteFigures().size(), qsizetype(4));
        QVERIFY(protocol.takeRemoteFigures().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestKernelProtocol)
#include "tst_kernelprotocol.moc"
