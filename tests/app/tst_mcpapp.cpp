// MCP in the app, driven like a user would: the approval card of an MCP tool (server and tool
// named, arguments in full, "Always allow" kept in the settings), images inline, prompts behind
// "/" in the composer, and the settings' MCP tab with the live servers. Real reference servers,
// the fake model server. With SANDPIPER_SCREENSHOT_DIR set, saves mcp-approval.png and
// settings-mcp.png there.
#include "cardlookup.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "mcptestservers.h"
#include "screenshot.h"
#include "windowfixture.h"

#include <chat/chatview.h>
#include <chat/codeeditor.h>
#include <chat/figureview.h>
#include <chat/toolcallcard.h>
#include <composer.h>
#include <mainwindow.h>
#include <mcp/mcpserverregistry.h>
#include <mcp/mcptrust.h>
#include <session/conversationsession.h>
#include <settings/settings.h>
#include <settingsdialog.h>
#include <settingspages/mcpsettingspage.h>
#include <storage/conversationstore.h>

#include <QAbstractItemView>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;
using namespace std::chrono_literals;

namespace {

QPushButton *buttonNamed(QWidget *parent, const QString &text)
{
    for (QPushButton *button : parent->findChildren<QPushButton *>()) {
        if (button->text() == text && button->isVisible())
            return button;
    }
    return nullptr;
}

QString headerOf(ToolCallCard *card)
{
    return card->findChildren<QToolButton *>().constFirst()->text();
}

} // namespace

class TestMcpApp : public QObject
{
    Q_OBJECT

    WindowFixture m_fixture;

private Q_SLOTS:
    void init()
    {
        SANDPIPER_REQUIRE_MCP_SERVERS();
        QCOMPARE(m_fixture.start(QStringLiteral("gpt-4o-mini"),
                                 {QStringLiteral("sandbox/enabled=false"), QStringLiteral("appearance/theme=light")}),
                 QString());
        McpTestServers::writeConfig(m_fixture.profile().path(), {McpTestServers::everything()});
    }

    void cleanup() { QVERIFY(m_fixture.finish()); }

