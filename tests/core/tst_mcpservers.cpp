// The MCP server registry against real servers: the reference servers from npm over stdio,
// Streamable HTTP and the old HTTP+SSE transport, and a server that misbehaves on purpose
// (tests/support/misbehaving-mcp-server.py) for what the reference servers never do.
#include "mcptestservers.h"

#include <mcp/mcpreplywaiter.h>
#include <mcp/mcpresultreader.h>
#include <mcp/mcpserverregistry.h>
#include <mcp/mcptool.h>
#include <mcp/mcptoolbox.h>
#include <tools/toolregistry.h>

#include <QCoroSignal>
#include <QCoroTask>
#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using namespace std::chrono_literals;
using State = McpServerStatus::State;

namespace {

McpServerStatus statusOf(const McpServerRegistry &registry, const QString &name)
{
    for (const McpServerStatus &status : registry.servers()) {
        if (status.config.name == name)
            return status;
    }
    return {};
}

// Starts the enabled servers and waits until NAME is running or has failed.
McpServerStatus settle(McpServerRegistry &registry, const QString &name, int timeoutMs = 30000)
{
    registry.startEnabled();
    (void)QTest::qWaitFor(
        [&] {
            const State state = statusOf(registry, name).state;
            return state == State::Running || state == State::Failed;
        },
        timeoutMs);
    return statusOf(registry, name);
}

McpReply callTool(McpServerRegistry &registry, const QString &server, const QString &tool, const QJsonObject &arguments)
{
    return QCoro::waitFor(registry.call(server, QStringLiteral("tools/call"),
                                        {{QStringLiteral("name"), tool}, {QStringLiteral("arguments"), arguments}}));
}

QString textOf(const McpReply &reply)
{
    QStringList texts;
    for (const QJsonValue &block : reply.result.value(QLatin1String("content")).toArray())
        texts << block[QLatin1String("text")].toString();
    return texts.join(QLatin1Char('\n'));
}

McpToolInfo toolInfo(const McpServerStatus &status, const QString &name)
{
    for (const McpToolInfo &tool : status.tools) {
        if (tool.name == name)
            return tool;
    }
    return {};
}

QStringList toolNames(const McpServerStatus &status)
{
    QStringList names;
    for (const McpToolInfo &tool : status.tools)
        names << tool.name;
    return names;
}

} // namespace

class TestMcpServers : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    McpServerRegistry::Options options(const QList<McpServerConfig> &servers, std::chrono::seconds timeout = 30s)
    {
        return {McpTestServers::writeConfig(m_dir.path(), servers), m_dir.path() + QStringLiteral("/logs"), timeout};
    }

