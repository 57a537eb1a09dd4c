// "‹ 2 / 3 ›" beside a message with versions (issue 27): it says which version shows, switches to
// the one before or after and the chat follows that branch; by mouse and by keyboard, named for a
// screen reader, and still while an answer runs.
#include "dialogdriver.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "screenshot.h"
#include "windowfixture.h"

#include <chat/chatpage.h>
#include <chat/chatview.h>
#include <chat/messagewidget.h>
#include <mainwindow.h>
#include <session/conversationsession.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QTest>
#include <QToolButton>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

// The message of WINDOW's chat that says TEXT, or null.
MessageWidget *messageSaying(const MainWindow *window, const QString &text)
{
    for (MessageWidget *widget : window->chatView()->page()->messageWidgets()) {
        if (widget->message().content == text)
            return widget;
    }
    return nullptr;
}

} // namespace

class TestMessageVersions : public QObject
{
    Q_OBJECT

    WindowFixture m_fixture;

    // The question of every test asked in WINDOW, and its first answer in.
    static void askAndWait(MainWindow *window)
    {
        ask(window, QStringLiteral("What is a branch?"));
        QTRY_VERIFY_WITH_TIMEOUT(messageSaying(window, QStringLiteral("The first answer.")), 20000);
        QTRY_VERIFY(!window->currentSession()->isBusy());
    }

    // Regenerate: the second answer in, a version beside the first.
    static void regenerateAndWait(MainWindow *window)
    {
        QVERIFY(window->currentSession()->regenerate());
        QTRY_VERIFY_WITH_TIMEOUT(messageSaying(window, QStringLiteral("The second answer.")), 20000);
        QTRY_VERIFY(!window->currentSession()->isBusy());
    }

private Q_SLOTS:
    void init()
    {
        QCOMPARE(m_fixture.start(QStringLiteral("gpt-4o-mini"),
                                 {QStringLiteral("sandbox/enabled=false"), QStringLiteral("appearance/theme=light")}),
                 QString());
        applyTheme(*m_fixture.settings(), QStringLiteral("light"));
    }

    void cleanup() { QVERIFY(m_fixture.finish()); }

