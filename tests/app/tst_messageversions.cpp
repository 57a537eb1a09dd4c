// "‹ 2 / 3 ›" beside a message with versions (issue 27): it says which version shows, switches to
// the one before or after and the chat follows that branch; by mouse and by keyboard, named for a
// screen reader, and still while an answer runs. An answer that begins with a tool call has it too.
// Edit turns a question into an editor in place, whose Send makes a new version.
#include "dialogdriver.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "screenshot.h"
#include "windowfixture.h"

#include <chat/chatpage.h>
#include <chat/chatview.h>
#include <chat/messageeditor.h>
#include <chat/messagewidget.h>
#include <chat/toolcallcard.h>
#include <composer.h>
#include <mainwindow.h>
#include <session/conversationsession.h>
#include <session/messagemodel.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QLabel>
#include <QPlainTextEdit>
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

// The answer of WINDOW's chat that only calls tools (it shows for its versions), or null.
MessageWidget *callingAnswer(const MainWindow *window)
{
    for (MessageWidget *widget : window->chatView()->page()->messageWidgets()) {
        if (widget->message().role == ChatMessage::Role::Assistant && widget->message().content.isEmpty() &&
            !widget->message().toolCalls.isEmpty())
            return widget;
    }
    return nullptr;
}

// Tabs from the last widget of MESSAGE's actions on: the next one that takes the focus.
QWidget *tabFrom(const MessageWidget *message)
{
    message->focusChain().constLast()->setFocus(Qt::TabFocusReason);
    if (!QTest::qWaitFor([&] { return message->focusChain().constLast()->hasFocus(); }))
        return nullptr;
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    return QApplication::focusWidget();
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

    // A window whose question has its first answer, in a window of SIZE; null when it did not come.
    std::unique_ptr<MainWindow> openAnswered(QSize size = {800, 600})
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The first answer.")));
        auto window = m_fixture.openWindow(size, true);
        if (!window)
            return nullptr;
        askAndWait(window.get());
        if (QTest::currentTestFailed())
            return nullptr;
        return window;
    }

    // Edit on the question of WINDOW: its editor, with the focus.
    static MessageEditor *startEditing(MainWindow *window)
    {
        MessageWidget *question = messageSaying(window, QStringLiteral("What is a branch?"));
        // The chat made anew (asked again) shows its widgets once the event loop runs.
        if (!question || !QTest::qWaitFor([question] { return question->editButton()->isVisible(); }))
            return nullptr;
        QTest::mouseClick(question->editButton(), Qt::LeftButton);
        MessageEditor *editor = question->editor();
        if (!editor || !QTest::qWaitFor([editor] { return editor->textEdit()->hasFocus(); }))
            return nullptr;
        return editor;
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
        QCOMPARE(answer->versionButton(-1)->accessibleName(), QStringLiteral("Version 2 of 2, previous"));
        QCOMPARE(answer->versionButton(1)->accessibleName(), QStringLiteral("Version 2 of 2, next"));
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
        QCOMPARE(answer->versionButton(1)->accessibleName(), QStringLiteral("Version 1 of 2, next"));
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

        // Disabled under the focus (the sandbox following the branch makes the conversation busy),
        // the switcher keeps the focus on the version's figure, and takes it back after.
        answer->setAnswerRunning(true);
        QCOMPARE(QApplication::focusWidget(), answer->versionLabel());
        answer->setAnswerRunning(false);
        QCOMPARE(QApplication::focusWidget(), answer->versionButton(-1));
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

    // An answer asked again that begins with a tool call has no text of its own: it still shows
    // "< 2 / 2 >" above its call, reached by Tab from the question, and switches by keyboard.
    void aToolCallAnswerSwitches()
    {
        auto window = openAnswered();
        QVERIFY(window);
        m_fixture.server().enqueue(
            FS::openAiToolCalls({{QStringLiteral("call_1"), QStringLiteral("look_up"), QStringLiteral("{}")}}));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The second answer.")));
        regenerateAndWait(window.get());
        QVERIFY(!QTest::currentTestFailed());

        MessageWidget *calling = nullptr;
        QTRY_VERIFY((calling = callingAnswer(window.get())));
        QTRY_VERIFY(calling->versionLabel()->isVisible());
        QCOMPARE(calling->versionLabel()->text(), QStringLiteral("2 / 2"));
        QCOMPARE(calling->versionButton(-1)->accessibleName(), QStringLiteral("Version 2 of 2, previous"));
        // Above its call's card.
        QVERIFY(!window->chatView()->cards().isEmpty());
        QVERIFY(calling->y() < window->chatView()->cards().constFirst()->y());
        saveScreenshot(window.get(), QStringLiteral("message-versions-tool-call.png"));

        MessageWidget *question = messageSaying(window.get(), QStringLiteral("What is a branch?"));
        QVERIFY(question);
        QCOMPARE(tabFrom(question), calling->versionButton(-1));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QTRY_VERIFY(messageSaying(window.get(), QStringLiteral("The first answer.")));
        QVERIFY(!callingAnswer(window.get()));
        MessageWidget *answer = lastMessage(window.get());
        QCOMPARE(answer->versionLabel()->text(), QStringLiteral("1 / 2"));
        QTRY_COMPARE(QApplication::focusWidget(), answer->versionButton(1));

        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QTRY_VERIFY((calling = callingAnswer(window.get())));
        QCOMPARE(calling->versionLabel()->text(), QStringLiteral("2 / 2"));
        QVERIFY(messageSaying(window.get(), QStringLiteral("The second answer.")));
        QTRY_COMPARE(QApplication::focusWidget(), calling->versionButton(-1));
        // The chat read again from the store shows it too.
        QVERIFY(window->currentSession()->load());
        QTRY_VERIFY((calling = callingAnswer(window.get())));
        QCOMPARE(calling->versionLabel()->text(), QStringLiteral("2 / 2"));
    }

    // From anywhere in the window, Ctrl+Shift+R asks again and Ctrl+Shift+E edits the last question.
    void theKeyboardEditsAndRegeneratesFromAnywhere()
    {
        auto window = openAnswered();
        QVERIFY(window);
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The second answer.")));
        window->composer()->editor()->setFocus();
        QTRY_VERIFY(window->composer()->editor()->hasFocus());
        QTest::keyClick(window.get(), Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY_WITH_TIMEOUT(messageSaying(window.get(), QStringLiteral("The second answer.")), 20000);
        QTRY_VERIFY(!window->currentSession()->isBusy());

        QTest::keyClick(window.get(), Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
        MessageWidget *question = messageSaying(window.get(), QStringLiteral("What is a branch?"));
        QVERIFY(question);
        QTRY_VERIFY(question->editor());
        QTRY_VERIFY(question->editor()->textEdit()->hasFocus());
    }

    // Edit puts the text in an editor in the message's place, the focus after its end; Esc
    // puts the message back as it was, with the focus on Edit, and nothing is sent.
    void escCancelsTheEdit()
    {
        auto window = openAnswered();
        QVERIFY(window);
        MessageEditor *editor = startEditing(window.get());
        QVERIFY(editor);
        MessageWidget *question = messageSaying(window.get(), QStringLiteral("What is a branch?"));
        QCOMPARE(editor->text(), QStringLiteral("What is a branch?"));
        QVERIFY(editor->textEdit()->textCursor().atEnd());
        QVERIFY(!editor->textEdit()->accessibleName().isEmpty());
        QCOMPARE(editor->sendButton()->accessibleName(), QStringLiteral("Send the edited message"));
        QCOMPARE(editor->cancelButton()->accessibleName(), QStringLiteral("Cancel editing"));
        // As wide as the message's text was.
        QVERIFY(editor->width() >= question->width() - 40);
        QTest::keyClicks(editor->textEdit(), QStringLiteral(" Or a leaf?"));
        QCOMPARE(editor->text(), QStringLiteral("What is a branch? Or a leaf?"));

        QTest::keyClick(editor->textEdit(), Qt::Key_Escape);
        QTRY_VERIFY(!question->editor());
        QCOMPARE(question->message().content, QStringLiteral("What is a branch?"));
        QCOMPARE(question->plainText(), QStringLiteral("What is a branch?"));
        QTRY_COMPARE(QApplication::focusWidget(), question->editButton());
        QVERIFY(!window->currentSession()->isBusy()); // Esc did not go to the window (Stop)
        const auto stored = m_fixture.store()->allMessages(window->currentSession()->id());
        QVERIFY(stored);
        QCOMPARE(stored->size(), 2);
    }

    // Shift+Enter starts a new line in the editor (Enter sends, as in the message box) and Tab
    // leaves it for Send, typing nothing.
    void shiftEnterIsANewLineAndTabLeaves()
    {
        auto window = openAnswered();
        QVERIFY(window);
        MessageEditor *editor = startEditing(window.get());
        QVERIFY(editor);
        const int height = editor->textEdit()->height();
        for (int line = 0; line < 4; ++line)
            QTest::keyClick(editor->textEdit(), Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClicks(editor->textEdit(), QStringLiteral("And a leaf?"));
        QCOMPARE(editor->text(), QStringLiteral("What is a branch?\n\n\n\nAnd a leaf?"));
        QTRY_VERIFY(editor->textEdit()->height() > height);            // the box grew with its lines
        QCOMPARE(window->currentSession()->messages()->rowCount(), 2); // nothing sent

        QTest::keyClick(editor->textEdit(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), editor->sendButton());
        QVERIFY(!editor->text().contains(QLatin1Char('\t')));
        QTest::keyClick(editor->sendButton(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), editor->cancelButton());
        QTest::keyClick(editor->cancelButton(), Qt::Key_Backtab);
        QTest::keyClick(editor->sendButton(), Qt::Key_Backtab);
        QCOMPARE(QApplication::focusWidget(), editor->textEdit());
    }

    // Enter sends the edited question as a new version: its answer comes, "2 / 2" shows beside it
    // and the message box has the focus; the first version is a click away.
    void enterSendsANewVersion()
    {
        auto window = openAnswered();
        QVERIFY(window);
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The answer about trees.")));
        MessageEditor *editor = startEditing(window.get());
        QVERIFY(editor);
        editor->textEdit()->selectAll();
        QTest::keyClicks(editor->textEdit(), QStringLiteral("What is a tree?"));
        QTest::keyClick(editor->textEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(messageSaying(window.get(), QStringLiteral("The answer about trees.")), 20000);
        QTRY_VERIFY(!window->currentSession()->isBusy());
        MessageWidget *question = nullptr;
        QTRY_VERIFY((question = messageSaying(window.get(), QStringLiteral("What is a tree?"))));
        QTRY_VERIFY(question->versionLabel()->isVisible());
        QCOMPARE(question->versionLabel()->text(), QStringLiteral("2 / 2"));
        QVERIFY(!question->editor());
        QVERIFY(!messageSaying(window.get(), QStringLiteral("What is a branch?")));
        QTRY_COMPARE(QApplication::focusWidget(), window->composer()->editor());

        QTest::mouseClick(question->versionButton(-1), Qt::LeftButton);
        QTRY_VERIFY(messageSaying(window.get(), QStringLiteral("What is a branch?")));
        QVERIFY(messageSaying(window.get(), QStringLiteral("The first answer.")));
        QCOMPARE(messageSaying(window.get(), QStringLiteral("What is a branch?"))->versionLabel()->text(),
                 QStringLiteral("1 / 2"));
    }

    // While an answer runs, the editor's Send waits and says why; Esc in the editor cancels the
    // edit and leaves the answer running. Once the answer is done, Send sends.
    void editWaitsForARunningAnswer()
    {
        auto window = openAnswered();
        QVERIFY(window);
        m_fixture.server().enqueue(
            FS::slowText(QStringLiteral("one two three four five six"), 6, std::chrono::milliseconds(300)));
        QVERIFY(window->currentSession()->regenerate());
        QTRY_VERIFY(window->currentSession()->isBusy());
        MessageEditor *editor = startEditing(window.get());
        QVERIFY(editor);
        QVERIFY(!editor->sendButton()->isEnabled());
        QVERIFY(editor->sendButton()->accessibleDescription().contains(QLatin1String("answer")));
        bool said = false;
        for (const QLabel *label : editor->findChildren<QLabel *>())
            said = said || (label->isVisible() && label->text() == editor->sendButton()->accessibleDescription());
        QVERIFY(said);
        QTest::keyClick(editor->textEdit(), Qt::Key_Return); // waits: nothing happens
        QVERIFY(messageSaying(window.get(), QStringLiteral("What is a branch?"))->editor());
        QTest::keyClick(editor->textEdit(), Qt::Key_Escape);
        QTRY_VERIFY(!messageSaying(window.get(), QStringLiteral("What is a branch?"))->editor());
        QVERIFY(window->currentSession()->isBusy()); // the answer goes on

        editor = startEditing(window.get());
        QVERIFY(editor);
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy(), 20000);
        QTRY_VERIFY(editor->sendButton()->isEnabled());
        QVERIFY(editor->sendButton()->accessibleDescription().isEmpty());
    }

    // The screenshots of the documentation: a message with versions and a question edited in
    // place, light and dark, in a wide and a narrow window.
    void screenshots_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::addColumn<QSize>("size");
        for (const QString &theme : {QStringLiteral("light"), QStringLiteral("dark")}) {
            for (const QSize size : {QSize(1440, 900), QSize(500, 400)})
                QTest::addRow("%s-%d", qPrintable(theme), size.width()) << theme << size;
        }
    }

    void screenshots()
    {
        QFETCH(QString, theme);
        QFETCH(QSize, size);
        applyTheme(*m_fixture.settings(), theme);
        auto window = openAnswered(size);
        QVERIFY(window);
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The second answer.")));
        regenerateAndWait(window.get());
        QVERIFY(!QTest::currentTestFailed());
        const QString suffix = QStringLiteral("%1-%2.png").arg(theme).arg(size.width());
        QTRY_VERIFY(lastMessage(window.get())->versionLabel()->isVisible());
        saveScreenshot(window.get(), QStringLiteral("message-versions-") + suffix);

        MessageEditor *editor = startEditing(window.get());
        QVERIFY(editor);
        QTest::keyClick(editor->textEdit(), Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClicks(editor->textEdit(), QStringLiteral("And what is a tree?"));
        // The chat showed the editor once it took the focus.
        QTRY_VERIFY(!editor->visibleRegion().isEmpty());
        QTest::qWait(50);
        saveScreenshot(window.get(), QStringLiteral("message-editor-") + suffix);
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
