// The desktop app driven like a user would: a whole conversation against the fake model
// server and the real sandbox, then a restart that finds it again.
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"

#include <charts/chartwidget.h>
#include <chat/chatview.h>
#include <chat/figureview.h>
#include <chat/markdownview.h>
#include <chat/messagewidget.h>
#include <chat/toolcallcard.h>
#include <codeinspector.h>
#include <composer.h>
#include <mainwindow.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

class TestMainWindow : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    std::unique_ptr<QTemporaryDir> m_profile;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<ConversationStore> m_store;

    std::unique_ptr<MainWindow> openWindow()
    {
        auto window = std::make_unique<MainWindow>(m_settings.get(), m_store.get());
        QSignalSpy health(window.get(), &MainWindow::healthChecked);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()) || !health.wait(20000))
            return nullptr;
        return window;
    }

    static QPushButton *buttonIn(QWidget *parent, const QString &text)
    {
        for (QPushButton *button : parent->findChildren<QPushButton *>()) {
            if (button->text() == text && button->isVisible())
                return button;
        }
        return nullptr;
    }

private Q_SLOTS:
    void init()
    {
        qputenv("SANDPIPER_API_KEY", "sk-test");
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        m_profile = std::make_unique<QTemporaryDir>();
        m_settings = std::make_unique<Settings>(m_profile->path());
        QString error;
        for (const QString &assignment :
             QStringList{QStringLiteral("provider=custom"),
                         QStringLiteral("providers/custom/base_url=") + m_server->baseUrl().toString(),
                         QStringLiteral("providers/custom/model=fake-model"),
                         QStringLiteral("sandbox/image=") + Sandpiper::Test::sandboxImage(),
                         QStringLiteral("sandbox/prewarm=false")})
            QVERIFY2(m_settings->addOverride(assignment, &error), qPrintable(error));
        m_store = std::make_unique<ConversationStore>(m_settings->dataDirectory());
        QVERIFY(m_store->open());
    }

    void cleanup()
    {
        m_store.reset();
        m_settings.reset();
        m_server.reset();
    }

    void startsWithAnEmptyConversationList()
    {
        auto window = openWindow();
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
        auto window = openWindow();
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

    void streamingFreezesFinishedParagraphs()
    {
        ChatMessage message;
        message.role = ChatMessage::Role::Assistant;
        message.status = ChatMessage::Status::Streaming;
        MessageWidget widget(message, QString());
        const QString paragraph =
            QStringLiteral("A paragraph long enough to matter. ").repeated(5) + QStringLiteral("\n\n");
        widget.appendText(paragraph.repeated(3) + QStringLiteral("```python\nx = 1\n\ny = 2\n"));
        widget.flush();
        const int viewsWhileOpenFence = int(widget.findChildren<MarkdownView *>().size());
        widget.appendText(QStringLiteral("```\n\n") + paragraph.repeated(3) + QStringLiteral("Last"));
        widget.flush();
        QVERIFY(widget.findChildren<MarkdownView *>().size() > viewsWhileOpenFence);
        message.content = widget.message().content;
        message.status = ChatMessage::Status::Complete;
        widget.setMessage(message);
        QTRY_COMPARE(widget.findChildren<MarkdownView *>().size(), 1);
        QCOMPARE(widget.findChildren<MarkdownView *>().first()->codeBlocks(),
                 QStringList{QStringLiteral("x = 1\n\ny = 2\n")});
    }

    void aWholeConversationWithApprovalFigureAndRestart()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_server->enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_plot"), QStringLiteral("execute_python_code"),
              QStringLiteral(
                  "{\"code\": \"import numpy as np, matplotlib.pyplot as plt\\nx = np.linspace(0, 6.3, 50)\\n"
                  "plt.plot(x, np.sin(x))\\nprint('plotted')\"}")}},
            6, {}, FS::CallOrder::OneAfterAnother, QStringLiteral("Let me plot it.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Here is **the sine** you asked for."), 6));
        {
            auto window = openWindow();
            QVERIFY(window);
            QVERIFY(window->isPythonAvailable());
            QTest::keyClicks(window->composer()->editor(), QStringLiteral("plot a sine"));
            QTest::keyClick(window->composer()->editor(), Qt::Key_Return);

            QTRY_VERIFY_WITH_TIMEOUT(window->chatView()->card(QStringLiteral("call_plot")) &&
                                         window->chatView()->card(QStringLiteral("call_plot"))->isAwaitingApproval(),
                                     20000);
            ToolCallCard *card = window->chatView()->card(QStringLiteral("call_plot"));
            QPushButton *run = buttonIn(card, QStringLiteral("Run"));
            QVERIFY(run);
            QTest::mouseClick(run, Qt::LeftButton);

            QTRY_VERIFY_WITH_TIMEOUT(!card->findChildren<FigureView *>().isEmpty(), 60000);
            QTRY_VERIFY_WITH_TIMEOUT(!window->chatView()->messageWidgets().isEmpty() &&
                                         window->chatView()->messageWidgets().constLast()->plainText() ==
                                             QStringLiteral("Here is **the sine** you asked for."),
                                     20000);
            QTRY_COMPARE(window->inspector()->figureCount(), 1);
            QCOMPARE(window->inspector()->standardOutput()->toPlainText(), QStringLiteral("plotted\n"));
            QCOMPARE(window->conversationList()->model()->rowCount(), 1);
            QCOMPARE(window->conversationList()->model()->index(0, 0).data().toString(), QStringLiteral("plot a sine"));
        }
        // A new window on the same store: the conversation is there with its figure.
        auto window = openWindow();
        QVERIFY(window);
        QCOMPARE(window->conversationList()->model()->rowCount(), 1);
        QTRY_VERIFY(window->chatView()->card(QStringLiteral("call_plot")));
        QCOMPARE(window->chatView()->card(QStringLiteral("call_plot"))->findChildren<FigureView *>().size(), 1);
        QCOMPARE(window->inspector()->figureCount(), 1);
        QVERIFY(window->chatView()->messageWidgets().constLast()->plainText().contains(QLatin1String("the sine")));
    }

    void aChartTheModelDrawsAppearsInTheChat()
    {
        const QString spec =
            QStringLiteral("{\"type\": \"bar\", \"title\": \"Visitors\", \"categories\": [\"Mon\", \"Tue\", \"Wed\"], "
                           "\"series\": [{\"name\": \"Web\", \"data\": [120, 135, 150]}]}");
        m_server->enqueue(
            FS::openAiToolCalls({{QStringLiteral("call_chart"), QStringLiteral("create_chart"), spec}}, 5));
        m_server->enqueue(FS::openAiText(QStringLiteral("Here are the visitors.")));
        {
            auto window = openWindow();
            QVERIFY(window);
            window->send(QStringLiteral("chart the visitors"));
            QTRY_VERIFY_WITH_TIMEOUT(
                window->chatView()->card(QStringLiteral("call_chart")) &&
                    !window->chatView()->card(QStringLiteral("call_chart"))->findChildren<ChartWidget *>().isEmpty(),
                20000);
            QTRY_COMPARE_WITH_TIMEOUT(window->chatView()->messageWidgets().constLast()->plainText(),
                                      QStringLiteral("Here are the visitors."), 10000);
        }
        // Stored as its spec, drawn again when the conversation is opened later.
        auto window = openWindow();
        QVERIFY(window);
        QTRY_VERIFY(window->chatView()->card(QStringLiteral("call_chart")));
        QCOMPARE(window->chatView()->card(QStringLiteral("call_chart"))->findChildren<ChartWidget *>().size(), 1);
    }

    void searchFindsMessages()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("Photosynthesis turns light into sugar.")));
        auto window = openWindow();
        QVERIFY(window);
        window->send(QStringLiteral("explain photosynthesis"));
        QTRY_COMPARE_WITH_TIMEOUT(window->chatView()->messageWidgets().size(), 2, 10000);
        QTest::keyClicks(window->searchField(), QStringLiteral("sugar"));
        QTRY_VERIFY(
            window->conversationList()->model()->index(0, 0).data().toString().contains(QLatin1String("sugar")));
        QCOMPARE(window->conversationList()->model()->rowCount(), 1);
    }

    void providerErrorsShowInPlace()
    {
        m_server->enqueue(FS::httpError(500, QStringLiteral("the model crashed")));
        m_server->enqueue(FS::httpError(500, QStringLiteral("the model crashed")));
        m_server->enqueue(FS::httpError(500, QStringLiteral("the model crashed")));
        m_server->enqueue(FS::httpError(500, QStringLiteral("the model crashed")));
        QString error;
        QVERIFY(m_settings->addOverride(QStringLiteral("network/max_retries=0"), &error));
        auto window = openWindow();
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
