// The conversation's folder follows the branch (issue 27): what it held after each run is
// recorded by content, kept once, and put back; a hostile folder is never followed; a damaged
// store leaves the folder as it was; databases of version 8 keep every row.
#include "agentrecorder.h"
#include "dockertest.h"
#include "rawdatabase.h"
#include "testconversation.h"

#include <agent/kernelrestorer.h>
#include <agent/toolcallrunner.h>
#include <sandbox/sandboxsession.h>
#include <storage/conversationstore.h>
#include <storage/schema.h>
#include <tools/toolregistry.h>

#include <QCoroTask>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Sandpiper;
using namespace Sandpiper::Test;

namespace {

constexpr qint64 MiB = 1024 * 1024;

QByteArray randomBytes(qint64 size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    QRandomGenerator generator(27);
    generator.fillRange(reinterpret_cast<quint32 *>(bytes.data()), size / 4);
    return bytes;
}

// Every regular file of FOLDER (links not followed) and its bytes; links and others as "->" / "?".
QMap<QString, QByteArray> contents(const QString &folder)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(folder, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info = it.nextFileInfo();
        const QString name = QDir(folder).relativeFilePath(info.filePath());
        if (info.isSymLink())
            files.insert(name, "->" + info.symLinkTarget().toUtf8());
        else if (info.isFile()) {
            QFile file(info.filePath());
            files.insert(name, file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("?"));
        } else if (!info.isDir())
            files.insert(name, "?");
    }
    return files;
}

// Disk space the files under FOLDER take.
qint64 diskUsage(const QString &folder)
{
    qint64 bytes = 0;
    QDirIterator it(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        struct stat st;
        if (::lstat(QFile::encodeName(it.next()).constData(), &st) == 0)
            bytes += qint64(st.st_blocks) * 512;
    }
    return bytes;
}

void write(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    QCOMPARE(file.write(bytes), bytes.size());
}

} // namespace

class TestFolderSnapshots : public QObject
{
    Q_OBJECT

    TestConversation m_data;

    ConversationStore &store() { return *m_data.store; }
    QString path(const QString &name) const { return m_data.folder() + u'/' + name; }

    // A run of the conversation, stored and its folder recorded; its id.
    qint64 run(const QString &code, qint64 fileLimit = 0)
    {
        StoredExecution execution;
        execution.conversationId = m_data.id;
        execution.code = code;
        execution.origin = RunOrigin::User;
        execution.result.status = ExecutionResult::Status::Ok;
        const auto stored = store().addExecution(execution);
        if (!stored)
            return 0;
        const auto recorded = store().recordFolder(m_data.id, stored->id, fileLimit);
        if (!recorded) {
            qWarning().noquote() << recorded.error().message;
            return 0;
        }
        return stored->id;
    }

    FolderRestore restored(qint64 executionId)
    {
        const auto restore = store().restoreFolder(m_data.id, executionId);
        if (!restore) {
            qWarning().noquote() << restore.error().message;
            return {0, 0, 0, 0, restore.error().message};
        }
        return *restore;
    }

private Q_SLOTS:
    void init()
    {
        const QString opened = m_data.open();
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
    }

    void cleanup() { m_data.close(); }

