// Each conversation's own provider and model in the window, and what the window does while no
// provider can answer (issue 23): driven like a user would, against fake model servers (no sandbox).
#include "fakellmserver.h"
#include "fakestreams.h"
#include "settingsoverrides.h"
#include "windowfixture.h"

#include <agent/agentthread.h>
#include <composer.h>
#include <mainwindow.h>
#include <providerproblembar.h>
#include <session/conversationsession.h>
#include <session/messagemodel.h>
#include <session/sessionmanager.h>
#include <settings/modelreports.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>
#include <welcomepage.h>

#include <QComboBox>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

QString requestedModel(const FakeLlmServer &server)
{
    return server.chatRequests().constLast().json().value(QLatin1String("model")).toString();
}

// The menu entry called TEXT (without its mnemonic), in any menu of WINDOW's menu bar.
QAction *menuAction(QMainWindow *window, const QString &text)
{
    for (QAction *menu : window->menuBar()->actions()) {
        if (!menu->menu())
            continue;
        for (QAction *action : menu->menu()->actions()) {
            if (QString(action->text()).remove(QLatin1Char('&')) == text)
                return action;
        }
    }
    return nullptr;
}

} // namespace

class TestConversationModel : public QObject
{
    Q_OBJECT

    WindowFixture m_fixture;
    std::unique_ptr<FakeLlmServer> m_other;

    void set(const QStringList &assignments)
    {
        const QString refused = m_fixture.profile().set(assignments);
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
    }

    // The default provider becomes llama.cpp on the other server with MODEL.
    void makeTheOtherServerTheDefault(const QString &model)
    {
        set({QStringLiteral("provider=llamacpp"),
             QStringLiteral("providers/llamacpp/base_url=") + m_other->baseUrl().toString(),
             QStringLiteral("providers/llamacpp/model=") + model});
    }

private Q_SLOTS:
    void init()
    {
        qunsetenv("OPENAI_API_KEY");
        m_other = std::make_unique<FakeLlmServer>();
        QVERIFY(m_other->listen());
        QCOMPARE(m_fixture.start(QStringLiteral("fake-model"),
                                 {QStringLiteral("sandbox/enabled=false"), QStringLiteral("web/enabled=false"),
                                  QStringLiteral("network/max_retries=0")}),
                 QString());
    }

    void cleanup()
    {
        QVERIFY(m_fixture.finish());
        m_other.reset();
    }

