// What a message's Markdown becomes before Qt reads it, as text: no view is made here.
#include <chat/markdownsource.h>
#include <chat/remoteimages.h>

#include <QDir>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace Sandpiper;

class TestMarkdownSource : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void paragraphBoundaries_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("boundary");
        QTest::newRow("nothing finished") << QStringLiteral("One line still coming") << 0;
        QTest::newRow("after a blank line") << QStringLiteral("First.\n\nSecond") << 8;
        QTest::newRow("the last blank line") << QStringLiteral("A\n\nB\n\nC") << 6;
        QTest::newRow("not inside a fence") << QStringLiteral("Intro\n\n```\nx = 1\n\ny = 2\n") << 7;
        QTest::newRow("after the fence closed") << QStringLiteral("```\nx\n\n```\n\nEnd") << 12;
        QTest::newRow("a loose list goes on") << QStringLiteral("- one\n\n- two") << 0;
        QTest::newRow("a list that ended") << QStringLiteral("- one\n\nAfter\n") << 7;
    }

    void paragraphBoundaries()
    {
        QFETCH(QString, text);
        QFETCH(int, boundary);
        QCOMPARE(MarkdownSource::lastParagraphBoundary(text, 0), qsizetype(boundary));
        // From a later place on, never before it.
        QVERIFY(MarkdownSource::lastParagraphBoundary(text, boundary) >= boundary);
    }

    void formulasBecomeTokensAndPricesStayText()
    {
        const QString marked = MarkdownSource::markFormulas(QStringLiteral("It costs $5 and $10; but $x^2$ is math."));
        QVERIFY2(marked.contains(QLatin1String("It costs $5 and $10; but ![TeX](sandpiper-math:i/x%5E2) is math.")),
                 qPrintable(marked));
        QCOMPARE(MarkdownSource::markFormulas(QStringLiteral("No math.")), QStringLiteral("No math."));
    }

    void codeBlocksGetACopyLinkAndAreCollected()
    {
        const MarkdownSource source(QString(), nullptr);
        QStringList code;
        QStringList languages;
        const QString prepared = source.prepare(
            QStringLiteral("Run:\n\n```python\nprint(1)\n```\n\n```\nplain\n```\n\n```c++\nopen"), &code, &languages);
        QCOMPARE(code,
                 (QStringList{QStringLiteral("print(1)\n"), QStringLiteral("plain\n"), QStringLiteral("open\n")}));
        QCOMPARE(languages, (QStringList{QStringLiteral("python"), QString(), QStringLiteral("c++")}));
        QVERIFY(prepared.contains(QStringLiteral("python · [Copy](copy-code:0)")));
        QVERIFY(prepared.contains(QStringLiteral("code · [Copy](copy-code:1)")));
        QVERIFY2(prepared.contains(QStringLiteral("c\\+\\+ · [Copy](copy-code:2)")), qPrintable(prepared));
    }

    void nestingIsCappedForTheReader()
    {
        const MarkdownSource source(QString(), nullptr);
        QStringList code;
        QStringList languages;
        for (const QString &marker : {QStringLiteral("> "), QStringLiteral("- "), QStringLiteral("1. ")}) {
            QString deep;
            for (int i = 0; i < 100000; ++i)
                deep += marker;
            const QString prepared = source.prepare(deep + QStringLiteral("x"), &code, &languages);
            // 32 levels stay; the 33rd marker is escaped, so the rest is text.
            const qsizetype escape = prepared.indexOf(QLatin1Char('\\'));
            QVERIFY2(escape >= 0, qPrintable(marker));
            const QString ordinal = marker == QStringLiteral("1. ") ? QStringLiteral("1") : QString();
            QCOMPARE(prepared.left(escape), marker.repeated(32) + ordinal);
        }
        const QString shallow = QStringLiteral("> > - 1. quoted list\n* * *\n--- not a list");
        QCOMPARE(source.prepare(shallow, &code, &languages), shallow);
    }

    // Only the conversation's own files, never a name that leaves its folder.
    void sandboxImagesAreCheckedAndMadeLocal()
    {
        QTemporaryDir folder;
        QVERIFY(QDir().mkpath(folder.filePath(QStringLiteral("figures"))));
        QVERIFY(QImage(8, 8, QImage::Format_RGB32).save(folder.filePath(QStringLiteral("figures/a.png"))));
        const MarkdownSource source(folder.path(), nullptr);
        QStringList code;
        QStringList languages;
        const QString prepared = source.prepare(QStringLiteral("![a](sandbox:/mnt/data/figures/a.png)\n"
                                                               "![gone](/mnt/data/figures/missing.png)\n"
                                                               "![out](/mnt/data/../../etc/passwd)\n"
                                                               "![](elsewhere.png)"),
                                                &code, &languages);
        const QStringList lines = prepared.split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines.at(0), QStringLiteral("![a](%1)")
                                  .arg(QUrl::fromLocalFile(folder.filePath(QStringLiteral("figures/a.png")))
                                           .toString(QUrl::FullyEncoded)));
        QVERIFY2(lines.at(1).startsWith(QLatin1String("[image not shown: ")), qPrintable(lines.at(1)));
        QVERIFY2(!lines.at(2).contains(QLatin1String("passwd)")), qPrintable(lines.at(2)));
        QCOMPARE(lines.at(3), QStringLiteral("[image not found: elsewhere.png]"));
        QCOMPARE(source.sandboxNameFor(QStringLiteral("sandbox:mnt/data/x.csv")), QStringLiteral("x.csv"));
        QCOMPARE(source.sandboxNameFor(QStringLiteral("/mnt/data/../x.csv")), QString());
        QCOMPARE(MarkdownSource(QString(), nullptr).sandboxNameFor(QStringLiteral("/mnt/data/x.csv")), QString());
    }

    // An image from the web is a link until the user asks, and says so when it failed.
    void remoteImagesWaitForTheUser()
    {
        RemoteImages images;
        const MarkdownSource source(QString(), &images);
        QStringList code;
        QStringList languages;
        const QString prepared =
            source.prepare(QStringLiteral("![tracker](https://tracker.example/p.png)"), &code, &languages);
        QVERIFY2(prepared.startsWith(QLatin1String("[Load image from tracker.example](load-image:")),
                 qPrintable(prepared));
        QVERIFY(!prepared.contains(QLatin1String("(https://tracker.example/p.png)")));
        // Port 1 of this machine refuses the connection.
        const QString refused = QStringLiteral("http://127.0.0.1:1/p.png");
        QSignalSpy finished(&images, &RemoteImages::finished);
        images.load(QUrl(refused));
        QVERIFY(finished.wait(10000));
        const QString failed = source.prepare(QStringLiteral("![x](%1)").arg(refused), &code, &languages);
        QCOMPARE(failed, QStringLiteral("[the image at %1 could not be loaded]").arg(refused));
    }
};

QTEST_MAIN(TestMarkdownSource)
#include "tst_markdownsource.moc"
