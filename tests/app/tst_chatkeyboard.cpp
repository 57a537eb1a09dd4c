// The chat's own controls, as a person meets them (issue 23): one way to ask again, named for
// what it does; every action reachable with Tab in reading order; the approval card runs with
// Ctrl+Enter and denies with Enter in its reason; where the focus is can always be seen.
#include "cardlookup.h"
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "uiwait.h"
#include "widgetlookup.h"
#include "windowfixture.h"

#include <agent/agentthread.h>
#include <chat/chatpage.h>
#include <chat/chatview.h>
#include <chat/messagewidget.h>
#include <chat/toolcallcard.h>
#include <composer.h>
#include <focusring.h>
#include <mainwindow.h>
#include <session/conversationsession.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

class TestChatKeyboard : public QObject
{
    Q_OBJECT

    WindowFixture m_fixture;

private Q_SLOTS:
    void init() { QCOMPARE(m_fixture.startWithSandbox(), QString()); }

    void cleanup() { QVERIFY(m_fixture.finish()); }

    // A failed answer offers Retry, a good one Regenerate, never both; while an answer streams,
    // neither; each says in its tooltip what it does.
    void retryOrRegenerateNeverBoth()
    {
        m_fixture.server().enqueue(FS::httpError(400, QStringLiteral("The request was refused.")));
        auto window = m_fixture.openWindow({1200, 800}, true);
        QVERIFY(window);
        ask(window.get(), QStringLiteral("hello"));
        QTRY_VERIFY_WITH_TIMEOUT(
            lastMessage(window.get()) && visibleButton(lastMessage(window.get()), QStringLiteral("Retry")), 20000);
        QTRY_VERIFY(!window->currentSession()->isBusy());
        QVERIFY(!visibleButton(lastMessage(window.get()), QStringLiteral("Regenerate")));
        QVERIFY(!visibleButton(lastMessage(window.get()), QStringLiteral("Retry"))->toolTip().isEmpty());

        m_fixture.server().enqueue(
            FS::slowText(QStringLiteral("one two three four five six"), 6, std::chrono::milliseconds(300)));
        QTest::mouseClick(visibleButton(lastMessage(window.get()), QStringLiteral("Retry")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(lastMessage(window.get()) &&
                                     lastMessage(window.get())->message().status == ChatMessage::Status::Streaming,
                                 20000);
        // Streaming: nothing to ask again yet.
        QVERIFY(!visibleButton(lastMessage(window.get()), QStringLiteral("Regenerate")));
        QVERIFY(!visibleButton(lastMessage(window.get()), QStringLiteral("Retry")));
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy(), 20000);
        QPushButton *regenerate = nullptr;
        QTRY_VERIFY((regenerate = visibleButton(lastMessage(window.get()), QStringLiteral("Regenerate"))));
        QVERIFY(!regenerate->toolTip().isEmpty());
        QVERIFY(!visibleButton(lastMessage(window.get()), QStringLiteral("Retry")));
    }

    // The provider ends a streaming answer with an error of its own (Anthropic's shape): what
    // arrived stays, marked incomplete, with the provider's words, code and whether to try
    // again; it is saved so, and Retry, pressed from the keyboard, asks again.
    void anErrorInsideTheStreamKeepsThePartialAnswerAndOffersRetry()
    {
        m_fixture.server().enqueue(FS::textThenRaw(
            QStringLiteral("The first half of the answer"),
            "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":"
            "\"Overloaded\"}}\n\n"));
        auto window = m_fixture.openWindow({1200, 800}, true);
        QVERIFY(window);
        ask(window.get(), QStringLiteral("hello"));
        QPushButton *retry = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(lastMessage(window.get()) &&
                                     (retry = visibleButton(lastMessage(window.get()), QStringLiteral("Retry"))),
                                 20000);
        QTRY_VERIFY(!window->currentSession()->isBusy());
        const ChatMessage shown = lastMessage(window.get())->message();
        QCOMPARE(shown.status, ChatMessage::Status::Error);
        QCOMPARE(shown.content, QStringLiteral("The first half of the answer"));
        QVERIFY2(shown.error.startsWith(QLatin1String("The answer above is incomplete. The provider stopped the answer "
                                                      "with an error (overloaded_error): Overloaded.")),
                 qPrintable(shown.error));
        QVERIFY2(shown.error.contains(QLatin1String("Retry in a moment may work")), qPrintable(shown.error));
        const QList<QLabel *> labels = lastMessage(window.get())->findChildren<QLabel *>();
        QVERIFY2(std::any_of(labels.cbegin(), labels.cend(),
                             [&](const QLabel *label) { return label->isVisible() && label->text() == shown.error; }),
                 "the error is shown under the partial answer");
        // Once: no second line of the same error below it.
        QCOMPARE(std::count_if(labels.cbegin(), labels.cend(),
                               [&](const QLabel *label) {
                                   return label->isVisible() && label->text().contains(QLatin1String("Overloaded"));
                               }),
                 1);
        const auto *page = window->chatView()->page()->widget();
        int errorLines = 0;
        for (const QLabel *label : page->findChildren<QLabel *>())
            errorLines += label->isVisible() && label->text().contains(QLatin1String("(overloaded_error)"));
        QCOMPARE(errorLines, 1);
        const auto saved = m_fixture.store()->messages(window->currentSession()->id());
        QVERIFY(saved.ok());
        QCOMPARE(saved->constLast().content, shown.content);
        QCOMPARE(saved->constLast().error, shown.error);

        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The whole answer.")));
        retry->setFocus(Qt::TabFocusReason);
        QTest::keyClick(retry, Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(lastMessage(window.get()) &&
                                     lastMessage(window.get())->message().content ==
                                         QLatin1String("The whole answer.") &&
                                     !window->currentSession()->isBusy(),
                                 20000);
        QCOMPARE(lastMessage(window.get())->message().status, ChatMessage::Status::Complete);
        QVERIFY(lastMessage(window.get())->message().error.isEmpty());
    }

    // Regenerate pressed from the keyboard at the end of a long conversation: the answer is
    // asked again where the person is looking; the page does not jump to the top with the focus.
    void regenerateKeepsThePlace()
    {
        QStringList paragraphs;
        for (int line = 0; line < 40; ++line)
            paragraphs << QStringLiteral("Line %1 of a long answer.").arg(line);
        const QString longAnswer = paragraphs.join(QStringLiteral("\n\n"));
        for (int turn = 0; turn < 3; ++turn)
            m_fixture.server().enqueue(FS::openAiText(longAnswer));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Asked again.")));
        auto window = m_fixture.openWindow({1200, 800}, true);
        QVERIFY(window);
        for (int turn = 0; turn < 3; ++turn) {
            ask(window.get(), QStringLiteral("question %1").arg(turn));
            QTRY_VERIFY_WITH_TIMEOUT(lastMessage(window.get()) &&
                                         lastMessage(window.get())->message().content == longAnswer &&
                                         !window->currentSession()->isBusy(),
                                     20000);
        }
        QScrollBar *scroll = window->chatView()->page()->verticalScrollBar();
        QTRY_VERIFY(scroll->maximum() > 0);
        QTRY_COMPARE(scroll->value(), scroll->maximum());
        QPushButton *regenerate = nullptr;
        QTRY_VERIFY((regenerate = visibleButton(lastMessage(window.get()), QStringLiteral("Regenerate"))));
        regenerate->setFocus(Qt::TabFocusReason);
        QTest::keyClick(regenerate, Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(lastMessage(window.get()) &&
                                     lastMessage(window.get())->message().content == QLatin1String("Asked again.") &&
                                     !window->currentSession()->isBusy(),
                                 20000);
        QTRY_COMPARE(scroll->value(), scroll->maximum());
        QVERIFY(scroll->value() > 0);
        // The keyboard stays in the chat, where it was.
        QWidget *focus = QApplication::focusWidget();
        QVERIFY2(focus && (focus == window->chatView()->page() || window->chatView()->page()->isAncestorOf(focus)),
                 focus ? focus->metaObject()->className() : "no focus");
    }

    // From the message box, Shift+Tab walks up the conversation and Tab down, through each
    // message's actions, in the order they are read: top to bottom.
    void tabWalksTheChatInReadingOrder()
    {
        m_fixture.server().enqueue(
            FS::openAiText(QStringLiteral("First answer, with a [link](https://example.invalid).")));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Second answer.")));
        auto window = m_fixture.openWindow({1200, 800}, true);
        QVERIFY(window);
        ask(window.get(), QStringLiteral("first"));
        QTRY_VERIFY_WITH_TIMEOUT(
            !window->currentSession()->isBusy() && window->chatView()->messageWidgets().size() == 2, 20000);
        ask(window.get(), QStringLiteral("second"));
        QTRY_VERIFY_WITH_TIMEOUT(
            !window->currentSession()->isBusy() && window->chatView()->messageWidgets().size() == 4, 20000);
        const QList<MessageWidget *> messages = window->chatView()->messageWidgets();
        QPushButton *firstEdit = visibleButton(messages.at(0), QStringLiteral("Edit"));
        QVERIFY(firstEdit);
        firstEdit->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(firstEdit->hasFocus());

        // Tab from the first message's Edit to the composer: every action on the way, in order.
        QList<QWidget *> visited{firstEdit};
        for (int step = 0; step < 40 && !window->composer()->isAncestorOf(QApplication::focusWidget()); ++step) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            visited << QApplication::focusWidget();
        }
        QVERIFY2(window->composer()->isAncestorOf(QApplication::focusWidget()), "Tab never reached the message box");
        const auto position = [&](QWidget *widget) {
            return widget->mapTo(window->chatView(), QPoint(0, 0)).y();
        };
        QList<QWidget *> inChat;
        for (QWidget *widget : visited) {
            if (window->chatView()->isAncestorOf(widget))
                inChat << widget;
        }
        for (qsizetype index = 1; index < inChat.size(); ++index)
            QVERIFY2(position(inChat.at(index)) >= position(inChat.at(index - 1)) - 30,
                     qPrintable(QStringLiteral("%1 (%2) comes after %3 (%4)")
                                    .arg(inChat.at(index)->accessibleName())
                                    .arg(position(inChat.at(index)))
                                    .arg(inChat.at(index - 1)->accessibleName())
                                    .arg(position(inChat.at(index - 1)))));
        // Reached on the way: the answers' Copy, the last answer's Regenerate, the second question's Edit.
        QVERIFY(visited.contains(visibleButton(messages.at(1), QStringLiteral("Copy"))));
        QVERIFY(visited.contains(visibleButton(messages.at(2), QStringLiteral("Edit"))));
        QVERIFY(visited.contains(visibleButton(messages.at(3), QStringLiteral("Regenerate"))));
        // A link inside an answer does not hold Tab: the walk took few steps.
        QVERIFY2(visited.size() < 20, qPrintable(QString::number(visited.size())));
    }

    // The card asking for approval takes the focus from an empty message box; Ctrl+Enter runs.
    void ctrlEnterRunsTheCardThatAsks()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_fixture.server().enqueue(
            FS::openAiToolCalls({{QStringLiteral("call_k"), QStringLiteral("execute_python_code"),
                                  codeArguments(QStringLiteral("print(6 * 7)"))}}));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("It is 42.")));
        auto window = m_fixture.openWindow({1200, 800}, true);
        QVERIFY(window);
        ask(window.get(), QStringLiteral("six times seven"));
        ToolCallCard *card = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (card = newestCard(window->chatView(), QStringLiteral("call_k"))) && card->isAwaitingApproval(), 20000);
        // The window's own focus: the offscreen platform may take the window's activation away
        // when a card appears.
        QTRY_VERIFY(card->isAncestorOf(window->focusWidget()));
        QCOMPARE(qobject_cast<QPushButton *>(window->focusWidget())->text(), QStringLiteral("Run"));
        window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window.get()));
        QTest::keyClick(window->focusWidget(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!card->isAwaitingApproval(), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(lastMessage(window.get())->plainText(), QStringLiteral("It is 42."), 60000);
    }

    // Someone typing their next message keeps their focus: a key meant for the message does not
    // run code. Enter in the reason denies with that reason.
    void typingKeepsTheFocusAndEnterInTheReasonDenies()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hello.")));
        m_fixture.server().enqueue(
            FS::openAiToolCalls({{QStringLiteral("call_d"), QStringLiteral("execute_python_code"),
                                  codeArguments(QStringLiteral("import os"))}},
                                4, {.chunkDelay = std::chrono::milliseconds(400)}));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Understood.")));
        auto window = m_fixture.openWindow({1200, 800}, true);
        QVERIFY(window);
        ask(window.get(), QStringLiteral("hi"));
        QTRY_VERIFY_WITH_TIMEOUT(
            !window->currentSession()->isBusy() && window->chatView()->messageWidgets().size() == 2, 20000);
        ask(window.get(), QStringLiteral("look around"));
        QTest::keyClicks(window->composer()->editor(), QStringLiteral("and then"));
        ToolCallCard *card = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (card = newestCard(window->chatView(), QStringLiteral("call_d"))) && card->isAwaitingApproval(), 20000);
        QTest::qWait(100);
        // The window's own focus: the offscreen platform may take the window's activation away
        // when a card appears.
        QCOMPARE(window->focusWidget(), window->composer()->editor());
        QCOMPARE(window->composer()->editor()->toPlainText(), QStringLiteral("and then"));

        QLineEdit *reason = nullptr;
        QTRY_VERIFY((reason = card->findChild<QLineEdit *>()) && reason->isVisible());
        // The placeholder is whole: the field is wide enough for it.
        QVERIFY(reason->width() >= reason->fontMetrics().horizontalAdvance(reason->placeholderText()));
        window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window.get()));
        reason->setFocus(Qt::TabFocusReason);
        QTest::keyClicks(reason, QStringLiteral("not now"));
        QTest::keyClick(reason, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!card->isAwaitingApproval(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy(), 20000);
        const QList<RecordedRequest> requests = m_fixture.server().chatRequests();
        QVERIFY(!requests.isEmpty());
        QVERIFY2(requests.constLast().body.contains("not now"), "the reason did not reach the model");
    }

    // Stop pressed from the keyboard gives the keyboard to the message box, where the next message
    // is typed (it went to the next widget of the window, the inspector).
    void stopGivesTheKeyboardToTheMessageBox()
    {
        m_fixture.server().enqueue(
            FS::slowText(QStringLiteral("one two three four five six"), 6, std::chrono::milliseconds(300)));
        auto window = m_fixture.openWindow({1200, 800}, true);
        QVERIFY(window);
        ask(window.get(), QStringLiteral("count slowly"));
        QPushButton *stop = findNamed<QPushButton>(window->composer(), QStringLiteral("Stop the answer"));
        QVERIFY(stop);
        QTRY_VERIFY_WITH_TIMEOUT(stop->isVisible(), 20000);
        stop->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(stop->hasFocus());
        QTest::keyClick(stop, Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy(), 20000);
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(window->composer()->editor()));
    }

    // Tab shows a ring around the focused widget; a mouse click takes it away again.
    void theKeyboardFocusIsSeen()
    {
        auto window = m_fixture.openWindow({1200, 800}, true);
        QVERIFY(window);
        window->composer()->editor()->setFocus();
        QTRY_VERIFY(window->composer()->editor()->hasFocus());
        for (int step = 0; step < 6; ++step) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QWidget *focus = QApplication::focusWidget();
            QVERIFY(focus);
            QCOMPARE(FocusRing::ringedWidget(), focus);
        }
        QTest::mouseClick(window->composer()->editor()->viewport(), Qt::LeftButton);
        QCOMPARE(FocusRing::ringedWidget(), nullptr);
    }
};

QTEST_MAIN(TestChatKeyboard)
#include "tst_chatkeyboard.moc"
