#include "dockertest.h"

#include <sandbox/dockercli.h>
#include <sandbox/imagemanager.h>

#include <QCoroTask>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using Sandpiper::DockerCli;
using Sandpiper::ImageManager;

class TestImageManager : public QObject
{
    Q_OBJECT

    static void writeDockerfile(const QTemporaryDir &dir, const QByteArray &text)
    {
        QFile file(dir.filePath(QStringLiteral("Dockerfile")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
    }

private Q_SLOTS:
    void init() { SANDPIPER_REQUIRE_DOCKER(); }

    void knowsWhichImagesArePresent()
    {
        QVERIFY(QCoro::waitFor(ImageManager::isPresent(Sandpiper::Test::sandboxImage())));
        QVERIFY(!QCoro::waitFor(ImageManager::isPresent(QStringLiteral("sandpiper-sandbox:no-such-tag"))));
    }

    void buildsAnImageAndReportsProgress()
    {
        // Built on top of the local sandbox image, so no registry is needed.
        QTemporaryDir dir;
        writeDockerfile(dir, "FROM " + Sandpiper::Test::sandboxImage().toUtf8() +
                                 "\nRUN python3 -c \"print('built' + 'ok')\"\n");
        const QString tag = QStringLiteral("sandpiper-test-build:%1").arg(QCoreApplication::applicationPid());
        ImageManager manager;
        QSignalSpy progress(&manager, &ImageManager::progress);
        QVERIFY2(QCoro::waitFor(manager.build(tag, dir.path())), qPrintable(manager.lastError()));
        QVERIFY(progress.count() > 0);
        QVERIFY(QCoro::waitFor(ImageManager::isPresent(tag)));
        QCoro::waitFor(DockerCli::run({QStringLiteral("rmi"), QStringLiteral("-f"), tag}));
    }

    void aFailingBuildSaysWhy()
    {
        QTemporaryDir dir;
        writeDockerfile(dir, "FROM " + Sandpiper::Test::sandboxImage().toUtf8() + "\nRUN exit 3\n");
        // The stopped containers the failing step could leave behind, by their command.
        const auto leftovers = [] {
            const auto listed =
                QCoro::waitFor(DockerCli::run({QStringLiteral("ps"), QStringLiteral("-a"), QStringLiteral("--no-trunc"),
                                               QStringLiteral("--format"), QStringLiteral("{{.Command}}")}));
            return QString::fromUtf8(listed.standardOutput).count(QLatin1String("exit 3"));
        };
        const qsizetype before = leftovers();
        ImageManager manager;
        QVERIFY(!QCoro::waitFor(manager.build(QStringLiteral("sandpiper-test-build:broken"), dir.path())));
        QVERIFY2(manager.lastError().startsWith(QLatin1String("Building the image failed")),
                 qPrintable(manager.lastError()));
        QCOMPARE(leftovers(), before);
    }

    void aFolderWithoutDockerfileIsRefused()
    {
        QTemporaryDir dir;
        ImageManager manager;
        QVERIFY(!QCoro::waitFor(manager.build(QStringLiteral("sandpiper-test-build:none"), dir.path())));
        QVERIFY(manager.lastError().contains(QLatin1String("no Dockerfile")));
    }
};

QTEST_GUILESS_MAIN(TestImageManager)
#include "tst_imagemanager.moc"
