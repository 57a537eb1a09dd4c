// mcp.json as Claude Desktop and Cursor write it, the names MCP tools get, secrets in the
// file, and the trust kept in the settings.
#include <mcp/mcpconfigfile.h>
#include <mcp/mcpresultreader.h>
#include <mcp/mcpsecrets.h>
#include <mcp/mcptoolname.h>
#include <mcp/mcptrust.h>
#include <session/agentsettings.h>
#include <settings/settings.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;

class TestMcpConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsTheShapeOtherAppsWrite()
    {
        const McpConfigFile file =
            McpConfigFile::parse("{\n"
                                 "  \"mcpServers\": {\n"
                                 "    \"filesystem\": {\"command\": \"npx\", \"args\": [\"-y\", "
                                 "\"@modelcontextprotocol/server-filesystem\", \"/home/me\"],\n"
                                 "                   \"env\": {\"DEBUG\": \"1\", \"LEVEL\": 3}},\n"
                                 "    \"github\": {\"url\": \"https://api.example.com/mcp\", \"headers\": "
                                 "{\"Authorization\": \"Bearer ${keychain:github}\"}},\n"
                                 "    \"legacy\": {\"url\": \"http://localhost:8000/sse\", \"type\": \"sse\", "
                                 "\"disabled\": true, \"timeout\": 5}\n"
                                 "  },\n"
                                 "  \"globalShortcut\": \"Ctrl+Space\"\n"
                                 "}");
        QVERIFY(!file.isBroken());
        QVERIFY(file.problems().isEmpty());
        QCOMPARE(file.servers().size(), 3);
        const McpServerConfig &fs = file.servers().at(0);
        QCOMPARE(fs.name, QStringLiteral("filesystem"));
        QCOMPARE(fs.transport, McpServerConfig::Transport::Stdio);
        QCOMPARE(fs.args.size(), 3);
        QCOMPARE(fs.env.value(QStringLiteral("LEVEL")), QStringLiteral("3"));
        QCOMPARE(file.servers().at(1).transport, McpServerConfig::Transport::Http);
        const McpServerConfig &legacy = file.servers().at(2);
        QCOMPARE(legacy.transport, McpServerConfig::Transport::LegacySse);
        QVERIFY(!legacy.enabled);
        QCOMPARE(legacy.timeout.count(), 5);
    }

    void reportsAMalformedFileWithLineAndColumn_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("missing comma")
            << QByteArray("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {}\n  }\n}") << 4 << 5;
        QTest::newRow("trailing garbage") << QByteArray("{\"mcpServers\": {}}\nxyz") << 2 << 1;
        QTest::newRow("not an object") << QByteArray("[1, 2]") << 1 << 1;
        QTest::newRow("servers not an object") << QByteArray("{\n \"mcpServers\": []\n}") << 2 << 2;
    }

    void reportsAMalformedFileWithLineAndColumn()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        const McpConfigFile file = McpConfigFile::parse(text);
        QVERIFY(file.isBroken());
        QCOMPARE(file.problems().size(), 1);
        QCOMPARE(file.problems().first().line, line);
        QVERIFY2(std::abs(file.problems().first().column - column) <= 1,
                 qPrintable(file.problems().first().describe(QStringLiteral("mcp.json"))));
        QVERIFY(file.problems()
                    .first()
                    .describe(QStringLiteral("mcp.json"))
                    .startsWith(QStringLiteral("mcp.json, line %1").arg(line)));

        // Nothing is lost: a broken file is not written over.
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/mcp.json");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        QVERIFY(!McpConfigFile::read(path).write(path, {}).isEmpty());
        QVERIFY(out.open(QIODevice::ReadOnly));
        QCOMPARE(out.readAll(), text);
    }

    void skipsAWrongServerAndKeepsTheOthers()
    {
        const McpConfigFile file =
            McpConfigFile::parse("{\n  \"mcpServers\": {\n    \"good\": {\"command\": \"node\"},\n"
                                 "    \"bad\": {\"command\": \"node\", \"args\": \"not a list\"},\n"
                                 "    \"both\": {\"command\": \"x\", \"url\": \"http://a\"}\n  }\n}");
        QVERIFY(!file.isBroken());
        QCOMPARE(file.servers().size(), 1);
        QCOMPARE(file.servers().first().name, QStringLiteral("good"));
        QCOMPARE(file.problems().size(), 2);
        for (const McpConfigFile::Problem &problem : file.problems()) {
            QVERIFY(problem.line == 4 || problem.line == 5);
            QVERIFY(problem.describe(QStringLiteral("mcp.json")).contains(problem.server));
        }
    }

    void writesWithoutLosingWhatItDoesNotKnow()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/mcp.json");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"alwaysAllow\": [\"t\"]}}, \"other\": 1}");
        out.close();
        McpConfigFile file = McpConfigFile::read(path);
        QList<McpServerConfig> servers = file.servers();
        servers.first().enabled = false;
        McpServerConfig added;
        added.name = QStringLiteral("b");
        added.transport = McpServerConfig::Transport::Http;
        added.url = QStringLiteral("https://example.com/mcp");
        servers << added;
        QCOMPARE(file.write(path, servers), QString());
        QVERIFY(out.open(QIODevice::ReadOnly));
        const QJsonObject written = QJsonDocument::fromJson(out.readAll()).object();
        QCOMPARE(written.value(QLatin1String("other")).toInt(), 1);
        const QJsonObject a = written[QLatin1String("mcpServers")][QLatin1String("a")].toObject();
        QVERIFY(a.value(QLatin1String("disabled")).toBool());
        QCOMPARE(a.value(QLatin1String("alwaysAllow")).toArray().size(), 1);
        QCOMPARE(McpConfigFile::read(path).servers().size(), 2);
    }

    void namesToolsForEveryProvider_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("name");
        QTest::newRow("plain") << QStringLiteral("everything") << QStringLiteral("echo")
                               << QStringLiteral("everything__echo");
        QTest::newRow("dashes stay") << QStringLiteral("everything") << QStringLiteral("get-sum")
                                     << QStringLiteral("everything__get-sum");
        QTest::newRow("spaces and dots") << QStringLiteral("my server.v2") << QStringLiteral("read.file")
                                         << QStringLiteral("my_server_v2__read_file");
        QTest::newRow("underscores in the server")
            << QStringLiteral("__a__b__") << QStringLiteral("t") << QStringLiteral("a_b__t");
        QTest::newRow("unicode")
            << QStringLiteral("日本") << QStringLiteral("ツール")
            << QStringLiteral("server__ツール").replace(QStringLiteral("ツール"), QStringLiteral("___"));
    }

    void namesToolsForEveryProvider()
    {
        QFETCH(QString, server);
        QFETCH(QString, tool);
        QFETCH(QString, name);
        const QString made = McpToolName::forTool(server, tool);
        QCOMPARE(made, name);
        QVERIFY(McpToolName::isMcp(made));
        QCOMPARE(McpToolName::serverOf(made), McpToolName::serverPart(server));
        QVERIFY(!McpToolName::isMcp(QStringLiteral("execute_python_code")));
    }

    void keepsLongNamesApartWithinSixtyFourCharacters()
    {
        const QString server = QStringLiteral("a-server-with-a-rather-long-name");
        const QString one = McpToolName::forTool(server, QStringLiteral("a_tool_with_a_very_long_name_number_one"));
        const QString two = McpToolName::forTool(server, QStringLiteral("a_tool_with_a_very_long_name_number_two"));
        QCOMPARE(one.size(), McpToolName::maxLength);
        QCOMPARE(two.size(), McpToolName::maxLength);
        QVERIFY(one != two);
        QVERIFY(one.startsWith(QLatin1String("a-server-with-a-rather-long-name__a_tool")));
    }

    void expandsSecretsAndVariables()
    {
        McpServerConfig config;
        config.command = QStringLiteral("node");
        config.args = {QStringLiteral("--token=${keychain:github}")};
        config.env.insert(QStringLiteral("HOME_COPY"), QStringLiteral("${env:HOME}/x"));
        config.headers.insert(QStringLiteral("Authorization"), QStringLiteral("Bearer ${keychain: github }"));
        QCOMPARE(McpSecrets::keychainNames(config), QStringList{QStringLiteral("github")});
        const McpSecrets::Expanded expanded =
            McpSecrets::apply(config, {{QStringLiteral("github"), QStringLiteral("s3cret")}});
        QCOMPARE(expanded.error, QString());
        QCOMPARE(expanded.config.args.first(), QStringLiteral("--token=s3cret"));
        QCOMPARE(expanded.config.headers.value(QStringLiteral("Authorization")), QStringLiteral("Bearer s3cret"));
        QCOMPARE(expanded.config.env.value(QStringLiteral("HOME_COPY")),
                 qEnvironmentVariable("HOME") + QStringLiteral("/x"));

        config.env.insert(QStringLiteral("X"), QStringLiteral("${env:SANDPIPER_SURELY_UNSET}"));
        const McpSecrets::Expanded missing = McpSecrets::apply(config, {});
        QVERIFY(missing.error.contains(QLatin1String("no secret \"github\"")));
        QVERIFY(missing.error.contains(QLatin1String("SANDPIPER_SURELY_UNSET")));
    }

    void keepsTrustInTheSettings()
    {
        QTemporaryDir dir;
        Settings settings(dir.path());
        const QString tool = QStringLiteral("everything__echo");
        QCOMPARE(McpTrust::policy(settings, tool), ApprovalPolicy::Ask);
        QVERIFY(!AgentSettings::read(settings).approval.contains(tool));
        McpTrust::allowAlways(settings, tool);
        QCOMPARE(AgentSettings::read(settings).approval.value(tool), ApprovalPolicy::Auto);
        QVERIFY(McpTrust::allowedAlwaysSince(settings, tool).isValid());
        McpTrust::takeBack(settings, tool);
        QCOMPARE(AgentSettings::read(settings).approval.value(tool), ApprovalPolicy::Ask);
        QVERIFY(!McpTrust::allowedAlwaysSince(settings, tool).isValid());
        McpTrust::setPolicy(settings, tool, ApprovalPolicy::Never);
        QCOMPARE(AgentSettings::read(Settings(dir.path())).approval.value(tool), ApprovalPolicy::Never);
        // The command line sets them too.
        QCOMPARE(settings.addOverride(QStringLiteral("approval/files__read_file=auto")), QString());
        QCOMPARE(AgentSettings::read(settings).approval.value(QStringLiteral("files__read_file")),
                 ApprovalPolicy::Auto);
        QCOMPARE(settings.mcpConfigFile(), dir.path() + QStringLiteral("/mcp.json"));
    }

    void findsOnlyItsOwnFilesInAStoredResult()
    {
        const McpResult result = McpResultReader::fromModelText(
            QStringLiteral("Echo\nImage shown to the user: mcp/a.png (image/png, 1 kB)\nImage shown to the user: "
                           "../../etc/passwd (x)\n"
                           "File saved for the user: mcp/b.txt (text/plain)\nImage shown to the user: /etc/passwd"));
        QCOMPARE(result.images, QStringList{QStringLiteral("mcp/a.png")});
        QCOMPARE(result.files.size(), 1);
        QCOMPARE(result.files.first().path, QStringLiteral("mcp/b.txt"));
    }
};

QTEST_GUILESS_MAIN(TestMcpConfig)
#include "tst_mcpconfig.moc"
