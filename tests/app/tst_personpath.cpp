// The path a person walks in the window, from the first start to an exported conversation, in a
// real window with input events only (issue 23): first run, connect, ask, approve, the figure
// and the table, an error and Retry, Regenerate, Edit, attach, paste, switching away while an
// answer streams, search, export; then the window at 1440×900, 800×600 and 500×400, where every
// visible widget must lie inside the window, none cut short, and the window inside the screen;
// and one turn by keyboard alone, with the focus seen at every step. Each step's screenshot goes
// to the folder person-path/ (SANDPIPER_PERSON_PATH_DIR), named NN-step-THEME.png.
#include "cardlookup.h"
#include "dialogdriver.h"
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "screenshot.h"
#include "uiwait.h"
#include "windowfixture.h"

#include <agent/agentthread.h>
#include <chat/chatpage.h>
#include <chat/chatview.h>
#include <chat/datatableview.h>
#include <chat/figureview.h>
#include <chat/messageeditor.h>
#include <chat/messagewidget.h>
#include <chat/toolcallcard.h>
#include <codeinspector.h>
#include <composer.h>
#include <conversationlistmodel.h>
#include <firstuseprobe.h>
#include <focusring.h>
#include <mainwindow.h>
#include <savedfilenotice.h>
#include <session/conversationsession.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>
#include <welcomepage.h>

#include <QAbstractScrollArea>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

// What is wrong with the layout of WINDOW as a person would see it: a widget outside the window,
// a button or label narrower than its text, the window bigger than SIZE or off its screen.
QStringList layoutProblems(QWidget *window, QSize size)
{
    QStringList problems;
    if (window->width() > size.width() || window->height() > size.height())
        problems << QStringLiteral("the window grew to %1×%2").arg(window->width()).arg(window->height());
    const QRect screen = window->screen()->geometry();
    if (!screen.contains(window->frameGeometry()))
        problems << QStringLiteral("the window is not inside the screen");
    const QRect inside = window->rect().adjusted(-1, -1, 1, 1);
    for (QWidget *widget : window->findChildren<QWidget *>()) {
        if (!widget->isVisible() || widget->isWindow() || widget->width() <= 0 || widget->height() <= 0)
            continue;
        // What scrolls may lie outside its viewport: it is scrolled to, not cut off.
        bool scrolls = false;
        for (QWidget *parent = widget->parentWidget(); parent && parent != window; parent = parent->parentWidget()) {
            if (auto *area = qobject_cast<QAbstractScrollArea *>(parent->parentWidget());
                area && area->viewport() == parent) {
                scrolls = true;
                break;
            }
        }
        if (scrolls)
            continue;
        const QString name =
            QStringLiteral("%1 \"%2\"")
                .arg(QString::fromLatin1(widget->metaObject()->className()),
                     widget->accessibleName().isEmpty() ? widget->objectName() : widget->accessibleName());
        const QRect placed(widget->mapTo(window, QPoint(0, 0)), widget->size());
        if (!inside.contains(placed))
            problems << QStringLiteral("%1 lies outside the window at %2,%3 %4×%5")
                            .arg(name)
                            .arg(placed.x())
                            .arg(placed.y())
                            .arg(placed.width())
                            .arg(placed.height());
        const auto *button = qobject_cast<QAbstractButton *>(widget);
        const auto *label = qobject_cast<QLabel *>(widget);
        const bool shortened =
            (button && !button->text().isEmpty() && widget->width() < widget->minimumSizeHint().width() - 1) ||
            (label && !label->wordWrap() && label->pixmap().isNull() &&
             widget->sizePolicy().horizontalPolicy() != QSizePolicy::Ignored &&
             widget->width() < label->minimumSizeHint().width() - 1);
        if (shortened)
            problems << QStringLiteral("%1 is cut short: %2 px for %3")
                            .arg(name)
                            .arg(widget->width())
                            .arg(widget->minimumSizeHint().width());
    }
    return problems;
}

// Where the keyboard's focus is, as far as a person can see it: on a visible widget inside the
// window, ringed.
QString focusProblem(QWidget *window)
{
    QWidget *focus = QApplication::focusWidget();
    if (!focus)
        return QStringLiteral("nothing has the focus");
    const QString name =
        QString::fromLatin1(focus->metaObject()->className()) + QLatin1Char(' ') + focus->accessibleName();
    if (!focus->isVisible())
        return name + QStringLiteral(" has the focus but is hidden");
    if (focus->window() == window &&
        !window->rect().intersects(QRect(focus->mapTo(window, QPoint(0, 0)), focus->size())))
        return name + QStringLiteral(" has the focus outside the window");
    if (FocusRing::ringedWidget() != focus)
        return name + QStringLiteral(" has the focus without a ring");
    return {};
}

