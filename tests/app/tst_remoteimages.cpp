// Images from the web that the user asked an answer to show: fetched from a real local HTTP
// server, shared by the views of the window, and never fetched unasked.
#include "fakewebserver.h"

#include <chat/markdownview.h>
#include <chat/remoteimages.h>

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

using namespace Sandpiper;
using namespace Sandpiper::Test;

namespace {

QByteArray png(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

FakeWebResponse pngResponse(int width, int height)
{
    FakeWebResponse response;
    response.headers = {{"Content-Type", "image/png"}};
    response.body = png(width, height);
    return response;
}

// The images the document of VIEW shows, by name.
QStringList imagesShown(const MarkdownView &view)
{
    QStringList names;
    for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            if (it.fragment().charFormat().isImageFormat())
                names << it.fragment().charFormat().toImageFormat().name();
        }
    }
    return names;
}

// The first link of VIEW whose address starts with PREFIX.
QString linkIn(const MarkdownView &view, const QString &prefix)
{
    for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            if (it.fragment().charFormat().anchorHref().startsWith(prefix))
                return it.fragment().charFormat().anchorHref();
        }
    }
    return {};
}

} // namespace

class TestRemoteImages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void anImageIsFetchedOnceAsked()
    {
        FakeWebServer web;
        QVERIFY(web.listen());
        web.route("/chart.png", pngResponse(40, 30));
        RemoteImages images;
        QSignalSpy finished(&images, &RemoteImages::finished);
        const QUrl url = web.url(QStringLiteral("/chart.png"));
        images.load(url);
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.at(0).at(0).toUrl(), url);
        QVERIFY(images.isLoaded(url));
        QVERIFY(!images.hasFailed(url));
        QCOMPARE(images.images().value(url).size(), QSize(40, 30));
    }

    void whatIsNoImageFails()
    {
        FakeWebServer web;
        QVERIFY(web.listen());
        web.route("/page", FakeWebResponse::html("<p>not an image</p>"));
        RemoteImages images;
        QSignalSpy finished(&images, &RemoteImages::finished);
        for (const QString &path : {QStringLiteral("/page"), QStringLiteral("/missing.png")})
            images.load(web.url(path));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
        QVERIFY(images.hasFailed(web.url(QStringLiteral("/page"))));
        QVERIFY(images.hasFailed(web.url(QStringLiteral("/missing.png"))));
        QVERIFY(images.images().isEmpty());
        // Only the web: a local file is refused without a request.
        images.load(QUrl(QStringLiteral("file:///etc/hostname")));
        QCOMPARE(finished.count(), 3);
        QVERIFY(images.hasFailed(QUrl(QStringLiteral("file:///etc/hostname"))));
        QCOMPARE(web.requests().size(), 2);
    }

    void anSvgFromTheWebIsNotDrawn()
    {
        // Qt's SVG renderer would open the file it names on this computer, or block on a FIFO.
        QTemporaryDir folder;
        const QString host = folder.filePath(QStringLiteral("secret.png"));
        QFile file(host);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(png(8, 8)) > 0);
        file.close();
        FakeWebServer web;
        QVERIFY(web.listen());
        FakeWebResponse svg;
        svg.headers = {{"Content-Type", "image/svg+xml"}};
        svg.body = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\"><image href=\"" + host.toUtf8() +
                   "\" width=\"8\" height=\"8\"/></svg>";
        web.route("/logo.svg", svg);
        RemoteImages images;
        QSignalSpy finished(&images, &RemoteImages::finished);
        const QUrl url = web.url(QStringLiteral("/logo.svg"));
        images.load(url);
        QVERIFY(finished.wait(10000));
        QVERIFY(images.hasFailed(url));
        QVERIFY(images.images().isEmpty());
    }

    // Two answers name the same image: the user asks in one, and both show it, from one request.
    void theViewsOfAWindowShareWhatWasFetched()
    {
        FakeWebServer web;
        QVERIFY(web.listen());
        web.route("/plot.png", pngResponse(20, 20));
        RemoteImages images;
        const QUrl url = web.url(QStringLiteral("/plot.png"));
        const QString markdown = QStringLiteral("A plot:\n\n![plot](%1)\n").arg(url.toString());
        MarkdownView first({nullptr, &images});
        MarkdownView second({nullptr, &images});
        MarkdownView elsewhere({nullptr, &images});
        first.setMarkdownText(markdown);
        second.setMarkdownText(markdown);
        elsewhere.setMarkdownText(QStringLiteral("No image here."));
        QVERIFY(imagesShown(first).isEmpty()); // a link until asked
        QCOMPARE(web.requests().size(), 0);
        const QString link = linkIn(first, QStringLiteral("load-image:"));
        QVERIFY2(!link.isEmpty(), qPrintable(first.toPlainText()));
        QSignalSpy finished(&images, &RemoteImages::finished);
        Q_EMIT first.anchorClicked(QUrl(link)); // what a click on it does
        QVERIFY(finished.wait(10000));
        QCOMPARE(imagesShown(first), QStringList{url.toString()});
        QCOMPARE(imagesShown(second), QStringList{url.toString()});
        QVERIFY(imagesShown(elsewhere).isEmpty());
        QCOMPARE(web.requests().size(), 1);
    }
};

QTEST_MAIN(TestRemoteImages)
#include "tst_remoteimages.moc"
