// A remote engine's files, carried by RemoteFileSync alone: a container on this machine's engine
// started as a remote one is (its /mnt/data a tmpfs of its own, nothing mounted), so what reaches
// it and what comes back goes only the way the sync carries it.
#include "dockertest.h"
#include "sandboxfiles.h"

#include <sandbox/containerlauncher.h>
#include <sandbox/dockercli.h>
#include <sandbox/enginefeatures.h>
#include <sandbox/enginefiles.h>
#include <sandbox/remotefilesync.h>
#include <sandbox/sandboxfolder.h>

#include <QCoroTask>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using Sandpiper::Test::readFile;
using Sandpiper::Test::writeFile;

class TestRemoteFileSync : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    SandboxConfig m_config;
    ContainerFiles::Container m_container;
    std::unique_ptr<RemoteFileSync> m_sync;

    QString here(const QString &name) const { return m_dir.filePath(name); }

    // What /mnt/data/NAME holds in the container; empty with OK false when there is no such file.
    QByteArray there(const QString &name, bool *ok = nullptr) const
    {
        const auto cat = QCoro::waitFor(DockerCli::run(
            {QStringLiteral("exec"), m_container.name, QStringLiteral("cat"), QStringLiteral("/mnt/data/") + name}));
        if (ok)
            *ok = cat.ok();
        return cat.standardOutput;
    }

    // Runs the shell command COMMAND in the container, as the sandbox user, as code would.
    void inContainer(const QString &command) const
    {
        const auto run = QCoro::waitFor(DockerCli::run(
            {QStringLiteral("exec"), QStringLiteral("--user"), m_container.user, QStringLiteral("-w"),
             QStringLiteral("/mnt/data"), m_container.name, QStringLiteral("sh"), QStringLiteral("-c"), command}));
        QVERIFY2(run.ok(), qPrintable(run.errorMessage()));
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QVERIFY(m_dir.isValid());
        m_config.image = Sandpiper::Test::sandboxImage();
        m_config.conversationId = QStringLiteral("filesync");
        m_config.dataDirectory = m_dir.path();
        m_config.diskLimitBytes = 64 << 20;
        m_config.remoteFetchLimitBytes = 1 << 20;
        m_container = {ContainerLauncher::containerName(m_config.conversationId), ContainerLauncher::sandboxUser(),
                       DockerCli::Engine::chosen()};
        // In the background, the kernel waiting on its open input: the container stays.
        QStringList arguments = ContainerLauncher::runArguments(
            m_config, m_container.name, QCoro::waitFor(EngineFeatures::of(m_container.engine)), true);
        arguments.insert(1, QStringLiteral("-d"));
        const auto started =
            QCoro::waitFor(DockerCli::run(arguments, {}, std::chrono::seconds(60), m_container.engine));
        QVERIFY2(started.ok(), qPrintable(started.errorMessage()));
        m_sync = std::make_unique<RemoteFileSync>(m_config, SandboxFolder(m_dir.path()));
        m_sync->reset(m_container);
    }

    void cleanupTestCase()
    {
        if (!m_container.name.isEmpty())
            QCoro::waitFor(DockerCli::run({QStringLiteral("rm"), QStringLiteral("-f"), m_container.name}));
    }

    void sendsWhatChangedHere()
    {
        QVERIFY(writeFile(here(QStringLiteral("a.txt")), "first"));
        QVERIFY(writeFile(here(QStringLiteral("sub/b.txt")), "bee"));
        QVERIFY(writeFile(here(QStringLiteral("figures/f.png")), Sandpiper::Test::pngHeader(10, 10)));
        QCOMPARE(QCoro::waitFor(m_sync->sendChanges()), QStringList());
        QCOMPARE(there(QStringLiteral("a.txt")), QByteArray("first"));
        QCOMPARE(there(QStringLiteral("sub/b.txt")), QByteArray("bee"));
        bool ok = true;
        there(QStringLiteral("figures/f.png"), &ok);
        QVERIFY2(!ok, "figures stay here: code does not read them");
        // A changed file goes again, a deleted one goes there too.
        QVERIFY(writeFile(here(QStringLiteral("a.txt")), "second version"));
        QVERIFY(QFile::remove(here(QStringLiteral("sub/b.txt"))));
        QCOMPARE(QCoro::waitFor(m_sync->sendChanges()), QStringList());
        QCOMPARE(there(QStringLiteral("a.txt")), QByteArray("second version"));
        there(QStringLiteral("sub/b.txt"), &ok);
        QVERIFY(!ok);
    }

    void fetchesWhatTheCodeWrote()
    {
        inContainer(QStringLiteral("printf written > new.txt"));
        const ContainerFiles::Fetched fetched = QCoro::waitFor(m_sync->fetch({QStringLiteral("new.txt")}));
        QCOMPARE(fetched.written, QStringList{QStringLiteral("new.txt")});
        QVERIFY(fetched.error.isEmpty());
        QCOMPARE(readFile(here(QStringLiteral("new.txt"))), QByteArray("written"));
    }

    void removesOnlyCopiesTheContainerHad()
    {
        QVERIFY(writeFile(here(QStringLiteral("mine.txt")), "never sent"));
        QVERIFY(QFile::exists(here(QStringLiteral("new.txt"))));
        // The code deleted them there: the copies here go; a file the container never had stays,
        // and so does a name that leaves the folder.
        m_sync->removeHostCopies(
            {QStringLiteral("new.txt"), QStringLiteral("mine.txt"), QStringLiteral("../outside.txt")});
        QVERIFY(!QFile::exists(here(QStringLiteral("new.txt"))));
        QVERIFY(QFile::exists(here(QStringLiteral("mine.txt"))));
    }

    void leavesLargeFilesThereUntilAskedFor()
    {
        inContainer(QStringLiteral("head -c 2000000 /dev/zero > big.bin; printf small > small.txt"));
        const QMap<QString, qint64> large =
            QCoro::waitFor(m_sync->largeFiles({QStringLiteral("big.bin"), QStringLiteral("small.txt")}));
        QCOMPARE(large, (QMap<QString, qint64>{{QStringLiteral("big.bin"), 2000000}}));
        m_sync->leaveOnEngine(QStringLiteral("big.bin"), 2000000);
        QVERIFY(EngineFiles::find(m_dir.path(), QStringLiteral("big.bin")).has_value());
        QVERIFY(!QFile::exists(here(QStringLiteral("big.bin"))));
        // Before the container goes, what it kept comes here.
        QCOMPARE(QCoro::waitFor(m_sync->fetchKept()), QStringList());
        QCOMPARE(QFileInfo(here(QStringLiteral("big.bin"))).size(), 2000000);
    }
};

QTEST_GUILESS_MAIN(TestRemoteFileSync)
#include "tst_remotefilesync.moc"