    void approvesAnMcpToolAndTrustsItFromThenOn()
    {
        m_fixture.server().enqueue(
            FS::openAiToolCalls({{QStringLiteral("call_sum"), QStringLiteral("everything__get-sum"),
                                  QStringLiteral(R"({"a": 19, "b": 23})")}},
                                3, {}, FS::CallOrder::OneAfterAnother, QStringLiteral("I'll ask the MCP server.")));
        m_fixture.server().enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_sum2"), QStringLiteral("everything__get-sum"),
              QStringLiteral(R"({"a": 1, "b": 1})")},
             {QStringLiteral("call_image"), QStringLiteral("everything__get-tiny-image"), QStringLiteral("{}")},
             {QStringLiteral("call_links"), QStringLiteral("everything__get-resource-links"),
              QStringLiteral(R"({"count": 2})")}}));
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("19 + 23 = 42, and here is the logo.")));
        McpServerRegistry registry({m_fixture.settings()->mcpConfigFile(), m_fixture.settings()->mcpLogFolder(), 30s});
        // The image tool is trusted already; the sum asks.
        QCOMPARE(m_fixture.settings()->addOverride(QStringLiteral("approval/everything__get-tiny-image=auto")),
                 QString());
        QCOMPARE(m_fixture.settings()->addOverride(QStringLiteral("approval/everything__get-resource-links=auto")),
                 QString());
        {
            MainWindow window(m_fixture.settings(), m_fixture.store());
            window.setMcpServers(&registry);
            window.resize(1200, 820);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.send(QStringLiteral("What is 19 + 23? Use the MCP server."));
            ChatView *chat = window.chatView();
            QVERIFY(QTest::qWaitFor(
                [&] {
                    return Test::newestCard(chat, QStringLiteral("call_sum")) &&
                           Test::newestCard(chat, QStringLiteral("call_sum"))->isAwaitingApproval();
                },
                60000));
            ToolCallCard *card = Test::newestCard(chat, QStringLiteral("call_sum"));
            QVERIFY2(headerOf(card).contains(QLatin1String("get-sum (MCP server everything)")),
                     qPrintable(headerOf(card)));
            const QString arguments = card->findChild<CodeEditor *>()->toPlainText();
            QVERIFY2(arguments.contains(QLatin1String("\"a\": 19")) && arguments.contains(QLatin1Char('\n')),
                     qPrintable(arguments));
            bool noted = false;
            for (QLabel *label : card->findChildren<QLabel *>())
                noted = noted || label->text().contains(QLatin1String("with your rights"));
            QVERIFY(noted);
            QTest::qWait(300);
            saveScreenshot(&window, QStringLiteral("mcp-approval.png"));

            QPushButton *always = buttonNamed(card, QStringLiteral("Always allow this tool"));
            QVERIFY(always);
            always->click();
            // The second call of the same tool runs without asking; the image shows inline.
            QVERIFY(QTest::qWaitFor(
                [&] {
                    return Test::newestCard(chat, QStringLiteral("call_image")) &&
                           !Test::newestCard(chat, QStringLiteral("call_image"))
                                ->findChildren<FigureView *>()
                                .isEmpty();
                },
                60000));
            QVERIFY(!Test::newestCard(chat, QStringLiteral("call_sum2"))->isAwaitingApproval());
            // Resource links show as resources with their address.
            QVERIFY(QTest::qWaitFor(
                [&] {
                    ToolCallCard *links = Test::newestCard(chat, QStringLiteral("call_links"));
                    int shown = 0;
                    for (QLabel *label : links ? links->findChildren<QLabel *>() : QList<QLabel *>())
                        shown += label->text().startsWith(QLatin1String("Resource: ")) &&
                                 label->text().contains(QLatin1String("demo://"));
                    return shown == 2;
                },
                30000));
            QVERIFY(headerOf(Test::newestCard(chat, QStringLiteral("call_sum2"))).startsWith(QLatin1String("Used")));
            QVERIFY(QTest::qWaitFor([&] { return !window.currentSession()->isBusy(); }, 30000));
        }
        QCOMPARE(McpTrust::policy(*m_fixture.settings(), QStringLiteral("everything__get-sum")), ApprovalPolicy::Auto);
        QVERIFY(McpTrust::allowedAlwaysSince(*m_fixture.settings(), QStringLiteral("everything__get-sum")).isValid());
    }

    void showsProgressAndStops()
    {
        m_fixture.server().enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_long"), QStringLiteral("everything__trigger-long-running-operation"),
              QStringLiteral(R"({"duration": 30, "steps": 30})")}}));
        QCOMPARE(m_fixture.settings()->addOverride(
                     QStringLiteral("approval/everything__trigger-long-running-operation=auto")),
                 QString());
        McpServerRegistry registry({m_fixture.settings()->mcpConfigFile(), m_fixture.settings()->mcpLogFolder(), 30s});
        MainWindow window(m_fixture.settings(), m_fixture.store());
        window.setMcpServers(&registry);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.send(QStringLiteral("run the long operation"));
        ChatView *chat = window.chatView();
        auto progress = [&]() -> QProgressBar * {
            ToolCallCard *card = Test::newestCard(chat, QStringLiteral("call_long"));
            return card ? card->findChild<QProgressBar *>() : nullptr;
        };
        QVERIFY(
            QTest::qWaitFor([&] { return progress() && progress()->isVisible() && progress()->value() > 0; }, 60000));
        QVERIFY(progress()->text().contains(QLatin1String("of 30")));
        QElapsedTimer stopped;
        stopped.start();
        window.stop();
        QVERIFY(QTest::qWaitFor([&] { return !window.currentSession()->isBusy(); }, 10000));
        QVERIFY(stopped.elapsed() < 5000);
        QVERIFY(!progress()->isVisible());
    }

    void offersPromptsBehindASlash()
    {
        McpServerRegistry registry({m_fixture.settings()->mcpConfigFile(), m_fixture.settings()->mcpLogFolder(), 30s});
        MainWindow window(m_fixture.settings(), m_fixture.store());
        window.setMcpServers(&registry);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        Composer *composer = window.composer();
        composer->editor()->setFocus();
        QTest::keyClicks(composer->editor(), QStringLiteral("/"));
        // "/" starts the servers; their prompts fill the list.
        QVERIFY(QTest::qWaitFor([&] { return composer->promptCompleter()->model()->rowCount() > 0; }, 30000));
        QTest::keyClicks(composer->editor(), QStringLiteral("simple"));
        QVERIFY(QTest::qWaitFor([&] { return composer->promptCompleter()->popup()->isVisible(); }, 5000));
        QCOMPARE(composer->promptCompleter()->completionCount(), 1);
        QTest::keyClick(composer->editor(), Qt::Key_Return);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return composer->editor()->toPlainText().contains(QLatin1String("simple prompt without arguments"));
            },
            20000));
    }

    void showsServersAndTheirToolsInTheSettings()
    {
        McpServerConfig missing;
        missing.name = QStringLiteral("broken");
        missing.command = QStringLiteral("python3");
        missing.args = {QStringLiteral("-c"),
                        QStringLiteral("import sys; sys.stderr.write('cannot open the database\\n'); sys.exit(2)")};
        McpTestServers::writeConfig(m_fixture.profile().path(), {McpTestServers::everything(), missing});
        McpTrust::allowAlways(*m_fixture.settings(), QStringLiteral("everything__echo"));
        McpServerRegistry registry({m_fixture.settings()->mcpConfigFile(), m_fixture.settings()->mcpLogFolder(), 30s});
        registry.startEnabled();
        // mcp.json is a JSON object: its servers come in the order of their names.
        QVERIFY(QTest::qWaitFor(
            [&] {
                const auto servers = registry.servers();
                return servers.size() == 2 && servers.at(0).state == McpServerStatus::State::Failed &&
                       servers.at(1).state == McpServerStatus::State::Running;
            },
            30000));
        SettingsDialog dialog(m_fixture.settings(), nullptr, &registry);
        dialog.resize(860, 720);
        dialog.showPage(dialog.mcpPage());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        McpSettingsPage *page = dialog.mcpPage();
        QTreeWidget *list = page->serverList();
        QCOMPARE(list->topLevelItemCount(), 2);
        QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("broken"));
        QVERIFY(list->topLevelItem(0)->text(1).startsWith(QLatin1String("failed")));
        QVERIFY2(list->topLevelItem(1)->text(1).startsWith(QLatin1String("running with")),
                 qPrintable(list->topLevelItem(1)->text(1)));
        list->setCurrentItem(list->topLevelItem(1));
        QVERIFY(page->toolTable()->rowCount() >= 10);
        bool trustSaid = false;
        for (QLabel *label : page->findChildren<QLabel *>())
            trustSaid = trustSaid || label->text().contains(QLatin1String("with your own rights"));
        QVERIFY(trustSaid);

        // "Always allow" from a chat can be taken back here.
        QPushButton *takeBack = buttonNamed(page->toolTable(), QStringLiteral("Take back"));
        QVERIFY(takeBack);
        QTest::qWait(200);
        saveScreenshot(&dialog, QStringLiteral("settings-mcp.png"));
        takeBack->click();
        // A failed server shows the end of its stderr.
        list->setCurrentItem(list->topLevelItem(0));
        bool tailShown = false;
        for (QPlainTextEdit *edit : page->findChildren<QPlainTextEdit *>())
            tailShown = tailShown ||
                        (edit->isVisible() && edit->toPlainText().contains(QLatin1String("cannot open the database")));
        QVERIFY(tailShown);
        // Switched off, then saved: mcp.json says so; the policy is back to asking.
        list->topLevelItem(0)->setCheckState(0, Qt::Unchecked);
        dialog.accept();
        QCOMPARE(McpTrust::policy(*m_fixture.settings(), QStringLiteral("everything__echo")), ApprovalPolicy::Ask);
        const McpConfigFile saved = McpConfigFile::read(m_fixture.settings()->mcpConfigFile());
        QVERIFY(!saved.servers().at(0).enabled);
        QVERIFY(saved.servers().at(1).enabled);
    }

    void offersClaudeDesktopsServersAndReportsABrokenFile()
    {
        QFile::remove(m_fixture.settings()->mcpConfigFile());
        QTemporaryDir home;
        QDir().mkpath(home.path() + QStringLiteral("/.config/Claude"));
        QFile claude(home.path() + QStringLiteral("/.config/Claude/claude_desktop_config.json"));
        QVERIFY(claude.open(QIODevice::WriteOnly));
        claude.write("{\"mcpServers\": {\"notes\": {\"command\": \"npx\", \"args\": [\"-y\", \"notes-server\"]}}}");
        claude.close();
        const QByteArray realHome = qgetenv("HOME");
        qputenv("HOME", QFile::encodeName(home.path()));
        {
            SettingsDialog dialog(m_fixture.settings());
            McpSettingsPage *page = dialog.mcpPage();
            dialog.showPage(page);
            dialog.show();
            QPushButton *import = buttonNamed(page, QStringLiteral("&Import them"));
            QVERIFY(import);
            import->click();
            QCOMPARE(page->serverList()->topLevelItemCount(), 1);
            dialog.accept();
        }
        qputenv("HOME", realHome);
        QCOMPARE(McpConfigFile::read(m_fixture.settings()->mcpConfigFile()).servers().first().command,
                 QStringLiteral("npx"));

        // A broken mcp.json is shown with its line and column, and left alone.
        QFile file(m_fixture.settings()->mcpConfigFile());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},,\n  }\n}\n");
        file.close();
        SettingsDialog dialog(m_fixture.settings());
        McpSettingsPage *page = dialog.mcpPage();
        dialog.showPage(page);
        dialog.show();
        QVERIFY2(page->fileNote()->text().contains(QLatin1String("line 3, column")),
                 qPrintable(page->fileNote()->text()));
        QPushButton *add = buttonNamed(page, QStringLiteral("&Add…"));
        QVERIFY(add);
        QVERIFY(!add->isEnabled());
        dialog.accept();
        QVERIFY(McpConfigFile::read(m_fixture.settings()->mcpConfigFile()).isBroken());
    }

    void testsAServerBeforeItIsSaved()
    {
        McpServerRegistry registry({m_fixture.settings()->mcpConfigFile(), m_fixture.settings()->mcpLogFolder(), 30s});
        SettingsDialog dialog(m_fixture.settings(), nullptr, &registry);
        dialog.showPage(dialog.mcpPage());
        dialog.show();
        McpSettingsPage *page = dialog.mcpPage();
        page->serverList()->setCurrentItem(page->serverList()->topLevelItem(0));
        QVERIFY(page->toolTable()->rowCount() == 0); // not started: nothing known yet
        page->testButton()->click();
        QVERIFY(QTest::qWaitFor([&] { return page->toolTable()->rowCount() >= 10; }, 30000));
    }
};

QTEST_MAIN(TestMcpApp)
#include "tst_mcpapp.moc"
