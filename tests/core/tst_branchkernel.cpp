// The kernel follows the branch (issue 27): after an edit, a new answer or a switch to another
// version, the sandbox's variables and the files in /mnt/data are the ones of the branch shown,
// in the real sandbox; a replay can be stopped, fails visibly, and asks first with the network on.
#include "agentrecorder.h"
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "sandboxfiles.h"
#include "testconversation.h"

#include <agent/kernelrestore.h>
#include <session/conversationsession.h>
#include <session/executionmodel.h>
#include <session/messagemodel.h>
#include <storage/conversationstore.h>

#include <QDateTime>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

class TestBranchKernel : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    TestConversation m_data;

    AgentConfig config(bool network = false)
    {
        AgentConfig c = agentConfig(m_server->baseUrl(), ApprovalPolicy::Auto, m_data.folder());
        c.sandbox.executionTimeout = 20s;
        c.sandbox.network = network;
        return c;
    }

    QString folderFile(const QString &name) const { return m_data.folder() + u'/' + name; }

    static bool waitIdle(ConversationSession &session, int timeoutMs = 60000)
    {
        if (!session.isBusy())
            return true;
        QSignalSpy finished(&session, &ConversationSession::turnFinished);
        return finished.wait(timeoutMs);
    }

    // The model's next answer runs CODE, then says it is done; the call's id.
    QString scriptCode(const QString &code)
    {
        const QString callId = QStringLiteral("call_%1").arg(m_server->chatRequests().size());
        m_server->enqueue(FS::openAiToolCalls({{callId, QStringLiteral("execute_python_code"), jsonCode(code)}}));
        m_server->enqueue(FS::openAiText(QStringLiteral("Done.")));
        return callId;
    }

    // What the code that CALLID ran answered, once the turn is over.
    QString resultOf(ConversationSession &session, const QString &callId)
    {
        if (!waitIdle(session))
            return QStringLiteral("(no end of turn)");
        return toolMessageIn(m_server->chatRequests().last(), callId);
    }

    // The user sends TEXT; the answer runs CODE.
    QString ask(ConversationSession &session, const QString &text, const QString &code)
    {
        const QString callId = scriptCode(code);
        session.send(text);
        return resultOf(session, callId);
    }

    // The user edits the first question into TEXT; the answer on that new branch runs CODE.
    QString editFirst(ConversationSession &session, const QString &text, const QString &code)
    {
        const QString callId = scriptCode(code);
        if (!session.resendFrom(firstMessage(session), text))
            return QStringLiteral("(not sent)");
        return resultOf(session, callId);
    }

    qint64 firstMessage(ConversationSession &session) const { return session.messages()->item(0).message.id; }

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

    // A variable and a file of branch 1 are absent on branch 2, and back on branch 1 byte for
    // byte; the model is told what happened to its kernel.
    void theKernelAndTheFolderFollowTheBranch()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QTemporaryDir outside;
        QVERIFY(Test::writeFile(outside.filePath(QStringLiteral("mine.txt")), "the user's file"));
        QVERIFY(m_data.store->attachFile(m_data.id, outside.filePath(QStringLiteral("mine.txt"))).ok());
        ConversationSession session(m_data.id, m_data.store.get(), config());
        QVERIFY(session.load().ok());
        const QByteArray one("branch one \x00\xff", 13);
        QString result = ask(session, QStringLiteral("one"),
                             QStringLiteral("x = 1\nopen('/mnt/data/a.bin', 'wb').write(b'branch one \\x00\\xff')"));
        QVERIFY2(!result.contains(QLatin1String("Error")), qPrintable(result));
        QCOMPARE(Test::readFile(folderFile(QStringLiteral("a.bin"))), one);
        const qint64 question = firstMessage(session);

        // The edit goes on from before the first question: nothing is defined, no file but the user's.
        result = editFirst(session, QStringLiteral("two"),
                           QStringLiteral("import os\ny = 2\n('x' in globals(), os.path.exists('/mnt/data/a.bin'), "
                                          "open('/mnt/data/mine.txt').read())"));
        QVERIFY2(result.contains(QLatin1String("(False, False, \"the user's file\")")), qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("moved to another branch")), qPrintable(result));
        const qint64 edited = firstMessage(session);
        QVERIFY(edited != question);

        // Back on branch 1: x and the file again, not y.
        QSignalSpy finished(&session, &ConversationSession::turnFinished);
        QVERIFY(session.showVersion(question));
        QVERIFY(finished.wait(60000));
        QCOMPARE(Test::readFile(folderFile(QStringLiteral("a.bin"))), one);
        QCOMPARE(Test::readFile(folderFile(QStringLiteral("mine.txt"))), QByteArray("the user's file"));
        result = ask(session, QStringLiteral("check"), QStringLiteral("('x' in globals(), 'y' in globals())"));
        QVERIFY2(result.contains(QLatin1String("(True, False)")), qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("brought the Python kernel to this branch by running 1 of its 1")),
                 qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("/mnt/data are as this branch left them")), qPrintable(result));

        // And branch 2 again: y, no x, no file.
        QVERIFY(session.showVersion(edited));
        QVERIFY(finished.wait(60000));
        QVERIFY(!QFile::exists(folderFile(QStringLiteral("a.bin"))));
        result = ask(session, QStringLiteral("check 2"), QStringLiteral("('x' in globals(), 'y' in globals())"));
        QVERIFY2(result.contains(QLatin1String("(False, True)")), qPrintable(result));
        // The inspector lists the runs of the branch shown only.
        QCOMPARE(session.executions()->rowCount(), 2);
    }

    // A kernel that already ran the first cells of a branch runs only the rest; one on its branch
    // runs nothing when the view comes back to it.
    void aKernelOnTheBranchRunsNothingAgain()
    {
        SANDPIPER_REQUIRE_DOCKER();
        ConversationSession session(m_data.id, m_data.store.get(), config());
        QVERIFY(session.load().ok());
        QVERIFY(!ask(session, QStringLiteral("one"), QStringLiteral("n = 1")).contains(QLatin1String("Error")));
        QVERIFY(!ask(session, QStringLiteral("two"), QStringLiteral("n += 1")).contains(QLatin1String("Error")));
        // A new answer to the second question (without code): the kernel still ran n = 1 and n += 1,
        // but this branch has only n = 1.
        m_server->enqueue(FS::openAiText(QStringLiteral("Another answer.")));
        QVERIFY(session.regenerate());
        QVERIFY(waitIdle(session));
        QSignalSpy finished(&session, &ConversationSession::turnFinished);
        const auto versions = m_data.store->messageVersions(m_data.store->messages(m_data.id)->constLast().id);
        QVERIFY(versions && versions->size() == 2);
        QVERIFY(session.showVersion(versions->first()));
        // Same cells on both versions of the answer: nothing runs.
        QVERIFY(!finished.wait(1500));
        QVERIFY(!session.state().restoring);
        const QString result = ask(session, QStringLiteral("n?"), QStringLiteral("n"));
        QVERIFY2(result.contains(QLatin1String("Value of the last expression:\n2")), qPrintable(result));
        QVERIFY2(!result.contains(QLatin1String("Note:")), qPrintable(result));
    }

    // Stopped on the way, the bar offers to go on, and the model hears that the kernel is not on its
    // branch; a cell that fails on replay stops it there and says which and why.
    void aReplayCanBeStoppedAndACellThatFailsStopsIt()
    {
        SANDPIPER_REQUIRE_DOCKER();
        ConversationSession session(m_data.id, m_data.store.get(), config());
        QVERIFY(session.load().ok());
        QVERIFY(!ask(session, QStringLiteral("slow"), QStringLiteral("import time\ntime.sleep(3)\na = 1"))
                     .contains(QLatin1String("Error")));
        QVERIFY(!ask(session, QStringLiteral("then"), QStringLiteral("b = 2")).contains(QLatin1String("Error")));
        const qint64 question = firstMessage(session);
        // Branch 2 from the start: the kernel is emptied by the model's first code there.
        QVERIFY(!editFirst(session, QStringLiteral("other"), QStringLiteral("c = 3")).contains(QLatin1String("Error")));

        // Back to branch 1, stopped during its slow first cell.
        QVERIFY(session.showVersion(question));
        QTRY_VERIFY_WITH_TIMEOUT(session.state().restoring && session.state().restore.branch, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!session.state().restoringCell.isEmpty(), 30000);
        session.stop();
        QVERIFY(waitIdle(session));
        // Stopped by the user, it goes on without: the bar does not ask again.
        QVERIFY(!session.state().restoreOffered);
        QVERIFY(session.state().restore.branch);
        QVERIFY(session.state().restore.stopped);
        // The model hears once what ran, and nothing that contradicts it later.
        QString result = ask(session, QStringLiteral("a?"), QStringLiteral("'a' in globals()"));
        // (The stop may come while the kernel starts, before the first cell can be interrupted.)
        QVERIFY2(result.contains(QLatin1String("began to bring the Python kernel to this branch, but only ")),
                 qPrintable(result));
        QVERIFY2(result.contains(QLatin1String(" of its 2 successful cells ran again before it stopped")),
                 qPrintable(result));
        result = ask(session, QStringLiteral("b?"), QStringLiteral("'b' in globals()"));
        QVERIFY2(!result.contains(QLatin1String("Note:")), qPrintable(result));

        // Asked for later (Restore variables), the cells run (the model's too, in a clean kernel).
        session.restoreVariables(true);
        QVERIFY(waitIdle(session));
        QVERIFY(!session.state().restoring);
        QVERIFY2(!session.state().restore.stopped, qPrintable(session.state().restore.userSummary()));
    }

    // A cell that went well once and fails on the way back stops the replay there, says which and
    // why, and going on runs the cells after it.
    void aCellThatFailsOnReplayStopsItThere()
    {
        SANDPIPER_REQUIRE_DOCKER();
        ConversationSession session(m_data.id, m_data.store.get(), config());
        QVERIFY(session.load().ok());
        // Good for a few seconds only: by the time the branch is shown again it fails.
        const qint64 until = QDateTime::currentSecsSinceEpoch() + 6;
        QVERIFY(!ask(session, QStringLiteral("now"),
                     QStringLiteral("import time\nassert time.time() < %1, 'too late'\na = 1").arg(until))
                     .contains(QLatin1String("Error")));
        QVERIFY(!ask(session, QStringLiteral("then"), QStringLiteral("b = 2")).contains(QLatin1String("Error")));
        const qint64 question = firstMessage(session);
        QVERIFY(!editFirst(session, QStringLiteral("other"), QStringLiteral("c = 3")).contains(QLatin1String("Error")));
        QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentSecsSinceEpoch() > until, 10000);

        QSignalSpy finished(&session, &ConversationSession::turnFinished);
        QVERIFY(session.showVersion(question));
        QVERIFY(finished.wait(60000));
        const KernelRestore stopped = session.state().restore;
        QVERIFY(stopped.branch);
        QVERIFY(stopped.stopped);
        QVERIFY(session.state().restoreOffered);
        QCOMPARE(stopped.failures.size(), 1);
        QVERIFY2(stopped.failures.first().startsWith(QLatin1String("cell 1 (import time)")),
                 qPrintable(stopped.failures.first()));
        QVERIFY2(stopped.failures.first().contains(QLatin1String("AssertionError")),
                 qPrintable(stopped.failures.first()));

        // Going on from there: only the second cell runs.
        session.restoreVariables(true);
        QVERIFY(waitIdle(session));
        QCOMPARE(session.state().restore.restored, 1);
        QVERIFY(!session.state().restore.stopped);
        const QString result = ask(session, QStringLiteral("b?"), QStringLiteral("('a' in globals(), b)"));
        QVERIFY2(result.contains(QLatin1String("(False, 2)")), qPrintable(result));
    }

    // With the network on, a cell run again could act outside the sandbox a second time: it asks.
    void withTheNetworkOnItAsksFirst()
    {
        SANDPIPER_REQUIRE_DOCKER();
        ConversationSession session(m_data.id, m_data.store.get(), config(true));
        QVERIFY(session.load().ok());
        QVERIFY(!ask(session, QStringLiteral("one"), QStringLiteral("x = 1")).contains(QLatin1String("Error")));
        const qint64 question = firstMessage(session);
        const QString told = editFirst(session, QStringLiteral("two"), QStringLiteral("y = 2"));
        QVERIFY2(told.contains(QLatin1String("network access")), qPrintable(told));

        QVERIFY(session.showVersion(question));
        QTRY_VERIFY(session.state().restoreOffered);
        QVERIFY(session.state().restore.branch);
        QVERIFY(!session.state().restoring);
        QCOMPARE(session.state().restore.cells, 1);
    }
};

QTEST_GUILESS_MAIN(TestBranchKernel)
#include "tst_branchkernel.moc"
