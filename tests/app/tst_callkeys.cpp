// Servers repeat tool-call ids: some count from call_0 in every answer, some give every call of
// one answer the same id. The real window against such scripted servers and the real sandbox:
// each call keeps its own card, its own run in the inspector, and both after a restart (issue 23).
// And the user's own run from the inspector shows in the chat like the model's, with its figure.
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "uiwait.h"
#include "windowfixture.h"

#include <agent/agentthread.h>
#include <chat/chatview.h>
#include <chat/codeeditor.h>
#include <chat/figureview.h>
#include <chat/messagewidget.h>
#include <chat/toolcallcard.h>
#include <codeinspector.h>
#include <composer.h>
#include <mainwindow.h>
#include <session/executionmodel.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

QString codeOfRun(int run)
{
    return QStringLiteral("print('run %1')").arg(run);
}

QString codeIn(ToolCallCard *card)
{
    return card->findChild<CodeEditor *>()->toPlainText();
}

QString outputIn(ToolCallCard *card)
{
    for (QPlainTextEdit *box : card->findChildren<QPlainTextEdit *>()) {
        if (box->accessibleName() == QLatin1String("Output"))
            return box->toPlainText();
    }
    return {};
}

QToolButton *headerOf(ToolCallCard *card)
{
    for (QToolButton *button : card->findChildren<QToolButton *>()) {
        if (button->accessibleName() == QLatin1String("Show the call and its output"))
            return button;
    }
    return nullptr;
}

} // namespace

class TestCallKeys : public QObject
{
    Q_OBJECT

    WindowFixture m_fixture;

    // The cards in the chat show CODES in order, each with what its code printed; the inspector
    // has a run for each, and a click on a card's header shows that card's run there.
    static void checkRuns(MainWindow *window, const QStringList &codes, const QStringList &outputs)
    {
        QTRY_COMPARE_WITH_TIMEOUT(window->chatView()->cards().size(), codes.size(), 20000);
        const ExecutionModel *runs = window->inspector()->model();
        QVERIFY(runs);
        QCOMPARE(runs->rowCount(), codes.size());
        const QList<ToolCallCard *> cards = window->chatView()->cards();
        for (int i = 0; i < cards.size(); ++i) {
            ToolCallCard *card = cards.at(i);
            QCOMPARE(codeIn(card), codes.at(i));
            QTRY_COMPARE(outputIn(card), outputs.at(i));
            QCOMPARE(runs->item(runs->rowCount() - 1 - i).code, codes.at(i)); // newest first
            QTest::mouseClick(headerOf(card), Qt::LeftButton);
            QTRY_COMPARE(window->inspector()->codeEditor()->toPlainText(), codes.at(i));
            QCOMPARE(window->inspector()->standardOutput()->toPlainText(), outputs.at(i) + QLatin1Char('\n'));
            QCOMPARE(window->inspector()->selectedCall(), card->callKey());
        }
    }

private Q_SLOTS:
    void init() { QCOMPARE(m_fixture.startWithSandbox(), QString()); }

    void cleanup() { QVERIFY(m_fixture.finish()); }

    void eachCallKeepsItsCardAndRun_data()
    {
        // The ids of the calls of each answer, one answer per turn of the user.
        QTest::addColumn<QList<QStringList>>("turns");
        QTest::newRow("call_0 in every answer")
            << QList<QStringList>{{QStringLiteral("call_0")}, {QStringLiteral("call_0")}, {QStringLiteral("call_0")}};
        QTest::newRow("one id for the parallel calls of an answer")
            << QList<QStringList>{{QStringLiteral("call_0"), QStringLiteral("call_0")}};
        QTest::newRow("counted from call_0 in each answer") << QList<QStringList>{
            {QStringLiteral("call_0"), QStringLiteral("call_1")}, {QStringLiteral("call_0"), QStringLiteral("call_1")}};
        QTest::newRow("both at once") << QList<QStringList>{{QStringLiteral("call_0")},
                                                            {QStringLiteral("call_0"), QStringLiteral("call_0")}};
    }

