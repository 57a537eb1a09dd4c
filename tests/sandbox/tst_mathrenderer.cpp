// The math renderer against the real sandbox image (issue 17): formulas drawn as SVG, TeX that
// does not parse refused with its reason, the disk cache, and every way it can be unavailable.
#include "dockertest.h"
#include "sandboxfiles.h"

#include <math/mathrenderer.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper;

namespace {

// Asks for TEX and waits for its answer.
MathRenderer::Formula draw(MathRenderer &renderer, const QString &tex)
{
    QSignalSpy finished(&renderer, &MathRenderer::finished);
    renderer.request(tex);
    for (int i = 0; i < 3 && renderer.formula(tex).state == MathRenderer::State::Rendering; ++i)
        finished.wait(30000);
    return renderer.formula(tex);
}

// Sets PATH's modification time to WHEN.
bool setModified(const QString &path, const QDateTime &when)
{
    QFile file(path);
    return file.open(QIODevice::ReadWrite) && file.setFileTime(when, QFileDevice::FileModificationTime);
}

} // namespace

class TestMathRenderer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void drawsAFormula()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QTemporaryDir cache;
        MathRenderer renderer(Test::sandboxImage(), cache.path());
        const MathRenderer::Formula formula =
            draw(renderer, QStringLiteral("\\sigma = \\sqrt{\\frac{1}{N}\\sum (x_i-\\mu)^2}"));
        QCOMPARE(formula.state, MathRenderer::State::Drawn);
        QVERIFY(formula.svg.startsWith("<svg "));
        QVERIFY(formula.svg.contains("<path"));
        // A root over a fraction: taller than the text, and below the baseline too (the subscript).
        QVERIFY2(formula.ascent > 10 && formula.descent > 2 && formula.width > 50,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(formula.width).arg(formula.ascent).arg(formula.descent)));
        QCOMPARE(renderer.pendingCount(), 0);
    }

    void texThatDoesNotParseSaysWhy()
    {
        SANDPIPER_REQUIRE_DOCKER();
        MathRenderer renderer(Test::sandboxImage(), QString());
        const MathRenderer::Formula broken = draw(renderer, QStringLiteral("\\frac{1}"));
        QCOMPARE(broken.state, MathRenderer::State::Failed);
        QVERIFY2(broken.error.contains(QLatin1String("frac")), qPrintable(broken.error));
        // What breaks the parser itself (recursion) is refused too, and the renderer goes on.
        const MathRenderer::Formula deep = draw(renderer, QStringLiteral("\\sqrt{").repeated(400));
        QCOMPARE(deep.state, MathRenderer::State::Failed);
        QCOMPARE(draw(renderer, QStringLiteral("a^2+b^2=c^2")).state, MathRenderer::State::Drawn);
        // What models write that mathtext spells differently is drawn.
        QCOMPARE(draw(renderer, QStringLiteral("a \\le b \\iff x \\equiv 1 \\pmod{7}")).state,
                 MathRenderer::State::Drawn);
    }

    void manyFormulasAreAnsweredInOneGo()
    {
        SANDPIPER_REQUIRE_DOCKER();
        MathRenderer renderer(Test::sandboxImage(), QString());
        QSignalSpy finished(&renderer, &MathRenderer::finished);
        for (int i = 0; i < 200; ++i)
            renderer.request(QStringLiteral("x_{%1}^2 + \\frac{%1}{y}").arg(i));
        renderer.request(QStringLiteral("x_{1}^2 + \\frac{1}{y}")); // asked twice, drawn once
        QCOMPARE(renderer.pendingCount(), 200);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 200, 60000);
        QCOMPARE(renderer.pendingCount(), 0);
        for (int i = 0; i < 200; ++i)
            QCOMPARE(renderer.formula(QStringLiteral("x_{%1}^2 + \\frac{%1}{y}").arg(i)).state,
                     MathRenderer::State::Drawn);
    }

    void drawnFormulasAreKeptOnDisk()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QTemporaryDir cache;
        const QString tex = QStringLiteral("e^{i\\pi} + 1 = 0");
        MathRenderer::Formula first;
        {
            MathRenderer renderer(Test::sandboxImage(), cache.path());
            first = draw(renderer, tex);
            QCOMPARE(first.state, MathRenderer::State::Drawn);
        }
        const QStringList files = QDir(cache.path()).entryList(QDir::Files);
        QCOMPARE(files.size(), 1);
        const QString path = cache.filePath(files.first());
        const QDateTime longAgo = QDateTime::currentDateTimeUtc().addDays(-100);
        QVERIFY(setModified(path, longAgo));
        // A later run has it without a container: the image does not even exist.
        MathRenderer again(QStringLiteral("sandpiper-no-such-image:0"), cache.path());
        const MathRenderer::Formula kept = again.formula(tex);
        QCOMPARE(kept.state, MathRenderer::State::Drawn);
        QCOMPARE(kept.svg, first.svg);
        QCOMPARE(kept.ascent, first.ascent);
        // Shown again, so it is among the last to go when the cache is pruned.
        QVERIFY(QFileInfo(path).lastModified() > longAgo.addDays(99));
        // A damaged cache file is not shown: the formula is drawn again.
        QFile damaged(cache.filePath(files.first()));
        QVERIFY(damaged.open(QIODevice::WriteOnly));
        damaged.write("{\"tex\": \"e^{i\\\\pi} + 1 = 0\", \"svg\": \"<script>\", \"width\": -1}");
        damaged.close();
        MathRenderer third(QStringLiteral("sandpiper-no-such-image:0"), cache.path());
        QCOMPARE(third.formula(tex).state, MathRenderer::State::Missing);
        // Nor one that names a file of this computer, which Qt's SVG renderer would open.
        QVERIFY(damaged.open(QIODevice::WriteOnly));
        damaged.write(QJsonDocument(QJsonObject{{QStringLiteral("tex"), tex},
                                                {QStringLiteral("svg"),
                                                 QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" "
                                                                "height=\"9\"><image href=\"/etc/x.png\"/></svg>")},
                                                {QStringLiteral("width"), 9},
                                                {QStringLiteral("ascent"), 9},
                                                {QStringLiteral("descent"), 0}})
                          .toJson());
        damaged.close();
        MathRenderer fourth(QStringLiteral("sandpiper-no-such-image:0"), cache.path());
        QCOMPARE(fourth.formula(tex).state, MathRenderer::State::Missing);
    }

    // Past its limit the cache loses the formulas shown least recently, down to three quarters.
    void theCacheIsPrunedOldestFirst()
    {
        QTemporaryDir cache;
        const QDateTime now = QDateTime::currentDateTimeUtc();
        for (int i = 0; i < 40; ++i) {
            const QString path = cache.filePath(QStringLiteral("%1.json").arg(i, 2, 10, QLatin1Char('0')));
            QVERIFY(Test::writeFile(path, QByteArray(1000, 'x')));
            QVERIFY(setModified(path, now.addSecs(-3600 + i))); // 00 is the oldest
        }
        QVERIFY(Test::writeFile(cache.filePath(QStringLiteral("notes.txt")), QByteArray(50000, 'x')));
        MathRenderer::pruneCache(cache.path(), 40000); // at the limit: nothing goes
        QCOMPARE(QDir(cache.path()).entryList({QStringLiteral("*.json")}).size(), 40);
        MathRenderer::pruneCache(cache.path(), 20000);
        const QStringList left = QDir(cache.path()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QCOMPARE(left.size(), 15);
        QCOMPARE(left.first(), QStringLiteral("25.json"));
        QVERIFY(QFile::exists(cache.filePath(QStringLiteral("notes.txt")))); // not a formula
    }

    void withoutTheImageFormulasAreUnavailable()
    {
        SANDPIPER_REQUIRE_DOCKER();
        MathRenderer renderer(QStringLiteral("sandpiper-no-such-image:0"), QString());
        const MathRenderer::Formula formula = draw(renderer, QStringLiteral("x^2"));
        QCOMPARE(formula.state, MathRenderer::State::Unavailable);
        QVERIFY2(formula.error.contains(QLatin1String("sandpiper-no-such-image:0 is missing")),
                 qPrintable(formula.error));
        QCOMPARE(renderer.pendingCount(), 0);
        // The next formula is not sent to a renderer that just failed: it is unavailable at once.
        QSignalSpy finished(&renderer, &MathRenderer::finished);
        renderer.request(QStringLiteral("y^2"));
        QCOMPARE(finished.size(), 1);
        QCOMPARE(renderer.formula(QStringLiteral("y^2")).state, MathRenderer::State::Unavailable);
        QCOMPARE(renderer.formula(QStringLiteral("y^2")).error, formula.error);
    }

    void withTheSandboxOffNothingStarts()
    {
        MathRenderer renderer(QStringLiteral("sandpiper-no-such-image:0"), QString());
        renderer.setEnabled(false);
        QSignalSpy finished(&renderer, &MathRenderer::finished);
        renderer.request(QStringLiteral("x^2"));
        QCOMPARE(finished.size(), 1);
        const MathRenderer::Formula formula = renderer.formula(QStringLiteral("x^2"));
        QCOMPARE(formula.state, MathRenderer::State::Unavailable);
        QVERIFY2(formula.error.contains(QLatin1String("off")), qPrintable(formula.error));
        // Turned on again, the formula is asked for anew (the views paint it again).
        renderer.setEnabled(true);
        QCOMPARE(finished.size(), 2);
        QCOMPARE(renderer.formula(QStringLiteral("x^2")).state, MathRenderer::State::Missing);
    }

    void aFormulaTooLongIsNotSent()
    {
        MathRenderer renderer(QStringLiteral("sandpiper-no-such-image:0"), QString());
        const QString tex = QStringLiteral("x+").repeated(int(MathRenderer::maxTexLength));
        renderer.request(tex);
        QCOMPARE(renderer.formula(tex).state, MathRenderer::State::Failed);
        QCOMPARE(renderer.pendingCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestMathRenderer)
#include "tst_mathrenderer.moc"
