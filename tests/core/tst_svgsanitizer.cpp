// An SVG image from the sandbox or a server, rewritten so that drawing it reaches nothing outside
// it: every way an SVG can name a file or an address, entity declarations, size and depth, and
// what is not XML at all.
#include "sandboxfiles.h"

#include <sandbox/svgsanitizer.h>

#include <QTest>
#include <QXmlStreamReader>

using namespace Sandpiper;

namespace {

QByteArray svgOf(const QByteArray &body, const QByteArray &head = {})
{
    return head +
           "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
           "width=\"40\" height=\"30\">" +
           body + "</svg>";
}

QByteArray dataUrl(const QByteArray &type, const QByteArray &bytes)
{
    return "data:" + type + ";base64," + bytes.toBase64();
}

// Why TEXT is not XML that a namespace-aware reader (as Qt's renderer is) reads, or empty.
QString xmlProblem(const QByteArray &text)
{
    QXmlStreamReader reader(text);
    while (!reader.atEnd())
        reader.readNext();
    return reader.hasError() ? reader.errorString() : QString();
}

} // namespace

class TestSvgSanitizer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keepsOnlyWhatIsInside_data()
    {
        QTest::addColumn<QByteArray>("svg");
        QTest::addColumn<int>("refused");
        QTest::addColumn<QByteArrayList>("kept");    // each of these is in what is drawn
        QTest::addColumn<QByteArrayList>("removed"); // and none of these

        const QByteArray png = Sandpiper::Test::pngImage(4, 3);
        const QByteArray pngUrl = dataUrl("image/png", png);
        const QByteArray gif = QByteArray("GIF89a\x04\x00\x03\x00", 10) + QByteArray(20, '\0');
        const QByteArray jpeg = QByteArray::fromHex("ffd8ffe000104a46494600010100000100010000"
                                                    "ffc0000b080003000401011100ffda0008010100003f00ffd9");

        QTest::newRow("shapes alone") << svgOf("<rect width=\"10\" height=\"10\" fill=\"red\"/>") << 0
                                      << QByteArrayList{"<rect", "fill=\"red\"", "xmlns:xlink="} << QByteArrayList{};
        QTest::newRow("absolute path, href")
            << svgOf("<image href=\"/home/user/secret.png\" width=\"9\" height=\"9\"/>") << 1 << QByteArrayList{"<svg"}
            << QByteArrayList{"<image", "/home/user/secret.png"};
        QTest::newRow("absolute path, xlink:href")
            << svgOf("<image xlink:href=\"/home/user/secret.png\" width=\"9\" height=\"9\"/>") << 1
            << QByteArrayList{"<svg"} << QByteArrayList{"<image", "secret.png"};
        QTest::newRow("any prefix bound to XLink")
            << svgOf("<image q:href=\"/home/user/secret.png\" xmlns:q=\"http://www.w3.org/1999/xlink\"/>") << 1
            << QByteArrayList{} << QByteArrayList{"<image", "secret.png"};
        QTest::newRow("file URL") << svgOf("<image href=\"file:///etc/hostname\"/>") << 1 << QByteArrayList{}
                                  << QByteArrayList{"<image", "file:"};
        QTest::newRow("relative path") << svgOf("<image href=\"figures/one.png\"/><image href=\"../up.png\"/>") << 2
                                       << QByteArrayList{} << QByteArrayList{"<image", "one.png", "up.png"};
        QTest::newRow("a FIFO in the conversation's folder")
            << svgOf("<image href=\"/home/user/.local/share/Sandpiper/conversations/7/pipe\"/>") << 1
            << QByteArrayList{} << QByteArrayList{"<image", "pipe"};
        QTest::newRow("web address") << svgOf("<image href=\"https://example.com/track.png\"/>") << 1
                                     << QByteArrayList{} << QByteArrayList{"example.com"};
        QTest::newRow("inline PNG") << svgOf("<image href=\"" + pngUrl + "\" width=\"4\" height=\"3\"/>") << 0
                                    << QByteArrayList{"<image", pngUrl} << QByteArrayList{};
        QTest::newRow("inline PNG, base64 broken over lines")
            << svgOf("<image href=\"data:image/png;base64," + png.toBase64().insert(20, "\n  ") + "\"/>") << 0
            << QByteArrayList{pngUrl} << QByteArrayList{};
        QTest::newRow("inline PNG called a JPEG") << svgOf("<image href=\"" + dataUrl("image/jpeg", png) + "\"/>") << 0
                                                  << QByteArrayList{pngUrl} << QByteArrayList{"image/jpeg"};
        QTest::newRow("inline GIF") << svgOf("<image href=\"" + dataUrl("image/gif", gif) + "\"/>") << 0
                                    << QByteArrayList{dataUrl("image/gif", gif)} << QByteArrayList{};
        QTest::newRow("inline JPEG") << svgOf("<image href=\"" + dataUrl("image/jpeg", jpeg) + "\"/>") << 0
                                     << QByteArrayList{dataUrl("image/jpeg", jpeg)} << QByteArrayList{};
        QTest::newRow("inline SVG, which would name files itself")
            << svgOf("<image href=\"" + dataUrl("image/svg+xml", svgOf("<image href=\"/etc/x.png\"/>")) + "\"/>") << 1
            << QByteArrayList{} << QByteArrayList{"<image", "svg+xml"};
        QTest::newRow("inline PNG too large to draw")
            << svgOf("<image href=\"" + dataUrl("image/png", Sandpiper::Test::pngHeader(100000, 100000)) + "\"/>") << 1
            << QByteArrayList{} << QByteArrayList{"<image"};
        QTest::newRow("inline PNG cut short")
            << svgOf("<image href=\"" + dataUrl("image/png", png.first(png.size() - 12)) + "\"/>") << 1
            << QByteArrayList{} << QByteArrayList{"<image"};
        QTest::newRow("inline bytes of no image") << svgOf("<image href=\"data:image/png;base64,AAAA\"/>") << 1
                                                  << QByteArrayList{} << QByteArrayList{"<image"};
        QTest::newRow("use of another file") << svgOf("<use href=\"other.svg#x\"/><use xlink:href=\"/x.svg#y\"/>") << 2
                                             << QByteArrayList{} << QByteArrayList{"<use", "other.svg"};
        QTest::newRow("use of a part of itself")
            << svgOf("<defs><rect id=\"a\" width=\"5\" height=\"5\"/></defs><use xlink:href=\"#a\" x=\"9\"/>") << 0
            << QByteArrayList{"<use xlink:href=\"#a\""} << QByteArrayList{};
        QTest::newRow("feImage") << svgOf("<filter id=\"f\"><feImage href=\"/home/user/secret.png\"/></filter>") << 1
                                 << QByteArrayList{"<filter"} << QByteArrayList{"feImage", "secret"};
        QTest::newRow("CSS url() in a style sheet")
            << svgOf("<style>rect { fill: url(/home/user/p.svg#p); stroke: url( \"#g\" ) }</style><rect/>") << 1
            << QByteArrayList{"fill: none", "stroke: url( "} << QByteArrayList{"/home/user"};
        QTest::newRow("CSS @import")
            << svgOf("<style><![CDATA[@import url(\"/home/user/x.css\"); rect { fill: blue }]]></style>") << 1
            << QByteArrayList{"rect { fill: blue }"} << QByteArrayList{"@import", "x.css"};
        QTest::newRow("CSS url() in attributes")
            << svgOf("<rect style=\"fill:url('file:///x.svg#p')\" mask=\"url(/m.svg#m)\" fill=\"url(#grad)\"/>") << 2
            << QByteArrayList{"fill=\"url(#grad)\"", "style=\"fill:none\"", "mask=\"none\""}
            << QByteArrayList{"file:", "m.svg"};
        QTest::newRow("CSS url() written with character references")
            << svgOf("<rect fill=\"&#x75;rl(/home/user/p.svg#p)\"/>") << 1 << QByteArrayList{"fill=\"none\""}
            << QByteArrayList{"/home"};
        QTest::newRow("CSS escape that hides url()") << svgOf("<rect style=\"fill:\\75rl(/x.svg#p)\"/>") << 1
                                                     << QByteArrayList{"<rect"} << QByteArrayList{"style", "x.svg"};
        QTest::newRow("url() never closed")
            << svgOf("<rect style=\"fill:url(/x.svg#p\"/>") << 1 << QByteArrayList{"<rect"} << QByteArrayList{"x.svg"};
        QTest::newRow("style sheet processing instruction")
            << svgOf("<rect/>", "<?xml-stylesheet href=\"/home/user/x.css\"?>") << 1 << QByteArrayList{"<rect"}
            << QByteArrayList{"x.css", "<?"};
        QTest::newRow("a link") << svgOf("<a href=\"https://example.com\"><rect/></a>") << 1
                                << QByteArrayList{"<a>", "<rect"} << QByteArrayList{"example.com"};
        QTest::newRow("script and foreign object")
            << svgOf("<script>alert(1)</script><foreignObject><img src=\"/x.png\"/></foreignObject><rect/>") << 0
            << QByteArrayList{"<rect"} << QByteArrayList{"script", "alert", "foreignObject", "x.png"};
        QTest::newRow("a plain DOCTYPE, as matplotlib writes")
            << svgOf("<rect/>", "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n"
                                "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\"\n"
                                "  \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n")
            << 0 << QByteArrayList{"<rect"} << QByteArrayList{"DOCTYPE", "w3.org/Graphics"};
    }

    void keepsOnlyWhatIsInside()
    {
        QFETCH(QByteArray, svg);
        QFETCH(int, refused);
        QFETCH(QByteArrayList, kept);
        QFETCH(QByteArrayList, removed);
        const SvgSanitizer::Result result = SvgSanitizer::clean(svg);
        QVERIFY2(result.problem.isEmpty(), qPrintable(result.problem));
        QVERIFY2(xmlProblem(result.svg).isEmpty(),
                 qPrintable(xmlProblem(result.svg) + u'\n' + QString::fromUtf8(result.svg)));
        QCOMPARE(result.refusedReferences, refused);
        for (const QByteArray &part : kept)
            QVERIFY2(result.svg.contains(part), result.svg.constData());
        for (const QByteArray &part : removed)
            QVERIFY2(!result.svg.contains(part), result.svg.constData());
    }

    void refusesWhatCannotBeDrawnSafely_data()
    {
        QTest::addColumn<QByteArray>("svg");
        QTest::addColumn<QString>("problem");

        QTest::newRow("internal entity") << svgOf("<text>&big;</text>", "<!DOCTYPE svg [<!ENTITY big \"lol\">]>")
                                         << "declares XML entities";
        QTest::newRow("external entity") << svgOf("<text>&host;</text>",
                                                  "<!DOCTYPE svg [<!ENTITY host SYSTEM \"file:///etc/passwd\">]>")
                                         << "declares XML entities";
        QTest::newRow("parameter entity")
            << svgOf("<rect/>", "<!DOCTYPE svg [<!ENTITY % p SYSTEM \"/etc/x.dtd\"> %p;]>") << "declares XML entities";
        QTest::newRow("notation") << svgOf("<rect/>", "<!DOCTYPE svg [<!NOTATION n SYSTEM \"/x\">]>")
                                  << "declares XML entities";
        QTest::newRow("undeclared entity") << svgOf("<text>&host;</text>") << "not well-formed";
        QTest::newRow("malformed") << QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\"><g></svg>")
                                   << "not well-formed XML (line 1";
        QTest::newRow("cut short") << QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect")
                                   << "not well-formed";
        QTest::newRow("empty") << QByteArray() << "not well-formed";
        QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0", 10) << "not well-formed";
        QTest::newRow("no SVG") << QByteArray("<html><img src=\"/etc/x.png\"/></html>")
                                << "its outermost element is <html>";
        QTest::newRow("too deep") << svgOf(QByteArray("<g>").repeated(200) + QByteArray("</g>").repeated(200))
                                  << "more than 128 deep";
        QTest::newRow("too many parts") << svgOf(QByteArray("<rect/>").repeated(100'001)) << "more than 100";
        QTest::newRow("huge") << svgOf("<desc>" + QByteArray(9 * 1024 * 1024, 'x') + "</desc>") << "larger than the";
    }

    void refusesWhatCannotBeDrawnSafely()
    {
        QFETCH(QByteArray, svg);
        QFETCH(QString, problem);
        const SvgSanitizer::Result result = SvgSanitizer::clean(svg);
        QVERIFY2(result.problem.contains(problem), qPrintable(result.problem));
        QVERIFY(result.svg.isEmpty());
        QCOMPARE(result.refusedReferences, 0);
    }

    void stopsReadingWhenItsTimeIsUp()
    {
        // Many small parts, each quick, that add up: the clock stops the reading, not the count.
        const QByteArray svg = svgOf(QByteArray("<rect width=\"1\" height=\"1\" fill=\"url(#g)\"/>").repeated(200'000));
        const SvgSanitizer::Budget budget{64 * 1024 * 1024, 1'000'000, 128, 1};
        const SvgSanitizer::Result result = SvgSanitizer::clean(svg, budget);
        QVERIFY2(result.problem.contains(QLatin1String("longer than 1 ms")), qPrintable(result.problem));
        QVERIFY(result.svg.isEmpty());
        // The same within the default budget is read whole.
        QVERIFY(SvgSanitizer::clean(svgOf(QByteArray("<rect/>").repeated(50'000))).problem.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSvgSanitizer)
#include "tst_svgsanitizer.moc"
