// What the app shows, opens, saves, copies, exports and deletes of a conversation's folder,
// which the sandbox writes: through the real widgets (offscreen), with links, FIFOs, huge and
// fake images, programs and scripts, and files swapped for links after they were listed.
#include "desktoprecorder.h"
#include "dialogdriver.h"
#include "sandboxfiles.h"
#include "settingsoverrides.h"

#include <chat/figureview.h>
#include <chat/markdownview.h>
#include <chat/sandboxfileactions.h>
#include <chat/toolcallcard.h>
#include <codeinspector.h>
#include <composer.h>
#include <mainwindow.h>
#include <savedfilenotice.h>
#include <session/conversationsession.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDesktopServices>
#include <QDir>
#include <QDirIterator>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>

#include <sys/stat.h>
#include <unistd.h>

using namespace Sandpiper;
using Sandpiper::Test::DialogDriver;
using Sandpiper::Test::pngHeader;

namespace {

void write(const QString &path, const QByteArray &data)
{
    Sandpiper::Test::writeFile(path, data);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestSandboxFiles : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_folder;  // the conversation's folder
    QString m_outside; // the user's own files, which the sandbox must never reach
    Sandpiper::Test::DesktopRecorder m_desktop;

    QString inFolder(const QString &name) const { return m_folder + QLatin1Char('/') + name; }
    void link(const QString &target, const QString &name)
    {
        QFile::remove(inFolder(name));
        QVERIFY(QFile::link(target, inFolder(name)));
    }

    ExecutionResult result() const
    {
        ExecutionResult r;
        r.status = ExecutionResult::Status::Interrupted;
        r.durationMs = 1500;
        r.figures = {QStringLiteral("figures/ok.png"), QStringLiteral("figures/link.png")};
        r.figuresNotKept = 380;
        r.refused = {QStringLiteral("“<img src=/x>” is or goes through a symbolic link.")};
        r.stopReason = QStringLiteral("The conversation's files reached the 1 GiB limit; the execution was stopped.");
        r.files = {QStringLiteral("report.csv"), QStringLiteral("run.sh"), QStringLiteral("tool"),
                   QStringLiteral("page.html"), QStringLiteral("leak.txt")};
        return r;
    }

    // A run of execute_python_code that ended with RESULT, as the chat holds it.
    static TurnItem finishedCall(const ExecutionResult &result)
    {
        TurnItem item;
        item.kind = TurnItem::Kind::ToolCall;
        item.call = {QStringLiteral("call_1"), QStringLiteral("execute_python_code"), QStringLiteral("{}")};
        item.toolState = TurnItem::ToolState::Finished;
        item.result = result;
        return item;
    }

    static QPushButton *button(QWidget *parent, const QString &accessibleName)
    {
        for (QPushButton *candidate : parent->findChildren<QPushButton *>()) {
            if (candidate->accessibleName() == accessibleName)
                return candidate;
        }
        return nullptr;
    }

    static QStringList warnings(QWidget *parent)
    {
        QStringList texts;
        for (QLabel *label : parent->findChildren<QLabel *>()) {
            if (label->accessibleName() == QLatin1String("Warning")) {
                texts << label->text();
                if (label->textFormat() != Qt::PlainText)
                    texts << QStringLiteral("NOT PLAIN TEXT");
            }
        }
        return texts;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &m_desktop, "open");
    }
    void cleanupTestCase() { QDesktopServices::unsetUrlHandler(QStringLiteral("file")); }

