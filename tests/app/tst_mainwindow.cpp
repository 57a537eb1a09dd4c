// The desktop app driven like a user would: a whole conversation against the fake model
// server and the real sandbox, then a restart that finds it again.
#include "cardlookup.h"
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "uiwait.h"
#include "windowfixture.h"

#include <agent/agentthread.h>
#include <chartviews/chartwidget.h>
#include <chat/chatview.h>
#include <chat/figureview.h>
#include <chat/markdownview.h>
#include <chat/messagewidget.h>
#include <chat/toolcallcard.h>
#include <codeinspector.h>
#include <composer.h>
#include <conversationlistmodel.h>
#include <elidedlabel.h>
#include <mainwindow.h>
#include <session/conversationsession.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSplitter>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextList>
#include <QVBoxLayout>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

class TestMainWindow : public QObject
{
    Q_OBJECT

    WindowFixture m_fixture;

    // The inspector's row of figures.
    // Whether the inspector shows a box of figures (one is made only for a run that has some).
    static bool showsFigureBox(MainWindow *window)
    {
        for (QWidget *widget : window->inspector()->findChildren<QWidget *>()) {
            if (widget->accessibleName() == QLatin1String("Figures") && widget->isVisible())
                return true;
        }
        return false;
    }

private Q_SLOTS:
    void init() { QCOMPARE(m_fixture.startWithSandbox(), QString()); }

    void cleanup()
    {
        // The agents of closed windows finish saving before the store goes.
        QVERIFY(m_fixture.finish());
    }

