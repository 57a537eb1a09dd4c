// What an MCP server offers, read without a server: the requests the catalog sends are answered
// here, page by page, with the mistakes servers make (tools without a name, a bad schema, a name
// twice, a failed listing, a change announced while the list is read).
#include <mcp/mcpcatalog.h>

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace Sandpiper;

namespace {

struct Sent {
    QString method;
    QJsonObject params;
    McpCatalog::Reply reply;
};

McpReply result(const QJsonObject &result)
{
    return McpReply{McpReply::Kind::Result, result, 0, {}};
}

McpReply error(const QString &message)
{
    return McpReply{McpReply::Kind::Error, {}, -32603, message};
}

QJsonObject tool(const QString &name,
                 const QJsonValue &schema = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}})
{
    return {{QStringLiteral("name"), name},
            {QStringLiteral("description"), QString(name + QStringLiteral(" it"))},
            {QStringLiteral("inputSchema"), schema}};
}

QJsonObject page(const QString &key, const QJsonArray &items, const QString &next = {})
{
    QJsonObject page{{key, items}};
    if (!next.isEmpty())
        page.insert(QStringLiteral("nextCursor"), next);
    return page;
}

const QJsonObject both{{QStringLiteral("tools"), QJsonObject()}, {QStringLiteral("prompts"), QJsonObject()}};

} // namespace

class TestMcpCatalog : public QObject
{
    Q_OBJECT

private:
    QList<Sent> m_sent;

    McpCatalog *catalog()
    {
        m_sent.clear();
        return new McpCatalog(
            QStringLiteral("files"),
            [this](const QString &method, const QJsonObject &params, McpCatalog::Reply reply) {
                m_sent << Sent{method, params, std::move(reply)};
            },
            this);
    }

