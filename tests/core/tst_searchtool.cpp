// search_web against local servers that answer in each backend's real format.
#include "fakewebserver.h"
#include "toolresults.h"

#include <tools/citationindex.h>
#include <tools/duckduckgobackend.h>
#include <tools/searchtool.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTest>
#include <QUrlQuery>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;

namespace {

const QByteArray braveKey = "BSA-test-key-do-not-leak";
const QByteArray tavilyKey = "tvly-test-key-do-not-leak";

} // namespace

class TestSearchTool : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeWebServer> m_web;

    WebConfig config(const QString &backend) const
    {
        WebConfig c;
        c.searchBackend = backend;
        c.duckDuckGoUrl = m_web->url(QStringLiteral("/html/")).toString();
        c.searxngUrl = m_web->url(QStringLiteral("/searxng/")).toString();
        c.braveUrl = m_web->url(QStringLiteral("/res/v1/web/search")).toString();
        c.tavilyUrl = m_web->url(QStringLiteral("/search")).toString();
        c.connectTimeout = 2s;
        c.searchTimeout = 5s;
        return c;
    }

    static QString json(const QJsonObject &object)
    {
        return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    }

    static ToolOutcome search(SearchTool &tool, const QString &arguments)
    {
        const PreparedCall prepared = tool.prepare({QStringLiteral("call_1"), SearchTool::toolName(), arguments});
        if (!prepared.ok()) {
            ToolOutcome failed;
            failed.modelText = QStringLiteral("prepare failed: ") + prepared.error;
            return failed;
        }
        return QCoro::waitFor(tool.run(prepared));
    }

    ToolOutcome search(const WebConfig &c, const QString &arguments)
    {
        SearchTool tool(c, std::make_shared<CitationIndex>());
        return search(tool, arguments);
    }

    static void verifyNoKeyLeaks(const ToolOutcome &outcome)
    {
        for (const QByteArray &key : {braveKey, tavilyKey}) {
            QVERIFY(!outcome.modelText.contains(QString::fromLatin1(key)));
            QVERIFY(!webOf(outcome).userNote.contains(QString::fromLatin1(key)));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("BRAVE_API_KEY", braveKey);
        qputenv("TAVILY_API_KEY", tavilyKey);
    }

    void init()
    {
        m_web = std::make_unique<FakeWebServer>();
        QVERIFY(m_web->listen());
    }

    void cleanup() { m_web.reset(); }

    void duckDuckGoResultsAreNumberedForCitation()
    {
        m_web->route("/html/",
                     FakeWebResponse::html(FakeWebServer::fixture(QStringLiteral("duckduckgo-results.html"))));
        const ToolOutcome outcome =
            search(config(QStringLiteral("duckduckgo")), QStringLiteral("{\"query\": \"qt 6.8 release\"}"));
        QVERIFY(outcome.success);
        QCOMPARE(outcome.modelText,
                 QStringLiteral(
                     "Search results for \"qt 6.8 release\" (DuckDuckGo):\n"
                     "\n"
                     "[1] Qt 6.8 Released - Qt\n"
                     "https://www.qt.io/blog/qt-6.8-released\n"
                     "We're happy to announce the release of Qt 6.8 LTS, with new features for embedded, desktop & "
                     "mobile developers. (2024-10-08)\n"
                     "\n"
                     "[2] What's New in Qt 6.8 | Qt 6.8\n"
                     "https://doc.qt.io/qt-6/whatsnew68.html?section=network&lang=en\n"
                     "Qt 6.8 adds QRestAccessManager improvements, HTTP/2 settings and a new Qt Graphs module.\n"
                     "\n"
                     "[3] Qt 6.8 LTS Released With Many Improvements - Phoronix\n"
                     "https://www.phoronix.com/news/Qt-6.8-Released\n"
                     "The Qt Company has released Qt 6.8 as the newest long-term support release… (2024-10-08)\n"
                     "\n"
                     "Cite these sources by their numbers, like [1], right after what they support. To read a page in "
                     "full, call fetch_url with its URL."));
        QCOMPARE(webOf(outcome).sources.size(), 3);
        QCOMPARE(webOf(outcome).sources[0].number, 1);
        QCOMPARE(webOf(outcome).sources[0].title, QStringLiteral("Qt 6.8 Released - Qt"));
        QCOMPARE(webOf(outcome).sources[0].url, QStringLiteral("https://www.qt.io/blog/qt-6.8-released"));
        QCOMPARE(webOf(outcome).sources[0].date, QStringLiteral("2024-10-08"));
        QCOMPARE(webOf(outcome).sources[1].date, QString());

        // The form a browser sends, with Sandpiper's name and no cookies.
        QCOMPARE(m_web->requests().size(), 1);
        const FakeWebRequest request = m_web->requests().constFirst();
        QCOMPARE(request.method, QByteArray("POST"));
        QCOMPARE(request.path, QByteArray("/html/"));
        QCOMPARE(request.body, QByteArray("q=qt%206.8%20release&b="));
        QCOMPARE(request.headers.value("content-type"), QByteArray("application/x-www-form-urlencoded"));
        QVERIFY(request.headers.value("user-agent").startsWith("Sandpiper/"));
        QVERIFY(!request.headers.contains("cookie"));
    }

    void maxResultsIsHonoured()
    {
        m_web->route("/html/",
                     FakeWebResponse::html(FakeWebServer::fixture(QStringLiteral("duckduckgo-results.html"))));
        const ToolOutcome outcome = search(config(QStringLiteral("duckduckgo")),
                                           QStringLiteral("{\"query\": \"qt 6.8 release\", \"max_results\": 2}"));
        QCOMPARE(webOf(outcome).sources.size(), 2);
        QVERIFY(!outcome.modelText.contains(QLatin1String("[3]")));
    }

    void duckDuckGoResultLinks_data()
    {
        QTest::addColumn<QString>("href");
        QTest::addColumn<QString>("url");
        QTest::newRow("redirect") << "//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1%26c%3D2&rut=abc"
                                  << "https://example.org/a?b=1&c=2";
        QTest::newRow("redirect with scheme") << "https://duckduckgo.com/l/?uddg=http%3A%2F%2Fexample.org%2F&rut=x"
                                              << "http://example.org/";
        QTest::newRow("relative redirect") << "/l/?uddg=https%3A%2F%2Fexample.org%2F"
                                           << "https://example.org/";
        QTest::newRow("direct") << "https://example.org/page"
                                << "https://example.org/page";
        QTest::newRow("ad") << "https://duckduckgo.com/y.js?ad_domain=x.com&u3=https%3A%2F%2Fbing.com"
                            << "";
    }

    void duckDuckGoResultLinks()
    {
        QFETCH(QString, href);
        QFETCH(QString, url);
        QCOMPARE(DuckDuckGoBackend::resultUrl(href), url);
    }

    void searxngResults()
    {
        m_web->route("/searxng/search",
                     FakeWebResponse::json(FakeWebServer::fixture(QStringLiteral("searxng-results.json"))));
        const ToolOutcome outcome =
            search(config(QStringLiteral("searxng")), QStringLiteral("{\"query\": \"sandpiper migration\"}"));
        QVERIFY2(outcome.success, qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.startsWith(
            QLatin1String("Search results for \"sandpiper migration\" (SearXNG):\n\n"
                          "[1] Sandpiper - Wikipedia\nhttps://en.wikipedia.org/wiki/Sandpiper\n"
                          "Sandpipers are a large family")));
        QVERIFY(
            outcome.modelText.contains(QLatin1String("up to 3,000 miles in three days. (2024-05-03)\n\n[3] Western")));
        QVERIFY(outcome.modelText.contains(QLatin1String("along the Pacific coast & in Alaska.")));
        const FakeWebRequest request = m_web->requests().constFirst();
        QCOMPARE(request.method, QByteArray("GET"));
        const QUrlQuery query(QString::fromUtf8(request.target.mid(request.target.indexOf('?') + 1)));
        QCOMPARE(query.queryItemValue(QStringLiteral("q"), QUrl::FullyDecoded), QStringLiteral("sandpiper migration"));
        QCOMPARE(query.queryItemValue(QStringLiteral("format")), QStringLiteral("json"));
    }

    void braveResults()
    {
        m_web->route("/res/v1/web/search",
                     FakeWebResponse::json(FakeWebServer::fixture(QStringLiteral("brave-results.json"))));
        const ToolOutcome outcome = search(config(QStringLiteral("brave")),
                                           QStringLiteral("{\"query\": \"sandpiper migration\", \"max_results\": 3}"));
        QVERIFY2(outcome.success, qPrintable(outcome.modelText));
        QCOMPARE(webOf(outcome).sources.size(), 3);
        QCOMPARE(webOf(outcome).sources[0].snippet,
                 QStringLiteral("Sandpipers are a large family, Scolopacidae, of waders. They include many species "
                                "called sandpipers, as well as curlews & snipes."));
        QCOMPARE(webOf(outcome).sources[0].date, QStringLiteral("2024-09-12"));
        QCOMPARE(webOf(outcome).sources[1].date, QStringLiteral("3 days ago"));
        QCOMPARE(webOf(outcome).sources[2].date, QString());
        QVERIFY(outcome.modelText.contains(
            QLatin1String("[2] Shorebird Migration: Nonstop Flights | Audubon\n"
                          "https://www.audubon.org/news/the-incredible-journeys-of-shorebirds\n"
                          "Semipalmated Sandpipers fly nonstop up to 3,000 miles. (3 days ago)")));
        const FakeWebRequest request = m_web->requests().constFirst();
        QCOMPARE(request.headers.value("x-subscription-token"), braveKey);
        QCOMPARE(request.headers.value("accept"), QByteArray("application/json"));
        QVERIFY(request.target.contains("count=3"));
        verifyNoKeyLeaks(outcome);
    }

    void tavilyResults()
    {
        m_web->route("/search", FakeWebResponse::json(FakeWebServer::fixture(QStringLiteral("tavily-results.json"))));
        const ToolOutcome outcome =
            search(config(QStringLiteral("tavily")), QStringLiteral("{\"query\": \"sandpiper migration\"}"));
        QVERIFY2(outcome.success, qPrintable(outcome.modelText));
        QCOMPARE(webOf(outcome).sources.size(), 2);
        // Tavily's long contents are cut at a word, with a mark.
        QVERIFY(webOf(outcome).sources[0].snippet.size() <= 402);
        QVERIFY(webOf(outcome).sources[0].snippet.endsWith(QStringLiteral(" …")));
        QCOMPARE(webOf(outcome).sources[1].date, QStringLiteral("2024-05-06"));
        const FakeWebRequest request = m_web->requests().constFirst();
        QCOMPARE(request.method, QByteArray("POST"));
        QCOMPARE(request.headers.value("authorization"), QByteArray("Bearer ") + tavilyKey);
        const QJsonObject body = QJsonDocument::fromJson(request.body).object();
        QCOMPARE(body.value(QLatin1String("query")).toString(), QStringLiteral("sandpiper migration"));
        QCOMPARE(body.value(QLatin1String("max_results")).toInt(), 5);
        QVERIFY(!request.body.contains(tavilyKey));
        verifyNoKeyLeaks(outcome);
    }

    void emptyResults_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("expected");
        QTest::newRow("duckduckgo") << "duckduckgo" << QByteArray("/html/") << "duckduckgo-no-results.html"
                                    << "No results for \"xqzvwjkpl\" (DuckDuckGo). Try fewer or different words.";
        QTest::newRow("searxng")
            << "searxng" << QByteArray("/searxng/search") << "searxng-empty.json"
            << "No results for \"xqzvwjkpl\" (SearXNG). These search engines did not answer "
               "SearXNG: brave (too many requests), google (CAPTCHA). Try fewer or different words.";
        QTest::newRow("brave") << "brave" << QByteArray("/res/v1/web/search") << "brave-no-web.json"
                               << "No results for \"xqzvwjkpl\" (Brave Search). Try fewer or different words.";
    }

    void emptyResults()
    {
        QFETCH(QString, backend);
        QFETCH(QByteArray, path);
        QFETCH(QString, fixture);
        QFETCH(QString, expected);
        const QByteArray body = FakeWebServer::fixture(fixture);
        m_web->route(path, fixture.endsWith(QLatin1String(".json")) ? FakeWebResponse::json(body)
                                                                    : FakeWebResponse::html(body));
        const ToolOutcome outcome = search(config(backend), QStringLiteral("xqzvwjkpl"));
        QVERIFY(outcome.success);
        QCOMPARE(outcome.modelText, expected);
        QVERIFY(webOf(outcome).sources.isEmpty());
    }

    void failuresExplainThemselves_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("advice");

        const auto fixture = [](const char *name) {
            return FakeWebServer::fixture(QLatin1String(name));
        };
        QTest::newRow("duckduckgo bot check")
            << "duckduckgo" << QByteArray("/html/") << 202 << fixture("duckduckgo-anomaly.html")
            << "DuckDuckGo showed a bot check (a captcha) instead of results"
            << "another search backend";
        QTest::newRow("duckduckgo layout changed")
            << "duckduckgo" << QByteArray("/html/") << 200 << fixture("duckduckgo-changed.html")
            << "The results page could not be read"
            << "Searching again will not help";
        QTest::newRow("duckduckgo 500") << "duckduckgo" << QByteArray("/html/") << 500
                                        << QByteArray("<html><body><h1>500 Internal Server Error</h1></body></html>")
                                        << "DuckDuckGo answered with an error (HTTP 500: 500 Internal Server Error)."
                                        << "try once more later";
        QTest::newRow("searxng json disabled")
            << "searxng" << QByteArray("/searxng/search") << 403 << QByteArray("<html><body>Forbidden</body></html>")
            << "The SearXNG instance refused the JSON API (HTTP 403)."
            << "search.formats";
        QTest::newRow("searxng not json")
            << "searxng" << QByteArray("/searxng/search") << 200
            << QByteArray("<!DOCTYPE html><html><body>SearXNG</body></html>") << "SearXNG's answer could not be read"
            << "search/searxng_url";
        QTest::newRow("searxng limiter") << "searxng" << QByteArray("/searxng/search") << 429
                                         << QByteArray("Too Many Requests")
                                         << "SearXNG is rate limiting searches (HTTP 429: Too Many Requests)."
                                         << "Do not search again right away";
        QTest::newRow("brave bad key") << "brave" << QByteArray("/res/v1/web/search") << 401
                                       << fixture("brave-error-401.json")
                                       << "Brave Search refused the API key (HTTP 401: The provided subscription token "
                                          "is invalid.)."
                                       << "BRAVE_API_KEY";
        QTest::newRow("brave bad key as 422")
            << "brave" << QByteArray("/res/v1/web/search") << 422
            << QByteArray(fixture("brave-error-401.json")).replace("\"status\": 401", "\"status\": 422")
            << "Brave Search refused the API key (HTTP 422: The provided subscription token is invalid.)."
            << "keychain entry \"brave\"";
        QTest::newRow("brave rate limit")
            << "brave" << QByteArray("/res/v1/web/search") << 429 << fixture("brave-error-429.json")
            << "Brave Search is rate limiting searches (HTTP 429: Request rate limit "
               "exceeded for plan.). It asks to wait 2 s."
            << "Do not search again right away";
        QTest::newRow("brave not json") << "brave" << QByteArray("/res/v1/web/search") << 200
                                        << QByteArray("{\"web\": ") << "Brave Search's answer could not be read"
                                        << "search/brave_url";
        QTest::newRow("tavily bad key") << "tavily" << QByteArray("/search") << 401 << fixture("tavily-error-401.json")
                                        << "Tavily refused the request (HTTP 401: Unauthorized: missing or invalid "
                                           "API key.)."
                                        << "TAVILY_API_KEY";
        QTest::newRow("tavily server error") << "tavily" << QByteArray("/search") << 502
                                             << QByteArray("<html><head><title>502 Bad Gateway</title></head><body>"
                                                           "<center><h1>502 Bad Gateway</h1></center><hr><center>nginx"
                                                           "</center></body></html>")
                                             << "Tavily answered with an error (HTTP 502: 502 Bad Gateway 502 Bad "
                                                "Gateway nginx)."
                                             << "The service has a problem";
        QTest::newRow("tavily invalid json") << "tavily" << QByteArray("/search") << 200
                                             << QByteArray("{\"results\": [") << "Tavily's answer could not be read"
                                             << "search/tavily_url";
    }

    void failuresExplainThemselves()
    {
        QFETCH(QString, backend);
        QFETCH(QByteArray, path);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QString, what);
        QFETCH(QString, advice);
        FakeWebResponse response =
            body.startsWith('{') ? FakeWebResponse::json(body, status) : FakeWebResponse::html(body);
        response.status = status;
        if (status == 429)
            response.headers.emplaceBack("Retry-After", "2");
        m_web->route(path, response);
        const ToolOutcome outcome = search(config(backend), QStringLiteral("{\"query\": \"qt 6.8 release\"}"));
        QVERIFY(!outcome.success);
        QVERIFY2(outcome.modelText.startsWith(QStringLiteral("Status: search failed: ") + what),
                 qPrintable(outcome.modelText));
        QVERIFY2(outcome.modelText.contains(advice), qPrintable(outcome.modelText));
        QVERIFY(webOf(outcome).userNote.startsWith(what));
        QVERIFY(webOf(outcome).sources.isEmpty());
        verifyNoKeyLeaks(outcome);
    }

    void aSlowServiceTimesOut()
    {
        FakeWebResponse slow = FakeWebResponse::json(FakeWebServer::fixture(QStringLiteral("searxng-results.json")));
        slow.delay = 3s;
        m_web->route("/searxng/search", slow);
        WebConfig c = config(QStringLiteral("searxng"));
        c.connectTimeout = 300ms;
        QElapsedTimer timer;
        timer.start();
        const ToolOutcome outcome = search(c, QStringLiteral("sandpipers"));
        QVERIFY(timer.elapsed() < 2000);
        QVERIFY2(outcome.modelText.startsWith(QLatin1String("Status: search failed: SearXNG did not answer in time:")),
                 qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.contains(QLatin1String("Try again once")));
    }

    void anUnreachableServiceIsReported()
    {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close();
        WebConfig c = config(QStringLiteral("searxng"));
        c.searxngUrl = QStringLiteral("http://127.0.0.1:%1").arg(port);
        const ToolOutcome outcome = search(c, QStringLiteral("sandpipers"));
        QVERIFY2(outcome.modelText.startsWith(QLatin1String("Status: search failed: SearXNG could not be reached: "
                                                            "127.0.0.1:")),
                 qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.contains(QLatin1String("refused the connection")));
    }

    void missingConfigurationIsExplained_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("what");
        QTest::newRow("searxng without url") << "searxng"
                                             << "no SearXNG address is configured";
        QTest::newRow("brave without key") << "brave"
                                           << "no Brave API key is configured";
        QTest::newRow("tavily without key") << "tavily"
                                            << "no Tavily API key is configured";
        QTest::newRow("unknown backend") << "altavista"
                                         << "unknown search backend (\"altavista\"";
    }

    void missingConfigurationIsExplained()
    {
        QFETCH(QString, backend);
        QFETCH(QString, what);
        // Set but empty: the key store takes the variable's word for it and asks no keychain.
        qputenv("BRAVE_API_KEY", "");
        qputenv("TAVILY_API_KEY", "");
        WebConfig c = config(backend);
        c.searxngUrl.clear();
        const ToolOutcome outcome = search(c, QStringLiteral("sandpipers"));
        qputenv("BRAVE_API_KEY", braveKey);
        qputenv("TAVILY_API_KEY", tavilyKey);
        QVERIFY2(outcome.modelText.contains(what), qPrintable(outcome.modelText));
        QVERIFY(!webOf(outcome).userNote.isEmpty());
        QCOMPARE(m_web->requests().size(), 0);
    }

    void numbersContinueAcrossSearches()
    {
        m_web->route("/searxng/search",
                     FakeWebResponse::json(FakeWebServer::fixture(QStringLiteral("searxng-results.json"))));
        SearchTool tool(config(QStringLiteral("searxng")), std::make_shared<CitationIndex>());
        const ToolOutcome first = search(tool, QStringLiteral("sandpipers"));
        QCOMPARE(webOf(first).sources.size(), 3);
        const QJsonObject second{
            {QStringLiteral("query"), QStringLiteral("knots")},
            {QStringLiteral("results"),
             QJsonArray{QJsonObject{{QStringLiteral("url"), QStringLiteral("https://en.wikipedia.org/wiki/Red_knot")},
                                    {QStringLiteral("title"), QStringLiteral("Red knot - Wikipedia")},
                                    {QStringLiteral("content"), QStringLiteral("A medium-sized shorebird.")}},
                        QJsonObject{{QStringLiteral("url"), QStringLiteral("https://en.wikipedia.org/wiki/Sandpiper")},
                                    {QStringLiteral("title"), QStringLiteral("Sandpiper - Wikipedia")},
                                    {QStringLiteral("content"), QStringLiteral("Waders.")}}}}};
        m_web->route("/searxng/search", FakeWebResponse::json(QJsonDocument(second).toJson()));
        const ToolOutcome next = search(tool, QStringLiteral("knots"));
        QCOMPARE(webOf(next).sources.size(), 2);
        QCOMPARE(webOf(next).sources[0].number, 4);
        QCOMPARE(webOf(next).sources[1].number, 1); // seen before: keeps its number
        QVERIFY(next.modelText.contains(QLatin1String("[4] Red knot - Wikipedia")));
        QVERIFY(next.modelText.contains(QLatin1String("[1] Sandpiper - Wikipedia")));
        QVERIFY(next.modelText.contains(QLatin1String("like [4]")));
    }

    void argumentsAreRepaired_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("count");
        QTest::newRow("expected") << json({{QStringLiteral("query"), QStringLiteral("red knot")}}) << "red knot" << 5;
        QTest::newRow("bare string") << "red knot"
                                     << "red knot" << 5;
        QTest::newRow("alias q") << json({{QStringLiteral("q"), QStringLiteral("red knot")}}) << "red knot" << 5;
        QTest::newRow("count as string") << json({{QStringLiteral("query"), QStringLiteral("red knot")},
                                                  {QStringLiteral("max_results"), QStringLiteral("3")}})
                                         << "red knot" << 3;
        QTest::newRow("count too high") << json({{QStringLiteral("query"), QStringLiteral("red knot")},
                                                 {QStringLiteral("max_results"), 50}})
                                        << "red knot" << 10;
        QTest::newRow("count too low") << json({{QStringLiteral("query"), QStringLiteral("red knot")},
                                                {QStringLiteral("num_results"), 0}})
                                       << "red knot" << 1;
        QTest::newRow("whitespace") << json({{QStringLiteral("query"), QStringLiteral("  red\n knot ")}}) << "red knot"
                                    << 5;
    }

    void argumentsAreRepaired()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, query);
        QFETCH(int, count);
        SearchTool tool(config(QStringLiteral("duckduckgo")), std::make_shared<CitationIndex>());
        const PreparedCall prepared = tool.prepare({QStringLiteral("c"), SearchTool::toolName(), arguments});
        QVERIFY2(prepared.ok(), qPrintable(prepared.error));
        QCOMPARE(prepared.arguments.value(QLatin1String("query")).toString(), query);
        QCOMPARE(prepared.arguments.value(QLatin1String("max_results")).toInt(), count);
        QCOMPARE(prepared.preview, query);
    }

    void anEmptyQueryIsRefused()
    {
        SearchTool tool(config(QStringLiteral("duckduckgo")), std::make_shared<CitationIndex>());
        const PreparedCall prepared =
            tool.prepare({QStringLiteral("c"), SearchTool::toolName(), QStringLiteral("{\"query\": \"\"}")});
        QVERIFY(!prepared.ok());
        QVERIFY(prepared.error.contains(QLatin1String("query")));
    }

    void declaresItsParameters()
    {
        SearchTool tool(config(QStringLiteral("duckduckgo")), std::make_shared<CitationIndex>());
        QCOMPARE(tool.name(), QStringLiteral("search_web"));
        QCOMPARE(tool.defaultApproval(), ApprovalPolicy::Auto);
        const QJsonObject parameters = tool.parameters();
        QCOMPARE(parameters[QLatin1String("required")].toArray(), QJsonArray{QStringLiteral("query")});
        QCOMPARE(
            parameters[QLatin1String("properties")][QLatin1String("max_results")][QLatin1String("maximum")].toInt(),
            10);
    }
};

QTEST_GUILESS_MAIN(TestSearchTool)
#include "tst_searchtool.moc"