bool idle(MainWindow *window)
{
    return window->currentSession() && !window->currentSession()->isBusy();
}

} // namespace

class TestPersonPath : public QObject
{
    Q_OBJECT

    WindowFixture m_fixture;
    std::unique_ptr<MainWindow> m_window;
    QString m_theme;
    QString m_shots;
    int m_step = 0;

    // The whole screen, as a person sees it (dialogs and the window's place on it included).
    void shot(const QString &step)
    {
        QApplication::processEvents();
        QTest::qWait(150);
        const QString name = QStringLiteral("%1-%2-%3.png").arg(++m_step, 2, 10, QLatin1Char('0')).arg(step, m_theme);
        QImage image = m_window->screen()->grabWindow(0).toImage();
        if (image.isNull() || image.size().width() < 10)
            image = m_window->grab().toImage();
        QVERIFY(image.save(m_shots + QLatin1Char('/') + name));
    }

    // Under Xvfb without a window manager, a dialog that closes leaves no window active; a person
    // would click the window before typing into it, and so does the path.
    void activate()
    {
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    }

    void click(QWidget *widget)
    {
        QVERIFY(widget);
        QVERIFY2(widget->isVisible() && widget->isEnabled(), qPrintable(widget->accessibleName()));
        QTest::mouseClick(widget, Qt::LeftButton, {}, widget->rect().center());
    }

    void type(const QString &text)
    {
        QPlainTextEdit *editor = m_window->composer()->editor();
        QTest::mouseClick(editor->viewport(), Qt::LeftButton);
        QTest::keyClicks(editor, text);
    }

    void ask(const QString &text)
    {
        type(text);
        QTest::keyClick(m_window->composer()->editor(), Qt::Key_Return);
    }

    ToolCallCard *awaitingCard(const QString &callId)
    {
        ToolCallCard *card = nullptr;
        waitUntil([&] { return (card = newestCard(m_window->chatView(), callId)) && card->isAwaitingApproval(); },
                  30000);
        return card;
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_theme = qEnvironmentVariable("SANDPIPER_THEME", QStringLiteral("light"));
        m_shots = qEnvironmentVariable("SANDPIPER_PERSON_PATH_DIR", QStringLiteral("person-path"));
        QVERIFY(QDir().mkpath(m_shots));
        // A first start: no key anywhere, a profile of its own.
        QCOMPARE(m_fixture.startWithoutProvider(
                     {QStringLiteral("sandbox/image=") + sandboxImage(), QStringLiteral("sandbox/prewarm=false")}),
                 QString());
        m_fixture.server().setModels({QStringLiteral("qwen2.5-7b-instruct")});
        applyTheme(*m_fixture.settings(), m_theme);
    }

    void cleanupTestCase()
    {
        m_window.reset();
        QVERIFY(m_fixture.finish());
    }

    // The welcome page finds the model server on this computer; one click uses it.
    void firstRunFindsTheLocalServer()
    {
        m_window = m_fixture.window();
        m_window->welcomePage()->setCandidates({{QStringLiteral("llamacpp"), m_fixture.server().baseUrl().toString()}});
        QSignalSpy scanned(m_window->welcomePage(), &WelcomePage::scanFinished);
        m_window->show();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->welcomePage()->isVisible(), 15000);
        QVERIFY(scanned.count() > 0 || scanned.wait(15000));
        // The server found; a download to run here comes first when a llama-server is here (the
        // runner's image on the engine counts).
        const QList<QPushButton *> offers = m_window->welcomePage()->useButtons();
        QVERIFY(!offers.isEmpty());
        QVERIFY(offers.size() == 1 || offers.first()->accessibleName().startsWith(QLatin1String("Download ")));
        shot(QStringLiteral("first-run"));
        click(offers.last());
        QTRY_VERIFY(m_window->composer()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(
            m_window->composer()->modelPicker()->findText(QStringLiteral("qwen2.5-7b-instruct")) >= 0, 15000);
        shot(QStringLiteral("connected"));
    }