    void eachCallKeepsItsCardAndRun()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QFETCH(QList<QStringList>, turns);
        QStringList codes;
        QStringList outputs;
        {
            auto window = m_fixture.openWindow();
            QVERIFY(window);
            for (int turn = 0; turn < turns.size(); ++turn) {
                QList<FS::ScriptedCall> calls;
                for (const QString &id : turns.at(turn)) {
                    const int run = int(codes.size()) + 1;
                    codes << codeOfRun(run);
                    outputs << QStringLiteral("run %1").arg(run);
                    calls.append({id, QStringLiteral("execute_python_code"), Test::codeArguments(codes.last())});
                }
                m_fixture.server().enqueue(FS::openAiToolCalls(calls));
                const QString done = QStringLiteral("Turn %1 done.").arg(turn + 1);
                m_fixture.server().enqueue(FS::openAiText(done));
                const qsizetype before = window->chatView()->cards().size();
                QTest::keyClicks(window->composer()->editor(), QStringLiteral("turn %1").arg(turn + 1));
                QTest::keyClick(window->composer()->editor(), Qt::Key_Return);
                for (qsizetype call = 0; call < calls.size(); ++call) {
                    // The call waits on a card of its own, the newest: not on an earlier call's
                    // card with the same id.
                    ToolCallCard *waiting = nullptr;
                    QTRY_VERIFY_WITH_TIMEOUT(
                        window->chatView()->cards().size() > before + call &&
                            (waiting = window->chatView()->cards().at(before + call))->isAwaitingApproval(),
                        30000);
                    for (ToolCallCard *card : window->chatView()->cards())
                        QVERIFY(card == waiting || !card->isAwaitingApproval());
                    QCOMPARE(codeIn(waiting), codes.at(before + call));
                    QPushButton *run = nullptr;
                    QTRY_VERIFY((run = visibleButton(waiting, QStringLiteral("Run"))));
                    QTest::mouseClick(run, Qt::LeftButton);
                }
                QTRY_COMPARE_WITH_TIMEOUT(lastMessageText(window.get()), done, 60000);
            }
            checkRuns(window.get(), codes, outputs);
            if (QTest::currentTestFailed())
                return;
        }
        // After a restart the conversation is read from the store: the same cards and runs.
        QVERIFY(AgentThread::waitForRetiredThreads(std::chrono::seconds(20)));
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        checkRuns(window.get(), codes, outputs);
    }

    // "Edit and run" in the inspector: the user's run shows in the chat with its figure, at once
    // and after a restart, and the inspector's row and the card lead to each other.
    void theUsersOwnRunShowsInTheChat()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const QString modelCode = codeOfRun(1);
        const QString userCode = QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nprint('mine')");
        m_fixture.server().enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_0"), QStringLiteral("execute_python_code"), Test::codeArguments(modelCode)}}));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Done.")));
        {
            auto window = m_fixture.openWindow();
            QVERIFY(window);
            QTest::keyClicks(window->composer()->editor(), QStringLiteral("print something"));
            QTest::keyClick(window->composer()->editor(), Qt::Key_Return);
            QTRY_VERIFY_WITH_TIMEOUT(window->chatView()->cards().size() == 1 &&
                                         window->chatView()->cards().first()->isAwaitingApproval(),
                                     30000);
            QPushButton *run = nullptr;
            QTRY_VERIFY((run = visibleButton(window->chatView()->cards().first(), QStringLiteral("Run"))));
            QTest::mouseClick(run, Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(lastMessageText(window.get()), QStringLiteral("Done."), 60000);

            QPushButton *edit = visibleButton(window->inspector(), QStringLiteral("Edit and run"));
            QVERIFY(edit);
            QTest::mouseClick(edit, Qt::LeftButton);
            QVERIFY(!window->inspector()->codeEditor()->isReadOnly());
            window->inspector()->codeEditor()->setPlainText(userCode);
            QTest::mouseClick(edit, Qt::LeftButton); // now "Run"

            QTRY_COMPARE_WITH_TIMEOUT(window->chatView()->cards().size(), 2, 30000);
            ToolCallCard *mine = window->chatView()->cards().last();
            QTRY_VERIFY_WITH_TIMEOUT(!mine->findChildren<FigureView *>().isEmpty(), 60000);
            QVERIFY(headerOf(mine)->text().startsWith(QLatin1String("You ran Python")));
            QTRY_COMPARE(window->inspector()->model()->rowCount(), 2);
            QCOMPARE(window->inspector()->model()->item(0).origin, RunOrigin::User);
            checkRuns(window.get(), {modelCode, userCode}, {QStringLiteral("run 1"), QStringLiteral("mine")});
            // What the model is told about the run is no message of the user's in the chat.
            for (MessageWidget *message : window->chatView()->messageWidgets())
                QVERIFY(!message->plainText().contains(QLatin1String("I ran this code")));
            if (QTest::currentTestFailed())
                return;
        }
        QVERIFY(AgentThread::waitForRetiredThreads(std::chrono::seconds(20)));
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        checkRuns(window.get(), {modelCode, userCode}, {QStringLiteral("run 1"), QStringLiteral("mine")});
        ToolCallCard *mine = window->chatView()->cards().last();
        QCOMPARE(mine->findChildren<FigureView *>().size(), 1);
        QVERIFY(headerOf(mine)->text().startsWith(QLatin1String("You ran Python")));
        for (MessageWidget *message : window->chatView()->messageWidgets())
            QVERIFY(!message->plainText().contains(QLatin1String("I ran this code")));
    }
};

QTEST_MAIN(TestCallKeys)
#include "tst_callkeys.moc"
