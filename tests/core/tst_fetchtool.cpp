// fetch_url and the safe fetching beneath it, against a local server. Only 127.0.0.1 is ever
// contacted: the forbidden addresses are refused before any connection.
#include "fakewebserver.h"
#include "toolresults.h"

#include <tools/citationindex.h>
#include <tools/fetchtool.h>
#include <tools/webfetcher.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTest>
#include <QTimer>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestFetchTool : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeWebServer> m_web;

    static WebConfig config(bool allowLocal = true)
    {
        WebConfig c;
        c.allowLocal = allowLocal;
        c.connectTimeout = 3s;
        c.fetchTimeout = 10s;
        return c;
    }

    static WebFetcher::Limits limits(const WebConfig &c)
    {
        return {c.allowLocal, c.maxRedirects, c.maxBytes, c.connectTimeout, c.fetchTimeout};
    }

    // RESULTCHARS: the budget of the result, as the agent sets it from the model's window.
    static ToolOutcome fetch(FetchTool &tool, const QString &url, int resultChars = 0)
    {
        const QString arguments =
            QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("url"), url}}).toJson(QJsonDocument::Compact));
        PreparedCall prepared = tool.prepare({QStringLiteral("call_1"), FetchTool::toolName(), arguments});
        prepared.resultChars = resultChars;
        if (!prepared.ok()) {
            ToolOutcome failed;
            failed.modelText = QStringLiteral("prepare failed: ") + prepared.error;
            return failed;
        }
        return QCoro::waitFor(tool.run(prepared));
    }

    static ToolOutcome fetch(const WebConfig &c, const QString &url, int resultChars = 0)
    {
        FetchTool tool(c, std::make_shared<CitationIndex>());
        return fetch(tool, url, resultChars);
    }

    QString url(const char *path) const { return m_web->url(QLatin1String(path)).toString(); }