    void theModelBoxFollowsTheConversationOnScreen()
    {
        m_fixture.server().setModels({QStringLiteral("fake-model"), QStringLiteral("small-model")});
        m_other->setModels({QStringLiteral("other-model")});
        auto window = m_fixture.openWindow({1100, 720});
        QVERIFY(window);

        // The first conversation asks with the default of the time, and picks a model of its own.
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("First answer.")));
        window->newConversation();
        const qint64 first = window->currentConversation();
        QTRY_VERIFY(window->composer()->modelPicker()->findText(QStringLiteral("small-model")) >= 0);
        window->composer()->modelPicker()->setFocus();
        window->composer()->modelPicker()->setCurrentIndex(
            window->composer()->modelPicker()->findText(QStringLiteral("small-model")));
        Q_EMIT window->composer()->modelPicker()->textActivated(QStringLiteral("small-model"));
        // The conversation's choice, not the settings' default.
        QCOMPARE(m_fixture.settings()->provider().model, QStringLiteral("fake-model"));
        ask(window.get(), QStringLiteral("first question"));
        QTRY_COMPARE_WITH_TIMEOUT(m_fixture.server().chatRequests().size(), 1, 10000);
        QCOMPARE(requestedModel(m_fixture.server()), QStringLiteral("small-model"));
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy(), 10000);

        // The default moves to another provider: the first conversation keeps its own.
        makeTheOtherServerTheDefault(QStringLiteral("other-model"));
        window->sessions()->applySettings();
        QCOMPARE(window->currentSession()->state().model, QStringLiteral("small-model"));
        QVERIFY2(window->providerLabel()->text().endsWith(QLatin1String("small-model")),
                 qPrintable(window->providerLabel()->text()));

        // A new conversation takes the new default, and the box follows it.
        m_other->enqueue(FS::openAiText(QStringLiteral("Other answer.")));
        window->newConversation();
        const qint64 second = window->currentConversation();
        QVERIFY(second != first);
        QCOMPARE(window->composer()->modelPicker()->currentText(), QStringLiteral("other-model"));
        QVERIFY2(window->providerLabel()->text().startsWith(QLatin1String("llama.cpp server")),
                 qPrintable(window->providerLabel()->text()));
        ask(window.get(), QStringLiteral("second question"));
        QTRY_COMPARE_WITH_TIMEOUT(m_other->chatRequests().size(), 1, 10000);
        QCOMPARE(requestedModel(*m_other), QStringLiteral("other-model"));
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy(), 10000);
        QTRY_VERIFY(window->composer()->modelPicker()->findText(QStringLiteral("other-model")) >= 0);
        QCOMPARE(window->composer()->modelPicker()->findText(QStringLiteral("small-model")), -1);

        // Back to the first one, by the sidebar: its own provider and model, its server's models.
        window->openConversation(first);
        QCOMPARE(window->composer()->modelPicker()->currentText(), QStringLiteral("small-model"));
        QVERIFY2(window->providerLabel()->text().startsWith(QLatin1String("Custom")),
                 qPrintable(window->providerLabel()->text()));
        QTRY_VERIFY(window->composer()->modelPicker()->findText(QStringLiteral("fake-model")) >= 0);
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Still me.")));
        ask(window.get(), QStringLiteral("third question"));
        QTRY_COMPARE_WITH_TIMEOUT(m_fixture.server().chatRequests().size(), 2, 10000);
        QCOMPARE(requestedModel(m_fixture.server()), QStringLiteral("small-model"));
        QCOMPARE(m_other->chatRequests().size(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy(), 10000);

        // After a restart too.
        window.reset();
        QVERIFY(AgentThread::waitForRetiredThreads(20s));
        window = m_fixture.openWindow({1100, 720});
        QVERIFY(window);
        window->openConversation(first);
        QCOMPARE(window->currentSession()->state().providerId, QStringLiteral("custom"));
        QCOMPARE(window->composer()->modelPicker()->currentText(), QStringLiteral("small-model"));
        window->openConversation(second);
        QCOMPARE(window->composer()->modelPicker()->currentText(), QStringLiteral("other-model"));
    }

    // A model with a report card says its verdict in the model box's list.
    void aTestedModelShowsItsVerdict()
    {
        m_fixture.server().setModels({QStringLiteral("fake-model"), QStringLiteral("small-model")});
        ModelReport report;
        report.provider = QStringLiteral("custom");
        report.baseUrl = m_fixture.server().baseUrl().toString();
        report.model = QStringLiteral("small-model");
        report.probedAt = QDateTime::currentDateTimeUtc();
        report.calls = ModelReport::Calls::Text;
        report.dialect = QStringLiteral("Hermes");
        report.steps = {{QStringLiteral("plain"), ModelReport::Step::Outcome::Passed, QStringLiteral("hi"), 1, 2, 3}};
        ModelReports::keep(*m_fixture.settings(), QStringLiteral("custom"), report);
        auto window = m_fixture.openWindow({1100, 720});
        QVERIFY(window);
        QComboBox *picker = window->composer()->modelPicker();
        QTRY_VERIFY(picker->findText(QStringLiteral("small-model")) >= 0);
        const QString tip =
            picker->itemData(picker->findText(QStringLiteral("small-model")), Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QLatin1String("text calls (Hermes)")), qPrintable(tip));
        QVERIFY(picker->itemData(picker->findText(QStringLiteral("fake-model")), Qt::ToolTipRole).toString().isEmpty());
    }

    void aConversationWhoseProviderCannotAnswerSaysSoAndKeepsTheText()
    {
        // Stored by a version that knew a provider this one does not.
        const auto gone = m_fixture.store()->createConversation(QStringLiteral("gone"), QStringLiteral("old-model"));
        QVERIFY(gone);
        ChatMessage question;
        question.role = ChatMessage::Role::User;
        question.content = QStringLiteral("an old question");
        QVERIFY(m_fixture.store()->appendMessage(gone->id, question));
        auto window = m_fixture.openWindow({1100, 720});
        QVERIFY(window);
        window->openConversation(gone->id);

        ProviderProblemBar *bar = window->providerProblemBar();
        QTRY_VERIFY(bar->isVisible());
        QVERIFY2(bar->textLabel()->text().contains(QLatin1String("\"gone\"")), qPrintable(bar->textLabel()->text()));
        QVERIFY(bar->settingsButton()->isVisible());
        QVERIFY(bar->fallbackButton()->isVisible());
        QCOMPARE(bar->fallbackButton()->text().remove(QLatin1Char('&')), QStringLiteral("Use Custom · fake-model"));

        // Refused, with the text kept; nothing goes anywhere else.
        ask(window.get(), QStringLiteral("a new question"));
        QCOMPARE(window->composer()->editor()->toPlainText(), QStringLiteral("a new question"));
        QVERIFY2(window->statusBar()->currentMessage().contains(QLatin1String("Not sent")),
                 qPrintable(window->statusBar()->currentMessage()));
        QTest::qWait(200);
        QVERIFY(m_fixture.server().chatRequests().isEmpty());
        QCOMPARE(window->currentSession()->state().providerId, QStringLiteral("gone"));

        // The user's way out: the default, by the keyboard.
        bar->fallbackButton()->setFocus();
        QTest::keyClick(bar->fallbackButton(), Qt::Key_Space);
        QVERIFY(!bar->isVisible());
        QCOMPARE(window->currentSession()->state().providerId, QStringLiteral("custom"));
        QCOMPARE(m_fixture.store()->conversation(gone->id)->provider, QStringLiteral("custom"));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Answered.")));
        QTest::keyClick(window->composer()->editor(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(m_fixture.server().chatRequests().size(), 1, 10000);
        QCOMPARE(requestedModel(m_fixture.server()), QStringLiteral("fake-model"));
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy(), 10000);
    }

    void withoutAProviderNothingIsSentAndTheWelcomeStays()
    {
        // The first run: OpenAI, no key anywhere; its address is the fake server's, so that a
        // request that went out would be seen.
        set({QStringLiteral("provider=openai"),
             QStringLiteral("providers/openai/base_url=") + m_fixture.server().baseUrl().toString()});
        auto window = m_fixture.openWindow({1100, 720});
        QVERIFY(window);
        QTRY_VERIFY_WITH_TIMEOUT(window->welcomePage()->isVisible(), 10000);
        QVERIFY(!window->composer()->isVisible());

        // New chat does not take the page away while no provider answers.
        QTest::keyClick(window.get(), Qt::Key_N, Qt::ControlModifier);
        QVERIFY(window->currentSession());
        QVERIFY(window->welcomePage()->isVisible());
        QVERIFY(!window->composer()->isVisible());

        // Text that gets through anyway (a drop, a script) is not sent, and stays.
        window->send(QStringLiteral("hello"));
        QCOMPARE(window->composer()->editor()->toPlainText(), QStringLiteral("hello"));
        QVERIFY2(window->statusBar()->currentMessage().contains(QLatin1String("No API key for OpenAI")),
                 qPrintable(window->statusBar()->currentMessage()));
        QTest::qWait(200);
        QVERIFY(m_fixture.server().chatRequests().isEmpty());
        QCOMPARE(window->currentSession()->messages()->rowCount(), 0);
    }

    void theWelcomeIsInTheHelpMenu()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hi.")));
        auto window = m_fixture.openWindow({1100, 720});
        QVERIFY(window);
        window->newConversation();
        window->send(QStringLiteral("hello"));
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy() && m_fixture.server().chatRequests().size() == 1,
                                 10000);
        QVERIFY(!window->welcomePage()->isVisible());

        QAction *setUp = menuAction(window.get(), QStringLiteral("Set up a provider…"));
        QVERIFY(setUp);
        setUp->trigger();
        QVERIFY(window->welcomePage()->isVisible());
        QVERIFY(window->welcomePage()->backButton()->isVisible());
        QTest::keyClick(window->welcomePage()->backButton(), Qt::Key_Space);
        QVERIFY(!window->welcomePage()->isVisible());
        QVERIFY(window->composer()->isVisible());
    }

    void theStatusBarSaysNothingOfAnEmptyChatThenTheContextUsed()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("Hi.")));
        auto window = m_fixture.openWindow({1100, 720});
        QVERIFY(window);
        window->newConversation();
        QCOMPARE(window->tokenLabel()->text(), QString());
        window->send(QStringLiteral("hello"));
        QTRY_VERIFY_WITH_TIMEOUT(!window->currentSession()->isBusy() && m_fixture.server().chatRequests().size() == 1,
                                 10000);
        QVERIFY2(window->tokenLabel()->text().startsWith(QLatin1String("context ")),
                 qPrintable(window->tokenLabel()->text()));
        QVERIFY(window->tokenLabel()->toolTip().contains(QLatin1String("tokens")));
    }
};

QTEST_MAIN(TestConversationModel)
#include "tst_conversationmodel.moc"