    // Branch 1 writes result.csv and a nested figure; branch 2, beside it, writes other.txt. Each
    // branch gets its own files back, byte for byte; the attached file stays through all of it.
    void eachBranchGetsItsFilesBack()
    {
        const QString attachedSource = m_data.dataFolder->filePath(QStringLiteral("penguins.csv"));
        write(attachedSource, "species,count\nemperor,500000\n");
        const auto attached = store().attachFile(m_data.id, attachedSource);
        QVERIFY(attached.ok());
        const QByteArray csv = randomBytes(200 * 1024);
        const QByteArray figure = randomBytes(4096);
        write(path(QStringLiteral("result.csv")), csv);
        write(path(QStringLiteral("out/plots/figure.png")), figure);
        QVERIFY(QFile::setPermissions(path(QStringLiteral("out/plots/figure.png")),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const qint64 first = run(QStringLiteral("branch 1"));
        QVERIFY(first != 0);
        const auto afterFirst = contents(m_data.folder());

        // The user goes to a sibling branch: before any code ran there, then its own run.
        FolderRestore back = restored(0);
        QCOMPARE(back.problem, QString());
        QCOMPARE(contents(m_data.folder()).keys(), QStringList{QStringLiteral("penguins.csv")});
        QCOMPARE(back.kept, 0);
        QCOMPARE(back.removed, 2);
        write(path(QStringLiteral("other.txt")), "branch two");
        const qint64 second = run(QStringLiteral("branch 2"));
        QVERIFY(second != 0);

        back = restored(first);
        QCOMPARE(back.problem, QString());
        QCOMPARE(contents(m_data.folder()), afterFirst);
        QVERIFY(QFileInfo(path(QStringLiteral("out/plots/figure.png"))).isExecutable());
        QVERIFY(!QFileInfo(path(QStringLiteral("result.csv"))).isExecutable());
        QCOMPARE(back.written, 2);
        QCOMPARE(back.removed, 1);
        QCOMPARE(back.bytesWritten, csv.size() + figure.size());

        back = restored(second);
        QCOMPARE(back.problem, QString());
        QCOMPARE(contents(m_data.folder()).keys(),
                 (QStringList{QStringLiteral("other.txt"), QStringLiteral("penguins.csv")}));
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("out"))));

        // Restoring what is there already touches nothing.
        back = restored(second);
        QCOMPARE(back.written, 0);
        QCOMPARE(back.removed, 0);
        QCOMPARE(back.kept, 2);