    // Answers the oldest request not answered yet, which must be METHOD.
    void answer(const QString &method, const McpReply &reply)
    {
        QVERIFY(!m_sent.isEmpty());
        const Sent sent = m_sent.takeFirst();
        QCOMPARE(sent.method, method);
        sent.reply(reply);
    }

private Q_SLOTS:
    void listsToolsAndPromptsPageByPage()
    {
        McpCatalog *c = catalog();
        QSignalSpy listed(c, &McpCatalog::listed);
        QSignalSpy problems(c, &McpCatalog::problem);
        c->list(both);
        QCOMPARE(m_sent.size(), 1);
        QVERIFY(!m_sent.first().params.contains(QStringLiteral("cursor")));
        QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")},
                           {QStringLiteral("$schema"), QStringLiteral("https://json-schema.org/draft/2020-12/schema")}};
        answer(QStringLiteral("tools/list"),
               result(page(QStringLiteral("tools"), {tool(QStringLiteral("read"), schema)}, QStringLiteral("p2"))));
        QCOMPARE(m_sent.first().params.value(QStringLiteral("cursor")).toString(), QStringLiteral("p2"));
        answer(QStringLiteral("tools/list"), result(page(QStringLiteral("tools"), {tool(QStringLiteral("write"))})));
        QCOMPARE(listed.count(), 0); // the prompts first
        const QJsonObject prompt{{QStringLiteral("name"), QStringLiteral("summarise")},
                                 {QStringLiteral("title"), QStringLiteral("Summarise")},
                                 {QStringLiteral("arguments"),
                                  QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("file")},
                                                         {QStringLiteral("required"), true}},
                                             QJsonObject{{QStringLiteral("description"), QStringLiteral("no name")}}}}};
        answer(QStringLiteral("prompts/list"),
               result(page(QStringLiteral("prompts"),
                           {prompt, QJsonObject{{QStringLiteral("title"), QStringLiteral("x")}}})));
        QCOMPARE(listed.count(), 1);
        QCOMPARE(problems.count(), 0);
        QCOMPARE(c->tools().size(), 2);
        const McpToolInfo &read = c->tools().first();
        QCOMPARE(read.server, QStringLiteral("files"));
        QCOMPARE(read.name, QStringLiteral("read"));
        QCOMPARE(read.exposedName, QStringLiteral("files__read"));
        QCOMPARE(read.description, QStringLiteral("read it"));
        QVERIFY(!read.inputSchema.contains(QStringLiteral("$schema")));
        QCOMPARE(c->prompts().size(), 1);
        QCOMPARE(c->prompts().first().title, QStringLiteral("Summarise"));
        QCOMPARE(c->prompts().first().arguments,
                 QList<McpPromptArgument>{(McpPromptArgument{QStringLiteral("file"), QString(), true})});
    }

    void leavesOutToolsTheModelCannotUse()
    {
        QSet<QString> seen{QStringLiteral("taken")};
        QStringList problems;
        const QList<McpToolInfo> tools = McpCatalog::readTools(
            QStringLiteral("s"),
            {tool(QString()),
             tool(QStringLiteral("arrayed"), QJsonObject{{QStringLiteral("type"), QStringLiteral("array")}}),
             tool(QStringLiteral("stringy"), QStringLiteral("object")), QStringLiteral("not a tool"),
             tool(QStringLiteral("taken")), tool(QStringLiteral("fine")), tool(QStringLiteral("fine"))},
            &seen, &problems);
        QCOMPARE(tools.size(), 1);
        QCOMPARE(tools.first().name, QStringLiteral("fine"));
        QVERIFY(seen.contains(QStringLiteral("fine")));
        QCOMPARE(problems.size(), 6);
        QVERIFY(problems.at(0).contains(QStringLiteral("without a name")));
        QVERIFY(problems.at(1).contains(QStringLiteral("\"arrayed\" has an invalid input schema")));
        QVERIFY(problems.at(2).contains(QStringLiteral("\"stringy\" has an invalid input schema")));
        QVERIFY(problems.at(4).contains(QStringLiteral("\"taken\" twice")));
        QVERIFY(problems.at(5).contains(QStringLiteral("\"fine\" twice")));
    }

    void aServerWithNothingToListIsListedAtOnce()
    {
        McpCatalog *c = catalog();
        QSignalSpy listed(c, &McpCatalog::listed);
        c->list({});
        QCOMPARE(listed.count(), 1);
        QVERIFY(m_sent.isEmpty());
        // Prompts it did not announce are not asked for when it says they changed.
        c->promptsChanged(true);
        QVERIFY(m_sent.isEmpty());
    }

    void failsOnlyWhenTheToolsCannotBeListed_data()
    {
        QTest::addColumn<bool>("toolsFail");
        QTest::addColumn<QString>("failure");
        QTest::addColumn<QString>("problem");
        QTest::newRow("tools") << true << QStringLiteral("It did not list its tools: nope") << QString();
        // Prompts are a convenience: a server whose list fails still serves its tools.
        QTest::newRow("prompts") << false << QString() << QStringLiteral("It did not list its prompts: nope");
    }

    void failsOnlyWhenTheToolsCannotBeListed()
    {
        QFETCH(bool, toolsFail);
        QFETCH(QString, failure);
        QFETCH(QString, problem);
        McpCatalog *c = catalog();
        QSignalSpy listed(c, &McpCatalog::listed);
        QSignalSpy failed(c, &McpCatalog::failed);
        QSignalSpy problems(c, &McpCatalog::problem);
        c->list(both);
        if (toolsFail) {
            answer(QStringLiteral("tools/list"), error(QStringLiteral("nope")));
        } else {
            answer(QStringLiteral("tools/list"), result(page(QStringLiteral("tools"), {tool(QStringLiteral("a"))})));
            answer(QStringLiteral("prompts/list"), error(QStringLiteral("nope")));
        }
        QVERIFY(m_sent.isEmpty());
        QCOMPARE(listed.count(), toolsFail ? 0 : 1);
        QCOMPARE(failed.isEmpty() ? QString() : failed.first().first().toString(), failure);
        QCOMPARE(problems.isEmpty() ? QString() : problems.first().first().toString(), problem);
        QCOMPARE(c->tools().size(), toolsFail ? 0 : 1);
        QVERIFY(c->prompts().isEmpty());
    }

    void stopsAServerThatPagesForever()
    {
        McpCatalog *c = catalog();
        QSignalSpy listed(c, &McpCatalog::listed);
        c->list(QJsonObject{{QStringLiteral("tools"), QJsonObject()}});
        int pages = 0;
        while (!m_sent.isEmpty() && pages < 1000) {
            answer(QStringLiteral("tools/list"),
                   result(page(QStringLiteral("tools"), {tool(QStringLiteral("t%1").arg(pages))},
                               QStringLiteral("more"))));
            ++pages;
        }
        QCOMPARE(pages, 100);
        QCOMPARE(listed.count(), 1);
        QCOMPARE(c->tools().size(), 100);
    }

    void readsTheToolsAgainWhenTheyChange()
    {
        McpCatalog *c = catalog();
        QSignalSpy changed(c, &McpCatalog::changed);
        QSignalSpy problems(c, &McpCatalog::problem);
        c->list(QJsonObject{{QStringLiteral("tools"), QJsonObject()}});
        // Announced while the first list is read: read again once the server runs.
        c->toolsChanged(false);
        answer(QStringLiteral("tools/list"), result(page(QStringLiteral("tools"), {tool(QStringLiteral("a"))})));
        QVERIFY(m_sent.isEmpty());
        c->refreshIfChanged();
        answer(QStringLiteral("tools/list"),
               result(page(QStringLiteral("tools"), {tool(QStringLiteral("a")), tool(QStringLiteral("b"))})));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(c->tools().size(), 2);
        // A change before the server runs and with no listing under way is not read.
        c->toolsChanged(false);
        QVERIFY(m_sent.isEmpty());
        // Once it runs: at once; a failure is only a problem now.
        c->toolsChanged(true);
        answer(QStringLiteral("tools/list"), error(QStringLiteral("busy")));
        QCOMPARE(problems.count(), 1);
        QCOMPARE(problems.first().first().toString(), QStringLiteral("It did not list its tools again: busy"));
        QCOMPARE(c->tools().size(), 2);
        // Cleared for a new start.
        c->clear();
        QVERIFY(c->tools().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestMcpCatalog)
#include "tst_mcpcatalog.moc"