    // A question answered, then answered again: the new answer is "2 / 2"; Previous shows the
    // first answer and "1 / 2", Next goes back; the store shows the same branch.
    void switchesBetweenTheAnswers()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The first answer.")));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The second answer.")));
        auto window = m_fixture.openWindow({800, 600}, true);
        QVERIFY(window);
        askAndWait(window.get());
        QVERIFY(!QTest::currentTestFailed());
        // One version: no switcher.
        QVERIFY(!lastMessage(window.get())->versionLabel()->isVisible());

        QPushButton *regenerate = nullptr;
        QTRY_VERIFY((regenerate = visibleButton(lastMessage(window.get()), QStringLiteral("Regenerate"))));
        QTest::mouseClick(regenerate, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(messageSaying(window.get(), QStringLiteral("The second answer.")), 20000);
        QTRY_VERIFY(!window->currentSession()->isBusy());

        MessageWidget *answer = lastMessage(window.get());
        QTRY_VERIFY(answer->versionLabel()->isVisible());
        QCOMPARE(answer->versionLabel()->text(), QStringLiteral("2 / 2"));
        QCOMPARE(answer->versionLabel()->accessibleName(), QStringLiteral("Version 2 of 2"));
        QCOMPARE(answer->versionButton(-1)->accessibleName(), QStringLiteral("Previous version"));
        QCOMPARE(answer->versionButton(1)->accessibleName(), QStringLiteral("Next version"));
        QVERIFY(answer->versionButton(-1)->isEnabled());
        QVERIFY(!answer->versionButton(1)->isEnabled()); // the last version: nothing after it
        // The question has one version: no switcher beside it.
        QVERIFY(!messageSaying(window.get(), QStringLiteral("What is a branch?"))->versionLabel()->isVisible());
        saveScreenshot(window.get(), QStringLiteral("message-versions-light.png"));

        QTest::mouseClick(answer->versionButton(-1), Qt::LeftButton);
        QTRY_VERIFY(messageSaying(window.get(), QStringLiteral("The first answer.")));
        QVERIFY(!messageSaying(window.get(), QStringLiteral("The second answer.")));
        answer = lastMessage(window.get());
        QCOMPARE(answer->versionLabel()->text(), QStringLiteral("1 / 2"));
        QCOMPARE(answer->versionLabel()->accessibleName(), QStringLiteral("Version 1 of 2"));
        QVERIFY(!answer->versionButton(-1)->isEnabled());
        QVERIFY(answer->versionButton(1)->isEnabled());
        const auto stored = m_fixture.store()->messages(window->currentSession()->id());
        QVERIFY(stored);
        QCOMPARE(stored->constLast().content, QStringLiteral("The first answer."));

        QTest::mouseClick(answer->versionButton(1), Qt::LeftButton);
        QTRY_VERIFY(messageSaying(window.get(), QStringLiteral("The second answer.")));
        QCOMPARE(lastMessage(window.get())->versionLabel()->text(), QStringLiteral("2 / 2"));
    }

    // Tab from the question reaches Previous; Space switches, the focus stays on the switcher
    // (on Next, now that there is nothing before), and Space again goes back.
    void switchesByKeyboard()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The first answer.")));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The second answer.")));
        auto window = m_fixture.openWindow({800, 600}, true);
        QVERIFY(window);
        askAndWait(window.get());
        QVERIFY(!QTest::currentTestFailed());
        regenerateAndWait(window.get());
        QVERIFY(!QTest::currentTestFailed());

        MessageWidget *question = messageSaying(window.get(), QStringLiteral("What is a branch?"));
        QVERIFY(question);
        question->focusChain().constLast()->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(question->focusChain().constLast()->hasFocus());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        MessageWidget *answer = lastMessage(window.get());
        QCOMPARE(QApplication::focusWidget(), answer->versionButton(-1));

        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QTRY_VERIFY(messageSaying(window.get(), QStringLiteral("The first answer.")));
        answer = lastMessage(window.get());
        QCOMPARE(answer->versionLabel()->text(), QStringLiteral("1 / 2"));
        QTRY_COMPARE(QApplication::focusWidget(), answer->versionButton(1));

        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QTRY_VERIFY(messageSaying(window.get(), QStringLiteral("The second answer.")));
        answer = lastMessage(window.get());
        QCOMPARE(answer->versionLabel()->text(), QStringLiteral("2 / 2"));
        QTRY_COMPARE(QApplication::focusWidget(), answer->versionButton(-1));
    }

    // While an answer runs the switcher cannot switch (the session would refuse); it can again
    // once the answer is done.
    void disabledWhileAnAnswerRuns()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The first answer.")));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The second answer.")));
        m_fixture.server().enqueue(
            FS::slowText(QStringLiteral("one two three four five six"), 6, std::chrono::milliseconds(300)));
        auto window = m_fixture.openWindow({800, 600}, true);
        QVERIFY(window);
        askAndWait(window.get());
        QVERIFY(!QTest::currentTestFailed());
        regenerateAndWait(window.get());
        QVERIFY(!QTest::currentTestFailed());

        ask(window.get(), QStringLiteral("And a tree?"));
        QTRY_VERIFY_WITH_TIMEOUT(window->currentSession()->isBusy(), 20000);
        MessageWidget *answer = messageSaying(window.get(), QStringLiteral("The second answer."));
        QVERIFY(answer);
        QVERIFY(answer->versionLabel()->isVisible());
        QVERIFY(!answer->versionButton(-1)->isEnabled());
        QVERIFY(!answer->versionButton(1)->isEnabled());

        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy(), 20000);
        answer = messageSaying(window.get(), QStringLiteral("The second answer."));
        QVERIFY(answer->versionButton(-1)->isEnabled());
    }

    // "Delete this version" asks first, No by default; Yes takes the version shown and the
    // other one shows, alone now.
    void deletesAVersionAfterAsking()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The first answer.")));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The second answer.")));
        auto window = m_fixture.openWindow({800, 600}, true);
        QVERIFY(window);
        askAndWait(window.get());
        QVERIFY(!QTest::currentTestFailed());
        QVERIFY(!lastMessage(window.get())->deleteVersionButton()->isVisible());
        regenerateAndWait(window.get());
        QVERIFY(!QTest::currentTestFailed());

        MessageWidget *answer = lastMessage(window.get());
        QTRY_VERIFY(answer->deleteVersionButton()->isVisible());
        QCOMPARE(answer->deleteVersionButton()->accessibleName(), QStringLiteral("Delete this version"));
        QVERIFY(answer->focusChain().contains(answer->deleteVersionButton()));
        DialogDriver driver;
        bool noByDefault = false;
        driver.then<QMessageBox>([&](QMessageBox *box) {
            noByDefault = box->defaultButton() == box->button(QMessageBox::No);
            QTest::keyClick(box, Qt::Key_Return); // the default: keep it
        });
        QTest::mouseClick(answer->deleteVersionButton(), Qt::LeftButton);
        QTRY_VERIFY(driver.done());
        QVERIFY(noByDefault);
        QVERIFY(messageSaying(window.get(), QStringLiteral("The second answer.")));

        driver.then<QMessageBox>([](QMessageBox *box) { box->button(QMessageBox::Yes)->click(); });
        QTest::mouseClick(lastMessage(window.get())->deleteVersionButton(), Qt::LeftButton);
        QTRY_VERIFY(driver.done());
        QTRY_VERIFY(messageSaying(window.get(), QStringLiteral("The first answer.")));
        QVERIFY(!messageSaying(window.get(), QStringLiteral("The second answer.")));
        QVERIFY(!lastMessage(window.get())->versionLabel()->isVisible());
        const auto stored = m_fixture.store()->allMessages(window->currentSession()->id());
        QVERIFY(stored);
        QCOMPARE(stored->size(), 2);
    }
};

QTEST_MAIN(TestMessageVersions)
#include "tst_messageversions.moc"