    void init()
    {
        m_desktop.opened.clear();
        m_dir = std::make_unique<QTemporaryDir>();
        m_folder = m_dir->filePath(QStringLiteral("conversation"));
        m_outside = m_dir->filePath(QStringLiteral("home"));
        QDir().mkpath(m_folder + QStringLiteral("/figures"));
        QDir().mkpath(m_outside);
        QImage ok(100, 80, QImage::Format_RGB32);
        ok.fill(Qt::darkGreen);
        QVERIFY(ok.save(inFolder(QStringLiteral("figures/ok.png"))));
        QImage secret(50, 50, QImage::Format_RGB32);
        secret.fill(Qt::red);
        QVERIFY(secret.save(m_outside + QStringLiteral("/secret.png")));
        write(m_outside + QStringLiteral("/secret.txt"), "the user's secret");
        write(inFolder(QStringLiteral("figures/huge.png")), pngHeader(60000, 60000) + QByteArray(64, '\0'));
        write(inFolder(QStringLiteral("figures/fake.png")), "#!/bin/sh\necho not an image\n");
        // Cut short, as by a full disk: refused as such, not merely as something undecodable.
        const QByteArray whole = Sandpiper::Test::pngImage(300, 200);
        write(inFolder(QStringLiteral("figures/cut.png")), whole.left(whole.size() * 3 / 4));
        link(m_outside + QStringLiteral("/secret.png"), QStringLiteral("figures/link.png"));
        link(m_outside + QStringLiteral("/secret.txt"), QStringLiteral("leak.txt"));
        QCOMPARE(::mkfifo(QFile::encodeName(inFolder(QStringLiteral("figures/fifo.png"))).constData(), 0644), 0);
        write(inFolder(QStringLiteral("report.csv")), "month,revenue\n1,100\n");
        write(inFolder(QStringLiteral("run.sh")), "#!/bin/sh\nrm -rf ~\n");
        write(inFolder(QStringLiteral("tool")), QByteArray("\x7f"
                                                           "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0",
                                                           16));
        write(inFolder(QStringLiteral("page.html")), "<!DOCTYPE html><script>alert(1)</script>");
    }

    void aFigureFromTheFolderIsShown()
    {
        FigureView view(m_folder, QStringLiteral("figures/ok.png"), 640);
        QVERIFY(view.problem().isEmpty());
        QCOMPARE(view.pixmap().size(), QSize(100, 80));
        FigureView scaled(m_folder, QStringLiteral("figures/ok.png"), 50);
        QCOMPARE(scaled.pixmap().width(), 50);
    }