    // Ask for code, read it on the approval card, run it, see the figure and the table.
    void askApproveFigureAndTable()
    {
        m_fixture.server().enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_0"), QStringLiteral("execute_python_code"),
              codeArguments(QStringLiteral("import numpy as np, pandas as pd, matplotlib.pyplot as plt\n"
                                           "x = np.linspace(0, 6.3, 40)\n"
                                           "plt.plot(x, np.sin(x))\n"
                                           "pd.DataFrame({'x': x, 'sin': np.sin(x)}).head(12)"))}},
            4, {}, FS::CallOrder::OneAfterAnother, QStringLiteral("Let me plot it.")));
        m_fixture.server().enqueue(
            FS::openAiText(QStringLiteral("Here is the sine, and in `print('in <module> a < b > c')` "
                                          "nothing is lost, THE END.")));
        ask(QStringLiteral("plot a sine and show a table"));
        ToolCallCard *card = awaitingCard(QStringLiteral("call_0"));
        QVERIFY(card);
        shot(QStringLiteral("approval"));
        click(visibleButton(card, QStringLiteral("Run")));
        QTRY_VERIFY_WITH_TIMEOUT(!card->findChildren<FigureView *>().isEmpty(), 90000);
        QTRY_VERIFY_WITH_TIMEOUT(
            idle(m_window.get()) && lastMessageText(m_window.get()).contains(QLatin1String("THE END")), 30000);
        QTRY_VERIFY(!m_window->inspector()->findChildren<DataTableView *>().isEmpty());
        QTRY_COMPARE(m_window->inspector()->figureCount(), 1);
        // The model's first answer: the offer to test it, which the person leaves for now.
        auto *offer = m_window->findChild<FirstUseProbe *>();
        QTRY_VERIFY(offer && offer->isVisible());
        QVERIFY(offer->textLabel()->text().contains(QLatin1String("qwen2.5-7b-instruct")));
        shot(QStringLiteral("test-offer"));
        click(offer->laterButton());
        QTRY_VERIFY(!offer->isVisible());
        shot(QStringLiteral("figure-and-table"));
        const QStringList problems = layoutProblems(m_window.get(), m_window->size());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // A request that fails says so in place; Retry asks again.
    void errorAndRetry()
    {
        m_fixture.server().enqueue(FS::httpError(400, QStringLiteral("The request was refused.")));
        ask(QStringLiteral("hello"));
        QPushButton *retry = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((retry = visibleButton(lastMessage(m_window.get()), QStringLiteral("Retry"))), 20000);
        QTRY_VERIFY(idle(m_window.get()));
        QVERIFY(!visibleButton(lastMessage(m_window.get()), QStringLiteral("Regenerate")));
        shot(QStringLiteral("error"));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hello! How can I help?")));
        click(retry);
        QTRY_VERIFY_WITH_TIMEOUT(
            idle(m_window.get()) && lastMessageText(m_window.get()) == QLatin1String("Hello! How can I help?"), 20000);
        shot(QStringLiteral("retried"));
    }

    void regenerate()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hi there, what shall we compute?")));
        QPushButton *regenerate = nullptr;
        QTRY_VERIFY((regenerate = visibleButton(lastMessage(m_window.get()), QStringLiteral("Regenerate"))));
        click(regenerate);
        QTRY_VERIFY_WITH_TIMEOUT(idle(m_window.get()) && lastMessageText(m_window.get()) ==
                                                             QLatin1String("Hi there, what shall we compute?"),
                                 20000);
        shot(QStringLiteral("regenerated"));
    }

    // Edit the question in place: the edited one is asked, the old one stays as a version beside it.
    void edit()
    {
        const QList<MessageWidget *> messages = m_window->chatView()->messageWidgets();
        MessageWidget *question = messages.at(messages.size() - 2);
        QCOMPARE(question->message().role, ChatMessage::Role::User);
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Good evening!")));
        click(visibleButton(question, QStringLiteral("Edit")));
        MessageEditor *editor = question->editor();
        QVERIFY(editor);
        QTRY_VERIFY(editor->textEdit()->hasFocus());
        editor->textEdit()->selectAll();
        QTest::keyClicks(editor->textEdit(), QStringLiteral("good evening"));
        shot(QStringLiteral("editing"));
        click(editor->sendButton());
        QTRY_VERIFY_WITH_TIMEOUT(
            idle(m_window.get()) && lastMessageText(m_window.get()) == QLatin1String("Good evening!"), 20000);
        shot(QStringLiteral("edited"));
    }

    // A file attached with the Attach button and the file dialog shows in the composer.
    void attach()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("sales.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("month,units\njan,12\nfeb,17\nmar,9\n");
        file.close();
        DialogDriver driver;
        driver.saveTo(path);
        click(visibleButton(m_window->composer(), QStringLiteral("Attach…")));
        QTRY_VERIFY(driver.done());
        bool shown = false;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (QWidget *widget : m_window->composer()->findChildren<QWidget *>()) {
                    const auto *label = qobject_cast<QLabel *>(widget);
                    shown = shown ||
                            (widget->isVisible() && ((label && label->text().contains(QLatin1String("sales.csv"))) ||
                                                     widget->accessibleName().contains(QLatin1String("sales.csv"))));
                }
                return shown;
            }(),
            10000);
        shot(QStringLiteral("attached"));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("It has three months of units.")));
        ask(QStringLiteral("what is in it?"));
        QTRY_VERIFY_WITH_TIMEOUT(idle(m_window.get()) &&
                                     lastMessageText(m_window.get()) == QLatin1String("It has three months of units."),
                                 20000);
        shot(QStringLiteral("attachment-sent"));
    }

    // An image pasted with Ctrl+V shows as a thumbnail; its × takes it back.
    void paste()
    {
        activate();
        QImage image(400, 240, QImage::Format_RGB32);
        image.fill(QColor(0x3d, 0x7b, 0xe0));
        auto *data = new QMimeData;
        data->setImageData(image);
        QApplication::clipboard()->setMimeData(data);
        QTest::mouseClick(m_window->composer()->editor()->viewport(), Qt::LeftButton);
        QTest::keyClick(m_window->composer()->editor(), Qt::Key_V, Qt::ControlModifier);
        QTRY_VERIFY(m_window->composer()->imageStrip()->isVisible());
        shot(QStringLiteral("pasted"));
        QToolButton *remove = nullptr;
        for (QToolButton *button : m_window->composer()->imageStrip()->findChildren<QToolButton *>()) {
            if (button->isVisible() && button->accessibleName().startsWith(QLatin1String("Image")))
                remove = button;
        }
        QVERIFY(remove);
        click(remove);
        QTRY_VERIFY(!m_window->composer()->imageStrip()->isVisible());
    }

    // Away to a new chat while the answer streams, and back: the answer is there once, whole.
    void switchMidStream()
    {
        activate();
        const qint64 first = m_window->currentConversation();
        m_fixture.server().enqueue(
            FS::slowText(QStringLiteral("one two three four five six seven eight"), 8, std::chrono::milliseconds(250)));
        ask(QStringLiteral("count slowly"));
        QTRY_VERIFY_WITH_TIMEOUT(lastMessage(m_window.get()) &&
                                     lastMessage(m_window.get())->message().status == ChatMessage::Status::Streaming,
                                 20000);
        // The image taken back in paste() does not go with this question.
        const QList<MessageWidget *> messages = m_window->chatView()->messageWidgets();
        QVERIFY(messages.size() >= 2);
        QCOMPARE(messages.at(messages.size() - 2)->message().content, QStringLiteral("count slowly"));
        QCOMPARE(messages.at(messages.size() - 2)->message().images, QStringList());
        QTest::keyClick(m_window.get(), Qt::Key_N, Qt::ControlModifier);
        QTRY_VERIFY(m_window->currentConversation() != first);
        shot(QStringLiteral("new-chat-while-streaming"));
        QListView *list = m_window->conversationList();
        QModelIndex row;
        for (int index = 0; index < list->model()->rowCount(); ++index) {
            if (list->model()->index(index, 0).data(ConversationListModel::ConversationIdRole).toLongLong() == first)
                row = list->model()->index(index, 0);
        }
        QVERIFY(row.isValid());
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(row).center());
        QTRY_COMPARE(m_window->currentConversation(), first);
        QTRY_VERIFY_WITH_TIMEOUT(idle(m_window.get()), 20000);
        QCOMPARE(lastMessageText(m_window.get()), QStringLiteral("one two three four five six seven eight"));
        int answers = 0;
        for (MessageWidget *message : m_window->chatView()->messageWidgets())
            answers += message->plainText().contains(QLatin1String("one two three")) ? 1 : 0;
        QCOMPARE(answers, 1);
        // Back where the answer ends, as it was left while it streamed.
        QScrollBar *scroll = m_window->chatView()->page()->verticalScrollBar();
        QTRY_COMPARE(scroll->value(), scroll->maximum());
        shot(QStringLiteral("back-after-streaming"));
    }

    // Ctrl+F, a word, Down, Enter: the conversation that has it opens.
    void search()
    {
        activate();
        QTest::keyClick(m_window.get(), Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(m_window->searchField()->hasFocus());
        QTest::keyClicks(m_window->searchField(), QStringLiteral("sine"));
        QTest::qWait(400);
        shot(QStringLiteral("search"));
        QTest::keyClick(m_window->searchField(), Qt::Key_Down);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY(lastMessageText(m_window.get()).contains(QLatin1String("one two three")) ||
                    !m_window->chatView()->messageWidgets().isEmpty());
        QTest::keyClick(m_window->searchField(), Qt::Key_Escape);
    }

    // File › Export as Markdown from the keyboard's menu keys; the status bar says where it went.
    void exportFromTheMenu()
    {
        activate();
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("conversation.md"));
        DialogDriver driver;
        driver.saveTo(path);
        QTest::keyClick(m_window.get(), Qt::Key_F, Qt::AltModifier);
        QTRY_VERIFY(QApplication::activePopupWidget());
        QTest::keyClick(QApplication::activePopupWidget(), Qt::Key_M);
        QTRY_VERIFY(driver.done());
        QTRY_VERIFY(QFile::exists(path));
        QTRY_VERIFY(m_window->savedFileNotice()->isVisible());
        shot(QStringLiteral("exported"));
    }

    // The window at the sizes people have: all of it inside, nothing cut short.
    void everySize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1440x900") << QSize(1440, 900);
        QTest::newRow("800x600") << QSize(800, 600);
        QTest::newRow("500x400") << QSize(500, 400);
    }
    void everySize()
    {
        activate();
        QFETCH(QSize, size);
        m_window->move(0, 0);
        m_window->resize(size);
        QTest::qWait(300);
        QApplication::processEvents();
        shot(QStringLiteral("size-%1x%2").arg(size.width()).arg(size.height()));
        const QStringList problems = layoutProblems(m_window.get(), size);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        // Show the inspector with its table: it must fit as well (it scrolls).
        if (!m_window->inspectorDock()->isVisible()) {
            QTest::keyClick(m_window.get(), Qt::Key_I, Qt::ControlModifier);
            QTRY_VERIFY(m_window->inspectorDock()->isVisible());
            QTest::qWait(300);
            shot(QStringLiteral("size-%1x%2-inspector").arg(size.width()).arg(size.height()));
            const QStringList withInspector = layoutProblems(m_window.get(), size);
            QTest::keyClick(m_window.get(), Qt::Key_I, Qt::ControlModifier);
            QVERIFY2(withInspector.isEmpty(), qPrintable(withInspector.join(QLatin1Char('\n'))));
        }
    }

    // One turn without the mouse, at 800×600: the focus is seen at every step.
    void keyboardOnly()
    {
        activate();
        m_window->resize(800, 600);
        QTest::qWait(200);
        QTest::keyClick(m_window.get(), Qt::Key_L, Qt::ControlModifier);
        QTRY_VERIFY(m_window->composer()->editor()->hasFocus());
        QTest::keyClicks(m_window->composer()->editor(), QStringLiteral("six times seven"));
        QVERIFY2(focusProblem(m_window.get()).isEmpty(), qPrintable(focusProblem(m_window.get())));
        m_fixture.server().enqueue(
            FS::openAiToolCalls({{QStringLiteral("call_0"), QStringLiteral("execute_python_code"),
                                  codeArguments(QStringLiteral("6 * 7"))}}));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("It is 42.")));
        QTest::keyClick(m_window->composer()->editor(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                auto *card = newestCard(m_window->chatView(), QStringLiteral("call_0"));
                return card && card->isAwaitingApproval() && card->isAncestorOf(QApplication::focusWidget());
            }(),
            30000);
        QVERIFY2(focusProblem(m_window.get()).isEmpty(), qPrintable(focusProblem(m_window.get())));
        shot(QStringLiteral("keyboard-approval"));
        // Tab through the card's buttons and back: the ring follows.
        for (int step = 0; step < 3; ++step) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QVERIFY2(focusProblem(m_window.get()).isEmpty(), qPrintable(focusProblem(m_window.get())));
        }
        shot(QStringLiteral("keyboard-tab"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(idle(m_window.get()) && lastMessageText(m_window.get()) == QLatin1String("It is 42."),
                                 60000);
        // Shift+Tab from the message box reaches the last answer's Regenerate.
        QTest::keyClick(m_window.get(), Qt::Key_L, Qt::ControlModifier);
        bool reached = false;
        for (int step = 0; step < 12 && !reached; ++step) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab);
            QVERIFY2(focusProblem(m_window.get()).isEmpty(), qPrintable(focusProblem(m_window.get())));
            const auto *button = qobject_cast<QPushButton *>(QApplication::focusWidget());
            reached = button && button->text() == QLatin1String("Regenerate");
        }
        QVERIFY2(reached, "Shift+Tab from the message box did not reach Regenerate");
        shot(QStringLiteral("keyboard-regenerate"));
    }
};

QTEST_MAIN(TestPersonPath)
#include "tst_personpath.moc"
