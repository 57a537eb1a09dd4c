// An SVG that the model's code shows from the real sandbox, naming a picture of this computer by
// its absolute path and a FIFO it made in its own folder: the chat shows what the SVG holds and
// nothing else, says what it did not load, and never waits for the FIFO.
#include "dockertest.h"
#include "fiforeleaser.h"
#include "sandboxfixture.h"
#include "svgpicture.h"

#include <chat/executionresultview.h>

#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;

class TestHostileSvg : public QObject
{
    Q_OBJECT

    Test::SandboxFixture m_sandbox;

private Q_SLOTS:
    void cleanupTestCase() { m_sandbox.reset(); }

    void anSvgFromTheSandboxReadsNothingHere()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QTemporaryDir host;
        QImage red(40, 30, QImage::Format_RGB32);
        red.fill(qRgb(255, 0, 0));
        const QString secret = host.filePath(QStringLiteral("secret.png"));
        QVERIFY(red.save(secret));
        const QString fifo = m_sandbox.sharedPath(QStringLiteral("pipe"));
        const QString code =
            QStringLiteral("import os\n"
                           "from IPython.display import SVG, display\n"
                           "os.mkfifo('/mnt/data/pipe')\n"
                           "display(SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"30\">'\n"
                           "  '<rect width=\"10\" height=\"10\" fill=\"#00ff00\"/>'\n"
                           "  '<image href=\"%1\" width=\"40\" height=\"30\"/>'\n"
                           "  '<image href=\"%2\" width=\"9\" height=\"9\"/></svg>'))\n")
                .arg(secret, fifo);
        const ExecutionResult result = Test::run(m_sandbox.shared(), code);
        QCOMPARE(result.status, ExecutionResult::Status::Ok);
        QCOMPARE(result.svg.size(), 1);
        // Should the window open the FIFO after all, it is let go after 5 s, and the test fails.
        Test::FifoReleaser releaser(QFile::encodeName(fifo), std::chrono::seconds(5));
        QElapsedTimer clock;
        clock.start();
        const ExecutionResultView view(result, m_sandbox.shared().config().dataDirectory,
                                       ExecutionResultView::Place::Card);
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QStringLiteral("the view took %1 ms").arg(clock.elapsed())));
        QTRY_VERIFY_WITH_TIMEOUT(!Test::svgPicture(view).isNull(), 4000);
        QCOMPARE(releaser.stop(), 0);
        const QImage picture = Test::svgPicture(view);
        QCOMPARE(Test::pixelsOf(picture, qRgb(255, 0, 0)), 0);
        QCOMPARE(Test::pixelsOf(picture, qRgb(0, 255, 0)), 100);
    }
};

QTEST_MAIN(TestHostileSvg)
#include "tst_hostilesvg.moc"
