// The web tools inside the agent loop: the fake model searches, reads a result and cites it;
// and the settings that configure the tools.
#include "agentrecorder.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "fakewebserver.h"
#include "toolresults.h"

#include <agent/agentloop.h>
#include <session/agentsettings.h>
#include <settings/settings.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;
using Kind = AgentEvent::Kind;
using Recorder = Sandpiper::Test::AgentRecorder;

namespace {

QString arguments(const char *key, const QString &value)
{
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QLatin1String(key), value}}).toJson(QJsonDocument::Compact));
}

} // namespace

class TestWebAgent : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_llm;
    std::unique_ptr<FakeWebServer> m_web;

    AgentConfig config() const
    {
        AgentConfig c;
        c.provider.id = QStringLiteral("custom");
        c.provider.baseUrl = m_llm->baseUrl().toString();
        c.provider.model = QStringLiteral("test-model");
        c.systemPrompt = QStringLiteral("You are a test.");
        c.pythonEnabled = false;
        c.chartsEnabled = false;
        c.webEnabled = true;
        c.web.duckDuckGoUrl = m_web->url(QStringLiteral("/html/")).toString();
        c.web.allowLocal = true; // the "web" is the local server
        return c;
    }

private Q_SLOTS:
    void init()
    {
        m_llm = std::make_unique<FakeLlmServer>();
        QVERIFY(m_llm->listen());
        m_web = std::make_unique<FakeWebServer>();
        QVERIFY(m_web->listen());
    }

    void cleanup()
    {
        m_llm.reset();
        m_web.reset();
    }

    void searchesReadsAndCites()
    {
        // DuckDuckGo's real results page, its first result pointing at the local server.
        const QString article = m_web->url(QStringLiteral("/blog/qt-6.8-released")).toString();
        QByteArray results = FakeWebServer::fixture(QStringLiteral("duckduckgo-results.html"));
        results.replace("https%3A%2F%2Fwww.qt.io%2Fblog%2Fqt%2D6.8%2Dreleased", QUrl::toPercentEncoding(article));
        m_web->route("/html/", FakeWebResponse::html(results));
        const QByteArray page = "<html><head><title>Qt 6.8 Released</title><script>track()</script></head><body>"
                                "<nav>Products</nav><article><h1>Qt 6.8 Released</h1><p>Qt 6.8 is a long-term "
                                "support release.</p><ul><li>Qt Graphs</li><li>HTTP/2 settings</li></ul></article>"
                                "</body></html>";
        m_web->route("/blog/qt-6.8-released", FakeWebResponse::html(page));

        m_llm->enqueue(FS::openAiToolCalls({{QStringLiteral("call_search"), QStringLiteral("search_web"),
                                             arguments("query", QStringLiteral("qt 6.8 release"))}},
                                           3));
        m_llm->enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_fetch"), QStringLiteral("fetch_url"), arguments("url", article)}}, 3));
        m_llm->enqueue(FS::openAiText(QStringLiteral("Qt 6.8 is a long-term support release [1].")));

        AgentLoop loop(config());
        Recorder recorder(&loop);
        loop.send(QStringLiteral("What is new in Qt 6.8?"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.ofKind(Kind::TurnFinished).constFirst().end, AgentEvent::End::Completed);
        QCOMPARE(recorder.ofKind(Kind::ApprovalNeeded).size(), 0); // reading public pages needs no approval
        QCOMPARE(m_llm->requests().size(), 3);

        // Both tools were offered.
        QStringList offered;
        for (const QJsonValue &tool : m_llm->requests().constFirst().json().value(QLatin1String("tools")).toArray())
            offered << tool[QLatin1String("function")][QLatin1String("name")].toString();
        QCOMPARE(offered, (QStringList{QStringLiteral("search_web"), QStringLiteral("fetch_url")}));

        // The model read numbered results...
        const QString searchText = toolMessageIn(m_llm->requests().at(1), QStringLiteral("call_search"));
        QVERIFY2(searchText.startsWith(QStringLiteral("Search results for \"qt 6.8 release\" (DuckDuckGo):\n\n"
                                                      "[1] Qt 6.8 Released - Qt\n%1\nWe're happy to announce")
                                           .arg(article)),
                 qPrintable(searchText));
        QVERIFY(searchText.contains(QLatin1String("\n\n[2] What's New in Qt 6.8 | Qt 6.8\n")));
        QVERIFY(searchText.contains(QLatin1String("\n\n[3] Qt 6.8 LTS Released")));
        QVERIFY(
            searchText.endsWith(QLatin1String("Cite these sources by their numbers, like [1], right after what "
                                              "they support. To read a page in full, call fetch_url with its URL.")));

        // ...then the page's text, under the same number.
        const QString pageText = toolMessageIn(m_llm->requests().at(2), QStringLiteral("call_fetch"));
        QCOMPARE(pageText, QStringLiteral("Status: ok (HTTP 200 OK, text/html, %1 bytes)\n"
                                          "URL: %2\n"
                                          "Title: Qt 6.8 Released\n"
                                          "Cite this page as [1].\n"
                                          "\n"
                                          "# Qt 6.8 Released\n"
                                          "\n"
                                          "Qt 6.8 is a long-term support release.\n"
                                          "\n"
                                          "- Qt Graphs\n"
                                          "- HTTP/2 settings")
                               .arg(page.size())
                               .arg(article));

        // The front ends get the sources as data for cards.
        const auto finished = recorder.ofKind(Kind::ToolFinished);
        QCOMPARE(finished.size(), 2);
        QCOMPARE(webOf(finished[0]).sources.size(), 3);
        QCOMPARE(webOf(finished[0]).sources[0],
                 (WebSource{1, QStringLiteral("Qt 6.8 Released - Qt"), article, webOf(finished[0]).sources[0].snippet,
                            QStringLiteral("2024-10-08")}));
        QCOMPARE(webOf(finished[1]).sources.size(), 1);
        QCOMPARE(webOf(finished[1]).sources[0].number, 1);
        QCOMPARE(webOf(finished[1]).sources[0].title, QStringLiteral("Qt 6.8 Released"));
        QVERIFY(webOf(finished[0]).userNote.isEmpty());

        QString answer;
        for (const AgentEvent &e : recorder.ofKind(Kind::TextDelta))
            answer += e.text;
        QCOMPARE(answer, QStringLiteral("Qt 6.8 is a long-term support release [1]."));

        QCOMPARE(m_web->requests().size(), 2);
        QCOMPARE(m_web->requests()[0].method, QByteArray("POST"));
        QCOMPARE(m_web->requests()[1].path, QByteArray("/blog/qt-6.8-released"));
    }

    void aRefusedFetchReachesTheModelAndTheUser()
    {
        m_llm->enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_fetch"), QStringLiteral("fetch_url"),
              arguments("url", QStringLiteral("http://169.254.169.254/latest/meta-data/iam/security-credentials/"))}},
            2));
        m_llm->enqueue(FS::openAiText(QStringLiteral("I cannot read that address.")));
        AgentLoop loop(config());
        Recorder recorder(&loop);
        loop.send(QStringLiteral("read the metadata"));
        QVERIFY(recorder.waitForTurn());
        const QString toolText = toolMessageIn(m_llm->requests().at(1), QStringLiteral("call_fetch"));
        QVERIFY2(toolText.startsWith(QLatin1String("Status: refused: 169.254.169.254 is a cloud metadata address.")),
                 qPrintable(toolText));
        const AgentEvent finished = recorder.ofKind(Kind::ToolFinished).constFirst();
        QVERIFY(webOf(finished).userNote.startsWith(QLatin1String("169.254.169.254 is a cloud metadata address.")));
        QVERIFY(webOf(finished).sources.isEmpty());
        QCOMPARE(m_web->connectionCount(), 0);
    }

    void approvalCanBeRequiredPerTool()
    {
        m_llm->enqueue(FS::openAiToolCalls({{QStringLiteral("call_fetch"), QStringLiteral("fetch_url"),
                                             arguments("url", QStringLiteral("https://example.org/"))}},
                                           2));
        m_llm->enqueue(FS::openAiText(QStringLiteral("OK.")));
        AgentConfig c = config();
        c.approval.insert(QStringLiteral("fetch_url"), ApprovalPolicy::Ask);
        AgentLoop loop(c);
        Recorder recorder(&loop);
        recorder.onEvent = [&loop](const AgentEvent &e) {
            if (e.kind == Kind::ApprovalNeeded)
                loop.deny(e.key, QStringLiteral("not now"));
        };
        loop.send(QStringLiteral("read example.org"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.ofKind(Kind::ApprovalNeeded).constFirst().preview, QStringLiteral("https://example.org/"));
        QCOMPARE(toolMessageIn(m_llm->requests().at(1), QStringLiteral("call_fetch")),
                 QStringLiteral("Not run: the user declined to run this. Their reason: not now"));
    }

    void turnedOffMeansNotOffered()
    {
        m_llm->enqueue(FS::openAiText(QStringLiteral("hi")));
        AgentConfig c = config();
        c.webEnabled = false;
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hi"));
        QVERIFY(recorder.waitForTurn());
        QVERIFY(!m_llm->requests().constFirst().json().contains(QLatin1String("tools")));
    }

    void settingsConfigureTheTools()
    {
        QTemporaryDir profile;
        Settings defaults(profile.path());
        const AgentConfig standard = AgentSettings::read(defaults);
        QVERIFY(standard.webEnabled);
        QCOMPARE(standard.web.searchBackend, QStringLiteral("duckduckgo"));
        QCOMPARE(standard.web.duckDuckGoUrl, QStringLiteral("https://html.duckduckgo.com/html/"));
        QCOMPARE(standard.web.braveUrl, QStringLiteral("https://api.search.brave.com/res/v1/web/search"));
        QCOMPARE(standard.web.tavilyUrl, QStringLiteral("https://api.tavily.com/search"));
        QCOMPARE(standard.web.maxResults, 5);
        QVERIFY(!standard.web.allowLocal);
        QCOMPARE(standard.web.maxBytes, qint64(2 * 1024 * 1024));
        QCOMPARE(standard.web.fetchTimeout, std::chrono::milliseconds(30s));
        QCOMPARE(standard.approval.value(QStringLiteral("search_web")), ApprovalPolicy::Auto);
        QCOMPARE(standard.approval.value(QStringLiteral("fetch_url")), ApprovalPolicy::Auto);

        Settings overridden(profile.path());
        for (const char *assignment :
             {"search/backend=SearXNG", "search/searxng_url=http://localhost:8888", "search/max_results=8",
              "network/allow_local=true", "fetch/max_bytes=1048576", "fetch/timeout_seconds=12",
              "approval/fetch_url=ask", "search/brave_url=http://127.0.0.1:9/b"})
            QCOMPARE(overridden.addOverride(QLatin1String(assignment)), QString());
        const AgentConfig custom = AgentSettings::read(overridden);
        QCOMPARE(custom.web.searchBackend, QStringLiteral("searxng"));
        QCOMPARE(custom.web.searxngUrl, QStringLiteral("http://localhost:8888"));
        QCOMPARE(custom.web.maxResults, 8);
        QVERIFY(custom.web.allowLocal);
        QCOMPARE(custom.web.maxBytes, qint64(1048576));
        QCOMPARE(custom.web.fetchTimeout, std::chrono::milliseconds(12s));
        QCOMPARE(custom.web.braveUrl, QStringLiteral("http://127.0.0.1:9/b"));
        QCOMPARE(custom.approval.value(QStringLiteral("fetch_url")), ApprovalPolicy::Ask);

        QCOMPARE(overridden.addOverride(QStringLiteral("web/enabled=false")), QString());
        QVERIFY(!AgentSettings::read(overridden).webEnabled);
        QVERIFY(!overridden.addOverride(QStringLiteral("network/allow_local=maybe")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWebAgent)
#include "tst_webagent.moc"
