// The first answer of a model without a report card (issue 25): the window offers to test it,
// once; with consent the card runs quietly against the server, is kept, and its verdict is said
// in the status bar; "Never ask" is remembered; the scripted servers of other tests are never
// offered (their profiles say so).
#include "fakellmserver.h"
#include "fakestreams.h"
#include "windowfixture.h"

#include <composer.h>
#include <composereditor.h>
#include <firstuseprobe.h>
#include <llm/modelprobe.h>
#include <mainwindow.h>
#include <session/conversationsession.h>
#include <settings/modelreports.h>
#include <settings/settings.h>

#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QStatusBar>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

class TestFirstUseProbe : public QObject
{
    Q_OBJECT

    WindowFixture m_fixture;

    FS::ScriptedCall getTime(const QString &id) const
    {
        return {id, ModelProbe::toolName(), QStringLiteral("{\"city\": \"Paris\"}")};
    }

    // A llama.cpp-like server with a large window (the long prompt is not sent) and no vision.
    void startAsking(const QString &mode = QStringLiteral("ask"))
    {
        QCOMPARE(m_fixture.start(QStringLiteral("probe-me"), {QStringLiteral("models/test_first_use=") + mode}),
                 QString());
        m_fixture.server().setRoute("GET", "/props", FS::llamaCppProps(131072));
    }

    void enqueueTheProbe()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hello!")));
        m_fixture.server().enqueue(FS::openAiToolCalls({getTime(QStringLiteral("call_1"))}));
        m_fixture.server().enqueue(
            FS::openAiToolCalls({getTime(QStringLiteral("call_1")), getTime(QStringLiteral("call_2"))}));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("It is 14:05.")));
    }

    static FirstUseProbe *bar(const MainWindow *window) { return window->findChild<FirstUseProbe *>(); }

private Q_SLOTS:
    void cleanup() { QVERIFY(m_fixture.finish()); }

    void offersOnceAndTestsWithConsent()
    {
        startAsking();
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hi.")));
        auto window = m_fixture.openWindow({800, 600}, true);
        QVERIFY(window);
        QVERIFY(!bar(window.get())->isVisible());
        ask(window.get(), QStringLiteral("hello"));
        QTRY_VERIFY_WITH_TIMEOUT(bar(window.get())->isVisible(), 20000);
        QVERIFY2(bar(window.get())->textLabel()->text().startsWith(QLatin1String("Test what probe-me really does?")),
                 qPrintable(bar(window.get())->textLabel()->text()));
        QCOMPARE(m_fixture.server().chatRequests().size(), 1);
        // A small window keeps its size with the offer shown, and the offer's buttons stay inside.
        window->resize(500, 400);
        QTest::qWait(200);
        QCOMPARE(window->width(), 500);
        for (const QPushButton *button : {bar(window.get())->testButton(), bar(window.get())->neverButton()}) {
            const QRect inWindow(button->mapTo(window.get(), QPoint(0, 0)), button->size());
            QVERIFY2(window->rect().contains(inWindow), qPrintable(button->text()));
        }

        // From the keyboard: the offer's button takes Space.
        enqueueTheProbe();
        bar(window.get())->testButton()->setFocus(Qt::TabFocusReason);
        QTest::keyClick(bar(window.get())->testButton(), Qt::Key_Space);
        QVERIFY(!bar(window.get())->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(
            window->statusBar()->currentMessage().startsWith(QLatin1String("probe-me: native calls")), 20000);
        QCOMPARE(m_fixture.server().chatRequests().size(), 5);
        const auto card = ModelReports::find(*m_fixture.settings(), QStringLiteral("custom"),
                                             m_fixture.server().baseUrl().toString(), QStringLiteral("probe-me"));
        QVERIFY(card.has_value());
        QCOMPARE(card->parallelCalls, std::optional<bool>(true));

        // The card is there: the next answer offers nothing.
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Again.")));
        ask(window.get(), QStringLiteral("and again"));
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy() && m_fixture.server().chatRequests().size() == 6,
                                 20000);
        QTest::qWait(200);
        QVERIFY(!bar(window.get())->isVisible());
    }

    // "Not now" waits for the next start of the app; "Never ask" is kept in the settings.
    void notNowAndNever()
    {
        startAsking();
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hi.")));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hi again.")));
        auto window = m_fixture.openWindow({800, 600}, true);
        QVERIFY(window);
        ask(window.get(), QStringLiteral("hello"));
        QTRY_VERIFY_WITH_TIMEOUT(bar(window.get())->isVisible(), 20000);
        // From the keyboard, and the focus goes back to the message box, not to the next button.
        QVERIFY(window->composer()->editor()->hasFocus());
        bar(window.get())->laterButton()->setFocus(Qt::TabFocusReason);
        QTest::keyClick(bar(window.get())->laterButton(), Qt::Key_Space);
        QVERIFY(!bar(window.get())->isVisible());
        QCOMPARE(QApplication::focusWidget(), window->composer()->editor());
        ask(window.get(), QStringLiteral("hello again"));
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy() && m_fixture.server().chatRequests().size() == 2,
                                 20000);
        QTest::qWait(200);
        QVERIFY2(!bar(window.get())->isVisible(), "asked once per run");
        QCOMPARE(Settings(m_fixture.profile().path()).string(QStringLiteral("models/test_first_use")),
                 QStringLiteral("ask"));

        // A new window is a new run: asked again, and never again after "Never ask".
        window.reset();
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hi.")));
        window = m_fixture.openWindow({800, 600}, true);
        ask(window.get(), QStringLiteral("hello"));
        QTRY_VERIFY_WITH_TIMEOUT(bar(window.get())->isVisible(), 20000);
        QTest::mouseClick(bar(window.get())->neverButton(), Qt::LeftButton);
        QVERIFY(!bar(window.get())->isVisible());
        // Written to the settings file (this run's own assignment still says "ask").
        QCOMPARE(Settings(m_fixture.profile().path()).string(QStringLiteral("models/test_first_use")),
                 QStringLiteral("never"));
        QCOMPARE(m_fixture.server().chatRequests().size(), 3);
    }

    // A turn that failed is no answer: the offer waits for one that came.
    void aFailedTurnOffersNothing()
    {
        startAsking();
        m_fixture.server().enqueue(FS::httpError(400, QStringLiteral("The request was refused.")));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hi.")));
        auto window = m_fixture.openWindow({800, 600}, true);
        QVERIFY(window);
        ask(window.get(), QStringLiteral("hello"));
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy() && m_fixture.server().chatRequests().size() == 1,
                                 20000);
        QTest::qWait(200);
        QVERIFY(!bar(window.get())->isVisible());
        ask(window.get(), QStringLiteral("hello again"));
        QTRY_VERIFY_WITH_TIMEOUT(bar(window.get())->isVisible(), 20000);
    }

    // "always": no question, the card runs after the first answer.
    void alwaysTestsWithoutAsking()
    {
        startAsking(QStringLiteral("always"));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hi.")));
        enqueueTheProbe();
        auto window = m_fixture.openWindow({800, 600}, true);
        QVERIFY(window);
        ask(window.get(), QStringLiteral("hello"));
        QTRY_VERIFY_WITH_TIMEOUT(
            window->statusBar()->currentMessage().startsWith(QLatin1String("probe-me: native calls")), 20000);
        QVERIFY(!bar(window.get())->isVisible());
        QCOMPARE(m_fixture.server().chatRequests().size(), 5);
    }
};

QTEST_MAIN(TestFirstUseProbe)
#include "tst_firstuseprobe.moc"
