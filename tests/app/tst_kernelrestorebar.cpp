// "Restore variables" in the window (issue 17): the bar offers a reopened conversation's
// variables, asks before cells that write files run again, shows the replay's progress with
// Stop, against the real sandbox; with SANDPIPER_SCREENSHOT_DIR set it also saves its picture.
#include "agentrecorder.h"
#include "dockertest.h"

#include <kernelrestorebar.h>
#include <session/conversationsession.h>
#include <session/messagemodel.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace std::chrono_literals;
using namespace Sandpiper;

namespace {

// Clicks the button called CLICK of the next message box, keeping its text in TEXT.
void answerNextMessageBox(const QString &click, QString *text)
{
    auto *poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [poll, click, text] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box)
            return;
        *text = box->text() + QLatin1Char('\n') + box->informativeText();
        for (QAbstractButton *button : box->buttons()) {
            if (button->text() == click) {
                button->click();
                break;
            }
        }
        poll->deleteLater();
    });
    poll->start(20);
}

StoredExecution cell(qint64 conversationId, const QString &code)
{
    StoredExecution execution;
    execution.conversationId = conversationId;
    execution.code = code;
    execution.origin = RunOrigin::User;
    execution.result.status = ExecutionResult::Status::Ok;
    return execution;
}

} // namespace