private Q_SLOTS:
    void init()
    {
        m_web = std::make_unique<FakeWebServer>();
        QVERIFY(m_web->listen());
    }

    void cleanup() { m_web.reset(); }

    void readsAnHtmlPage()
    {
        m_web->route("/article", FakeWebResponse::html(FakeWebServer::fixture(QStringLiteral("article.html"))));
        const ToolOutcome outcome = fetch(config(), url("/article"));
        QVERIFY2(outcome.success, qPrintable(outcome.modelText));
        const QString head = QStringLiteral("Status: ok (HTTP 200 OK, text/html, 2.2 KiB)\n"
                                            "URL: %1\n"
                                            "Title: Sandpipers & Their Migration | Shorebird Notes\n"
                                            "Cite this page as [1].\n"
                                            "\n"
                                            "# Sandpipers & Their Migration\n")
                                 .arg(url("/article"));
        QVERIFY2(outcome.modelText.startsWith(head), qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.contains(QLatin1String("Species | Distance (km)")));
        QVERIFY(!outcome.modelText.contains(QLatin1String("tracking pixel")));
        QVERIFY(!outcome.modelText.contains(QLatin1String("newsletter")));
        QCOMPARE(webOf(outcome).sources.size(), 1);
        QCOMPARE(webOf(outcome).sources[0].number, 1);
        QCOMPARE(webOf(outcome).sources[0].url, url("/article"));
        QCOMPARE(webOf(outcome).sources[0].title, QStringLiteral("Sandpipers & Their Migration | Shorebird Notes"));
        QVERIFY(
            webOf(outcome).sources[0].snippet.startsWith(QLatin1String("# Sandpipers & Their Migration By A. Birder")));

        const FakeWebRequest request = m_web->requests().constFirst();
        QCOMPARE(request.method, QByteArray("GET"));
        QVERIFY(request.headers.value("user-agent").startsWith("Sandpiper/"));
        QCOMPARE(request.headers.value("host"), QStringLiteral("127.0.0.1:%1").arg(m_web->port()).toUtf8());
        QVERIFY(request.headers.value("accept").startsWith("text/html"));
    }

    void aHostNameIsPinnedToTheCheckedAddress()
    {
        m_web->route("/article", FakeWebResponse::html("<title>Pinned</title><p>ok</p>"));
        const QString address = QStringLiteral("http://localhost:%1/article").arg(m_web->port());
        const ToolOutcome outcome = fetch(config(), address);
        QVERIFY2(outcome.success, qPrintable(outcome.modelText));
        // The connection went to the resolved address (the server only listens on 127.0.0.1,
        // so an IPv6 answer for localhost was tried and passed over); the Host header names
        // the host as the URL does.
        QCOMPARE(m_web->requests().size(), 1);
        QCOMPARE(m_web->requests().constFirst().headers.value("host"),
                 QStringLiteral("localhost:%1").arg(m_web->port()).toUtf8());
        QVERIFY(outcome.modelText.contains(QStringLiteral("URL: %1").arg(address)));
    }

    void followsRedirectsAndSaysSo()
    {
        m_web->route("/old", FakeWebResponse::redirect(301, "/middle?x=1#frag"));
        m_web->route("/middle", FakeWebResponse::redirect(302, url("/article").toUtf8()));
        m_web->route("/article", FakeWebResponse::html("<title>Moved here</title><p>Final text.</p>"));
        const ToolOutcome outcome = fetch(config(), url("/old"));
        QVERIFY2(outcome.success, qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.contains(
            QStringLiteral("URL: %1\nRedirected from: %2\n").arg(url("/article"), url("/old"))));
        QVERIFY(outcome.modelText.endsWith(QLatin1String("Final text.")));
        QCOMPARE(m_web->requests().size(), 3);
        QCOMPARE(m_web->requests().at(1).target, QByteArray("/middle?x=1"));
    }

    void cookiesAreNeitherKeptNorSent()
    {
        FakeWebResponse setsCookie = FakeWebResponse::redirect(302, "/next");
        setsCookie.headers.emplaceBack("Set-Cookie", "session=abc123; Path=/");
        m_web->route("/login", setsCookie);
        m_web->route("/next", FakeWebResponse::html("<p>next</p>"));
        FetchTool tool(config(), std::make_shared<CitationIndex>());
        QVERIFY(fetch(tool, url("/login")).success);
        QVERIFY(fetch(tool, url("/next")).success);
        for (const FakeWebRequest &request : m_web->requests())
            QVERIFY2(!request.headers.contains("cookie"), request.target.constData());
    }

    void refusesLocalAddresses_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("why");
        // %1 is the local server's port, known only when the test runs.
        QTest::newRow("loopback") << "http://127.0.0.1:%1/article"
                                  << "127.0.0.1 is a loopback address";
        QTest::newRow("localhost") << "http://localhost:%1/article"
                                   << "localhost resolves to";
        QTest::newRow("loopback v6") << "http://[::1]:%1/article"
                                     << "::1 is a loopback address";
        QTest::newRow("mapped loopback") << "http://[::ffff:127.0.0.1]:%1/article"
                                         << "is a loopback address";
        QTest::newRow("decimal loopback") << "http://2130706433:%1/article"
                                          << "127.0.0.1 is a loopback address";
        QTest::newRow("hex loopback") << "http://0x7f.1:%1/article"
                                      << "127.0.0.1 is a loopback address";
        QTest::newRow("unspecified") << "http://0.0.0.0:%1/article"
                                     << "0.0.0.0 is an unspecified address";
        QTest::newRow("private 10") << "http://10.0.0.1/admin"
                                    << "10.0.0.1 is a private network address";
        QTest::newRow("private 192.168") << "https://192.168.1.1/"
                                         << "192.168.1.1 is a private network address";
        QTest::newRow("cgnat") << "http://100.64.0.1/"
                               << "100.64.0.1 is a carrier-grade NAT address";
        QTest::newRow("link-local") << "http://169.254.10.10/"
                                    << "169.254.10.10 is a link-local address";
        QTest::newRow("metadata") << "http://169.254.169.254/latest/meta-data/"
                                  << "169.254.169.254 is a cloud metadata address";
        QTest::newRow("metadata v6") << "http://[fd00:ec2::254]/latest/meta-data/"
                                     << "fd00:ec2::254 is a cloud metadata address";
        QTest::newRow("unique local") << "http://[fd12::1]/"
                                      << "fd12::1 is a private network address";
    }

    void refusesLocalAddresses()
    {
        QFETCH(QString, address);
        QFETCH(QString, why);
        if (address.contains(QLatin1String("%1")))
            address = address.arg(m_web->port());
        m_web->route("/article", FakeWebResponse::html("<p>secret</p>"));
        QElapsedTimer timer;
        timer.start();
        const ToolOutcome outcome = fetch(config(false), address);
        // Refused at once: nothing was connected to, not even the local server.
        QVERIFY(timer.elapsed() < 1000);
        QCOMPARE(m_web->connectionCount(), 0);
        QVERIFY(!outcome.success);
        QVERIFY2(outcome.modelText.startsWith(QLatin1String("Status: refused: ")), qPrintable(outcome.modelText));
        QVERIFY2(outcome.modelText.contains(why), qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.contains(QLatin1String("Use a public web address.")));
        QVERIFY(!outcome.modelText.contains(QLatin1String("secret")));
        QVERIFY(webOf(outcome).userNote.contains(why));
    }

    void refusesRedirectsToForbiddenAddresses_data()
    {
        QTest::addColumn<QByteArray>("location");
        QTest::addColumn<QString>("why");
        // Local networks are allowed here (the server is on 127.0.0.1); these never are.
        QTest::newRow("metadata") << QByteArray("http://169.254.169.254/latest/meta-data/iam/security-credentials/")
                                  << "169.254.169.254 is a cloud metadata address";
        QTest::newRow("metadata v6") << QByteArray("http://[fd00:ec2::254]/latest/meta-data/")
                                     << "fd00:ec2::254 is a cloud metadata address";
        QTest::newRow("mapped metadata") << QByteArray("http://[::ffff:169.254.169.254]/")
                                         << "is a cloud metadata address";
        QTest::newRow("unspecified") << QByteArray("http://0.0.0.0/") << "0.0.0.0 is an unspecified address";
        QTest::newRow("multicast") << QByteArray("http://224.0.0.251/") << "224.0.0.251 is a multicast address";
        QTest::newRow("not http") << QByteArray("file:///etc/passwd")
                                  << "Only http and https addresses can be fetched, not file.";
    }

    void refusesRedirectsToForbiddenAddresses()
    {
        QFETCH(QByteArray, location);
        QFETCH(QString, why);
        m_web->route("/start", FakeWebResponse::redirect(302, location));
        const ToolOutcome outcome = fetch(config(true), url("/start"));
        QVERIFY(!outcome.success);
        QVERIFY2(outcome.modelText.contains(why), qPrintable(outcome.modelText));
        QVERIFY2(outcome.modelText.contains(QStringLiteral("%1 redirected to ").arg(url("/start"))),
                 qPrintable(outcome.modelText));
        QCOMPARE(m_web->requests().size(), 1);
    }

    void redirectsAreLimitedToFive_data()
    {
        QTest::addColumn<int>("redirects");
        QTest::addColumn<bool>("success");
        QTest::newRow("five") << 5 << true;
        QTest::newRow("six") << 6 << false;
        QTest::newRow("endless") << 1000 << false;
    }

    void redirectsAreLimitedToFive()
    {
        QFETCH(int, redirects);
        QFETCH(bool, success);
        m_web->setFallback([redirects](const FakeWebRequest &request) {
            const int hop = request.path.sliced(QByteArrayView("/hop/").size()).toInt();
            if (hop < redirects)
                return FakeWebResponse::redirect(hop % 2 ? 307 : 302, "/hop/" + QByteArray::number(hop + 1));
            return FakeWebResponse::html("<p>arrived</p>");
        });
        const ToolOutcome outcome = fetch(config(), url("/hop/0"));
        QCOMPARE(outcome.success, success);
        if (success) {
            QVERIFY(outcome.modelText.endsWith(QLatin1String("arrived")));
            QCOMPARE(m_web->requests().size(), 6);
        } else {
            QVERIFY2(outcome.modelText.startsWith(QLatin1String("Status: error: More than 5 redirects: ")),
                     qPrintable(outcome.modelText));
            QVERIFY(outcome.modelText.contains(QStringLiteral("%1 → %2").arg(url("/hop/0"), url("/hop/1"))));
            QVERIFY(outcome.modelText.contains(QLatin1String("may redirect in a loop")));
            QCOMPARE(m_web->requests().size(), 6); // the sixth redirect is not followed
        }
    }

    void aHugePageIsCapped_data()
    {
        QTest::addColumn<bool>("chunked");
        QTest::newRow("content-length") << false;
        QTest::newRow("chunked") << true;
    }

    void aHugePageIsCapped()
    {
        QFETCH(bool, chunked);
        FakeWebResponse huge = FakeWebResponse::html("<html><head><title>Endless</title></head><body>");
        huge.generatedBytes = 50 * 1024 * 1024;
        huge.chunked = chunked;
        m_web->route("/huge", huge);
        const WebConfig c = config();

        QElapsedTimer timer;
        timer.start();
        WebFetcher fetcher(limits(c));
        FetchRequest request;
        request.url = m_web->url(QStringLiteral("/huge"));
        const FetchResult result = QCoro::waitFor(fetcher.fetch(request));
        QVERIFY2(result.ok(), qPrintable(result.message));
        QVERIFY(result.truncated);
        QCOMPARE(result.body.size(), c.maxBytes);
        // Reading stopped at the cap: the server did not get to send much more.
        QVERIFY2(m_web->bodyBytesSent() < 12 * 1024 * 1024, QByteArray::number(m_web->bodyBytesSent()).constData());

        const ToolOutcome outcome = fetch(c, url("/huge"));
        QVERIFY(timer.elapsed() < 20000);
        QVERIFY(outcome.success);
        QVERIFY2(outcome.modelText.contains(QLatin1String("Note: the page is larger than 2.0 MiB; only the first 2.0 "
                                                          "MiB were read, so the text ends early.")),
                 qPrintable(outcome.modelText.left(600)));
        QVERIFY(outcome.modelText.contains(QLatin1String("only the first 20000 are shown")));
        QVERIFY(outcome.modelText.size() < 21000);
    }

    void charsets_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QByteArray>("contentType");
        QTest::newRow("declared by header") << "latin1.html" << QByteArray("text/html; charset=ISO-8859-1");
        QTest::newRow("declared by meta http-equiv") << "latin1-meta.html" << QByteArray("text/html");
        QTest::newRow("declared by meta charset") << "latin1-meta-charset.html" << QByteArray("text/html");
        QTest::newRow("undeclared") << "latin1.html" << QByteArray("text/html");
        QTest::newRow("wrongly declared") << "latin1.html" << QByteArray("text/html; charset=utf-8");
        QTest::newRow("no content type") << "latin1.html" << QByteArray();
    }

    void charsets()
    {
        QFETCH(QString, fixture);
        QFETCH(QByteArray, contentType);
        FakeWebResponse page;
        page.body = FakeWebServer::fixture(fixture);
        if (!contentType.isEmpty())
            page.headers.emplaceBack("Content-Type", contentType);
        m_web->route("/page", page);
        const ToolOutcome outcome = fetch(config(), url("/page"));
        QVERIFY2(outcome.success, qPrintable(outcome.modelText));
        QVERIFY2(outcome.modelText.contains(QStringLiteral("Title: Café crème\n")), qPrintable(outcome.modelText));
        QVERIFY2(outcome.modelText.endsWith(QStringLiteral("Crème brûlée à la française coûte 5 £ · naïve")),
                 qPrintable(outcome.modelText));
    }

    void binariesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("what");
        const QByteArray pdf = FakeWebServer::fixture(QStringLiteral("document.pdf"));
        QTest::newRow("pdf") << QByteArray("application/pdf") << pdf
                             << "is a PDF document (application/pdf, 224 bytes)";
        QTest::newRow("pdf as octet-stream")
            << QByteArray("application/octet-stream") << pdf << "is a PDF document (application/pdf, 224 bytes)";
        QTest::newRow("undeclared pdf") << QByteArray() << pdf << "is a PDF document (application/pdf, 224 bytes)";
        QTest::newRow("image") << QByteArray("image/png") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)
                               << "is an image (image/png, 16 bytes)";
        QTest::newRow("zip") << QByteArray("application/zip") << QByteArray("PK\x03\x04\0\0", 6)
                             << "is an archive (application/zip, 6 bytes)";
        QTest::newRow("unknown binary") << QByteArray("application/octet-stream") << QByteArray("\x01\x02\0\x03", 4)
                                        << "is a binary file (application/octet-stream, 4 bytes)";
    }

    void binariesAreRefused()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, body);
        QFETCH(QString, what);
        FakeWebResponse file;
        file.body = body;
        if (!contentType.isEmpty())
            file.headers.emplaceBack("Content-Type", contentType);
        m_web->route("/file", file);
        const ToolOutcome outcome = fetch(config(), url("/file"));
        QVERIFY(!outcome.success);
        QVERIFY2(
            outcome.modelText.startsWith(QStringLiteral("Status: not read: %1 %2; fetch_url reads only HTML pages, "
                                                        "plain text and JSON.")
                                             .arg(url("/file"), what)),
            qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.contains(QLatin1String("HTML version")));
    }

    void aDeclaredPdfIsNotDownloaded()
    {
        FakeWebResponse pdf;
        pdf.headers = {{"Content-Type", "application/pdf"}};
        pdf.body = "%PDF-1.7\n";
        pdf.generatedBytes = 40 * 1024 * 1024;
        m_web->route("/big.pdf", pdf);
        QElapsedTimer timer;
        timer.start();
        const ToolOutcome outcome = fetch(config(), url("/big.pdf"));
        QVERIFY(timer.elapsed() < 5000);
        QVERIFY2(outcome.modelText.contains(QLatin1String("is a PDF document (application/pdf, 40.0 MiB)")),
                 qPrintable(outcome.modelText));
        QVERIFY(m_web->bodyBytesSent() < 12 * 1024 * 1024);
    }

    void jsonAndTextPassThrough_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("mime");
        const QByteArray json = FakeWebServer::fixture(QStringLiteral("data.json"));
        QTest::newRow("json") << QByteArray("application/json") << json << "application/json";
        QTest::newRow("json+ld") << QByteArray("application/ld+json; charset=utf-8") << json << "application/ld+json";
        QTest::newRow("sniffed json") << QByteArray("application/octet-stream") << json << "application/json";
        QTest::newRow("plain text") << QByteArray("text/plain; charset=utf-8")
                                    << QByteArray("Sandpipers: 96 species.\n") << "text/plain";
        QTest::newRow("csv") << QByteArray("text/csv") << QByteArray("species,weight\nwestern,28\n") << "text/csv";
        QTest::newRow("markdown with <tags>")
            << QByteArray("text/markdown") << QByteArray("# Title\n\n<b>not html</b>\n") << "text/markdown";
    }

    void jsonAndTextPassThrough()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, body);
        QFETCH(QString, mime);
        FakeWebResponse file;
        file.headers = {{"Content-Type", contentType}};
        file.body = body;
        m_web->route("/data", file);
        const ToolOutcome outcome = fetch(config(), url("/data"));
        QVERIFY2(outcome.success, qPrintable(outcome.modelText));
        QVERIFY2(outcome.modelText.startsWith(QStringLiteral("Status: ok (HTTP 200 OK, %1, ").arg(mime)),
                 qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.endsWith(QStringLiteral("\n\n") + QString::fromUtf8(body).trimmed()));
    }

    void longTextIsCutWithANote()
    {
        FakeWebResponse text;
        text.headers = {{"Content-Type", "text/plain"}};
        text.body = QByteArray(5000, 'a');
        m_web->route("/long", text);
        WebConfig c = config();
        c.maxChars = 1000;
        const ToolOutcome outcome = fetch(c, url("/long"));
        QVERIFY(outcome.modelText.contains(QLatin1String("Note: the text is 5000 characters long; only the first 1000 "
                                                         "are shown.")));
        QVERIFY(outcome.modelText.endsWith(
            QStringLiteral("%1\n[… cut: 4000 more characters are not shown …]").arg(QString(1000, QLatin1Char('a')))));
    }

    // A model with a small window gets less of the page than the setting allows, within the budget
    // of its tool results.
    void longTextKeepsToTheResultsBudget()
    {
        FakeWebResponse text;
        text.headers = {{"Content-Type", "text/plain"}};
        text.body = QByteArray(50000, 'a');
        m_web->route("/long", text);
        const ToolOutcome outcome = fetch(config(), url("/long"), 4000);
        QVERIFY2(outcome.modelText.size() <= 4000, qPrintable(QString::number(outcome.modelText.size())));
        QVERIFY2(outcome.modelText.contains(QLatin1String("Note: the text is 50000 characters long; only the first "
                                                          "3000 are shown.")),
                 qPrintable(outcome.modelText.left(500)));
    }

    void httpErrorsSayWhatToDo_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("advice");
        QTest::newRow("404") << 404 << "HTTP 404 Not Found for"
                             << "There is no page at this address.";
        QTest::newRow("403") << 403 << "HTTP 403 Forbidden for"
                             << "does not show this page to Sandpiper";
        QTest::newRow("429") << 429 << "HTTP 429 Too Many Requests for"
                             << "rate limiting";
        QTest::newRow("500") << 500 << "HTTP 500 Internal Server Error for"
                             << "server problem";
    }

    void httpErrorsSayWhatToDo()
    {
        QFETCH(int, status);
        QFETCH(QString, what);
        QFETCH(QString, advice);
        FakeWebResponse error = FakeWebResponse::html("<h1>Error</h1>");
        error.status = status;
        if (status == 429)
            error.headers.emplaceBack("Retry-After", "30");
        m_web->route("/page", error);
        const ToolOutcome outcome = fetch(config(), url("/page"));
        QVERIFY(!outcome.success);
        QVERIFY2(outcome.modelText.startsWith(QStringLiteral("Status: error: %1 %2.").arg(what, url("/page"))),
                 qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.contains(advice));
        if (status == 429)
            QVERIFY(outcome.modelText.contains(QLatin1String("The site asks to wait 30 s.")));
        QVERIFY(!webOf(outcome).userNote.isEmpty());
    }

    void slowServersTimeOut_data()
    {
        QTest::addColumn<bool>("stall");
        QTest::addColumn<QString>("what");
        QTest::newRow("no answer") << false << "did not answer within 0.3 s.";
        QTest::newRow("answer stalls") << true << "The page did not finish loading within 0.8 s.";
    }

    void slowServersTimeOut()
    {
        QFETCH(bool, stall);
        QFETCH(QString, what);
        FakeWebResponse slow = FakeWebResponse::html("<p>start of the page");
        if (stall) {
            slow.generatedBytes = 1000; // promised but never sent
            slow.stall = true;
        } else {
            slow.delay = 3s;
        }
        m_web->route("/slow", slow);
        WebConfig c = config();
        c.connectTimeout = 300ms;
        c.fetchTimeout = 800ms;
        QElapsedTimer timer;
        timer.start();
        const ToolOutcome outcome = fetch(c, url("/slow"));
        QVERIFY(timer.elapsed() < 2500);
        QVERIFY2(outcome.modelText.startsWith(QLatin1String("Status: error: ")), qPrintable(outcome.modelText));
        QVERIFY2(outcome.modelText.contains(what), qPrintable(outcome.modelText));
        QVERIFY(outcome.modelText.contains(QLatin1String("may be down or slow")));
    }

    void aClosedPortIsReported()
    {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close();
        const ToolOutcome outcome = fetch(config(), QStringLiteral("http://127.0.0.1:%1/").arg(port));
        QVERIFY2(outcome.modelText.startsWith(
                     QStringLiteral("Status: error: 127.0.0.1:%1 refused the connection.").arg(port)),
                 qPrintable(outcome.modelText));
    }

    void cancelStopsAFetch()
    {
        FakeWebResponse slow = FakeWebResponse::html("<p>late</p>");
        slow.delay = 5s;
        m_web->route("/slow", slow);
        FetchTool tool(config(), std::make_shared<CitationIndex>());
        QTimer::singleShot(100ms, this, [&tool] { tool.cancel(); });
        QElapsedTimer timer;
        timer.start();
        const ToolOutcome outcome = fetch(tool, url("/slow"));
        QVERIFY(timer.elapsed() < 2000);
        QCOMPARE(outcome.modelText, QStringLiteral("Cancelled: the user stopped the fetch."));
    }

    void aPageWithoutTextSaysSo()
    {
        m_web->route("/app", FakeWebResponse::html("<html><head><title>App</title></head><body><div id=\"root\"></div>"
                                                   "<script src=\"/bundle.js\"></script></body></html>"));
        const ToolOutcome outcome = fetch(config(), url("/app"));
        QVERIFY(
            outcome.modelText.endsWith(QLatin1String("Note: the page has no readable text. It may be built by "
                                                     "JavaScript, which fetch_url does not run; try another source.")));
    }

    void aSearchResultKeepsItsNumber()
    {
        m_web->route("/article", FakeWebResponse::html("<title>T</title><p>x</p>"));
        const auto citations = std::make_shared<CitationIndex>();
        citations->numberFor(QStringLiteral("https://other.example/"));
        citations->numberFor(url("/article"));
        FetchTool tool(config(), citations);
        const ToolOutcome outcome = fetch(tool, url("/article"));
        QVERIFY(outcome.modelText.contains(QLatin1String("Cite this page as [2].")));
        QCOMPARE(webOf(outcome).sources.constFirst().number, 2);
    }

    void argumentsAreRepaired_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("url");
        QTest::newRow("expected") << "{\"url\": \"https://example.org/a b\"}"
                                  << "https://example.org/a%20b";
        QTest::newRow("bare") << "https://example.org/page"
                              << "https://example.org/page";
        QTest::newRow("no scheme") << "{\"url\": \"example.org/page\"}"
                                   << "https://example.org/page";
        QTest::newRow("protocol-relative") << "{\"url\": \"//example.org/page\"}"
                                           << "https://example.org/page";
        QTest::newRow("angle brackets") << "{\"url\": \"<https://example.org/>\"}"
                                        << "https://example.org/";
        QTest::newRow("alias link") << "{\"link\": \"https://example.org/\"}"
                                    << "https://example.org/";
    }

    void argumentsAreRepaired()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, url);
        FetchTool tool(config(), std::make_shared<CitationIndex>());
        const PreparedCall prepared = tool.prepare({QStringLiteral("c"), FetchTool::toolName(), arguments});
        QVERIFY2(prepared.ok(), qPrintable(prepared.error));
        QCOMPARE(prepared.arguments.value(QLatin1String("url")).toString(), url);
    }

    void unusableArgumentsGoBackToTheModel_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("error");
        QTest::newRow("ftp") << "{\"url\": \"ftp://example.org/file\"}"
                             << "Only http and https addresses can be fetched, not ftp";
        QTest::newRow("file") << "{\"url\": \"file:///etc/passwd\"}"
                              << "is not a web address";
        QTest::newRow("javascript") << "{\"url\": \"javascript:alert(1)\"}"
                                    << "is not a web address";
        QTest::newRow("words") << "{\"url\": \"the sandpiper page\"}"
                               << "is not a web address";
        QTest::newRow("empty") << "{\"url\": \"\"}"
                               << "The \"url\" field is empty";
    }

    void unusableArgumentsGoBackToTheModel()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, error);
        FetchTool tool(config(), std::make_shared<CitationIndex>());
        const PreparedCall prepared = tool.prepare({QStringLiteral("c"), FetchTool::toolName(), arguments});
        QVERIFY(!prepared.ok());
        QVERIFY2(prepared.error.contains(error), qPrintable(prepared.error));
    }
};

QTEST_GUILESS_MAIN(TestFetchTool)
#include "tst_fetchtool.moc"
