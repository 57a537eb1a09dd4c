// A new kernel and its conversation's variables, by KernelRestorer alone, with a real store: what
// the model is told before its code runs (once), a kernel the user restarted on purpose, and, in
// the real sandbox, a replay on the user's request and one before the model's code.
#include "agentrecorder.h"
#include "dockertest.h"
#include "testconversation.h"

#include <agent/kernelrestorer.h>
#include <sandbox/sandboxsession.h>
#include <storage/conversationstore.h>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <QCoroTask>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using Kind = AgentEvent::Kind;

class TestKernelRestorer : public QObject
{
    Q_OBJECT

    TestConversation m_data;
    std::unique_ptr<SandboxSession> m_sandbox;
    QList<AgentEvent> m_events;

    // Cells that ran in a kernel that is gone: they are in the store only.
    void storeCells(const QStringList &codes, ExecutionResult::Status status = ExecutionResult::Status::Ok)
    {
        for (const QString &code : codes) {
            StoredExecution execution;
            execution.conversationId = m_data.id;
            execution.code = code;
            execution.origin = RunOrigin::Model;
            execution.result.status = status;
            QVERIFY(m_data.store->addExecution(execution).ok());
        }
    }

    std::unique_ptr<KernelRestorer> restorer(bool automatic)
    {
        auto made = std::make_unique<KernelRestorer>(m_sandbox.get(), m_data.store.get(), m_data.id, automatic);
        connect(made.get(), &KernelRestorer::event, this, [this](const AgentEvent &event) { m_events << event; });
        return made;
    }

    QList<AgentEvent> ofKind(Kind kind) const
    {
        QList<AgentEvent> result;
        for (const AgentEvent &event : m_events) {
            if (event.kind == kind)
                result << event;
        }
        return result;
    }

    QString run(const QString &code)
    {
        const ExecutionResult result = QCoro::waitFor(m_sandbox->execute(code));
        return result.standardOutput.trimmed();
    }

private Q_SLOTS:
    void init()
    {
        m_events.clear();
        const QString opened = m_data.open();
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        const QString folder = m_data.folder();
        // Nothing starts a kernel until code runs.
        m_sandbox = std::make_unique<SandboxSession>(
            agentConfig(QUrl(QStringLiteral("http://127.0.0.1:9/v1")), ApprovalPolicy::Auto, folder).sandbox);
    }

    void cleanup()
    {
        if (m_sandbox)
            m_sandbox->abandon();
        m_sandbox.reset();
        m_data.close();
    }

    void theModelHearsOnceThatTheVariablesAreGone()
    {
        storeCells({QStringLiteral("x = 6"), QStringLiteral("y = x * 7")});
        storeCells({QStringLiteral("z = 1 / 0")}, ExecutionResult::Status::Error);
        const auto restoring = restorer(false);
        const QString note = QCoro::waitFor(restoring->noteBeforeCode());
        QVERIFY2(note.startsWith(QStringLiteral("Note: the Python kernel of this conversation is new (%1): ")
                                     .arg(KernelRestore::reopenedReason())),
                 qPrintable(note));
        QVERIFY2(note.contains(QLatin1String("of the 2 earlier successful cells are gone and were not restored")),
                 qPrintable(note));
        QCOMPARE(QCoro::waitFor(restoring->noteBeforeCode()), QString());
        QVERIFY(m_events.isEmpty());
    }

    void aConversationWithoutCodeHasNothingToTell()
    {
        storeCells({QStringLiteral("1 / 0")}, ExecutionResult::Status::Error);
        const auto restoring = restorer(true);
        QCOMPARE(QCoro::waitFor(restoring->noteBeforeCode()), QString());
        QVERIFY(m_events.isEmpty());
    }

    void aKernelRestartedOnPurposeIsNotRestored()
    {
        storeCells({QStringLiteral("x = 6")});
        const auto restoring = restorer(true);
        restoring->restartKernel();
        QCOMPARE(QCoro::waitFor(restoring->noteBeforeCode()), QString());
        QVERIFY(ofKind(Kind::RestoreProgress).isEmpty());
    }

    void theUserRestoresAndTheModelHearsOfIt()
    {
        SANDPIPER_REQUIRE_DOCKER();
        storeCells(
            {QStringLiteral("x = 6"), QStringLiteral("open('out.txt', 'w').write('a')"), QStringLiteral("y = x * 7")});
        const auto restoring = restorer(false);
        const KernelRestore restore = QCoro::waitFor(restoring->restore(false));
        QCOMPARE(restore.cells, 3);
        QCOMPARE(restore.restored, 2);
        QCOMPARE(restore.skipped, 1);
        QVERIFY(!restore.stopped);
        QCOMPARE(ofKind(Kind::RestoreProgress).size(), 2);
        QCOMPARE(ofKind(Kind::RestoreFinished).size(), 1);
        QCOMPARE(ofKind(Kind::RestoreFinished).first().restore, restore);
        QCOMPARE(ofKind(Kind::RestoreFinished).first().text, restore.userSummary());
        QCOMPARE(run(QStringLiteral("print(y)")), QStringLiteral("42"));
        QVERIFY(!QFile::exists(m_data.folder() + QStringLiteral("/out.txt")));
        // The next code of the model brings the news, once.
        QCOMPARE(QCoro::waitFor(restoring->noteBeforeCode()), QString(restore.modelNote() + QStringLiteral("\n\n")));
        QCOMPARE(QCoro::waitFor(restoring->noteBeforeCode()), QString());
    }

    void theModelsCodeWaitsForAnAutomaticRestore()
    {
        SANDPIPER_REQUIRE_DOCKER();
        storeCells({QStringLiteral("x = 6"), QStringLiteral("y = x * 7")});
        const auto restoring = restorer(true);
        const QString note = QCoro::waitFor(restoring->noteBeforeCode());
        QVERIFY2(note.contains(QLatin1String("restored its state by running 2 of the 2 earlier successful cells")),
                 qPrintable(note));
        QCOMPARE(run(QStringLiteral("print(y)")), QStringLiteral("42"));
        QCOMPARE(ofKind(Kind::RestoreFinished).size(), 1);
        QCOMPARE(QCoro::waitFor(restoring->noteBeforeCode()), QString());
    }
};

QTEST_GUILESS_MAIN(TestKernelRestorer)
#include "tst_kernelrestorer.moc"
