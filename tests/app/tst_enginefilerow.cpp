// A file that a remote engine's container kept (too large to copy back after the execution), as
// the chat's file row shows it: its size and where it is, and Open copies it here, whole, through
// the checks of every file from the sandbox, then hands the desktop its private copy. Against the
// second, "remote" Docker engine that scripts/test starts (SANDPIPER_REMOTE_DOCKER_HOST).
#include "desktoprecorder.h"
#include "dockertest.h"
#include "executioncheck.h"

#include <chat/sandboxfilerow.h>
#include <enginefilesonquit.h>
#include <sandbox/sandboxfolder.h>
#include <sandbox/sandboxsession.h>

#include <QCloseEvent>
#include <QDesktopServices>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <QCoroTask>

using namespace std::chrono_literals;
using namespace Sandpiper;
using Status = ExecutionResult::Status;
using Sandpiper::Test::describeExecution;

namespace {

// A window that asks before it closes, as the main window does.
class QuitWindow : public QWidget
{
public:
    EngineFilesOnQuit *guard = new EngineFilesOnQuit(this);

protected:
    void closeEvent(QCloseEvent *event) override
    {
        if (!guard->mayClose())
            event->ignore();
    }
};

// The question the window asks, once the one before is gone.
QMessageBox *question(QWidget &window)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    const QList<QMessageBox *> boxes = window.findChildren<QMessageBox *>();
    return boxes.size() == 1 ? boxes.first() : nullptr;
}

QAbstractButton *buttonOf(QMessageBox *box, const QString &text)
{
    for (QAbstractButton *button : box->buttons())
        if (button->text() == text)
            return button;
    return nullptr;
}

QList<EngineFiles::Waiting> waitingIn(const QString &folder)
{
    QList<EngineFiles::Waiting> waiting = EngineFiles::notFetched();
    waiting.removeIf([&folder](const EngineFiles::Waiting &file) { return file.folder != folder; });
    return waiting;
}

} // namespace

class TestEngineFileRow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Sandpiper::Test::DesktopRecorder m_desktop;

    // A conversation NAME's sandbox, with room for files larger than what comes back at once.
    SandboxConfig configFor(const QString &name) const
    {
        SandboxConfig config;
        config.image = Sandpiper::Test::sandboxImage();
        config.conversationId = name;
        config.dataDirectory = m_dir.filePath(name);
        config.memory = QStringLiteral("1g");
        return config;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &m_desktop, "open");
        if (!Sandpiper::Test::remoteDockerHost().isEmpty())
            qputenv("DOCKER_HOST", Sandpiper::Test::remoteDockerHost().toUtf8());
    }
    void cleanupTestCase() { QDesktopServices::unsetUrlHandler(QStringLiteral("file")); }
    void init() { SANDPIPER_REQUIRE_AVAILABLE(Sandpiper::Test::remoteEngineUnavailableReason()); }

    void openFetchesTheFileWholeAndHandsOnItsCopy()
    {
        const SandboxConfig config = configFor(QStringLiteral("row"));
        SandboxSession session(config);
        const auto r = QCoro::waitFor(
            session.execute(QStringLiteral("open('big.csv', 'w').write('v\\n' + '1234567\\n' * (20 * 131072))")));
        CHECK_STATUS(r, Status::Ok);
        const QByteArray expected = QByteArray("v\n") + QByteArray("1234567\n").repeated(20 * 131072);
        QCOMPARE(r.onEngine.value(QStringLiteral("big.csv"), -1), expected.size());

        SandboxFileRow row(config.dataDirectory, QStringLiteral("big.csv"), expected.size());
        row.show();
        QVERIFY(QTest::qWaitForWindowExposed(&row));
        QLabel *label = nullptr; // the name's, not the icon's
        for (QLabel *candidate : row.findChildren<QLabel *>())
            if (!candidate->text().isEmpty())
                label = candidate;
        QVERIFY(label);
        QCOMPARE(label->accessibleName(),
                 QStringLiteral("big.csv (%1, on the Docker engine)").arg(SandboxFolder::formatBytes(expected.size())));
        QPushButton *open = nullptr;
        for (QPushButton *button : row.findChildren<QPushButton *>())
            if (button->accessibleName() == QLatin1String("Open big.csv"))
                open = button;
        QVERIFY(open);
        open->click();
        QVERIFY(!open->isEnabled()); // while it is being copied
        QTRY_COMPARE_WITH_TIMEOUT(m_desktop.opened.size(), 1, 60000);
        QFile copy(m_desktop.opened.first().toLocalFile());
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QVERIFY(copy.readAll() == expected);
        QFile here(config.dataDirectory + QStringLiteral("/big.csv"));
        QVERIFY(here.open(QIODevice::ReadOnly));
        QVERIFY(here.readAll() == expected);
        QCOMPARE(label->accessibleName(), QStringLiteral("big.csv"));
        QVERIFY(open->isEnabled());
    }

    // Quitting while the engine keeps files: asked first. Cancel stays; Copy Here, Then Quit
    // brings them whole and closes; Quit Without Them closes without them.
    void quittingAsksForTheFilesOnTheEngine()
    {
        const SandboxConfig config = configFor(QStringLiteral("quit"));
        SandboxSession session(config);
        const QString write = QStringLiteral("open('%1', 'wb').write(b'%2' * (20 * 1024 * 1024))");
        auto r = QCoro::waitFor(session.execute(write.arg(QStringLiteral("big.bin"), QStringLiteral("x"))));
        CHECK_STATUS(r, Status::Ok);
        QCOMPARE(waitingIn(config.dataDirectory).size(), 1);

        QuitWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.close());
        QMessageBox *box = question(window);
        QVERIFY(box);
        QVERIFY2(box->text().contains(QLatin1String("big.bin (%1)").arg(SandboxFolder::formatBytes(20 << 20))),
                 qPrintable(box->text()));
        box->button(QMessageBox::Cancel)->click();
        QVERIFY(window.isVisible());

        QVERIFY(!window.close());
        box = question(window);
        QVERIFY(box);
        QAbstractButton *copy = buttonOf(box, QStringLiteral("&Copy Here, Then Quit"));
        QVERIFY(copy);
        copy->click();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 60000);
        QCOMPARE(QFileInfo(config.dataDirectory + QStringLiteral("/big.bin")).size(), 20 << 20);
        QVERIFY(waitingIn(config.dataDirectory).isEmpty());

        r = QCoro::waitFor(session.execute(write.arg(QStringLiteral("other.bin"), QStringLiteral("y"))));
        CHECK_STATUS(r, Status::Ok);
        QuitWindow second;
        second.show();
        QVERIFY(QTest::qWaitForWindowExposed(&second));
        QVERIFY(!second.close());
        box = question(second);
        QVERIFY(box);
        QVERIFY(!box->text().contains(QLatin1String("big.bin"))); // copied already
        QAbstractButton *leave = buttonOf(box, QStringLiteral("&Quit Without Them"));
        QVERIFY(leave);
        leave->click();
        QVERIFY(!second.isVisible());
        QVERIFY(!QFile::exists(config.dataDirectory + QStringLiteral("/other.bin")));
    }
};

QTEST_MAIN(TestEngineFileRow)
#include "tst_enginefilerow.moc"
