// Exporting from the File menu: where the save dialogs start (the folder used last, else
// Documents, else home, never the folder the app was started from), and the status bar's note
// that names the file and shows it in its folder. With SANDPIPER_SCREENSHOT_DIR set, also saves
// the window's status bar after an export, narrow and wide, light and dark.
#include "desktoprecorder.h"
#include "dialogdriver.h"
#include "peerbus.h"
#include "screenshot.h"
#include "testprofile.h"

#include <mainwindow.h>
#include <savedfilenotice.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QDesktopServices>
#include <QDir>
#include <QMenuBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace Sandpiper;
using namespace Sandpiper::Test;

// Stands in for the desktop's file manager on D-Bus.
class FakeFileManager : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.FileManager1")

public:
    QList<QStringList> shown;

public Q_SLOTS:
    Q_SCRIPTABLE void ShowItems(const QStringList &uris, const QString &) { shown << uris; }
};

class TestExportNotice : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    QByteArray m_realHome;
    DesktopRecorder m_desktop;
    TestProfile m_profile;
    qint64 m_conversation = 0;

    static QAction *menuAction(MainWindow &window, const QString &label)
    {
        for (QAction *action : window.menuBar()->findChildren<QAction *>()) {
            if (action->text() == label)
                return action;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        // A fresh account: a home without Documents, and no user-dirs file naming another.
        m_realHome = qgetenv("HOME");
        qputenv("HOME", QFile::encodeName(m_home.path()));
        qunsetenv("XDG_CONFIG_HOME");
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &m_desktop, "open");
    }

    void cleanupTestCase()
    {
        QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
        qputenv("HOME", m_realHome);
    }

    void init()
    {
        QCOMPARE(m_profile.open(TestProfile::offline() << QStringLiteral("sandbox/image=sandpiper-test-no-such-image")),
                 QString());
        const auto conversation = m_profile.store()->createConversation(QStringLiteral("custom"), QStringLiteral("m"));
        QVERIFY(m_profile.store()->renameConversation(conversation->id, QStringLiteral("Penguins")).ok());
        ChatMessage question;
        question.role = ChatMessage::Role::User;
        question.content = QStringLiteral("How many penguins are there?");
        QVERIFY(m_profile.store()->appendMessage(conversation->id, question).ok());
        m_conversation = conversation->id;
    }

    void cleanup() { QVERIFY(m_profile.close()); }

    void theDialogsStartInAFolderThatExistsAndTheNoteNamesTheFile()
    {
        MainWindow window(m_profile.settings(), m_profile.store());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openConversation(m_conversation);
        QVERIFY(!window.savedFileNotice()->isVisible());

        // No Documents yet: the dialog starts at home, not in the folder the app was started from.
        DialogDriver driver;
        QString startedIn;
        const QString exports = m_home.filePath(QStringLiteral("exports"));
        QVERIFY(QDir().mkpath(exports));
        driver.saveTo(exports + QStringLiteral("/penguins.md"), &startedIn);
        menuAction(window, QStringLiteral("Export as &Markdown…"))->trigger();
        QTRY_VERIFY(driver.done());
        QCOMPARE(startedIn, QDir(m_home.path()).absolutePath());
        QVERIFY(QFileInfo::exists(exports + QStringLiteral("/penguins.md")));
        SavedFileNotice *notice = window.savedFileNotice();
        QVERIFY(notice->isVisible());
        QCOMPARE(notice->message(), QStringLiteral("Saved “penguins.md” in ~/exports."));
        QVERIFY(notice->showButton()->isVisible());
        QVERIFY(!notice->showButton()->accessibleName().isEmpty());

        // The next export starts where the last one went.
        driver.saveTo(exports + QStringLiteral("/penguins.json"), &startedIn);
        menuAction(window, QStringLiteral("Export as &JSON…"))->trigger();
        QTRY_VERIFY(driver.done());
        QCOMPARE(startedIn, exports);
        QVERIFY(notice->message().startsWith(QStringLiteral("Saved “penguins.json”")));

        // That folder gone and Documents there: the notebook's dialog starts in Documents.
        QVERIFY(QDir(exports).removeRecursively());
        const QString documents = m_home.filePath(QStringLiteral("Documents"));
        QVERIFY(QDir().mkpath(documents));
        driver.saveTo(documents + QStringLiteral("/penguins.ipynb"), &startedIn);
        menuAction(window, QStringLiteral("Export as note&book…"))->trigger();
        QTRY_VERIFY(driver.done());
        QCOMPARE(startedIn, documents);
        QTRY_VERIFY_WITH_TIMEOUT(notice->message().startsWith(QStringLiteral("Saved “penguins.ipynb”")), 30000);
        QVERIFY2(notice->message().contains(QLatin1String("0 code cell")), qPrintable(notice->message()));
        QVERIFY(window.statusBar()->currentMessage().isEmpty()); // nothing covers the note

        // The attach dialog starts there too, not in the folder the app was started from.
        driver.then<QFileDialog>([&startedIn](QFileDialog *dialog) {
            startedIn = dialog->directory().absolutePath();
            QMetaObject::invokeMethod(dialog, "reject", Qt::QueuedConnection);
        });
        startedIn.clear();
        QPushButton *attach = nullptr;
        for (QPushButton *button : window.findChildren<QPushButton *>()) {
            if (button->text().startsWith(QLatin1String("Attach")))
                attach = button;
        }
        QVERIFY(attach);
        attach->click();
        QTRY_VERIFY(driver.done());
        QCOMPARE(startedIn, documents);

        // Without a file manager on the bus, Show in folder opens the folder.
        notice->showButton()->click();
        QTRY_COMPARE(m_desktop.opened, QList<QUrl>{QUrl::fromLocalFile(documents)});
    }

    void screenshots_data() { addThemeRows(); }

    void screenshots()
    {
        QFETCH(QString, theme);
        applyTheme(*m_profile.settings(), theme);
        MainWindow window(m_profile.settings(), m_profile.store());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openConversation(m_conversation);
        window.savedFileNotice()->announce(m_home.filePath(QStringLiteral("Documents/penguins.ipynb")),
                                           QStringLiteral("3 code cells."));
        for (const QSize size : {QSize(800, 600), QSize(1440, 900)}) {
            window.resize(size);
            saveScreenshot(&window, QStringLiteral("export-notice-%1-%2.png").arg(size.width()).arg(theme));
        }
    }

    void showInFolderSelectsTheFileInTheFileManager()
    {
        FakeFileManager fileManager;
        PeerBus bus(&fileManager, QStringLiteral("/org/freedesktop/FileManager1"), QStringLiteral("files"));
        QVERIFY2(bus.connect(), qPrintable(bus.error()));

        SavedFileNotice notice(bus.client());
        const QString path = m_home.filePath(QStringLiteral("chart.md"));
        notice.announce(path);
        notice.showButton()->click();
        QTRY_COMPARE(fileManager.shown.size(), 1);
        QCOMPARE(fileManager.shown.constFirst(), QStringList{QUrl::fromLocalFile(path).toString()});
    }
};

QTEST_MAIN(TestExportNotice)
#include "tst_exportnotice.moc"
