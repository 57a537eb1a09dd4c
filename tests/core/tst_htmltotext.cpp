// Web pages to the text a model reads: the tokenizer, the converter and charset detection.
#include "fakewebserver.h"

#include <tools/htmltokenizer.h>
#include <tools/htmltotext.h>
#include <tools/webtextdecoder.h>

#include <QTest>

using namespace Sandpiper;
using Sandpiper::Test::FakeWebServer;

class TestHtmlToText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodesEntities_data()
    {
        QTest::addColumn<QString>("html");
        QTest::addColumn<QString>("text");
        QTest::newRow("basic") << "a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;"
                               << "a & b <c> \"d\" 'e'";
        QTest::newRow("latin-1") << "caf&eacute; na&iuml;ve &copy; &nbsp;" << QStringLiteral("café naïve © \u00a0");
        QTest::newRow("typography") << "&ldquo;x&rdquo; &mdash; &hellip; &euro;" << QStringLiteral("“x” — … €");
        QTest::newRow("greek") << "&alpha;&Omega;&sigmaf;" << QStringLiteral("αΩς");
        QTest::newRow("decimal") << "&#233;&#8212;&#128512;" << QStringLiteral("é—😀");
        QTest::newRow("hex") << "&#xE9;&#X2014;" << QStringLiteral("é—");
        QTest::newRow("windows-1252 numeric") << "&#150;&#147;&#148;" << QStringLiteral("–“”");
        QTest::newRow("legacy without semicolon") << "AT&amp T &copy 2024" << QStringLiteral("AT& T © 2024");
        QTest::newRow("unknown stays") << "&bogus; &zz"
                                       << "&bogus; &zz";
        QTest::newRow("url parameter") << "?a=1&para=2&lang=en"
                                       << "?a=1&para=2&lang=en";
        QTest::newRow("invalid numbers") << "&#0;&#xD800;&#x110000;" << QStringLiteral("\ufffd\ufffd\ufffd");
        QTest::newRow("bare ampersand") << "fish & chips &"
                                        << "fish & chips &";
    }

    void decodesEntities()
    {
        QFETCH(QString, html);
        QFETCH(QString, text);
        QCOMPARE(HtmlTokenizer::decodeEntities(html), text);
    }

    void tokenizesForgivingly()
    {
        const QString html = QStringLiteral(
            "<!doctype html><DIV Class='a  b' data-x=1 hidden>x<br/>y</div><script>if (a < b && c > d) "
            "document.write('</div>');</script><p title=\"&lt;q&gt;\">z<!-- <p>not this</p> -->w</p>< 3 <a href=x");
        HtmlTokenizer tokenizer(html);
        QStringList seen;
        for (auto token = tokenizer.next(); token.type != HtmlTokenizer::Token::Type::End; token = tokenizer.next()) {
            switch (token.type) {
            case HtmlTokenizer::Token::Type::StartTag:
                seen << QLatin1Char('<') + token.name + QLatin1Char('>');
                if (token.name == QLatin1String("div")) {
                    QVERIFY(token.hasClass(u"a"));
                    QVERIFY(token.hasClass(u"b"));
                    QVERIFY(!token.hasClass(u"a  b"));
                    QCOMPARE(token.attribute(u"data-x"), QStringLiteral("1"));
                    QVERIFY(token.hasAttribute(u"hidden"));
                }
                if (token.name == QLatin1String("p"))
                    QCOMPARE(token.attribute(u"title"), QStringLiteral("<q>"));
                break;
            case HtmlTokenizer::Token::Type::EndTag:
                seen << QStringLiteral("</") + token.name + QLatin1Char('>');
                break;
            case HtmlTokenizer::Token::Type::Text:
                seen << token.text;
                break;
            default:
                break;
            }
        }
        QCOMPARE(seen, (QStringList{QStringLiteral("<div>"), QStringLiteral("x"), QStringLiteral("<br>"),
                                    QStringLiteral("y"), QStringLiteral("</div>"), QStringLiteral("<script>"),
                                    QStringLiteral("if (a < b && c > d) document.write('</div>');"),
                                    QStringLiteral("</script>"), QStringLiteral("<p>"), QStringLiteral("z"),
                                    QStringLiteral("w"), QStringLiteral("</p>"), QStringLiteral("< 3 "),
                                    QStringLiteral("<a>")}));
    }

    void convertsARealisticArticle()
    {
        const QString html = QString::fromUtf8(FakeWebServer::fixture(QStringLiteral("article.html")));
        QVERIFY(!html.isEmpty());
        const HtmlToText::Page page =
            HtmlToText::convert(html, QUrl(QStringLiteral("https://notes.example/articles/sandpipers")));
        QCOMPARE(page.title, QStringLiteral("Sandpipers & Their Migration | Shorebird Notes"));
        const QString expected = QStringLiteral(
            "# Sandpipers & Their Migration\n"
            "\n"
            "By A. Birder — 8 October 2024\n"
            "\n"
            "Sandpipers are small wading birds. They feed on invertebrates in the mud <not in trees>.\n"
            "\n"
            "## Where they go\n"
            "\n"
            "Read the flyway guide (https://notes.example/guides/flyways?region=pacific&lang=en) or the Wikipedia "
            "article (https://en.wikipedia.org/wiki/Sandpiper). Back to top\n"
            "\n"
            "- Arctic breeding grounds\n"
            "- Stopovers:\n"
            "  1. Bay of Fundy\n"
            "  2. Copper River Delta\n"
            "- South American coasts\n"
            "\n"
            "### Distances\n"
            "\n"
            "Species | Distance (km)\n"
            "Semipalmated Sandpiper | 4,800\n"
            "Western Sandpiper | 11,000\n"
            "\n"
            "  flight  speed\n"
            "  ~60 km/h\n"
            "\n"
            "Prices: 5€ © 2024 café été — done.");
        QCOMPARE(page.text, expected);
    }

    void dropsWhatIsNotContent_data()
    {
        QTest::addColumn<QString>("html");
        QTest::addColumn<QString>("text");
        QTest::newRow("script and style") << "<p>a</p><script>var x = '<p>b</p>';</script><style>p{}</style><p>c</p>"
                                          << "a\n\nc";
        QTest::newRow("nav aside noscript svg") << "<nav>menu</nav><p>a</p><aside>ad</aside><noscript>js</noscript>"
                                                   "<svg><text>logo</text></svg>"
                                                << "a";
        QTest::newRow("page header and footer") << "<header>Site</header><p>a</p><footer>(c)</footer>"
                                                << "a";
        QTest::newRow("article header kept") << "<article><header><h1>T</h1></header><p>a</p></article>"
                                             << "# T\n\na";
        QTest::newRow("hidden") << "<div hidden>x</div><div aria-hidden=\"true\">y</div><p>a</p>"
                                << "a";
        QTest::newRow("nested dropped") << "<nav><nav>x</nav>y</nav><p>a</p>"
                                        << "a";
        QTest::newRow("self-closing svg") << "<svg/><p>a</p>"
                                          << "a";
        QTest::newRow("forms' widgets")
            << "<form><select><option>one</option></select><button>Go</button></form><p>a</p>"
            << "a";
    }

    void dropsWhatIsNotContent()
    {
        QFETCH(QString, html);
        QFETCH(QString, text);
        QCOMPARE(HtmlToText::convert(html).text, text);
    }

    void keepsStructure_data()
    {
        QTest::addColumn<QString>("html");
        QTest::addColumn<QString>("text");
        QTest::newRow("whitespace collapses") << "<p>  a \n\t b  </p>"
                                              << "a b";
        QTest::newRow("inline elements join") << "<p>a<b>b</b><i> c</i></p>"
                                              << "ab c";
        QTest::newRow("br") << "<p>a<br>b<br><br>c</p>"
                            << "a\nb\n\nc";
        QTest::newRow("divs") << "<div>a</div><div>b</div>"
                              << "a\nb";
        QTest::newRow("headings") << "<h2>Two</h2><h4>Four</h4>text"
                                  << "## Two\n\n#### Four\n\ntext";
        QTest::newRow("ordered start") << "<ol start=3><li>c<li>d</ol>"
                                       << "3. c\n4. d";
        QTest::newRow("unclosed cells") << "<table><tr><td>a<td>b<tr><td>c<td>d</table>"
                                        << "a | b\nc | d";
        QTest::newRow("empty cell keeps its place") << "<table><tr><td>a</td><td></td><td>c</td></tr></table>"
                                                    << "a |  | c";
        QTest::newRow("link text equals url") << "<a href=\"https://x.example/\">https://x.example/</a>"
                                              << "https://x.example/";
        QTest::newRow("javascript link") << "<a href=\"javascript:void(0)\">menu</a>"
                                         << "menu";
        QTest::newRow("image link") << "<a href=\"https://x.example/p\"><img alt=\"Photo of a knot\"></a>"
                                    << "Photo of a knot (https://x.example/p)";
        QTest::newRow("base href") << "<base href=\"https://b.example/dir/\"><a href=\"page\">p</a>"
                                   << "p (https://b.example/dir/page)";
        QTest::newRow("nbsp and soft hyphen") << "<p>sand&shy;piper&nbsp;&nbsp;bird</p>"
                                              << "sandpiper bird";
        QTest::newRow("title from h1") << "<h1>Only heading</h1>"
                                       << "# Only heading";
    }

    void keepsStructure()
    {
        QFETCH(QString, html);
        QFETCH(QString, text);
        QCOMPARE(HtmlToText::convert(html, QUrl(QStringLiteral("https://page.example/"))).text, text);
    }

    void titleFallsBackToTheFirstHeading()
    {
        QCOMPARE(HtmlToText::convert(QStringLiteral("<h1>First <em>one</em></h1><h1>Second</h1>")).title,
                 QStringLiteral("First one"));
    }

    void fragmentsBecomeOneLine()
    {
        QCOMPARE(HtmlToText::fragmentToPlainText(QStringLiteral("<strong>Sandpipers</strong> are\n waders &amp; "
                                                                "more<br>here")),
                 QStringLiteral("Sandpipers are waders & more here"));
    }

    void findsTheCharset_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QString>("source");

        const QByteArray latin1 = FakeWebServer::fixture(QStringLiteral("latin1.html"));
        QTest::newRow("header") << latin1 << QByteArray("text/html; charset=ISO-8859-1") << "windows-1252"
                                << "header";
        QTest::newRow("quoted header") << latin1 << QByteArray("text/html;charset=\"latin1\"") << "windows-1252"
                                       << "header";
        QTest::newRow("meta http-equiv") << FakeWebServer::fixture(QStringLiteral("latin1-meta.html"))
                                         << QByteArray("text/html") << "windows-1252"
                                         << "meta";
        QTest::newRow("meta charset") << FakeWebServer::fixture(QStringLiteral("latin1-meta-charset.html"))
                                      << QByteArray("text/html") << "windows-1252"
                                      << "meta";
        QTest::newRow("undeclared latin-1") << latin1 << QByteArray("text/html") << "windows-1252"
                                            << "fallback";
        QTest::newRow("undeclared utf-8")
            << QStringLiteral("<p>Crème brûlée</p>").toUtf8() << QByteArray("text/html") << "UTF-8"
            << "detected";
        QTest::newRow("wrongly declared utf-8") << latin1 << QByteArray("text/html; charset=utf-8") << "windows-1252"
                                                << "fallback";
        QTest::newRow("unknown charset") << latin1 << QByteArray("text/html; charset=x-no-such-thing") << "windows-1252"
                                         << "fallback";
        QTest::newRow("bom") << QByteArray("\xEF\xBB\xBF<p>Cr\xC3\xA8me</p>") << QByteArray("text/html; charset=latin1")
                             << "UTF-8"
                             << "byte order mark";
    }

    void findsTheCharset()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, contentType);
        QFETCH(QString, encoding);
        QFETCH(QString, source);
        const WebTextDecoder::Decoded decoded = WebTextDecoder::decode(body, contentType, true);
        QCOMPARE(decoded.encoding, encoding);
        QCOMPARE(decoded.source, source);
        QVERIFY2(decoded.text.contains(QStringLiteral("Crème")), qPrintable(decoded.text));
        QVERIFY(!decoded.text.contains(QChar(0xFFFD)));
        QVERIFY(!decoded.text.startsWith(QChar(0xFEFF)));
    }

    void aCharacterCutAtTheSizeLimitIsNotAnError()
    {
        QByteArray body = QStringLiteral("<p>Crème brûlée</p>").toUtf8();
        body.chop(6); // inside "é"
        const WebTextDecoder::Decoded decoded = WebTextDecoder::decode(body, "text/html", true);
        QCOMPARE(decoded.encoding, QStringLiteral("UTF-8"));
        QVERIFY(decoded.text.startsWith(QStringLiteral("<p>Crème br")));
    }
};

QTEST_GUILESS_MAIN(TestHtmlToText)
#include "tst_htmltotext.moc"
