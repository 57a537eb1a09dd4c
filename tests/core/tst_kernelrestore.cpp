// A new kernel gets its conversation's variables back (issue 17): which cells a replay runs and
// which it asks about, the agent replaying in the real sandbox (automatically, on request,
// stopped, with cells that fail or time out), what the model is told, and the session's state.
#include "agentrecorder.h"
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "sandboxfiles.h"
#include "testconversation.h"

#include <agent/agentloop.h>
#include <agent/kernelrestore.h>
#include <session/conversationsession.h>
#include <session/messagemodel.h>
#include <storage/conversationstore.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;
using Kind = AgentEvent::Kind;

namespace {

StoredExecution cell(const QString &code, ExecutionResult::Status status = ExecutionResult::Status::Ok)
{
    StoredExecution execution;
    execution.code = code;
    execution.origin = RunOrigin::Model;
    execution.toolCallId = QStringLiteral("old_%1").arg(qHash(code));
    execution.result.status = status;
    return execution;
}

} // namespace

class TestKernelRestore : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    TestConversation m_data;

    // A conversation whose cells ran in a kernel that is gone: they are in the store only.
    void storeCells(const QList<StoredExecution> &cells)
    {
        for (StoredExecution execution : cells) {
            execution.conversationId = m_data.id;
            QVERIFY(m_data.store->addExecution(execution).ok());
        }
    }

    AgentConfig config(bool automatic)
    {
        AgentConfig c = agentConfig(m_server->baseUrl(), ApprovalPolicy::Auto, m_data.folder());
        c.restoreKernelAutomatically = automatic;
        c.sandbox.executionTimeout = 3s;
        c.sandbox.interruptGrace = 3s;
        return c;
    }

    QString folderFile(const QString &name) const { return m_data.folder() + u'/' + name; }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        const QString opened = m_data.open();
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
    }

    void cleanup()
    {
        m_data.close();
        m_server.reset();
    }

    void findsCellsThatWriteFiles_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("writes");
        QTest::newRow("open for writing") << "with open('/mnt/data/out.txt', 'w') as f:\n    f.write('x')" << true;
        QTest::newRow("open to append") << "f = open(name, mode=\"ab\")" << true;
        QTest::newRow("path open") << "Path('a.txt').open('w')" << true;
        QTest::newRow("to_csv") << "df.to_csv('/mnt/data/clean.csv', index=False)" << true;
        QTest::newRow("to_excel") << "df.to_excel(path)" << true;
        QTest::newRow("savefig") << "plt.savefig('chart.png')" << true;
        QTest::newRow("numpy save") << "np.save('a.npy', a)" << true;
        QTest::newRow("write_text") << "Path('x').write_text('hi')" << true;
        QTest::newRow("os.remove") << "os.remove('old.csv')" << true;
        QTest::newRow("shutil") << "shutil.copy('a', 'b')" << true;
        QTest::newRow("pip") << "%pip install polars" << true;
        QTest::newRow("shell") << "x = 1\n!ls -l" << true;
        QTest::newRow("pickle dump") << "pickle.dump(model, f)" << true;
        QTest::newRow("image save") << "img.save('small.png')" << true;
        QTest::newRow("read") << "df = pd.read_csv('/mnt/data/sales.csv')" << false;
        QTest::newRow("open to read") << "text = open('notes.txt').read()" << false;
        QTest::newRow("open rb") << "data = open('a.bin', 'rb').read()" << false;
        QTest::newRow("to_csv as text") << "s = df.to_csv()" << false;
        QTest::newRow("rename columns") << "df = df.rename(columns={'a': 'b'})" << false;
        QTest::newRow("string replace") << "name = name.replace('-', '_')" << false;
        QTest::newRow("print") << "import sys\nsys.stdout.write('x')\nprint(json.dumps(d))" << false;
        QTest::newRow("modulo") << "x = 10\ny = x % 3" << false;
    }

    void findsCellsThatWriteFiles()
    {
        QFETCH(QString, code);
        QFETCH(bool, writes);
        const QString why = KernelRestore::writesFiles(cell(code));
        QCOMPARE(!why.isEmpty(), writes);
    }

    // What the sandbox saw a cell change counts, whatever its code looks like.
    void filesAChangedCellWroteCount()
    {
        StoredExecution wrote = cell(QStringLiteral("export()"));
        wrote.result.files = {QStringLiteral("a.csv"), QStringLiteral("b.csv"), QStringLiteral("c.csv"),
                              QStringLiteral("d.csv")};
        const QString why = KernelRestore::writesFiles(wrote);
        QVERIFY2(why.contains(QLatin1String("a.csv, b.csv, c.csv")), qPrintable(why));
        QVERIFY2(why.contains(QLatin1String("1 more")), qPrintable(why));
    }

    void onlySuccessfulCellsAreReplayed()
    {
        const QList<StoredExecution> all{
            cell(QStringLiteral("x = 1")), cell(QStringLiteral("1/0"), ExecutionResult::Status::Error),
            cell(QStringLiteral("import time; time.sleep(99)"), ExecutionResult::Status::Interrupted),
            cell(QStringLiteral("  \n")), cell(QStringLiteral("y = x + 1"))};
        const QList<StoredExecution> replayed = KernelRestore::replayable(all);
        QCOMPARE(replayed.size(), 2);
        QCOMPARE(replayed[0].code, QStringLiteral("x = 1"));
        QCOMPARE(replayed[1].code, QStringLiteral("y = x + 1"));
        const KernelRestore offer = KernelRestore::offer(
            {cell(QStringLiteral("x = 1")), cell(QStringLiteral("df.to_csv('a.csv')"))}, QStringLiteral("idle"));
        QCOMPARE(offer.cells, 2);
        QCOMPARE(offer.writers.size(), 1);
        QVERIFY2(offer.writers[0].startsWith(QLatin1String("cell 2 (df.to_csv('a.csv')): ")),
                 qPrintable(offer.writers[0]));
    }

    // A conversation opened with earlier successful cells offers them; the replay's progress and
    // end are the session's state, and the end is a notice in the chat.
    void theSessionOffersAndFollowsARestore()
    {
        storeCells({cell(QStringLiteral("x = 1")), cell(QStringLiteral("1/0"), ExecutionResult::Status::Error)});
        ConversationSession session(m_data.id, m_data.store.get(), config(false));
        QVERIFY(session.load().ok());
        QVERIFY(session.state().restoreOffered);
        QCOMPARE(session.state().restore.cells, 1);
        session.dismissRestore();
        QVERIFY(!session.state().restoreOffered);

        AgentEvent progress;
        progress.kind = Kind::RestoreProgress;
        progress.restore.cells = 3;
        progress.restore.done = 1;
        progress.text = QStringLiteral("cell 2 (y = 2)");
        session.handle(progress);
        QVERIFY(session.state().restoring);
        QCOMPARE(session.state().restoringCell, QStringLiteral("cell 2 (y = 2)"));
        AgentEvent finished;
        finished.kind = Kind::RestoreFinished;
        finished.restore = progress.restore;
        finished.restore.stopped = true;
        finished.text = QStringLiteral("Restoring the variables stopped after 1 of 3 cells.");
        const int rows = session.messages()->rowCount();
        session.handle(finished);
        QVERIFY(!session.state().restoring);
        QVERIFY(session.state().restoreOffered); // stopped: it can be tried again
        QCOMPARE(session.messages()->rowCount(), rows + 1);

        // Nothing to offer without successful cells, or without Python.
        ConversationSession none(m_data.store->createConversation(QString(), QString())->id, m_data.store.get(),
                                 config(false));
        QVERIFY(none.load().ok());
        QVERIFY(!none.state().restoreOffered);
        session.setPythonEnabled(false);
        QVERIFY(!session.state().restoreOffered);
    }

    // With the setting on, the model's next code finds the variables, cells that write files
    // are left alone, and the model is told what was restored and what failed.
    void restoresAutomaticallyBeforeTheModelsCode()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QVERIFY(Test::writeFile(folderFile(QStringLiteral("report.txt")), "the user's edit"));
        storeCells({cell(QStringLiteral("import math\nx = 41")),
                    cell(QStringLiteral("open('/mnt/data/report.txt', 'w').write('replayed')")),
                    cell(QStringLiteral("missing = undefined_name"), ExecutionResult::Status::Error),
                    cell(QStringLiteral("data = open('/mnt/data/gone.csv').read()")),
                    cell(QStringLiteral("y = math.sqrt(x + 8)"))});
        m_server->enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_1"), QStringLiteral("execute_python_code"), jsonCode(QStringLiteral("x + y"))}}));
        m_server->enqueue(FS::openAiText(QStringLiteral("48.")));
        AgentLoop loop(config(true), m_data.store.get(), m_data.id);
        AgentRecorder recorder(&loop);
        loop.send(QStringLiteral("x + y?"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);

        const QString result = toolMessageIn(m_server->chatRequests().at(1), QStringLiteral("call_1"));
        QVERIFY2(result.contains(QLatin1String("Value of the last expression:\n48.0")), qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("restored its state by running 2 of the 4 earlier successful cells")),
                 qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("cell 3 (data = open('/mnt/data/gone.csv').read()): "
                                               "FileNotFoundError")),
                 qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("1 cells that write files in /mnt/data were not run again")),
                 qPrintable(result));
        QCOMPARE(Test::readFile(folderFile(QStringLiteral("report.txt"))), QByteArray("the user's edit"));
        // Replays print nothing into the chat and store nothing: the store holds the model's one cell more.
        QCOMPARE(recorder.ofKind(Kind::RestoreFinished).size(), 1);
        QCOMPARE(recorder.ofKind(Kind::RestoreProgress).size(), 3);
        QCOMPARE(m_data.store->executions(m_data.id)->size(), 6);
        for (const AgentEvent &output : recorder.ofKind(Kind::ToolOutput))
            QCOMPARE(output.call.id, QStringLiteral("call_1"));
    }

    // Asked for, every cell runs again (with the user's consent to those that write files);
    // the model hears of it with its next code. Without the setting, it is told the state is gone.
    void restoresOnRequestAndTellsTheModel()
    {
        SANDPIPER_REQUIRE_DOCKER();
        storeCells({cell(QStringLiteral("x = 2")), cell(QStringLiteral("open('/mnt/data/log.txt', 'a').write('+')"))});
        m_server->enqueue(FS::openAiToolCalls({{QStringLiteral("call_1"), QStringLiteral("execute_python_code"),
                                                jsonCode(QStringLiteral("'x' in globals()"))}}));
        m_server->enqueue(FS::openAiText(QStringLiteral("Gone.")));
        m_server->enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_2"), QStringLiteral("execute_python_code"), jsonCode(QStringLiteral("x * 21"))}}));
        m_server->enqueue(FS::openAiText(QStringLiteral("42.")));
        AgentLoop loop(config(false), m_data.store.get(), m_data.id);
        AgentRecorder recorder(&loop);
        loop.send(QStringLiteral("is x there?"));
        QVERIFY(recorder.waitForTurn());
        const QString lost = toolMessageIn(m_server->chatRequests().at(1), QStringLiteral("call_1"));
        QVERIFY2(lost.contains(QLatin1String("were not restored")), qPrintable(lost));
        QVERIFY2(lost.contains(QLatin1String("False")), qPrintable(lost));

        loop.restoreKernel(true);
        QVERIFY(recorder.waitForTurn(2));
        const AgentEvent finished = recorder.ofKind(Kind::RestoreFinished).value(0);
        // The model's own cell since the kernel was new is one of them, in a kernel started clean.
        QCOMPARE(finished.restore.restored, 3);
        QCOMPARE(finished.restore.skipped, 0);
        QVERIFY(!finished.restore.stopped);
        QVERIFY2(finished.text.contains(QLatin1String("3 of 3 cells ran again")), qPrintable(finished.text));
        QCOMPARE(Test::readFile(folderFile(QStringLiteral("log.txt"))), QByteArray("+"));

        loop.send(QStringLiteral("x * 21?"));
        QVERIFY(recorder.waitForTurn(3));
        const QString restored = toolMessageIn(m_server->chatRequests().at(3), QStringLiteral("call_2"));
        QVERIFY2(restored.contains(QLatin1String("Value of the last expression:\n42")), qPrintable(restored));
        QVERIFY2(restored.contains(QLatin1String("restored its state by running 3 of the 3")), qPrintable(restored));
    }

    // A table shown before the kernel was new can be saved once the variables are restored: the
    // cell run again gives it the name it had.
    void aTableShownBeforeSavesAfterTheRestore()
    {
        SANDPIPER_REQUIRE_DOCKER();
        StoredExecution shown =
            cell(QStringLiteral("import pandas as pd\nframe = pd.DataFrame({'x': [1, 2, 3]})\nframe"));
        DataTable table;
        table.tableId = QStringLiteral("t-0123abcd-1"); // as the kernel named it then
        table.kind = QStringLiteral("DataFrame");
        table.columns = {QStringLiteral("x")};
        table.exportable = true;
        shown.result.tables = {table};
        storeCells({shown});
        AgentLoop loop(config(false), m_data.store.get(), m_data.id);
        AgentRecorder recorder(&loop);
        loop.restoreKernel(true);
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.ofKind(Kind::RestoreFinished).value(0).restore.restored, 1);

        loop.exportTable(QStringLiteral("save-1"), table.tableId, QStringLiteral("csv"), QStringLiteral("frame.csv"));
        QTRY_VERIFY_WITH_TIMEOUT(!recorder.ofKind(Kind::TableExported).isEmpty(), 60000);
        const AgentEvent saved = recorder.ofKind(Kind::TableExported).constFirst();
        QVERIFY2(saved.success, qPrintable(saved.text));
        QCOMPARE(Test::readFile(folderFile(saved.text)), QByteArray("x\n1\n2\n3\n"));
    }

    // A kernel that dies offers the variables back, with why; once the setting is switched on,
    // the model's next code finds them. A restart the user asked for offers nothing.
    void aCrashedKernelOffersTheVariablesBack()
    {
        SANDPIPER_REQUIRE_DOCKER();
        auto python = [](const QString &id, const QString &code) {
            return FS::ScriptedCall{id, QStringLiteral("execute_python_code"), jsonCode(code)};
        };
        m_server->enqueue(FS::openAiToolCalls({python(QStringLiteral("call_1"), QStringLiteral("x = 5"))}));
        m_server->enqueue(
            FS::openAiToolCalls({python(QStringLiteral("call_2"), QStringLiteral("import os; os._exit(3)"))}));
        m_server->enqueue(FS::openAiText(QStringLiteral("It crashed.")));
        m_server->enqueue(FS::openAiToolCalls({python(QStringLiteral("call_3"), QStringLiteral("x * 2"))}));
        m_server->enqueue(FS::openAiText(QStringLiteral("10.")));
        AgentLoop loop(config(false), m_data.store.get(), m_data.id);
        AgentRecorder recorder(&loop);
        loop.send(QStringLiteral("set x, then crash"));
        QVERIFY(recorder.waitForTurn());
        QTRY_COMPARE_WITH_TIMEOUT(recorder.ofKind(Kind::RestoreOffered).size(), 1, 10000);
        const KernelRestore offered = recorder.ofKind(Kind::RestoreOffered).constFirst().restore;
        QCOMPARE(offered.cells, 1);
        QVERIFY(!offered.reason.isEmpty());

        loop.setRestoreAutomatically(true);
        loop.send(QStringLiteral("x * 2?"));
        QVERIFY(recorder.waitForTurn(2));
        const QString result = toolMessageIn(m_server->chatRequests().at(4), QStringLiteral("call_3"));
        QVERIFY2(result.contains(QLatin1String("Value of the last expression:\n10")), qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("restored its state by running 1 of the 1")), qPrintable(result));

        loop.restartSandbox();
        QTest::qWait(300);
        QCOMPARE(recorder.ofKind(Kind::RestoreOffered).size(), 1);
    }

    // A replay that takes too long is stopped by the user within moments; a cell past the
    // time limit fails on its own and the replay goes on.
    void aReplayCanBeStoppedAndCellsTimeOut()
    {
        SANDPIPER_REQUIRE_DOCKER();
        storeCells({cell(QStringLiteral("a = 1")), cell(QStringLiteral("import time\ntime.sleep(6)")),
                    cell(QStringLiteral("b = 2")), cell(QStringLiteral("time.sleep(30)")),
                    cell(QStringLiteral("c = 3"))});
        AgentLoop loop(config(false), m_data.store.get(), m_data.id);
        AgentRecorder recorder(&loop);
        recorder.onEvent = [&loop](const AgentEvent &event) {
            if (event.kind == Kind::RestoreProgress && event.text.contains(QLatin1String("time.sleep(30)")))
                QTimer::singleShot(500, &loop, &AgentLoop::cancel);
        };
        QElapsedTimer timer;
        timer.start();
        loop.restoreKernel(false);
        QVERIFY(recorder.waitForTurn());
        const AgentEvent finished = recorder.ofKind(Kind::RestoreFinished).value(0);
        QVERIFY(finished.restore.stopped);
        QCOMPARE(finished.restore.restored, 2);
        QCOMPARE(finished.restore.failures.size(), 1);
        QVERIFY2(finished.restore.failures[0].contains(QLatin1String("it timed out")),
                 qPrintable(finished.restore.failures[0]));
        QVERIFY2(finished.text.contains(QLatin1String("stopped after 3 of 5 cells")), qPrintable(finished.text));
        QCOMPARE(recorder.end(), AgentEvent::End::Cancelled);
        qInfo("replay with a 3 s timeout and a stop: %lld ms", timer.elapsed());

        // The model learns how far it got, and what is missing.
        m_server->enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_1"), QStringLiteral("execute_python_code"), jsonCode(QStringLiteral("a + b"))}}));
        m_server->enqueue(FS::openAiText(QStringLiteral("3.")));
        loop.send(QStringLiteral("a + b?"));
        QVERIFY(recorder.waitForTurn(2));
        const QString result = toolMessageIn(m_server->chatRequests().at(1), QStringLiteral("call_1"));
        QVERIFY2(result.contains(QLatin1String("Value of the last expression:\n3")), qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("The replay was stopped before the end")), qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("it timed out")), qPrintable(result));
    }
};

QTEST_GUILESS_MAIN(TestKernelRestore)
#include "tst_kernelrestore.moc"