    void figuresThatAreNotSafeToShowAreRefused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("reason");
        QTest::newRow("link to a host image") << "figures/link.png"
                                              << "symbolic link";
        QTest::newRow("FIFO named like a PNG") << "figures/fifo.png"
                                               << "FIFO";
        QTest::newRow("60000 x 60000") << "figures/huge.png"
                                       << "60000 × 60000";
        QTest::newRow("a script named .png") << "figures/fake.png"
                                             << "not an image";
        QTest::newRow("a PNG cut short") << "figures/cut.png"
                                         << "cut short";
        QTest::newRow("up and out") << "../home/secret.png"
                                    << "goes up";
        QTest::newRow("absolute") << "/etc/hostname"
                                  << "absolute";
        QTest::newRow("missing") << "figures/none.png"
                                 << "does not exist";
    }

    void figuresThatAreNotSafeToShowAreRefused()
    {
        QFETCH(QString, name);
        QFETCH(QString, reason);
        FigureView view(m_folder, name, 640);
        QVERIFY(view.pixmap().isNull());
        QVERIFY2(view.problem().contains(reason), qPrintable(view.problem()));
        QVERIFY(view.text().contains(view.problem()));
        QCOMPARE(view.textFormat(), Qt::PlainText);
    }

    // Shown while it was a PNG; saved and copied only as what it is when the user asks.
    void aFigureSwappedForALinkIsNeitherSavedNorCopied()
    {
        FigureView view(m_folder, QStringLiteral("figures/ok.png"), 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QApplication::clipboard()->clear();
        link(m_outside + QStringLiteral("/secret.png"), QStringLiteral("figures/ok.png"));

        const QString target = m_dir->filePath(QStringLiteral("saved.png"));
        QString text;
        QStringList buttons;
        DialogDriver driver;
        driver.choose(QStringLiteral("Save image as…"));
        driver.saveTo(target);
        driver.answer(&text, &buttons, QStringLiteral("OK"));
        QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, QPoint(5, 5), view.mapToGlobal(QPoint(5, 5)));
        QApplication::sendEvent(&view, &menuEvent);
        QTRY_VERIFY(driver.done());
        QVERIFY2(text.contains(QLatin1String("symbolic link")), qPrintable(text));
        QVERIFY(!QFileInfo::exists(target));

        driver.choose(QStringLiteral("Copy image"));
        driver.answer(&text, &buttons, QStringLiteral("OK"));
        QApplication::sendEvent(&view, &menuEvent);
        QTRY_VERIFY(driver.done());
        QVERIFY(QApplication::clipboard()->image().isNull());

        driver.answer(&text, &buttons, QStringLiteral("OK"));
        QTest::keyClick(&view, Qt::Key_Return); // open at full size
        QTRY_VERIFY(driver.done());
        QVERIFY(text.contains(QLatin1String("symbolic link")));
    }

    void aFigureIsSavedAndCopiedAsItIs()
    {
        FigureView view(m_folder, QStringLiteral("figures/ok.png"), 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QString target = m_dir->filePath(QStringLiteral("saved.png"));
        DialogDriver driver;
        driver.choose(QStringLiteral("Save image as…"));
        driver.saveTo(target);
        QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, QPoint(5, 5), view.mapToGlobal(QPoint(5, 5)));
        QApplication::sendEvent(&view, &menuEvent);
        QTRY_VERIFY(driver.done());
        QCOMPARE(readAll(target), readAll(inFolder(QStringLiteral("figures/ok.png"))));
        driver.choose(QStringLiteral("Copy image"));
        QApplication::sendEvent(&view, &menuEvent);
        QTRY_VERIFY(driver.done());
        QCOMPARE(QApplication::clipboard()->image().size(), QSize(100, 80));
    }

    void theCardShowsWhatWasRefusedAndStopped()
    {
        ToolCallCard card(finishedCall(result()), m_folder);
        const auto figures = card.findChildren<FigureView *>();
        QCOMPARE(figures.size(), 2);
        QVERIFY(figures.at(0)->problem().isEmpty());
        QVERIFY(figures.at(1)->problem().contains(QLatin1String("symbolic link")));
        const QString shown = warnings(&card).join(QLatin1Char('\n'));
        QVERIFY2(!shown.contains(QLatin1String("NOT PLAIN TEXT")), qPrintable(shown));
        QVERIFY(shown.contains(QLatin1String("And 380 more figures that were not kept")));
        QVERIFY(shown.contains(QLatin1String("reached the 1 GiB limit")));
        QVERIFY(shown.contains(QLatin1String("<img src=/x>"))); // as text, not as an image
        QStringList headers;
        for (QToolButton *header : card.findChildren<QToolButton *>())
            headers << header->text();
        QVERIFY2(headers.join(u'|').contains(QLatin1String("stopped by Sandpiper")), qPrintable(headers.join(u'|')));
    }

    void theCardListsTwentyFilesAndCountsTheRest()
    {
        ExecutionResult r;
        r.status = ExecutionResult::Status::Ok;
        for (int i = 0; i < 500; ++i)
            r.files << QStringLiteral("out/part-%1.csv").arg(i);
        ToolCallCard card(finishedCall(r), m_folder);
        QCOMPARE(card.findChildren<QPushButton *>(QString()).size() >= 40, true);
        QVERIFY(button(&card, QStringLiteral("Open out/part-19.csv")));
        QVERIFY(!button(&card, QStringLiteral("Open out/part-20.csv")));
        QVERIFY(warnings(&card).join(QLatin1Char('\n')).contains(QLatin1String("And 480 more files")));
    }

    // A file a remote engine kept shows its size and where it is; once its sandbox is gone,
    // Open says so and writes nothing here.
    void aFileLeftOnTheEngineSaysWhenItsSandboxIsGone()
    {
        ExecutionResult r;
        r.status = ExecutionResult::Status::Ok;
        r.files = {QStringLiteral("big.csv"), QStringLiteral("report.csv")};
        r.onEngine = {{QStringLiteral("big.csv"), 20 << 20}};
        ToolCallCard card(finishedCall(r), m_folder);
        card.show();
        QVERIFY(QTest::qWaitForWindowExposed(&card));
        QStringList labels;
        for (QLabel *label : card.findChildren<QLabel *>())
            labels << label->accessibleName();
        QVERIFY2(labels.contains(QStringLiteral("big.csv (20 MiB, on the Docker engine)")),
                 qPrintable(labels.join(u'|')));
        QVERIFY2(labels.contains(QStringLiteral("report.csv")), qPrintable(labels.join(u'|')));
        DialogDriver driver;
        QString text;
        QStringList buttons;
        driver.answer(&text, &buttons, QStringLiteral("OK"));
        button(&card, QStringLiteral("Open big.csv"))->click();
        QTRY_VERIFY(driver.done());
        QVERIFY2(text.contains(QLatin1String("has stopped since")), qPrintable(text));
        QVERIFY(m_desktop.opened.isEmpty());
        QVERIFY(!QFileInfo::exists(inFolder(QStringLiteral("big.csv"))));
        QVERIFY(button(&card, QStringLiteral("Open big.csv"))->isEnabled());
    }

    // Open hands the desktop a private copy of a document, and never a program or a script.
    void openingAFileNeverRunsIt()
    {
        ToolCallCard card(finishedCall(result()), m_folder);
        card.show();
        QVERIFY(QTest::qWaitForWindowExposed(&card));

        // A document: opened at once, as a read-only copy outside the sandbox's reach.
        button(&card, QStringLiteral("Open report.csv"))->click();
        QCOMPARE(m_desktop.opened.size(), 1);
        const QString copy = m_desktop.opened.first().toLocalFile();
        QVERIFY2(copy.startsWith(SandboxFileActions::copiesFolder() + QLatin1Char('/')), qPrintable(copy));
        QVERIFY(!copy.startsWith(m_folder));
        QCOMPARE(readAll(copy), QByteArray("month,revenue\n1,100\n"));
        QCOMPARE(QFileInfo(copy).permissions() & (QFile::WriteOwner | QFile::ExeOwner), QFile::Permissions());

        // A script: named, never opened; shown in its folder or as text.
        QString text;
        QStringList buttons;
        DialogDriver driver;
        driver.answer(&text, &buttons, QStringLiteral("Show in Folder"));
        button(&card, QStringLiteral("Open run.sh"))->click();
        QTRY_VERIFY(driver.done());
        QVERIFY2(text.contains(QLatin1String("application/x-shellscript")) &&
                     text.contains(QLatin1String("Opening it could run it")),
                 qPrintable(text));
        QVERIFY(buttons.contains(QStringLiteral("View as Text")));
        QVERIFY(!buttons.contains(QStringLiteral("Open")));
        QCOMPARE(m_desktop.opened.size(), 2);
        QCOMPARE(m_desktop.opened.last(), QUrl::fromLocalFile(m_folder));

        driver.answer(&text, &buttons, QStringLiteral("View as Text"));
        button(&card, QStringLiteral("Open run.sh"))->click();
        QTRY_VERIFY(driver.done());
        QPlainTextEdit *asText = nullptr;
        QTRY_VERIFY((asText = [] {
            for (QWidget *top : QApplication::topLevelWidgets()) {
                if (auto *edit = top->findChild<QPlainTextEdit *>();
                    edit && top->isVisible() && edit->accessibleName().contains(QLatin1String("as text")))
                    return edit;
            }
            return static_cast<QPlainTextEdit *>(nullptr);
        }()));
        QCOMPARE(asText->toPlainText(), QStringLiteral("#!/bin/sh\nrm -rf ~\n"));
        asText->window()->close();
        QCOMPARE(m_desktop.opened.size(), 2);

        // A program: not even as text.
        driver.answer(&text, &buttons, QStringLiteral("Cancel"));
        button(&card, QStringLiteral("Open tool"))->click();
        QTRY_VERIFY(driver.done());
        QVERIFY(!buttons.contains(QStringLiteral("Open")) && !buttons.contains(QStringLiteral("View as Text")));
        QCOMPARE(m_desktop.opened.size(), 2);

        // A type that is not known to be inert: the user decides, and gets a copy too.
        driver.answer(&text, &buttons, QStringLiteral("Open"));
        button(&card, QStringLiteral("Open page.html"))->click();
        QTRY_VERIFY(driver.done());
        QVERIFY2(text.contains(QLatin1String("text/html")), qPrintable(text));
        QCOMPARE(m_desktop.opened.size(), 3);
        QVERIFY(m_desktop.opened.last().toLocalFile().startsWith(SandboxFileActions::copiesFolder()));

        // A link: refused with its reason.
        driver.answer(&text, &buttons, QStringLiteral("OK"));
        button(&card, QStringLiteral("Open leak.txt"))->click();
        QTRY_VERIFY(driver.done());
        QVERIFY2(text.contains(QLatin1String("symbolic link")), qPrintable(text));
        QCOMPARE(m_desktop.opened.size(), 3);
    }

    void saveCopiesOnlyARegularFileStillInside()
    {
        ToolCallCard card(finishedCall(result()), m_folder);
        card.show();
        QVERIFY(QTest::qWaitForWindowExposed(&card));
        const QString target = m_dir->filePath(QStringLiteral("report-copy.csv"));
        DialogDriver driver;
        driver.saveTo(target);
        button(&card, QStringLiteral("Save report.csv"))->click();
        QTRY_VERIFY(driver.done());
        QCOMPARE(readAll(target), QByteArray("month,revenue\n1,100\n"));

        // Swapped for a link after the card listed it.
        link(m_outside + QStringLiteral("/secret.txt"), QStringLiteral("report.csv"));
        const QString second = m_dir->filePath(QStringLiteral("second.csv"));
        QString text;
        QStringList buttons;
        driver.saveTo(second);
        driver.answer(&text, &buttons, QStringLiteral("OK"));
        button(&card, QStringLiteral("Save report.csv"))->click();
        QTRY_VERIFY(driver.done());
        QVERIFY2(text.contains(QLatin1String("symbolic link")), qPrintable(text));
        QVERIFY(!QFileInfo::exists(second));
        // And the FIFO: refused at once, nothing waits for a writer.
        const QString third = m_dir->filePath(QStringLiteral("third.png"));
        driver.saveTo(third);
        driver.answer(&text, &buttons, QStringLiteral("OK"));
        SandboxFileActions::saveAs(&card, SandboxFolder(m_folder), QStringLiteral("figures/fifo.png"));
        QTRY_VERIFY(driver.done());
        QVERIFY2(text.contains(QLatin1String("FIFO")), qPrintable(text));
        QVERIFY(!QFileInfo::exists(third));
    }

    void markdownShowsOnlyTheConversationsOwnImages()
    {
        MarkdownView view;
        view.setConversationFolder(m_folder);
        view.resize(600, 400);
        const QString secret = m_outside + QStringLiteral("/secret.png");
        view.setMarkdownText(QStringLiteral("![plot](sandbox:/mnt/data/figures/ok.png)\n\n"
                                            "![leak](sandbox:/mnt/data/figures/link.png)\n\n"
                                            "![pipe](sandbox:/mnt/data/figures/fifo.png)\n\n"
                                            "![up](sandbox:/mnt/data/../home/secret.png)\n\n"
                                            "Raw HTML: <img src=\"%1\"> and <img src=\"%2\">\n")
                                 .arg(secret, QUrl::fromLocalFile(secret).toString()));
        const QString text = view.toPlainText();
        QVERIFY2(
            text.contains(QStringLiteral("[image not shown: “figures/link.png” is or goes through a symbolic link")),
            qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("FIFO")), qPrintable(text));
        QVERIFY(!text.contains(QLatin1String("secret.png)")));
        auto imageAt = [&](const QUrl &url) {
            return view.document()->resource(QTextDocument::ImageResource, url);
        };
        QCOMPARE(imageAt(QUrl::fromLocalFile(inFolder(QStringLiteral("figures/ok.png")))).value<QImage>().size(),
                 QSize(100, 80));
        // Neither the view nor the document behind it reads the host's file.
        for (const QUrl &url : {QUrl(secret), QUrl::fromLocalFile(secret),
                                QUrl::fromLocalFile(inFolder(QStringLiteral("figures/link.png")))}) {
            const QVariant loaded = imageAt(url);
            QVERIFY2(loaded.typeId() != QMetaType::QByteArray || loaded.toByteArray().isEmpty(),
                     qPrintable(url.toString()));
            QVERIFY(loaded.value<QImage>().isNull());
        }
    }

    void markdownLinksOpenOnlyTheConversationsFilesAndNeverRunThem()
    {
        MarkdownView view;
        view.setConversationFolder(m_folder);
        Q_EMIT view.anchorClicked(QUrl::fromLocalFile(m_outside + QStringLiteral("/secret.txt")));
        Q_EMIT view.anchorClicked(QUrl(QStringLiteral("sandbox:/mnt/data/../home/secret.txt")));
        Q_EMIT view.anchorClicked(QUrl(QStringLiteral("file:///usr/bin/xterm")));
        QVERIFY(m_desktop.opened.isEmpty());
        Q_EMIT view.anchorClicked(QUrl(QStringLiteral("sandbox:/mnt/data/report.csv")));
        QCOMPARE(m_desktop.opened.size(), 1);
        QVERIFY(m_desktop.opened.first().toLocalFile().startsWith(SandboxFileActions::copiesFolder()));
        QString text;
        QStringList buttons;
        DialogDriver driver;
        driver.answer(&text, &buttons, QStringLiteral("Cancel"));
        Q_EMIT view.anchorClicked(QUrl(QStringLiteral("sandbox:/mnt/data/run.sh")));
        QTRY_VERIFY(driver.done());
        QVERIFY(text.contains(QLatin1String("shell script")) || text.contains(QLatin1String("x-shellscript")));
        QCOMPARE(m_desktop.opened.size(), 1);
    }

    void theInspectorLoadsNothingTheSandboxsHtmlNames()
    {
        ConversationStore store(m_dir->filePath(QStringLiteral("data")));
        QVERIFY(store.open());
        const auto conversation = store.createConversation(QString(), QString());
        StoredExecution execution;
        execution.conversationId = conversation->id;
        execution.toolCallId = QStringLiteral("call_1");
        execution.code = QStringLiteral("df");
        execution.result = result();
        execution.result.errorType = QStringLiteral("KeyboardInterrupt");
        execution.result.errorMessage = QStringLiteral("<img src=\"%1/secret.png\">").arg(m_outside);
        execution.result.value =
            QStringLiteral("<table><tr><td><img src=\"%1/secret.png\"></td></tr></table>").arg(m_outside);
        QVERIFY(store.addExecution(execution).ok());
        ConversationSession session(conversation->id, &store, AgentConfig{});
        QVERIFY(session.load().ok());
        CodeInspector inspector;
        inspector.setSession(&session);
        QCOMPARE(inspector.statusLabel()->textFormat(), Qt::PlainText);
        QVERIFY(inspector.statusLabel()->text().contains(QLatin1String("<img src=")));
        QVERIFY(inspector.statusLabel()->text().contains(QLatin1String("reached the 1 GiB limit")));
        QCOMPARE(inspector.figureCount(), 2);
        QTextBrowser *value = nullptr;
        for (QTextBrowser *browser : inspector.findChildren<QTextBrowser *>()) {
            if (browser->accessibleName() == QLatin1String("Displayed value"))
                value = browser;
        }
        QVERIFY(value);
        QVERIFY(value->toPlainText().contains(QLatin1String("<img src=")));
        const QVariant image = value->document()->resource(
            QTextDocument::ImageResource, QUrl::fromLocalFile(m_outside + QStringLiteral("/secret.png")));
        QVERIFY(image.toByteArray().isEmpty());
    }

    // The window's own paths: an upload past the limit, an export with forged figures, and
    // deleting a conversation whose folder holds links to the user's files.
    void theWindowKeepsTheHostsFilesOut()
    {
        QTemporaryDir profile;
        Settings settings(profile.path());
        const QString refused =
            Test::applySettings(settings, {QStringLiteral("sandbox/enabled=false"),
                                           QStringLiteral("sandbox/disk_limit_mb=1"), QStringLiteral("provider=custom"),
                                           QStringLiteral("providers/custom/base_url=http://127.0.0.1:9/v1")});
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
        ConversationStore store(settings.dataDirectory());
        QVERIFY(store.open());
        const auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("m"));
        const QString folder = store.conversationFolder(conversation->id);
        QDir().mkpath(folder + QStringLiteral("/figures"));
        QImage(20, 10, QImage::Format_RGB32).save(folder + QStringLiteral("/figures/fig.png"));
        QVERIFY(QFile::link(m_outside + QStringLiteral("/secret.png"), folder + QStringLiteral("/figures/leak.png")));
        QVERIFY(QFile::link(m_outside, folder + QStringLiteral("/home")));
        StoredExecution execution;
        execution.conversationId = conversation->id;
        execution.code = QStringLiteral("plot()");
        // A run of the user's: an export keeps it without a call of the model to hang it on.
        execution.origin = StoredExecution::Origin::User;
        execution.result.status = ExecutionResult::Status::Ok;
        execution.result.figures = {QStringLiteral("figures/fig.png"), QStringLiteral("figures/leak.png"),
                                    QStringLiteral("../../../home/secret.png"), QStringLiteral("home/secret.png")};
        QVERIFY(store.addExecution(execution).ok());

        MainWindow window(&settings, &store);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openConversation(conversation->id);
        QCOMPARE(window.currentConversation(), conversation->id);

        // An upload that would pass the 1 MiB limit is refused with a message.
        const QString big = m_dir->filePath(QStringLiteral("big.bin"));
        write(big, QByteArray(2 << 20, 'b'));
        QString text;
        QStringList buttons;
        DialogDriver driver;
        driver.answer(&text, &buttons, QStringLiteral("OK"));
        Q_EMIT window.composer()->filesDropped({big});
        QTRY_VERIFY(driver.done());
        QVERIFY2(text.contains(QLatin1String("1 MiB limit")), qPrintable(text));
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/big.bin")));

        // The export copies the figure, and none of the forged ones.
        const QString exported = m_dir->filePath(QStringLiteral("export/chat.md"));
        QDir().mkpath(QFileInfo(exported).path());
        driver.saveTo(exported);
        const auto menuAction = [&window](const QString &label) -> QAction * {
            for (QAction *action : window.menuBar()->findChildren<QAction *>()) {
                if (action->text() == label)
                    return action;
            }
            return nullptr;
        };
        QAction *exportAction = menuAction(QStringLiteral("Export as &Markdown…"));
        QVERIFY(exportAction);
        exportAction->trigger();
        QTRY_VERIFY(driver.done());
        const QString markdown = QString::fromUtf8(readAll(exported));
        QVERIFY2(markdown.contains(QLatin1String("](chat_files/figures/fig.png)")), qPrintable(markdown));
        QCOMPARE(markdown.count(QLatin1String("*(a figure was not exported: ")), 3);
        QStringList copied;
        for (QDirIterator it(m_dir->filePath(QStringLiteral("export")), QDir::Files, QDirIterator::Subdirectories);
             it.hasNext();)
            copied << QFileInfo(it.next()).fileName();
        copied.sort();
        QCOMPARE(copied, (QStringList{QStringLiteral("chat.md"), QStringLiteral("fig.png")}));

        // The notebook embeds the figure and names the forged ones instead of reading them.
        const QString notebookPath = m_dir->filePath(QStringLiteral("export/chat.ipynb"));
        driver.saveTo(notebookPath);
        QAction *notebookAction = menuAction(QStringLiteral("Export as note&book…"));
        QVERIFY(notebookAction);
        notebookAction->trigger();
        QTRY_VERIFY(driver.done());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(notebookPath), 30000);
        const QByteArray notebook = readAll(notebookPath);
        QCOMPARE(notebook.count("\"image/png\""), 1);
        QCOMPARE(notebook.count("could not be included"), 3);
        QVERIFY(!notebook.contains(readAll(m_outside + QStringLiteral("/secret.png")).toBase64()));
        QTRY_VERIFY(window.savedFileNotice()->message().contains(QLatin1String("3 figure(s) were missing")));

        // Deleting the conversation removes its links, not the user's files.
        driver.answer(&text, &buttons, QStringLiteral("&Yes"));
        button(&window, QStringLiteral("Delete conversation"))->click();
        QTRY_VERIFY(driver.done());
        QTRY_VERIFY(!QFileInfo::exists(folder));
        QVERIFY(QFileInfo::exists(m_outside + QStringLiteral("/secret.png")));
        QCOMPARE(readAll(m_outside + QStringLiteral("/secret.txt")), QByteArray("the user's secret"));
    }
};

QTEST_MAIN(TestSandboxFiles)
#include "tst_sandboxfiles.moc"