        // A file the user attached after a run stays when the folder goes back to that run.
        const QString later = m_data.dataFolder->filePath(QStringLiteral("later.txt"));
        write(later, "attached later");
        QVERIFY(store().attachFile(m_data.id, later).ok());
        QCOMPARE(restored(first).problem, QString());
        QCOMPARE(contents(m_data.folder()).value(QStringLiteral("later.txt")), QByteArray("attached later"));
        QCOMPARE(contents(m_data.folder()).value(QStringLiteral("result.csv")), csv);
    }

    // A 100 MB file that no run changes, across 20 runs on alternating branches: one copy in the
    // store, hashed once.
    void anUnchangedFileIsKeptOnceAndHashedOnce()
    {
        const QByteArray big = randomBytes(100 * MiB);
        write(path(QStringLiteral("big.bin")), big);
        // Its times are trusted once its last change is older than the margin.
        QTest::qSleep(int(1100));
        QList<qint64> runs;
        for (int i = 0; i < 20; ++i) {
            if (i >= 2)
                QCOMPARE(restored(runs.at(i - 2)).written, 1); // the branch before the last one
            write(path(QStringLiteral("branch.txt")), QByteArray::number(i));
            runs << run(QStringLiteral("run %1").arg(i));
            QVERIFY(runs.last() != 0);
        }
        const qint64 used = diskUsage(store().snapshotFolder());
        QVERIFY2(used <= 110 * MiB, qPrintable(QString::number(used)));
        QVERIFY2(used >= 100 * MiB, qPrintable(QString::number(used)));
        QVERIFY2(store().snapshotHashedBytes() < 101 * MiB, qPrintable(QString::number(store().snapshotHashedBytes())));
        const FolderRestore back = restored(runs.at(3));
        QCOMPARE(back.kept, 1);
        QCOMPARE(back.written, 1);
        QCOMPARE(contents(m_data.folder()).value(QStringLiteral("branch.txt")), QByteArray("3"));
        QVERIFY(QFile(path(QStringLiteral("big.bin"))).size() == big.size());
    }

    // The sandbox left a link to /etc/passwd under a recorded name, swapped a folder for a link
    // out of the folder, made a FIFO and a sparse 10 GB file: recording and restoring follow none
    // of them, hang on none, and the folder comes back as recorded.
    void aHostileFolderIsNeitherFollowedNorWaitedOn()
    {
        write(path(QStringLiteral("data.txt")), "recorded data");
        write(path(QStringLiteral("sub/inner.txt")), "recorded inner");
        const qint64 first = run(QStringLiteral("clean"));
        QVERIFY(first != 0);

        QTemporaryDir outside;
        write(outside.filePath(QStringLiteral("inner.txt")), "outside");
        QFile passwd(QStringLiteral("/etc/passwd"));
        QVERIFY(passwd.open(QIODevice::ReadOnly));
        const QByteArray passwdBytes = passwd.readAll();
        QVERIFY(QFile::remove(path(QStringLiteral("data.txt"))));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), path(QStringLiteral("data.txt"))));
        QVERIFY(QDir(path(QStringLiteral("sub"))).removeRecursively());
        QVERIFY(QFile::link(outside.path(), path(QStringLiteral("sub"))));
        QCOMPARE(::mkfifo(QFile::encodeName(path(QStringLiteral("pipe"))).constData(), 0644), 0);
        {
            QFile sparse(path(QStringLiteral("huge.bin")));
            QVERIFY(sparse.open(QIODevice::WriteOnly));
            QVERIFY(sparse.resize(qint64(10) << 30));
        }
        const qint64 hostile = run(QStringLiteral("hostile"), qint64(1) << 30);
        QVERIFY(hostile != 0);

        // What the hostile run left is what its manifest says: none of the links, no FIFO, and
        // the sparse file left out with a reason.
        const FolderRestore again = restored(hostile);
        QVERIFY2(again.problem.contains(QLatin1String("huge.bin")), qPrintable(again.problem));
        QCOMPARE(contents(m_data.folder()).keys(), QStringList());

        const FolderRestore back = restored(first);
        QCOMPARE(back.problem, QString());
        QCOMPARE(contents(m_data.folder()),
                 (QMap<QString, QByteArray>{{QStringLiteral("data.txt"), "recorded data"},
                                            {QStringLiteral("sub/inner.txt"), "recorded inner"}}));
        QCOMPARE(contents(outside.path()), (QMap<QString, QByteArray>{{QStringLiteral("inner.txt"), "outside"}}));
        QVERIFY(passwd.seek(0));
        QCOMPARE(passwd.readAll(), passwdBytes);

        // Restoring over the same traps.
        QVERIFY(QFile::remove(path(QStringLiteral("data.txt"))));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), path(QStringLiteral("data.txt"))));
        QVERIFY(QDir(path(QStringLiteral("sub"))).removeRecursively());
        QVERIFY(QFile::link(outside.path(), path(QStringLiteral("sub"))));
        QCOMPARE(::mkfifo(QFile::encodeName(path(QStringLiteral("pipe"))).constData(), 0644), 0);
        QCOMPARE(restored(first).problem, QString());
        QCOMPARE(contents(m_data.folder()).keys(),
                 (QStringList{QStringLiteral("data.txt"), QStringLiteral("sub/inner.txt")}));
        QCOMPARE(contents(outside.path()), (QMap<QString, QByteArray>{{QStringLiteral("inner.txt"), "outside"}}));
    }

    // A kept copy that is gone or damaged: the restore says so and the folder stays as it was.
    void aMissingOrDamagedCopyLeavesTheFolderAsItWas_data()
    {
        QTest::addColumn<bool>("damaged");
        QTest::newRow("missing") << false;
        QTest::newRow("damaged") << true;
    }
    void aMissingOrDamagedCopyLeavesTheFolderAsItWas()
    {
        QFETCH(bool, damaged);
        write(path(QStringLiteral("a.txt")), "first a");
        write(path(QStringLiteral("b.txt")), "first b");
        const qint64 first = run(QStringLiteral("first"));
        write(path(QStringLiteral("a.txt")), "second a");
        write(path(QStringLiteral("b.txt")), "second b");
        QVERIFY(run(QStringLiteral("second")) != 0);
        const auto before = contents(m_data.folder());

        const QByteArray sha = QCryptographicHash::hash("first b", QCryptographicHash::Sha256).toHex();
        const QString blob = store().snapshotFolder() + QStringLiteral("/sha256/") + QString::fromLatin1(sha.left(2)) +
                             u'/' + QString::fromLatin1(sha.mid(2));
        QVERIFY(QFileInfo::exists(blob));
        if (damaged) {
            QVERIFY(QFile::setPermissions(blob, QFile::ReadOwner | QFile::WriteOwner));
            write(blob, "FIRST b");
        } else {
            QVERIFY(QFile::remove(blob));
        }
        const auto restore = store().restoreFolder(m_data.id, first);
        QVERIFY(!restore.ok());
        QVERIFY2(restore.error().message.contains(QLatin1String("b.txt")), qPrintable(restore.error().message));
        QVERIFY2(restore.error().message.contains(damaged ? QLatin1String("damaged") : QLatin1String("missing")),
                 qPrintable(restore.error().message));
        QCOMPARE(contents(m_data.folder()), before);
    }

    void aRunThatWasNotRecordedIsRefused()
    {
        write(path(QStringLiteral("a.txt")), "now");
        StoredExecution execution;
        execution.conversationId = m_data.id;
        execution.code = QStringLiteral("old");
        const auto stored = store().addExecution(execution);
        QVERIFY(stored.ok());
        const auto restore = store().restoreFolder(m_data.id, stored->id);
        QVERIFY(!restore.ok());
        QVERIFY2(restore.error().message.contains(QLatin1String("not recorded")), qPrintable(restore.error().message));
        QCOMPARE(contents(m_data.folder()).keys(), QStringList{QStringLiteral("a.txt")});
        // Nor does a run of another conversation do.
        const qint64 recorded = run(QStringLiteral("new"));
        QCOMPARE(store().restoreFolder(m_data.id + 1, recorded).error().kind, StoreError::Kind::NotFound);
    }

    void branchFilesPastTheLimitAreRefusedWithTheFigure()
    {
        write(path(QStringLiteral("big.bin")), randomBytes(3 * MiB));
        const qint64 first = run(QStringLiteral("big"));
        QVERIFY(QFile::remove(path(QStringLiteral("big.bin"))));
        const auto restore = store().restoreFolder(m_data.id, first, MiB);
        QVERIFY(!restore.ok());
        QCOMPARE(restore.error().message,
                 QStringLiteral("This branch's files take 3 MiB; the sandbox may hold 1 MiB."));
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("big.bin"))));
    }

    // Copies no run names any more go when their runs go; a copy another run names stays.
    void unusedCopiesAreSwept()
    {
        auto message = [&](const QString &text) {
            ChatMessage m;
            m.role = ChatMessage::Role::User;
            m.content = text;
            return store().appendMessage(m_data.id, m)->id;
        };
        const qint64 question = message(QStringLiteral("q"));
        write(path(QStringLiteral("shared.txt")), "shared");
        write(path(QStringLiteral("own.txt")), "own");
        StoredExecution execution;
        execution.conversationId = m_data.id;
        execution.call = {question, 0};
        execution.code = QStringLiteral("x");
        const auto stored = store().addExecution(execution);
        QVERIFY(store().recordFolder(m_data.id, stored->id).ok());
        QVERIFY(QFile::remove(path(QStringLiteral("own.txt"))));
        QVERIFY(run(QStringLiteral("keeps shared")) != 0);
        auto blobs = [&] {
            QStringList found;
            QDirIterator it(store().snapshotFolder() + QStringLiteral("/sha256"), QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext())
                found << it.next();
            return found.size();
        };
        QCOMPARE(blobs(), 2);
        QVERIFY(store().deleteMessage(m_data.id, question).ok());
        QCOMPARE(blobs(), 1);
        QVERIFY(store().deleteConversation(m_data.id).ok());
        QCOMPARE(blobs(), 0);
    }

    // A database of version 8 (version7.db taken to 8 as that release did, with runs and files)
    // keeps every row; its runs have no recorded folder.
    void upgradesADatabaseOfVersion8()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("data"));
        const QString file = Sandpiper::Test::placeDatabase(QFINDTESTDATA("data/version7.db"), folder);
        QVERIFY(!file.isEmpty());
        const QStringList tables{QStringLiteral("conversations"), QStringLiteral("messages"),
                                 QStringLiteral("executions"), QStringLiteral("attachments")};
        QHash<QString, int> rows;
        {
            RawDatabase raw(file);
            for (const QString &statement : Schema::migrationTo(8))
                QVERIFY(raw.exec(statement));
            QVERIFY(raw.exec(QStringLiteral("PRAGMA user_version = 8")));
            QVERIFY(raw.exec(QStringLiteral("INSERT INTO executions (conversation_id, origin, code, status, created)"
                                            " VALUES (1, 'model', 'print(1)', 'ok', 1), (2, 'user', 'x', 'ok', 2)")));
            QVERIFY(raw.exec(QStringLiteral("INSERT INTO attachments (conversation_id, file_name, size, created)"
                                            " VALUES (1, 'a.csv', 3, 1)")));
            for (const QString &table : tables)
                rows.insert(table, raw.value(QStringLiteral("SELECT COUNT(*) FROM %1").arg(table)).toInt());
        }
        QCOMPARE(rows.value(QStringLiteral("executions")), 2);
        ConversationStore upgraded(folder);
        QVERIFY(upgraded.open().ok());
        {
            RawDatabase raw(file);
            QCOMPARE(raw.value(QStringLiteral("PRAGMA user_version")).toInt(), 9);
            for (const QString &table : tables)
                QCOMPARE(raw.value(QStringLiteral("SELECT COUNT(*) FROM %1").arg(table)).toInt(), rows.value(table));
            QCOMPARE(raw.value(QStringLiteral("SELECT COUNT(*) FROM folder_states")).toInt(), 0);
        }
        const auto runs = upgraded.allExecutions(1);
        QVERIFY(runs.ok() && runs->size() == 1);
        const auto restore = upgraded.restoreFolder(1, runs->first().id);
        QVERIFY(!restore.ok());
        QVERIFY2(restore.error().message.contains(QLatin1String("not recorded")), qPrintable(restore.error().message));
        QVERIFY(upgraded.recordFolder(1, runs->first().id).ok());
        QVERIFY(upgraded.restoreFolder(1, runs->first().id).ok());
    }

    // The real sandbox: the user's own code writes into /mnt/data, the runner stores and records
    // each run, and the kernel reads the first branch's file again after the restore.
    void theSandboxSeesTheBranchsFiles()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const AgentConfig config =
            agentConfig(QUrl(QStringLiteral("http://127.0.0.1:9/v1")), ApprovalPolicy::Auto, m_data.folder());
        SandboxSession sandbox(config.sandbox);
        KernelRestorer restorer(&sandbox, &store(), m_data.id, false);
        ToolRegistry none;
        ToolCallRunner runner(&none, &sandbox, &restorer, config.limits, &store(), m_data.id);
        QCoro::waitFor(runner.runUserCode(
            QStringLiteral("open('/mnt/data/answer.txt', 'w').write('forty-two')\nimport os\n"
                           "os.makedirs('/mnt/data/deep', exist_ok=True)\nos.symlink('/etc/hostname', "
                           "'/mnt/data/deep/link')"),
            {1, 0}));
        QCoro::waitFor(runner.runUserCode(
            QStringLiteral("import os\nos.remove('/mnt/data/answer.txt')\nopen('/mnt/data/other.txt', 'w').write('b')"),
            {2, 0}));
        const auto runs = store().allExecutions(m_data.id);
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), 2);
        const auto back = store().restoreFolder(m_data.id, runs->first().id);
        QVERIFY2(back.ok(), qPrintable(back ? QString() : back.error().message));
        QCOMPARE(back->problem, QString());
        QCOMPARE(back->written, 1);
        QCOMPARE(back->removed, 2); // other.txt and the link
        const QString report = QCoro::waitFor(runner.runUserCode(
            QStringLiteral("print(open('/mnt/data/answer.txt').read(), sorted(os.listdir('/mnt/data')))"), {3, 0}));
        // Folders are not recorded, only the files in them: deep held none.
        QVERIFY2(report.contains(QLatin1String("forty-two ['answer.txt']")), qPrintable(report));
    }
};

QTEST_GUILESS_MAIN(TestFolderSnapshots)
#include "tst_foldersnapshots.moc"