class TestKernelRestoreBar : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { SANDPIPER_REQUIRE_DOCKER(); }

    void restoresFromTheBarAndSkipsWhatWritesFiles()
    {
        ConversationStore store(m_dir.filePath(QStringLiteral("data")));
        QVERIFY(store.open().ok());
        const qint64 id = store.createConversation(QStringLiteral("custom"), QStringLiteral("m"))->id;
        const QString folder = store.conversationFolder(id);
        QVERIFY(QDir().mkpath(folder));
        for (const QString &code :
             {QStringLiteral("x = 6"), QStringLiteral("open('/mnt/data/out.txt', 'w').write('again')"),
              QStringLiteral("import time\ntime.sleep(0.5)\ny = x * 7")})
            QVERIFY(store.addExecution(cell(id, code)).ok());

        ConversationSession session(
            id, &store, Test::agentConfig(QUrl(QStringLiteral("http://127.0.0.1:9/v1")), ApprovalPolicy::Auto, folder));
        QVERIFY(session.load().ok());
        KernelRestoreBar bar;
        bar.resize(900, 60);
        bar.setSession(&session);
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        QVERIFY(bar.restoreButton()->isVisible());
        QVERIFY(!bar.progressBar()->isVisible());
        QVERIFY2(bar.textLabel()->text().contains(QLatin1String("3 earlier successful cell(s)")),
                 qPrintable(bar.textLabel()->text()));
        QCOMPARE(bar.restoreButton()->accessibleName(), QStringLiteral("Restore variables"));
        const QImage offer = bar.grab().toImage();
        QVERIFY(!offer.isNull());
        if (const QString shots = qEnvironmentVariable("SANDPIPER_SCREENSHOT_DIR"); !shots.isEmpty())
            QVERIFY(QDir().mkpath(shots) && offer.save(shots + QStringLiteral("/restore-variables.png")));

        bool sawProgress = false;
        connect(&session, &ConversationSession::stateChanged, &bar, [&] {
            sawProgress = sawProgress || (bar.progressBar()->isVisible() && bar.stopButton()->isVisible() &&
                                          !bar.restoreButton()->isVisible());
        });
        QString asked;
        answerNextMessageBox(QStringLiteral("&Skip those cells"), &asked);
        QTest::mouseClick(bar.restoreButton(), Qt::LeftButton);
        QVERIFY2(asked.contains(QLatin1String("cell 2 (open('/mnt/data/out.txt', 'w').write('again')): its code "
                                              "opens a file for writing")),
                 qPrintable(asked));
        QTRY_VERIFY_WITH_TIMEOUT(!session.isBusy(), 60000);
        QVERIFY(sawProgress);
        QVERIFY(!bar.isVisible());
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/out.txt")));
        const TurnItem notice = session.messages()->item(session.messages()->rowCount() - 1);
        QCOMPARE(notice.kind, TurnItem::Kind::Notice);
        QVERIFY2(notice.text.contains(QLatin1String("2 of 3 cells ran again")), qPrintable(notice.text));
        QVERIFY2(notice.text.contains(QLatin1String("1 cell(s) that write files were skipped")),
                 qPrintable(notice.text));

        // The variables are there for the next code.
        session.runUserCode(QStringLiteral("x * 7 == y"));
        QTRY_VERIFY_WITH_TIMEOUT(!session.isBusy(), 60000);
        const auto executions = store.executions(id);
        QCOMPARE(executions->constLast().result.value, QStringLiteral("True"));
    }

    // On the way to another branch the bar says so, in words of its own, and its buttons too.
    void bringsTheSandboxToTheBranchInItsOwnWords()
    {
        ConversationStore store(m_dir.filePath(QStringLiteral("branch")));
        QVERIFY(store.open().ok());
        const qint64 id = store.createConversation(QStringLiteral("custom"), QStringLiteral("m"))->id;
        ConversationSession session(id, &store,
                                    Test::agentConfig(QUrl(QStringLiteral("http://127.0.0.1:9/v1")),
                                                      ApprovalPolicy::Auto, store.conversationFolder(id)));
        QVERIFY(session.load().ok());
        KernelRestoreBar bar;
        bar.resize(900, 60);
        bar.setSession(&session);
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        const QString shots = qEnvironmentVariable("SANDPIPER_SCREENSHOT_DIR");

        AgentEvent offered;
        offered.kind = AgentEvent::Kind::RestoreOffered;
        offered.restore.branch = true;
        offered.restore.cells = 3;
        offered.restore.reason = KernelRestore::branchReason();
        session.handle(offered);
        QVERIFY(bar.isVisible());
        QVERIFY2(bar.textLabel()->text().contains(QLatin1String("another branch's variables")),
                 qPrintable(bar.textLabel()->text()));
        QVERIFY2(bar.textLabel()->text().contains(QLatin1String("3 cell(s) of this branch")),
                 qPrintable(bar.textLabel()->text()));
        QCOMPARE(bar.restoreButton()->text(), QStringLiteral("&Bring to this branch"));
        QCOMPARE(bar.dismissButton()->text(), QStringLiteral("Continue &without"));
        QCOMPARE(bar.restoreButton()->accessibleName(), QStringLiteral("Bring the sandbox to this branch"));
        if (!shots.isEmpty())
            QVERIFY(QDir().mkpath(shots) && bar.grab().save(shots + QStringLiteral("/branch-offer.png")));

        AgentEvent progress;
        progress.kind = AgentEvent::Kind::RestoreProgress;
        progress.restore = offered.restore;
        progress.restore.done = 1;
        progress.text = KernelRestore::cellName(1, QStringLiteral("df = load()"));
        session.handle(progress);
        QVERIFY(bar.progressBar()->isVisible());
        QCOMPARE(bar.textLabel()->text(),
                 QStringLiteral("Bringing the sandbox to this branch, 2 of 3: cell 2 (df = load())"));
        QCOMPARE(bar.stopButton()->text(), QStringLiteral("S&top and continue without"));
        QCOMPARE(bar.progressBar()->accessibleName(), QStringLiteral("Bringing the sandbox to this branch"));
        if (!shots.isEmpty())
            QVERIFY(bar.grab().save(shots + QStringLiteral("/branch-progress.png")));

        // A lost kernel's offer afterwards speaks of restoring again.
        offered.restore.branch = false;
        offered.restore.reason = KernelRestore::reopenedReason();
        session.handle(offered);
        QCOMPARE(bar.restoreButton()->text(), QStringLiteral("&Restore variables"));
    }
};

QTEST_MAIN(TestKernelRestoreBar)
#include "tst_kernelrestorebar.moc"
