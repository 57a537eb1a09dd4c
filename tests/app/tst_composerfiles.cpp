// Attached files in the app (issue 23): chips in the message box (name, size, type icon, a remove
// button the keyboard reaches) that wrap instead of widening the window; the sent message shows the
// user's words and the same chips, never what the model is told about the files; the message shows
// at Send and "Thinking…" stands where the answer will come until its first word.
#include "fakellmserver.h"
#include "fakestreams.h"
#include "screenshot.h"
#include "uiwait.h"
#include "windowfixture.h"

#include <agent/agentthread.h>
#include <attachmentchip.h>
#include <chat/chatpage.h>
#include <chat/chatview.h>
#include <chat/messagewidget.h>
#include <composer.h>
#include <mainwindow.h>
#include <sandbox/sandboxfolder.h>
#include <session/conversationsession.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

QString writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(bytes);
    return path;
}

// The chips on screen under PARENT.
QList<AttachmentChip *> chipsIn(const QWidget *parent)
{
    QList<AttachmentChip *> shown;
    for (AttachmentChip *chip : parent->findChildren<AttachmentChip *>()) {
        if (chip->isVisible())
            shown << chip;
    }
    return shown;
}

MessageWidget *firstUserMessage(const MainWindow &window)
{
    for (MessageWidget *message : window.chatView()->messageWidgets()) {
        if (message->message().role == ChatMessage::Role::User)
            return message;
    }
    return nullptr;
}

} // namespace

class TestComposerFiles : public QObject
{
    Q_OBJECT

    WindowFixture m_fixture;

private Q_SLOTS:
    void init()
    {
        QCOMPARE(m_fixture.start(QStringLiteral("fake-model"),
                                 {QStringLiteral("sandbox/enabled=false"), QStringLiteral("web/enabled=false"),
                                  QStringLiteral("appearance/theme=light")}),
                 QString());
    }

    void cleanup() { QVERIFY(m_fixture.finish()); }