private Q_SLOTS:
    void init() { SANDPIPER_REQUIRE_MCP_SERVERS(); }

    void listsToolsAndPromptsOverStdio()
    {
        McpServerRegistry registry(options({McpTestServers::everything()}));
        // Nothing starts before it is needed.
        QCOMPARE(statusOf(registry, QStringLiteral("everything")).state, State::Stopped);
        const McpServerStatus status = settle(registry, QStringLiteral("everything"));
        QVERIFY2(status.state == State::Running, qPrintable(status.error));
        QCOMPARE(status.protocolVersion, QStringLiteral("2025-11-25"));
        for (const char *tool : {"echo", "get-sum", "get-tiny-image", "trigger-long-running-operation",
                                 "get-resource-links", "get-structured-content"})
            QVERIFY2(toolNames(status).contains(QLatin1String(tool)), tool);
        QCOMPARE(toolInfo(status, QStringLiteral("echo")).exposedName, QStringLiteral("everything__echo"));
        QCOMPARE(toolInfo(status, QStringLiteral("echo")).inputSchema.value(QLatin1String("type")).toString(),
                 QStringLiteral("object"));
        QVERIFY(!toolInfo(status, QStringLiteral("echo")).inputSchema.contains(QLatin1String("$schema")));
        QVERIFY(status.processId > 0);
        bool hasArgsPrompt = false;
        for (const McpPromptInfo &prompt : status.prompts)
            hasArgsPrompt = hasArgsPrompt || (prompt.name == QLatin1String("args-prompt") &&
                                              prompt.arguments.size() == 2 && prompt.arguments.first().required);
        QVERIFY(hasArgsPrompt);
        QVERIFY(QFile::exists(status.logFile));
    }

    void callsEchoAndGetSum()
    {
        McpServerRegistry registry(options({McpTestServers::everything()}));
        // A call to a server that has not started starts it and waits for it.
        const McpReply echo = callTool(registry, QStringLiteral("everything"), QStringLiteral("echo"),
                                       {{QStringLiteral("message"), QStringLiteral("hello MCP")}});
        QVERIFY2(echo.ok(), qPrintable(echo.message));
        QCOMPARE(textOf(echo), QStringLiteral("Echo: hello MCP"));
        const McpReply sum = callTool(registry, QStringLiteral("everything"), QStringLiteral("get-sum"),
                                      {{QStringLiteral("a"), 2}, {QStringLiteral("b"), 40}});
        QCOMPARE(textOf(sum), QStringLiteral("The sum of 2 and 40 is 42."));
        const McpReply prompt = QCoro::waitFor(registry.call(
            QStringLiteral("everything"), QStringLiteral("prompts/get"),
            {{QStringLiteral("name"), QStringLiteral("args-prompt")},
             {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("city"), QStringLiteral("Oslo")}}}}));
        QVERIFY(prompt.ok());
        QVERIFY(prompt.result.value(QLatin1String("messages"))
                    .toArray()
                    .first()[QLatin1String("content")][QLatin1String("text")]
                    .toString()
                    .contains(QLatin1String("Oslo")));
    }

    void speaksStreamableHttpAndTheOldSse_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("Streamable HTTP") << QStringLiteral("streamableHttp");
        QTest::newRow("HTTP+SSE fallback") << QStringLiteral("sse");
    }

    void speaksStreamableHttpAndTheOldSse()
    {
        QFETCH(QString, mode);
        McpTestServers::HttpServer server(mode);
        QVERIFY(!server.url().isEmpty());
        McpServerConfig config;
        config.name = QStringLiteral("remote");
        config.transport = McpServerConfig::Transport::Http; // the old transport is found by falling back
        config.url = server.url();
        McpServerRegistry registry(options({config}));
        const McpServerStatus status = settle(registry, QStringLiteral("remote"));
        QVERIFY2(status.state == State::Running, qPrintable(status.error));
        QVERIFY(toolNames(status).contains(QStringLiteral("echo")));
        const McpReply echo = callTool(registry, QStringLiteral("remote"), QStringLiteral("echo"),
                                       {{QStringLiteral("message"), QStringLiteral("over HTTP")}});
        QVERIFY2(echo.ok(), qPrintable(echo.message));
        QCOMPARE(textOf(echo), QStringLiteral("Echo: over HTTP"));
    }

    void showsProgressAndStopsALongOperation()
    {
        McpServerRegistry registry(options({McpTestServers::everything()}));
        const McpServerStatus status = settle(registry, QStringLiteral("everything"));
        McpToolbox toolbox(&registry, m_dir.path(), {});
        QSignalSpy progress(&toolbox, &McpToolbox::progressed);
        const McpToolInfo tool = toolInfo(status, QStringLiteral("trigger-long-running-operation"));
        auto call = toolbox.call(tool, {{QStringLiteral("duration"), 30}, {QStringLiteral("steps"), 30}});
        QVERIFY(progress.wait(10000));
        QCOMPARE(progress.first().at(0).toDouble(), 1.0);
        QCOMPARE(progress.first().at(1).toDouble(), 30.0);
        QElapsedTimer stopped;
        stopped.start();
        toolbox.cancel();
        const ToolOutcome outcome = QCoro::waitFor(std::move(call));
        QVERIFY(stopped.elapsed() < 5000);
        QVERIFY(!outcome.success);
        QVERIFY2(outcome.modelText.contains(QLatin1String("Cancelled")), qPrintable(outcome.modelText));
        // The server goes on serving.
        QCOMPARE(textOf(callTool(registry, QStringLiteral("everything"), QStringLiteral("echo"),
                                 {{QStringLiteral("message"), QStringLiteral("still here")}})),
                 QStringLiteral("Echo: still here"));
    }

    void savesImagesAndShowsResourcesAsFiles()
    {
        McpServerRegistry registry(options({McpTestServers::everything()}));
        const McpServerStatus status = settle(registry, QStringLiteral("everything"));
        McpToolbox toolbox(&registry, m_dir.path(), {});

        const ToolOutcome image = QCoro::waitFor(toolbox.call(toolInfo(status, QStringLiteral("get-tiny-image")), {}));
        QVERIFY(image.success);
        const auto &picture = std::get<McpResult>(image.result);
        QCOMPARE(picture.images.size(), 1);
        QVERIFY(picture.images.first().startsWith(QLatin1String("mcp/")));
        QFile png(m_dir.path() + QLatin1Char('/') + picture.images.first());
        QVERIFY(png.open(QIODevice::ReadOnly));
        QVERIFY(png.readAll().startsWith("\x89PNG\r\n"));
        QVERIFY(image.modelText.contains(QLatin1String("Image shown to the user: mcp/")));
        QCOMPARE(McpResultReader::fromModelText(image.modelText).images, picture.images);

        const ToolOutcome links = QCoro::waitFor(
            toolbox.call(toolInfo(status, QStringLiteral("get-resource-links")), {{QStringLiteral("count"), 2}}));
        const auto &linked = std::get<McpResult>(links.result);
        QCOMPARE(linked.files.size(), 2);
        QVERIFY(linked.files.first().uri.startsWith(QLatin1String("demo://")));
        QVERIFY(linked.files.first().path.isEmpty());
        QVERIFY(links.modelText.contains(QLatin1String("Resource link: ")));

        const ToolOutcome embedded =
            QCoro::waitFor(toolbox.call(toolInfo(status, QStringLiteral("get-resource-reference")),
                                        {{QStringLiteral("resourceType"), QStringLiteral("Text")}}));
        const auto &resource = std::get<McpResult>(embedded.result);
        QCOMPARE(resource.files.size(), 1);
        QVERIFY(!resource.files.first().path.isEmpty());
        QVERIFY(QFile::exists(m_dir.path() + QLatin1Char('/') + resource.files.first().path));

        const ToolOutcome weather =
            QCoro::waitFor(toolbox.call(toolInfo(status, QStringLiteral("get-structured-content")),
                                        {{QStringLiteral("location"), QStringLiteral("Chicago")}}));
        QCOMPARE(std::get<McpResult>(weather.result).structured.value(QLatin1String("temperature")).toInt(), 36);
    }

    void anErrorResultIsAToolError()
    {
        McpServerRegistry registry(options({McpTestServers::everything()}));
        const McpServerStatus status = settle(registry, QStringLiteral("everything"));
        McpToolbox toolbox(&registry, m_dir.path(), {});
        const ToolOutcome outcome =
            QCoro::waitFor(toolbox.call(toolInfo(status, QStringLiteral("get-sum")),
                                        {{QStringLiteral("a"), QStringLiteral("two")}, {QStringLiteral("b"), 2}}));
        QVERIFY(!outcome.success);
        QVERIFY(std::get<McpResult>(outcome.result).isError);
        QVERIFY2(outcome.modelText.startsWith(QLatin1String("Error: the tool reported a failure.")),
                 qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.contains(QLatin1String("expected number")));
    }

    void restartsAServerThatCrashed()
    {
        McpServerRegistry registry(options({McpTestServers::everything()}));
        const McpServerStatus before = settle(registry, QStringLiteral("everything"));
        QVERIFY(before.processId > 0);
        ::kill(pid_t(before.processId), SIGKILL);
        QVERIFY(QTest::qWaitFor([&] { return statusOf(registry, QStringLiteral("everything")).state == State::Failed; },
                                10000));
        QVERIFY(statusOf(registry, QStringLiteral("everything")).error.contains(QLatin1String("started again")));
        QVERIFY(QTest::qWaitFor(
            [&] { return statusOf(registry, QStringLiteral("everything")).state == State::Running; }, 20000));
        const McpServerStatus after = statusOf(registry, QStringLiteral("everything"));
        QVERIFY(after.processId != before.processId);
        QCOMPARE(after.restarts, 1);
        QCOMPARE(textOf(callTool(registry, QStringLiteral("everything"), QStringLiteral("echo"),
                                 {{QStringLiteral("message"), QStringLiteral("back")}})),
                 QStringLiteral("Echo: back"));

        // A call that was running when its server died ends at once, with the reason.
        McpServerRegistry crashing(
            options({McpTestServers::misbehaving(QStringLiteral("crash-on-call"), QStringLiteral("fragile"))}));
        QCOMPARE(settle(crashing, QStringLiteral("fragile")).state, State::Running);
        const McpReply reply = callTool(crashing, QStringLiteral("fragile"), QStringLiteral("ping"), {});
        QCOMPARE(reply.kind, McpReply::Kind::Unavailable);
        QVERIFY2(reply.message.contains(QLatin1String("stopped while it worked")), qPrintable(reply.message));
    }

    // Every bad server is reported on its own row while the good one beside it keeps working.
    void reportsBadServersAndKeepsTheOthers_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("runs");
        QTest::addColumn<QString>(
            "reported"); // in the error of a failed server, or among the problems of a running one
        QTest::newRow("not installed") << QString() << false << QStringLiteral("was not found on the PATH");
        QTest::newRow("exits at once") << QStringLiteral("exit-at-once") << false
                                       << QStringLiteral("fatal: this server cannot run here");
        QTest::newRow("another protocol version")
            << QStringLiteral("old-version") << false << QStringLiteral("1999-01-01");
        QTest::newRow("never answers") << QStringLiteral("never-answer") << false << QStringLiteral("did not answer");
        QTest::newRow("only garbage") << QStringLiteral("garbage-only") << false << QStringLiteral("not JSON-RPC");
        QTest::newRow("garbage, then JSON-RPC") << QStringLiteral("garbage") << true << QStringLiteral("not JSON-RPC");
        QTest::newRow("invalid schema") << QStringLiteral("bad-schema") << true
                                        << QStringLiteral("\"broken\" has an invalid input schema");
        QTest::newRow("duplicate tool") << QStringLiteral("duplicate") << true
                                        << QStringLiteral("lists the tool \"ping\" twice");
        QTest::newRow("unknown notification")
            << QStringLiteral("unknown-noise") << true << QStringLiteral("notifications/something_new");
        QTest::newRow("answer to an unknown id")
            << QStringLiteral("unknown-noise") << true << QStringLiteral("id 987654");
    }

    void reportsBadServersAndKeepsTheOthers()
    {
        QFETCH(QString, mode);
        QFETCH(bool, runs);
        QFETCH(QString, reported);
        McpServerConfig bad = McpTestServers::misbehaving(mode, QStringLiteral("bad"));
        if (mode.isEmpty())
            bad.command = QStringLiteral("sandpiper-no-such-mcp-server");
        // Short where the timeout is what is tested; roomy where a busy machine must not fail the start.
        bad.timeout = runs ? 15s : 2s;
        McpServerRegistry registry(options({bad, McpTestServers::everything(QStringLiteral("good"))}));
        const McpServerStatus status = settle(registry, QStringLiteral("bad"), 20000);
        const QString said = status.error + QLatin1Char('\n') + status.problems.join(QLatin1Char('\n')) +
                             QLatin1Char('\n') + status.stderrTail.join(QLatin1Char('\n'));
        QCOMPARE(status.state, runs ? State::Running : State::Failed);
        QVERIFY2(said.contains(reported), qPrintable(said));
        if (runs)
            QCOMPARE(toolNames(status), QStringList{QStringLiteral("ping")} +
                                            (mode == QLatin1String("garbage") || mode == QLatin1String("unknown-noise")
                                                 ? QStringList{QStringLiteral("huge")}
                                                 : QStringList()));
        // The log says what happened, too.
        QFile log(status.logFile);
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY(!log.readAll().isEmpty());
        QCOMPARE(settle(registry, QStringLiteral("good")).state, State::Running);
        QCOMPARE(textOf(callTool(registry, QStringLiteral("good"), QStringLiteral("echo"),
                                 {{QStringLiteral("message"), mode}})),
                 QStringLiteral("Echo: ") + mode);
    }

    void aServerThatNeverAnswersTimesOut()
    {
        McpServerConfig silent = McpTestServers::misbehaving(QStringLiteral("never-answer"), QStringLiteral("silent"));
        silent.timeout = 1s;
        McpServerRegistry registry(options({silent}));
        QElapsedTimer timer;
        timer.start();
        const McpReply reply = callTool(registry, QStringLiteral("silent"), QStringLiteral("ping"), {});
        QVERIFY(!reply.ok());
        QVERIFY2(reply.message.contains(QLatin1String("did not answer")), qPrintable(reply.message));
        QVERIFY(timer.elapsed() < 10000);

        // One that starts but never answers a call: the call times out, the server stays up.
        McpServerConfig hanging =
            McpTestServers::misbehaving(QStringLiteral("hang-on-call"), QStringLiteral("hanging"));
        hanging.timeout = 3s;
        McpServerRegistry other(options({hanging}));
        QCOMPARE(settle(other, QStringLiteral("hanging")).state, State::Running);
        const McpReply late = callTool(other, QStringLiteral("hanging"), QStringLiteral("ping"), {});
        QCOMPARE(late.kind, McpReply::Kind::Timeout);
        QCOMPARE(statusOf(other, QStringLiteral("hanging")).state, State::Running);
    }

    void capsATenMegabyteResult()
    {
        McpServerRegistry registry(
            options({McpTestServers::misbehaving(QStringLiteral("garbage"), QStringLiteral("big"))}));
        const McpServerStatus status = settle(registry, QStringLiteral("big"));
        McpToolbox toolbox(&registry, m_dir.path(), {});
        const ToolOutcome outcome = QCoro::waitFor(toolbox.call(toolInfo(status, QStringLiteral("huge")), {}));
        QVERIFY(outcome.success);
        QVERIFY2(outcome.modelText.size() < 9000, qPrintable(QString::number(outcome.modelText.size())));
        QVERIFY(outcome.modelText.contains(QLatin1String("characters omitted")));
        QVERIFY(std::get<McpResult>(outcome.result).text.size() <= McpResultReader::shownChars + 100);
    }

    // Each part of a result is capped, but a server can send many: together they keep to the
    // budget of a tool's result, which the agent sets from the model's window.
    void aResultOfManyPartsKeepsToTheBudget()
    {
        McpServerRegistry registry(
            options({McpTestServers::misbehaving(QStringLiteral("garbage"), QStringLiteral("big"))}));
        const McpServerStatus status = settle(registry, QStringLiteral("big"));
        McpToolbox toolbox(&registry, m_dir.path(), {});
        McpTool tool(toolInfo(status, QStringLiteral("huge")), &toolbox);
        PreparedCall prepared =
            tool.prepare({QStringLiteral("call_1"), tool.name(), QStringLiteral("{\"links\": 300}")});
        QVERIFY2(prepared.ok(), qPrintable(prepared.error));
        prepared.resultChars = 8000;
        const ToolOutcome outcome = QCoro::waitFor(tool.run(prepared));
        QVERIFY2(outcome.success, qPrintable(outcome.modelText.left(500)));
        QVERIFY2(outcome.modelText.size() <= 8000, qPrintable(QString::number(outcome.modelText.size())));
        QVERIFY(outcome.modelText.startsWith(QLatin1String("Resource link: link-0 <file:///link-0>")));
        QVERIFY(outcome.modelText.contains(QLatin1String("characters omitted")));
        QCOMPARE(std::get<McpResult>(outcome.result).files.size(), 300);
    }

    void readsToolListsOverSeveralPages()
    {
        McpServerRegistry registry(
            options({McpTestServers::misbehaving(QStringLiteral("paged"), QStringLiteral("pages"))}));
        QCOMPARE(toolNames(settle(registry, QStringLiteral("pages"))),
                 (QStringList{QStringLiteral("tool0"), QStringLiteral("tool1"), QStringLiteral("tool2")}));
    }

    void followsAToolListThatChanges()
    {
        McpServerRegistry registry(
            options({McpTestServers::misbehaving(QStringLiteral("list-changes"), QStringLiteral("growing"))}));
        QCOMPARE(toolNames(settle(registry, QStringLiteral("growing"))), QStringList{QStringLiteral("ping")});
        QVERIFY(callTool(registry, QStringLiteral("growing"), QStringLiteral("ping"), {}).ok());
        QVERIFY(QTest::qWaitFor([&] { return toolNames(statusOf(registry, QStringLiteral("growing"))).size() == 2; },
                                10000));
        QCOMPARE(toolNames(statusOf(registry, QStringLiteral("growing"))).last(), QStringLiteral("pong"));
    }

    void answersTheServersOwnRequests()
    {
        // A ping gets a pong; roots, sampling and elicitation, which Sandpiper does not offer, a clear refusal.
        McpServerRegistry registry(
            options({McpTestServers::misbehaving(QStringLiteral("asks"), QStringLiteral("curious"))}));
        const McpServerStatus status = settle(registry, QStringLiteral("curious"));
        QVERIFY2(status.state == State::Running, qPrintable(status.error));
    }

    void readsFilesWithTheFilesystemServer()
    {
        QFile file(m_dir.path() + QStringLiteral("/notes.txt"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("sandpiper notes\n");
        file.close();
        McpServerRegistry registry(options({McpTestServers::filesystem(m_dir.path())}));
        const McpServerStatus status = settle(registry, QStringLiteral("files"));
        QVERIFY2(status.state == State::Running, qPrintable(status.error));
        QVERIFY(toolNames(status).contains(QStringLiteral("read_text_file")));
        const McpReply reply = callTool(registry, QStringLiteral("files"), QStringLiteral("read_text_file"),
                                        {{QStringLiteral("path"), file.fileName()}});
        QVERIFY2(textOf(reply).contains(QLatin1String("sandpiper notes")), qPrintable(textOf(reply)));
    }

    void offersToolsToAnAgentAndLeavesOutTheForbidden()
    {
        McpServerRegistry registry(options({McpTestServers::everything()}));
        McpToolbox toolbox(&registry, m_dir.path(), {});
        ToolRegistry tools;
        const QStringList notes =
            QCoro::waitFor(toolbox.refresh(&tools, {{QStringLiteral("everything__get-env"), ApprovalPolicy::Never}}));
        QVERIFY(notes.isEmpty());
        QVERIFY(tools.find(QStringLiteral("everything__echo")));
        QVERIFY(!tools.find(QStringLiteral("everything__get-env")));
        QCOMPARE(tools.find(QStringLiteral("everything__echo"))->defaultApproval(), ApprovalPolicy::Ask);
        // Refreshing replaces the MCP tools instead of adding them twice.
        const int count = int(tools.names().size());
        QCoro::waitFor(toolbox.refresh(&tools, {}));
        QCOMPARE(int(tools.names().size()), count + 1);
    }

    void shutsServersDownWhenItGoes()
    {
        qint64 pid = 0;
        {
            McpServerRegistry registry(options({McpTestServers::everything()}));
            pid = settle(registry, QStringLiteral("everything")).processId;
            QVERIFY(pid > 0);
        }
        QCOMPARE(::kill(pid_t(pid), 0), -1); // gone

        // One that ignores the end of its input and SIGTERM gets SIGKILL.
        QElapsedTimer timer;
        timer.start();
        {
            McpServerRegistry registry(
                options({McpTestServers::misbehaving(QStringLiteral("stubborn"), QStringLiteral("stubborn"))}));
            pid = settle(registry, QStringLiteral("stubborn")).processId;
            QVERIFY(pid > 0);
            timer.start();
        }
        QCOMPARE(::kill(pid_t(pid), 0), -1);
        QVERIFY(timer.elapsed() >= 4000); // input closed, two seconds; SIGTERM, two seconds; then SIGKILL
        QVERIFY(timer.elapsed() < 10000);
    }
};

QTEST_GUILESS_MAIN(TestMcpServers)
#include "tst_mcpservers.moc"
