// The disk watch of a conversation's folder: growth past the limit, sparse files, new folders,
// files that stay past the limit, a nearly full disk, with inotify and by polling.
#include <sandbox/diskwatch.h>

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using Method = DiskWatch::Method;
using Breach = DiskWatch::Breach;

Q_DECLARE_METATYPE(DiskWatch::Method)

namespace {

constexpr qint64 MiB = 1 << 20;

void grow(const QString &path, qint64 bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::Append));
    const QByteArray chunk(int(std::min<qint64>(bytes, MiB)), 'x');
    for (qint64 written = 0; written < bytes; written += chunk.size())
        QCOMPARE(file.write(chunk), qint64(chunk.size()));
}

} // namespace

class TestDiskWatch : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;

    QString folder() const { return m_dir->filePath(QStringLiteral("conversation")); }

    void addMethods()
    {
        QTest::addColumn<Method>("method");
        QTest::newRow("inotify") << Method::Inotify;
        QTest::newRow("polling") << Method::Polling;
    }

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<DiskWatch::Breach>(); }
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(QDir().mkpath(folder()));
    }

    void growingPastTheLimitIsReported_data() { addMethods(); }
    void growingPastTheLimitIsReported()
    {
        QFETCH(Method, method);
        DiskWatch watch(SandboxFolder(folder()), {4 * MiB, 0}, method);
        QSignalSpy breaches(&watch, &DiskWatch::breached);
        watch.start();
        QVERIFY(watch.isActive());
        grow(folder() + QStringLiteral("/data.bin"), 3 * MiB);
        QTest::qWait(600);
        QCOMPARE(breaches.count(), 0);
        grow(folder() + QStringLiteral("/data.bin"), 2 * MiB);
        QVERIFY(breaches.wait(3000));
        QCOMPARE(breaches.first().at(0).value<Breach>(), Breach::FolderLimit);
        QVERIFY(breaches.first().at(1).toLongLong() > 4 * MiB);
        // Reported once, and again only when it keeps growing by a clear step.
        grow(folder() + QStringLiteral("/data.bin"), 1 * MiB);
        QTest::qWait(600);
        QCOMPARE(breaches.count(), 1);
        grow(folder() + QStringLiteral("/data.bin"), 70 * MiB);
        QVERIFY(breaches.wait(3000));
    }

    void writesInANewFolderCount_data() { addMethods(); }
    void writesInANewFolderCount()
    {
        QFETCH(Method, method);
        DiskWatch watch(SandboxFolder(folder()), {4 * MiB, 0}, method);
        QSignalSpy breaches(&watch, &DiskWatch::breached);
        watch.start();
        QVERIFY(QDir().mkpath(folder() + QStringLiteral("/a/b")));
        QTest::qWait(400); // the new folder is watched now
        grow(folder() + QStringLiteral("/a/b/deep.bin"), 5 * MiB);
        QVERIFY(breaches.wait(3000));
    }

    void aSparseFileCountsInFull_data() { addMethods(); }
    void aSparseFileCountsInFull()
    {
        QFETCH(Method, method);
        DiskWatch watch(SandboxFolder(folder()), {4 * MiB, 0}, method);
        QSignalSpy breaches(&watch, &DiskWatch::breached);
        watch.start();
        QFile sparse(folder() + QStringLiteral("/sparse.bin"));
        QVERIFY(sparse.open(QIODevice::WriteOnly));
        QVERIFY(sparse.resize(qint64(1) << 32));
        QVERIFY(breaches.wait(3000));
    }

    // The files of an execution that went past the limit stay: the next period may shrink them,
    // and grow again up to the smallest size it reached, not beyond.
    void aFolderAlreadyPastTheLimitMayOnlyShrink()
    {
        grow(folder() + QStringLiteral("/kept.bin"), 6 * MiB);
        DiskWatch watch(SandboxFolder(folder()), {4 * MiB, 0});
        QSignalSpy breaches(&watch, &DiskWatch::breached);
        watch.start();
        watch.rebase(true);
        QTest::qWait(400);
        QCOMPARE(breaches.count(), 0);
        grow(folder() + QStringLiteral("/kept.bin"), MiB);
        QVERIFY(breaches.wait(3000)); // past the limit and growing
        watch.rebase(true);
        QFile kept(folder() + QStringLiteral("/kept.bin"));
        QVERIFY(kept.resize(2 * MiB));
        QTest::qWait(400);
        grow(folder() + QStringLiteral("/kept.bin"), MiB);
        QTest::qWait(600);
        QCOMPARE(breaches.count(), 1); // 3 MiB, under the limit again
        grow(folder() + QStringLiteral("/more.bin"), 2 * MiB);
        QVERIFY(breaches.wait(3000));
    }

    void aNearlyFullDiskStopsWritesOnlyWhileCodeRuns()
    {
        // Asking for more free space than any disk has stands in for a full disk.
        DiskWatch watch(SandboxFolder(folder()), {0, std::numeric_limits<qint64>::max() / 2});
        QSignalSpy breaches(&watch, &DiskWatch::breached);
        watch.start();
        grow(folder() + QStringLiteral("/upload.bin"), MiB);
        QTest::qWait(600);
        QCOMPARE(breaches.count(), 0); // idle: the user's uploads never stop the sandbox
        watch.rebase(true);
        QTest::qWait(300);
        QCOMPARE(breaches.count(), 0); // nothing written yet
        grow(folder() + QStringLiteral("/written.bin"), MiB);
        QVERIFY(breaches.wait(3000));
        QCOMPARE(breaches.first().at(0).value<Breach>(), Breach::DiskAlmostFull);
    }

    void stopsWatching()
    {
        DiskWatch watch(SandboxFolder(folder()), {MiB, 0});
        QSignalSpy breaches(&watch, &DiskWatch::breached);
        watch.start();
        watch.stop();
        QVERIFY(!watch.isActive());
        grow(folder() + QStringLiteral("/data.bin"), 2 * MiB);
        QTest::qWait(1500);
        QCOMPARE(breaches.count(), 0);
    }
};

QTEST_GUILESS_MAIN(TestDiskWatch)
#include "tst_diskwatch.moc"
