// What the user does to a conversation as a whole: rename, delete after asking, export and
// import, each through its own dialog.
#include "dialogdriver.h"
#include "testprofile.h"

#include <conversationactions.h>
#include <conversationlistmodel.h>
#include <conversationsidebar.h>
#include <savedfilenotice.h>
#include <session/conversationsession.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QDBusConnection>
#include <QFileInfo>
#include <QInputDialog>
#include <QListView>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestConversationActions : public QObject
{
    Q_OBJECT

    TestProfile m_profile;
    std::unique_ptr<QWidget> m_window;
    ConversationSidebar *m_sidebar = nullptr;
    SavedFileNotice *m_notice = nullptr;
    std::unique_ptr<ConversationActions> m_actions;

    ConversationSession *newSession()
    {
        const auto session = m_profile.sessions()->create();
        return session ? *session : nullptr;
    }

private Q_SLOTS:
    void init()
    {
        QCOMPARE(m_profile.open(TestProfile::offline()), QString());
        m_window = std::make_unique<QWidget>();
        m_sidebar = new ConversationSidebar(m_profile.store(), m_profile.sessions(), m_window.get());
        m_notice = new SavedFileNotice(QDBusConnection(QStringLiteral("no-such-connection")), m_window.get());
        auto *statusBar = new QStatusBar(m_window.get());
        m_actions = std::make_unique<ConversationActions>(
            ConversationActions::Parts{m_profile.settings(), m_profile.store(), m_profile.sessions(), m_sidebar,
                                       m_notice, statusBar},
            m_window.get());
    }

    void cleanup()
    {
        m_actions.reset();
        m_window.reset();
        QVERIFY(m_profile.close());
    }

    void withoutAConversationNothingIsAsked()
    {
        m_actions->rename(nullptr);
        m_actions->remove(nullptr);
        m_actions->exportNotebook(nullptr);
        QVERIFY(!QApplication::activeModalWidget());
    }

    void renameTakesTheTitleTyped()
    {
        ConversationSession *session = newSession();
        QVERIFY(session);
        m_window->resize(1000, 700);
        DialogDriver driver;
        int width = 0;
        int readable = 0;
        driver.then<QInputDialog>([&](QInputDialog *dialog) {
            width = dialog->width();
            readable = dialog->fontMetrics().averageCharWidth() * 50;
            dialog->setTextValue(QStringLiteral("  Penguins  "));
            dialog->accept();
        });
        m_actions->rename(session);
        QVERIFY(driver.done());
        QCOMPARE(session->state().title, QStringLiteral("Penguins"));
        QCOMPARE(m_profile.store()->conversation(session->id())->title, QStringLiteral("Penguins"));
        // Wide enough to read a title (it was a few words wide).
        QVERIFY2(width >= readable, qPrintable(QStringLiteral("%1 < %2").arg(width).arg(readable)));
    }

    void deleteAsksFirstThenSelectsTheFirstLeft()
    {
        const qint64 kept = newSession()->id();
        ConversationSession *doomed = newSession();
        QVERIFY(doomed);
        const qint64 doomedId = doomed->id();
        m_sidebar->refresh();
        QSignalSpy removing(m_actions.get(), &ConversationActions::removing);

        DialogDriver driver;
        QString text;
        QStringList buttons;
        driver.answer(&text, &buttons, QStringLiteral("&No"));
        m_actions->remove(doomed);
        QVERIFY(driver.done());
        QCOMPARE(text, QStringLiteral("Delete this conversation, its files and its figures? This cannot be undone."));
        QCOMPARE(removing.count(), 0);
        QCOMPARE(m_profile.store()->conversations()->size(), 2);

        // A conversation with a title is named.
        QVERIFY(doomed->rename(QStringLiteral("Penguins")));
        driver.answer(&text, &buttons, QStringLiteral("&No"));
        m_actions->remove(doomed);
        QVERIFY(driver.done());
        QCOMPARE(text, QStringLiteral("Delete “Penguins”, its files and its figures? This cannot be undone."));

        driver.answer(&text, &buttons, QStringLiteral("&Yes"));
        m_actions->remove(doomed);
        QVERIFY(driver.done());
        QCOMPARE(removing.count(), 1);
        QCOMPARE(removing.constFirst().constFirst().toLongLong(), doomedId);
        QCOMPARE(m_profile.store()->conversations()->size(), 1);
        QCOMPARE(m_sidebar->model()->rowCount(), 1);
        QCOMPARE(m_sidebar->list()->currentIndex().row(), 0);
        QCOMPARE(m_profile.store()->conversations()->constFirst().id, kept);
    }

    void anExportedConversationImportsAsANewOne()
    {
        ConversationSession *session = newSession();
        QVERIFY(session);
        QVERIFY(session->rename(QStringLiteral("Penguins")));
        const QString path = m_profile.filePath(QStringLiteral("penguins.json"));
        DialogDriver driver;
        driver.saveTo(path);
        m_actions->exportConversation(session, ConversationFiles::Format::Json);
        QVERIFY(driver.done());
        QVERIFY(QFileInfo::exists(path));
        QVERIFY2(m_notice->message().startsWith(QStringLiteral("Saved “penguins.json” in ")),
                 qPrintable(m_notice->message()));

        QSignalSpy imported(m_actions.get(), &ConversationActions::imported);
        driver.saveTo(path);
        m_actions->import();
        QVERIFY(driver.done());
        QCOMPARE(imported.count(), 1);
        const qint64 id = imported.constFirst().constFirst().toLongLong();
        QVERIFY(id != session->id());
        QCOMPARE(m_profile.store()->conversation(id)->title, QStringLiteral("Penguins"));
        QCOMPARE(m_sidebar->model()->rowCount(), 2);
    }
};

QTEST_MAIN(TestConversationActions)
#include "tst_conversationactions.moc"