    void aFileIsAChipWithANameASizeAndARemoveButton()
    {
        QTemporaryDir folder;
        writeFile(folder.filePath(QStringLiteral("sales.csv")), QByteArray(1536, 'x'));
        writeFile(folder.filePath(QStringLiteral("report.pdf")), "%PDF-1.4");
        Composer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        QVERIFY(!composer.attachmentStrip()->isVisible());
        composer.setAttachments({QStringLiteral("sales.csv"), QStringLiteral("report.pdf")}, folder.path());
        QVERIFY(composer.attachmentStrip()->isVisible());
        const auto chips = chipsIn(composer.attachmentStrip());
        QCOMPARE(chips.size(), 2);
        const QString size = SandboxFolder::formatBytes(1536);
        QCOMPARE(chips.at(0)->accessibleName(), QStringLiteral("Attached file sales.csv, %1").arg(size));
        QVERIFY(chips.at(0)->findChild<QLabel *>() != nullptr);
        QToolButton *remove = chips.at(0)->removeButton();
        QVERIFY(remove);
        QCOMPARE(remove->accessibleName(), QStringLiteral("Remove sales.csv"));
        QVERIFY(remove->focusPolicy() & Qt::TabFocus);

        // The keyboard takes it off: Tab from the text reaches the button, Space presses it.
        QSignalSpy removed(&composer, &Composer::attachmentRemoved);
        composer.editor()->setFocus();
        QWidget *focused = composer.editor();
        for (int step = 0; step < 12 && focused != remove; ++step) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            focused = QApplication::focusWidget();
        }
        QCOMPARE(focused, remove);
        QTest::keyClick(remove, Qt::Key_Space);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.first().first().toString(), QStringLiteral("sales.csv"));
        // The list without it: the chip goes, the focus stays among the chips.
        composer.setAttachments({QStringLiteral("report.pdf")}, folder.path());
        QTRY_COMPARE(chipsIn(composer.attachmentStrip()).size(), 1);
        QCOMPARE(QApplication::focusWidget(), chipsIn(composer.attachmentStrip()).first()->removeButton());

        // Files alone can be sent.
        QSignalSpy sent(&composer, &Composer::sendRequested);
        composer.editor()->setFocus();
        QTest::keyClick(composer.editor(), Qt::Key_Return);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.first().first().toString(), QString());
    }

    void chipsWrapInsteadOfWideningTheWindow()
    {
        auto window = m_fixture.openWindow({500, 400});
        QVERIFY(window);
        window->newConversation();
        QTemporaryDir elsewhere;
        QStringList paths;
        for (int i = 1; i <= 6; ++i)
            paths << writeFile(elsewhere.filePath(QStringLiteral("quarterly revenue by region, draft %1.xlsx").arg(i)),
                               QByteArray(1000 * i, 'x'));
        Q_EMIT window->composer()->filesDropped(paths);
        QCOMPARE(window->currentSession()->state().pendingAttachments.size(), 6);
        QTRY_COMPARE(chipsIn(window->composer()->attachmentStrip()).size(), 6);
        QTest::qWait(100); // the layout settles
        saveScreenshot(window.get(), QStringLiteral("composer-files-500.png"));
        QCOMPARE(window->width(), 500);
        const QRect inside = window->rect();
        int rows = 0;
        int lastTop = -1;
        for (AttachmentChip *chip : chipsIn(window->composer()->attachmentStrip())) {
            const QRect placed(chip->mapTo(window.get(), QPoint(0, 0)), chip->size());
            QVERIFY2(inside.contains(placed), qPrintable(chip->name()));
            if (placed.top() != lastTop)
                ++rows;
            lastTop = placed.top();
        }
        QVERIFY2(rows > 1, "the chips did not wrap");
    }

    void theSentMessageShowsTheWordsAndTheFilesAtOnce()
    {
        FakeResponse slow = FS::openAiText(QStringLiteral("Revenue grew in the north."));
        slow.delayBeforeHeaders = 1500ms;
        m_fixture.server().enqueue(slow);
        auto window = m_fixture.openWindow({1000, 700});
        QVERIFY(window);
        window->newConversation();
        QTemporaryDir elsewhere;
        const QString sales = writeFile(elsewhere.filePath(QStringLiteral("sales.csv")), "month,revenue\nJan,10\n");
        Q_EMIT window->composer()->filesDropped({sales});
        QTest::keyClicks(window->composer()->editor(), QStringLiteral("Plot the revenue"));
        QTest::keyClick(window->composer()->editor(), Qt::Key_Return);

        // The question is there before anything came back, and the answer's place says that the
        // model works.
        MessageWidget *question = firstUserMessage(*window);
        QVERIFY(question);
        QCOMPARE(question->plainText(), QStringLiteral("Plot the revenue"));
        QWidget *working = window->chatView()->page()->workingIndicator();
        QTRY_VERIFY(working->isVisible());
        QVERIFY(!working->accessibleName().isEmpty());
        QVERIFY(chipsIn(window->composer()->attachmentStrip()).isEmpty());
        saveScreenshot(window->chatView(), QStringLiteral("chat-thinking-light.png"));

        QVERIFY(waitUntil([&] { return !window->currentSession()->isBusy(); }, 20000));
        QVERIFY(!working->isVisible());
        question = firstUserMessage(*window);
        QCOMPARE(question->plainText(), QStringLiteral("Plot the revenue"));
        QVERIFY(question->message().attachmentNote.contains(QLatin1String("sales.csv")));
        const auto chips = chipsIn(question);
        QCOMPARE(chips.size(), 1);
        QCOMPARE(chips.first()->name(), QStringLiteral("sales.csv"));
        QVERIFY(!chips.first()->removeButton()); // sent: nothing to take off
        QCOMPARE(window->windowTitle(), QStringLiteral("Plot the revenue — Sandpiper"));
        saveScreenshot(window->chatView(), QStringLiteral("chat-files-light.png"));

        // Opened again, it is the same.
        const qint64 id = window->currentConversation();
        window.reset();
        QVERIFY(AgentThread::waitForRetiredThreads(20s));
        auto reopened = m_fixture.openWindow({1000, 700});
        QVERIFY(reopened);
        reopened->openConversation(id);
        QTRY_VERIFY(firstUserMessage(*reopened));
        QCOMPARE(firstUserMessage(*reopened)->plainText(), QStringLiteral("Plot the revenue"));
        QCOMPARE(chipsIn(firstUserMessage(*reopened)).size(), 1);
        QCOMPARE(reopened->windowTitle(), QStringLiteral("Plot the revenue — Sandpiper"));
    }
};

QTEST_MAIN(TestComposerFiles)
#include "tst_composerfiles.moc"