    void startsWithAnEmptyConversationList()
    {
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        QCOMPARE(window->windowTitle(), QStringLiteral("Sandpiper"));
        QCOMPARE(window->conversationList()->model()->rowCount(), 0);
        QVERIFY(window->composer()->editor()->hasFocus());
        QVERIFY(window->inspectorDock()->isVisible());
        QAbstractItemModelTester tester(window->conversationList()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void everyControlIsReachableAndNamed()
    {
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        const auto widgets = window->findChildren<QWidget *>();
        for (QWidget *widget : widgets) {
            if (widget->isVisible() && (widget->focusPolicy() & Qt::TabFocus) && widget->isEnabled())
                QVERIFY2(!widget->accessibleName().isEmpty() || !widget->window()->isWindow() ||
                             qobject_cast<QAbstractButton *>(widget) || widget->parentWidget()->inherits("QComboBox"),
                         widget->metaObject()->className());
        }
    }

    void enterSendsAndShiftEnterBreaksTheLine()
    {
        Composer composer;
        QSignalSpy sent(&composer, &Composer::sendRequested);
        QTest::keyClicks(composer.editor(), QStringLiteral("first line"));
        QTest::keyClick(composer.editor(), Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClicks(composer.editor(), QStringLiteral("second"));
        QCOMPARE(sent.count(), 0);
        QTest::keyClick(composer.editor(), Qt::Key_Return);
        QCOMPARE(sent.count(), 1);
        QCOMPARE(sent.first().first().toString(), QStringLiteral("first line\nsecond"));
        QVERIFY(composer.editor()->toPlainText().isEmpty());
    }

    void markdownKeepsSandboxFilesAndBlocksRemoteImages()
    {
        QTemporaryDir folder;
        QDir().mkpath(folder.filePath(QStringLiteral("figures")));
        QImage(10, 10, QImage::Format_RGB32).save(folder.filePath(QStringLiteral("figures/a.png")));
        MarkdownView view;
        view.setConversationFolder(folder.path());
        QStringList code, languages;
        const QString out = view.preprocess(
            QStringLiteral("![plot](sandbox:/mnt/data/figures/a.png)\n![remote](https://tracker.example/p.png)\n"
                           "![escape](/mnt/data/../../etc/passwd)\n```python\nprint(1)\n```"),
            &code, &languages);
        QVERIFY2(out.contains(QUrl::fromLocalFile(folder.filePath(QStringLiteral("figures/a.png"))).toString()),
                 qPrintable(out));
        QVERIFY(out.contains(QLatin1String("load-image:")));
        QVERIFY(!out.contains(QLatin1String("https://tracker.example/p.png)")));
        QVERIFY(!out.contains(QLatin1String("etc/passwd)")));
        QCOMPARE(code, QStringList{QStringLiteral("print(1)\n")});
        QCOMPARE(languages, QStringList{QStringLiteral("python")});
    }

    void streamingRendersEachFinishedParagraphOnce()
    {
        ChatMessage message;
        message.role = ChatMessage::Role::Assistant;
        message.status = ChatMessage::Status::Streaming;
        MessageWidget widget(message, QString());
        const QString paragraph =
            QStringLiteral("A paragraph with **bold** words. ").repeated(4) + QStringLiteral("\n\n");
        const QString answer =
            QStringLiteral("# Title\n\n") + paragraph.repeated(2) +
            QStringLiteral(
                "```python\nx = 1\n\ny = 2\n```\n\n- one\n- two\n\n## Numbers\n\n| a | b |\n|---|---|\n| 1 | 2 "
                "|\n\n1. first\n\n2. second, a loose list\n\n> quoted\n\n") +
            paragraph + QStringLiteral("Last words");
        auto *view = widget.findChild<MarkdownView *>();
        QVERIFY(view);
        int markedBlock = -1;
        for (qsizetype at = 0; at < answer.size(); at += 7) {
            widget.appendText(answer.mid(at, 7));
            widget.flush();
            // Once the title is finished, its block is rendered for good: mark it and watch.
            if (markedBlock < 0 && view->document()->blockCount() > 2) {
                view->document()->firstBlock().setUserState(42);
                markedBlock = 0;
            }
        }
        QCOMPARE(widget.findChildren<MarkdownView *>().size(), 1);
        QCOMPARE(view->document()->firstBlock().userState(), 42); // never rendered again
        QCOMPARE(view->document()->firstBlock().blockFormat().headingLevel(), 1);
        // What streamed reads exactly as the whole answer rendered at once.
        MarkdownView whole;
        whole.setMarkdownText(answer);
        QCOMPARE(view->toPlainText(), whole.toPlainText());
        QCOMPARE(view->document()->blockCount(), whole.document()->blockCount());
        for (QTextBlock streamed = view->document()->begin(), complete = whole.document()->begin();
             streamed.isValid() && complete.isValid(); streamed = streamed.next(), complete = complete.next()) {
            QCOMPARE(streamed.blockFormat().headingLevel(), complete.blockFormat().headingLevel());
            QCOMPARE(streamed.blockFormat().hasProperty(QTextFormat::BlockCodeFence),
                     complete.blockFormat().hasProperty(QTextFormat::BlockCodeFence));
            QCOMPARE(bool(streamed.textList()), bool(complete.textList()));
            QCOMPARE(bool(QTextCursor(streamed).currentTable()), bool(QTextCursor(complete).currentTable()));
        }
        QCOMPARE(view->codeBlocks(), QStringList{QStringLiteral("x = 1\n\ny = 2\n")});
        QCOMPARE(view->codeBlocks(), whole.codeBlocks());
        // The answer as stored keeps what is shown.
        message.content = answer;
        message.status = ChatMessage::Status::Complete;
        widget.finishStreaming(message);
        QCOMPARE(view->document()->firstBlock().userState(), 42);
    }

    void aWholeConversationWithApprovalFigureAndRestart()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_fixture.server().enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_plot"), QStringLiteral("execute_python_code"),
              QStringLiteral(
                  "{\"code\": \"import numpy as np, matplotlib.pyplot as plt\\nx = np.linspace(0, 6.3, 50)\\n"
                  "plt.plot(x, np.sin(x))\\nprint('plotted')\"}")}},
            6, {}, FS::CallOrder::OneAfterAnother, QStringLiteral("Let me plot it.")));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Here is **the sine** you asked for."), 6));
        {
            auto window = m_fixture.openWindow();
            QVERIFY(window);
            QVERIFY(window->isPythonAvailable());
            // No run yet: no empty box for figures.
            QVERIFY(!showsFigureBox(window.get()));
            QTest::keyClicks(window->composer()->editor(), QStringLiteral("plot a sine"));
            QTest::keyClick(window->composer()->editor(), Qt::Key_Return);

            QTRY_VERIFY_WITH_TIMEOUT(
                Test::newestCard(window->chatView(), QStringLiteral("call_plot")) &&
                    Test::newestCard(window->chatView(), QStringLiteral("call_plot"))->isAwaitingApproval(),
                20000);
            ToolCallCard *card = Test::newestCard(window->chatView(), QStringLiteral("call_plot"));
            // A widget added to a shown window shows at the next turn of the event loop.
            QPushButton *run = nullptr;
            QTRY_VERIFY((run = visibleButton(card, QStringLiteral("Run"))));
            // From the keyboard: once decided, the focus stays on the card rather than jumping to
            // the next widget of the window.
            window->activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(window.get()));
            run->setFocus();
            QTRY_VERIFY(run->hasFocus());
            QTest::keyClick(run, Qt::Key_Space);
            QVERIFY2(card->isAncestorOf(QApplication::focusWidget()),
                     QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "none");

            QTRY_VERIFY_WITH_TIMEOUT(!card->findChildren<FigureView *>().isEmpty(), 60000);
            QTRY_VERIFY_WITH_TIMEOUT(!window->chatView()->messageWidgets().isEmpty() &&
                                         window->chatView()->messageWidgets().constLast()->plainText() ==
                                             QStringLiteral("Here is **the sine** you asked for."),
                                     20000);
            QTRY_COMPARE(window->inspector()->figureCount(), 1);
            QVERIFY(showsFigureBox(window.get()));
            QCOMPARE(window->inspector()->standardOutput()->toPlainText(), QStringLiteral("plotted\n"));
            QCOMPARE(window->conversationList()->model()->rowCount(), 1);
            QCOMPARE(window->conversationList()->model()->index(0, 0).data().toString(), QStringLiteral("plot a sine"));
        }
        // A new window on the same store: the conversation is there with its figure.
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        QCOMPARE(window->conversationList()->model()->rowCount(), 1);
        QTRY_VERIFY(Test::newestCard(window->chatView(), QStringLiteral("call_plot")));
        QCOMPARE(Test::newestCard(window->chatView(), QStringLiteral("call_plot"))->findChildren<FigureView *>().size(),
                 1);
        QCOMPARE(window->inspector()->figureCount(), 1);
        QVERIFY(window->chatView()->messageWidgets().constLast()->plainText().contains(QLatin1String("the sine")));
    }

    // Retry and Regenerate reload the conversation from the click on their own button: the
    // widget that was clicked must outlive its signal (heap corruption, found by a person).
    void retryAndRegenerateFromTheirOwnButtons()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_fixture.server().enqueue(FS::httpError(400, QStringLiteral("The request was refused.")));
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        QTest::keyClicks(window->composer()->editor(), QStringLiteral("hello"));
        QTest::keyClick(window->composer()->editor(), Qt::Key_Return);
        QPushButton *retry = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            !window->chatView()->messageWidgets().isEmpty() &&
                (retry = visibleButton(window->chatView()->messageWidgets().constLast(), QStringLiteral("Retry"))),
            20000);
        // Retried, the answer is a tool call: its card replaces the failed answer.
        m_fixture.server().enqueue(
            FS::openAiToolCalls({{QStringLiteral("call_retried"), QStringLiteral("execute_python_code"),
                                  codeArguments(QStringLiteral("print(6 * 7)"))}}));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("It is 42.")));
        QTest::mouseClick(retry, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            Test::newestCard(window->chatView(), QStringLiteral("call_retried")) &&
                Test::newestCard(window->chatView(), QStringLiteral("call_retried"))->isAwaitingApproval(),
            20000);
        QPushButton *run = nullptr;
        QTRY_VERIFY((run = visibleButton(Test::newestCard(window->chatView(), QStringLiteral("call_retried")),
                                         QStringLiteral("Run"))));
        QTest::mouseClick(run, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(lastMessageText(window.get()), QStringLiteral("It is 42."), 60000);
        QTRY_VERIFY(!window->currentSession()->isBusy());

        // Regenerate the last answer, twice in a row.
        for (const QString &again : {QStringLiteral("Again: 42."), QStringLiteral("Once more: 42.")}) {
            m_fixture.server().enqueue(FS::openAiText(again));
            QPushButton *regenerate = nullptr;
            QTRY_VERIFY((regenerate = visibleButton(window->chatView()->messageWidgets().constLast(),
                                                    QStringLiteral("Regenerate"))));
            QTest::mouseClick(regenerate, Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(lastMessageText(window.get()), again, 20000);
            QTRY_VERIFY(!window->currentSession()->isBusy());
        }
        QCOMPARE(window->chatView()->messageWidgets().size(), 2);
    }

    void aChartTheModelDrawsAppearsInTheChat()
    {
        const QString spec =
            QStringLiteral("{\"type\": \"bar\", \"title\": \"Visitors\", \"categories\": [\"Mon\", \"Tue\", \"Wed\"], "
                           "\"series\": [{\"name\": \"Web\", \"data\": [120, 135, 150]}]}");
        m_fixture.server().enqueue(
            FS::openAiToolCalls({{QStringLiteral("call_chart"), QStringLiteral("create_chart"), spec}}, 5));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Here are the visitors.")));
        {
            auto window = m_fixture.openWindow();
            QVERIFY(window);
            window->send(QStringLiteral("chart the visitors"));
            QTRY_VERIFY_WITH_TIMEOUT(Test::newestCard(window->chatView(), QStringLiteral("call_chart")) &&
                                         !Test::newestCard(window->chatView(), QStringLiteral("call_chart"))
                                              ->findChildren<ChartWidget *>()
                                              .isEmpty(),
                                     20000);
            QTRY_COMPARE_WITH_TIMEOUT(window->chatView()->messageWidgets().constLast()->plainText(),
                                      QStringLiteral("Here are the visitors."), 10000);
        }
        // Stored as its spec, drawn again when the conversation is opened later.
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        QTRY_VERIFY(Test::newestCard(window->chatView(), QStringLiteral("call_chart")));
        QCOMPARE(
            Test::newestCard(window->chatView(), QStringLiteral("call_chart"))->findChildren<ChartWidget *>().size(),
            1);
    }

    // A call whose arguments do not parse is not run, and its card shows why without a click.
    void aCallThatCannotRunShowsWhy()
    {
        m_fixture.server().enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_bad"), QStringLiteral("execute_python_code"), QStringLiteral("{\"cod\": 5}")}}));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Sorry.")));
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        window->send(QStringLiteral("run something"));
        QTRY_VERIFY_WITH_TIMEOUT(Test::newestCard(window->chatView(), QStringLiteral("call_bad")), 10000);
        ToolCallCard *card = Test::newestCard(window->chatView(), QStringLiteral("call_bad"));
        QTRY_VERIFY_WITH_TIMEOUT(card->isExpanded(), 10000);
        const QList<QPlainTextEdit *> texts = card->findChildren<QPlainTextEdit *>();
        QVERIFY(std::any_of(texts.cbegin(), texts.cend(), [](QPlainTextEdit *text) {
            return text->isVisible() && text->toPlainText().contains(QLatin1String("JSON object like"));
        }));
    }

    void searchFindsMessages()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Photosynthesis turns light into sugar.")));
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        window->send(QStringLiteral("explain photosynthesis"));
        QTRY_COMPARE_WITH_TIMEOUT(window->chatView()->messageWidgets().size(), 2, 10000);
        // The status bar's context used of the window; the provider's token count in its tooltip.
        QVERIFY2(window->tokenLabel()->text().startsWith(QStringLiteral("context ")) &&
                     window->tokenLabel()->text().contains(QStringLiteral(" / ")),
                 qPrintable(window->tokenLabel()->text()));
        QVERIFY(window->tokenLabel()->toolTip().contains(QStringLiteral(" tokens ")));
        QTest::keyClicks(window->searchField(), QStringLiteral("sugar"));
        const QAbstractItemModel *hits = window->conversationList()->model();
        QTRY_VERIFY(
            hits->index(0, 0).data(ConversationListModel::SnippetRole).toString().contains(QLatin1String("sugar")));
        QCOMPARE(hits->rowCount(), 1);
    }

    void switchingConversationsMidStreamShowsTheAnswerOnce()
    {
        // Slow enough to be still answering after the switch on a busy machine (1.2 s was not).
        m_fixture.server().enqueue(
            FS::slowText(QStringLiteral("One two three four five six seven eight nine ten."), 20, 250ms));
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        window->send(QStringLiteral("count to ten"));
        const qint64 counting = window->currentConversation();
        auto streaming = [&] {
            const QList<MessageWidget *> widgets = window->chatView()->messageWidgets();
            return !widgets.isEmpty() && widgets.constLast()->message().status == ChatMessage::Status::Streaming &&
                   !widgets.constLast()->plainText().isEmpty();
        };
        QTRY_VERIFY_WITH_TIMEOUT(streaming(), 10000);
        QVERIFY(visibleButton(window->composer(), QStringLiteral("Stop")));

        window->newConversation();
        QVERIFY(window->currentConversation() != counting);
        QVERIFY(window->chatView()->messageWidgets().isEmpty());
        QVERIFY(visibleButton(window->composer(), QStringLiteral("Send"))); // this one is idle
        QTRY_VERIFY(window->conversationList()->model()->index(1, 0).data(ConversationListModel::RunningRole).toBool());

        window->openConversation(counting);
        QVERIFY(visibleButton(window->composer(), QStringLiteral("Stop"))); // still answering
        QTRY_VERIFY_WITH_TIMEOUT(visibleButton(window->composer(), QStringLiteral("Send")), 20000);
        const QList<MessageWidget *> widgets = window->chatView()->messageWidgets();
        QCOMPARE(widgets.size(), 2); // the question and one answer, not a stale half beside it
        QCOMPARE(widgets[1]->plainText(), QStringLiteral("One two three four five six seven eight nine ten."));
        QCOMPARE(widgets[1]->message().status, ChatMessage::Status::Complete);
    }

    void anAnswerFinishedInTheBackgroundIsMarkedUnread()
    {
        m_fixture.server().enqueue(FS::slowText(QStringLiteral("Done in the background."), 10, 50ms));
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        window->send(QStringLiteral("work"));
        const qint64 working = window->currentConversation();
        window->newConversation();
        const QAbstractItemModel *list = window->conversationList()->model();
        auto rowOf = [&](qint64 id) {
            for (int row = 0; row < list->rowCount(); ++row) {
                if (list->index(row, 0).data(ConversationListModel::ConversationIdRole).toLongLong() == id)
                    return row;
            }
            return -1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(list->index(rowOf(working), 0).data(ConversationListModel::UnreadRole).toBool(),
                                 20000);
        QVERIFY(!list->index(rowOf(working), 0).data(ConversationListModel::RunningRole).toBool());
        window->openConversation(working);
        QVERIFY(!list->index(rowOf(working), 0).data(ConversationListModel::UnreadRole).toBool());
        QCOMPARE(window->chatView()->messageWidgets().constLast()->plainText(),
                 QStringLiteral("Done in the background."));
    }

    void aTitleTheModelWritesReachesTheSidebar()
    {
        QCOMPARE(m_fixture.settings()->addOverride(QStringLiteral("agent/model_titles=true")), QString());
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Water boils at 100 °C at sea level.")));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Boiling point of water")));
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        window->send(QStringLiteral("at what temperature does water boil when you are at sea level?"));
        QTRY_COMPARE_WITH_TIMEOUT(window->conversationList()->model()->index(0, 0).data().toString(),
                                  QStringLiteral("Boiling point of water"), 20000);
        QCOMPARE(window->windowTitle(), QStringLiteral("Boiling point of water — Sandpiper"));
    }

    void theStatusBarNamesTheModelInUse()
    {
        m_fixture.server().setModels({QStringLiteral("fake-model"), QStringLiteral("other-model")});
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hi.")));
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        window->newConversation();
        QVERIFY(window->providerLabel()->text().endsWith(QLatin1String("fake-model")));
        Q_EMIT window->composer()->modelChosen(QStringLiteral("other-model"));
        QVERIFY2(window->providerLabel()->text().endsWith(QLatin1String("other-model")),
                 qPrintable(window->providerLabel()->text()));
        window->send(QStringLiteral("hello"));
        QTRY_VERIFY_WITH_TIMEOUT(
            !m_fixture.server().chatRequests().isEmpty() &&
                m_fixture.server().chatRequests().constLast().json().value(QLatin1String("model")).toString() ==
                    QStringLiteral("other-model"),
            10000);
    }

    void aWideFigureIsScaledToTheColumn()
    {
        QTemporaryDir folder;
        QImage wide(1200, 300, QImage::Format_RGB32);
        wide.fill(Qt::white);
        QVERIFY(wide.save(folder.filePath(QStringLiteral("wide.png"))));
        QWidget column;
        auto *layout = new QVBoxLayout(&column);
        auto *figure = new FigureView(folder.path(), QStringLiteral("wide.png"), 640);
        layout->addWidget(figure, 0, Qt::AlignLeft);
        column.resize(400, 400);
        column.show();
        QVERIFY(QTest::qWaitForWindowExposed(&column));
        QTRY_VERIFY(figure->width() <= 400);
        QVERIFY(figure->pixmap().width() <= 400);
        QVERIFY(figure->pixmap().width() > 300);
        QVERIFY(qAbs(figure->pixmap().height() - figure->pixmap().width() / 4) <= 1);
        column.resize(900, 400);
        QTRY_COMPARE(figure->pixmap().width(), 640);
    }

    void theWindowRemembersItsLayout()
    {
        QByteArray geometry;
        int sidebarWidth = 0;
        {
            auto window = m_fixture.openWindow();
            QVERIFY(window);
            // Wide enough for the list and the chat side by side (a narrow window folds the list).
            window->resize(1280, 800);
            auto *splitter = window->findChild<QSplitter *>(QStringLiteral("mainSplitter"));
            QVERIFY(splitter);
            splitter->setSizes({320, 600});
            sidebarWidth = splitter->sizes().constFirst();
            window->inspectorDock()->hide();
            geometry = window->saveGeometry();
            window->close();
        }
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        QVERIFY(!window->inspectorDock()->isVisible());
        QCOMPARE(window->findChild<QSplitter *>(QStringLiteral("mainSplitter"))->sizes().constFirst(), sidebarWidth);
        // Where the window was and how large: the offscreen platform places windows itself, so
        // what is checked here is what was kept for the next start.
        QCOMPARE(QByteArray::fromBase64(m_fixture.settings()->string(QStringLiteral("window/geometry")).toLatin1()),
                 geometry);
    }

    void closingWithFiveBusyConversationsDoesNotWait()
    {
        for (int i = 0; i < 5; ++i)
            m_fixture.server().enqueue(
                FS::slowText(QStringLiteral("A very slow answer that never ends in time."), 50, 200ms));
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        for (int i = 0; i < 5; ++i) {
            window->newConversation();
            window->send(QStringLiteral("question %1").arg(i));
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_fixture.server().chatRequests().size(), 5, 10000);
        QCOMPARE(window->sessions()->openCount(), 5);
        QElapsedTimer closing;
        closing.start();
        window->close();
        window.reset();
        const qint64 guiMs = closing.elapsed();
        qInfo("closing the window with five busy conversations blocked the GUI thread for %lld ms", guiMs);
        closing.restart();
        QVERIFY(AgentThread::waitForRetiredThreads(std::chrono::seconds(20)));
        qInfo("their agents ended %lld ms after that", closing.elapsed());
        // What streamed before the close is kept, marked as interrupted or stopped.
        const auto conversations = m_fixture.store()->conversations();
        QCOMPARE(conversations->size(), 5);
    }

    void providerErrorsShowInPlace()
    {
        m_fixture.server().enqueue(FS::httpError(500, QStringLiteral("the model crashed")));
        m_fixture.server().enqueue(FS::httpError(500, QStringLiteral("the model crashed")));
        m_fixture.server().enqueue(FS::httpError(500, QStringLiteral("the model crashed")));
        m_fixture.server().enqueue(FS::httpError(500, QStringLiteral("the model crashed")));
        QCOMPARE(m_fixture.settings()->addOverride(QStringLiteral("network/max_retries=0")), QString());
        auto window = m_fixture.openWindow();
        QVERIFY(window);
        window->send(QStringLiteral("hello"));
        auto showsError = [&] {
            const QList<MessageWidget *> widgets = window->chatView()->messageWidgets();
            return std::any_of(widgets.cbegin(), widgets.cend(), [](MessageWidget *w) {
                return w->message().error.contains(QLatin1String("the model crashed"));
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(showsError(), 10000);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
