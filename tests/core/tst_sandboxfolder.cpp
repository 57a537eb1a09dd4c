// The host's view of a conversation's folder: names from the sandbox, links, special files,
// sizes, swaps after listing, removal, uploads, and what a file is before it is opened.
#include "sandboxfiles.h"

#include <bidicontrols.h>
#include <sandbox/sandboxfigure.h>
#include <sandbox/sandboxfiletype.h>
#include <sandbox/sandboxfolder.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace Sandpiper;
using Sandpiper::Test::pngHeader;
using Problem = SandboxFolder::Problem;
using Resolution = SandboxFolder::Resolution;
using Verdict = SandboxFileType::Verdict;

Q_DECLARE_METATYPE(SandboxFolder::Resolution)
Q_DECLARE_METATYPE(SandboxFolder::Problem)
Q_DECLARE_METATYPE(SandboxFileType::Verdict)

namespace {

void write(const QString &path, const QByteArray &data)
{
    QVERIFY2(Sandpiper::Test::writeFile(path, data), qPrintable(path));
}

void link(const QString &target, const QString &path)
{
    QVERIFY2(::symlink(QFile::encodeName(target).constData(), QFile::encodeName(path).constData()) == 0,
             qPrintable(path));
}

} // namespace

class TestSandboxFolder : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_root;    // the conversation's folder
    QString m_outside; // a host folder next to it, with a secret the sandbox must never reach

    void addResolutions()
    {
        QTest::addColumn<Resolution>("resolution");
        QTest::newRow("openat2") << Resolution::Beneath;
        QTest::newRow("O_NOFOLLOW walk") << Resolution::ComponentWalk;
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_root = m_dir->filePath(QStringLiteral("conversation"));
        m_outside = m_dir->filePath(QStringLiteral("outside"));
        write(m_root + QStringLiteral("/report.csv"), "a,b\n1,2\n");
        write(m_root + QStringLiteral("/figures/fig-1.png"), pngHeader(640, 480) + QByteArray(100, 'x'));
        write(m_outside + QStringLiteral("/secret.txt"), "host secret");
    }

    void namesFromTheSandboxAreChecked_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("plain") << QStringLiteral("report.csv") << true;
        QTest::newRow("in a folder") << QStringLiteral("figures/fig-1.png") << true;
        QTest::newRow("spaces and unicode") << QStringLiteral("Données 2024/résumé ✓.csv") << true;
        QTest::newRow("dots in a name") << QStringLiteral("..hidden..txt") << true;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("absolute") << QStringLiteral("/etc/hostname") << false;
        QTest::newRow("up") << QStringLiteral("../outside/secret.txt") << false;
        QTest::newRow("up in the middle") << QStringLiteral("figures/../../outside/secret.txt") << false;
        QTest::newRow("forged display path") << QStringLiteral("../../../../etc/hostname") << false;
        QTest::newRow("just dots") << QStringLiteral("..") << false;
        QTest::newRow("dot component") << QStringLiteral("./report.csv") << false;
        QTest::newRow("empty component") << QStringLiteral("figures//fig-1.png") << false;
        QTest::newRow("trailing slash") << QStringLiteral("figures/") << false;
        QTest::newRow("NUL") << QString::fromUtf8("report.csv\0.png", 15) << false;
        QTest::newRow("newline") << QStringLiteral("a\nStatus: ok") << false;
        QTest::newRow("escape sequence") << QStringLiteral("\x1b]0;owned\x07.txt") << false;
        QTest::newRow("C1 control") << QStringLiteral("a\u009b2J.txt") << false;
        QTest::newRow("right-to-left override") << QStringLiteral("invoice\u202Efdp.exe") << false;
        QTest::newRow("isolate") << QStringLiteral("figures/\u2067fig.png") << false;
        QTest::newRow("Arabic letter mark") << QStringLiteral("a\u061Cb.txt") << false;
        QTest::newRow("Hebrew and Arabic letters") << QStringLiteral("שלום/مرحبا.csv") << true;
        QTest::newRow("long component") << QString(300, QLatin1Char('a')) << false;
        QTest::newRow("long path") << QStringList(20, QString(250, QLatin1Char('b'))).join(QLatin1Char('/')) << false;
    }

    void namesFromTheSandboxAreChecked()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        const QString problem = SandboxFolder::nameProblem(name);
        QVERIFY2(problem.isEmpty() == valid, qPrintable(problem));
        if (!valid) {
            const auto opened = SandboxFolder(m_root).open(name, 1 << 20);
            QVERIFY(!opened);
            QCOMPARE(opened.problem, Problem::BadName);
            // The message shows the name without its control characters.
            QVERIFY(!opened.error.contains(QLatin1Char('\x1b')) && !opened.error.contains(QChar(0)));
            QVERIFY2(std::none_of(opened.error.cbegin(), opened.error.cend(),
                                  [](QChar c) { return isBidiControl(c.unicode()); }),
                     qPrintable(opened.error));
        }
    }

    void opensARegularFileInside_data() { addResolutions(); }
    void opensARegularFileInside()
    {
        QFETCH(Resolution, resolution);
        const SandboxFolder folder(m_root, resolution);
        auto opened = folder.open(QStringLiteral("figures/fig-1.png"), 1 << 20);
        QVERIFY2(opened, qPrintable(opened.error));
        QCOMPARE(opened.size, pngHeader(640, 480).size() + 100);
        QCOMPARE(opened.file->read(4), QByteArray("\x89PNG"));
        QVERIFY(!opened.executable);
        QString error;
        QCOMPARE(folder.read(QStringLiteral("report.csv"), 100, &error).value_or(QByteArray()),
                 QByteArray("a,b\n1,2\n"));
    }

    void refusesWhatIsNotARegularFileInside_data()
    {
        QTest::addColumn<Resolution>("resolution");
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("name");
        QTest::addColumn<Problem>("problem");
        for (const auto &[label, resolution] :
             {std::pair{"openat2", Resolution::Beneath}, std::pair{"walk", Resolution::ComponentWalk}}) {
            auto row = [&](const char *name) -> QTestData & {
                return QTest::addRow("%s: %s", label, name) << resolution;
            };
            row("link to a host file") << "link /etc/hostname leak.txt"
                                       << "leak.txt" << Problem::Link;
            row("link to the root") << "link / root"
                                    << "root" << Problem::Link;
            row("path through a link") << "link / root"
                                       << "root/etc/hostname" << Problem::Link;
            row("link to a file inside") << "link report.csv alias.csv"
                                         << "alias.csv" << Problem::Link;
            row("relative link out") << "link ../outside/secret.txt up.txt"
                                     << "up.txt" << Problem::Link;
            row("linked folder") << "linkdir"
                                 << "figures2/fig-1.png" << Problem::Link;
            row("FIFO named like a PNG") << "fifo figures/trap.png"
                                         << "figures/trap.png" << Problem::NotRegular;
            row("socket") << "socket sock.png"
                          << "sock.png" << Problem::NotRegular;
            row("a folder") << ""
                            << "figures" << Problem::NotRegular;
            row("missing") << ""
                           << "nothing.png" << Problem::Missing;
            row("file used as a folder") << ""
                                         << "report.csv/x" << Problem::Missing;
            row("too large") << ""
                             << "report.csv" << Problem::TooLarge;
        }
    }

    void refusesWhatIsNotARegularFileInside()
    {
        QFETCH(Resolution, resolution);
        QFETCH(QString, setup);
        QFETCH(QString, name);
        QFETCH(Problem, problem);
        const QStringList words = setup.split(QLatin1Char(' '));
        if (words.first() == QLatin1String("link")) {
            link(words.at(1), m_root + QLatin1Char('/') + words.at(2));
        } else if (words.first() == QLatin1String("linkdir")) {
            link(m_root + QStringLiteral("/figures"), m_root + QStringLiteral("/figures2"));
        } else if (words.first() == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(QFile::encodeName(m_root + QLatin1Char('/') + words.at(1)).constData(), 0644), 0);
        } else if (words.first() == QLatin1String("socket")) {
            const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
            sockaddr_un address = {};
            address.sun_family = AF_UNIX;
            const QByteArray path = QFile::encodeName(m_root + QLatin1Char('/') + words.at(1));
            QVERIFY(size_t(path.size()) < sizeof address.sun_path);
            std::memcpy(address.sun_path, path.constData(), size_t(path.size()));
            QCOMPARE(::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
            ::close(fd);
        }
        QElapsedTimer timer;
        timer.start();
        const auto opened = SandboxFolder(m_root, resolution).open(name, 4);
        QVERIFY(!opened);
        QCOMPARE(opened.problem, problem);
        QVERIFY(!opened.error.isEmpty());
        QVERIFY2(timer.elapsed() < 2000, "a FIFO must not block the open"); // it would block forever
        QString error;
        QVERIFY(!SandboxFolder(m_root, resolution).read(name, 4, &error));
        QCOMPARE(error, opened.error);
    }

    // The code can replace a listed file by a link at any moment: what counts is the moment of use.
    void aLinkSwappedInAfterListingIsRefused_data() { addResolutions(); }
    void aLinkSwappedInAfterListingIsRefused()
    {
        QFETCH(Resolution, resolution);
        const SandboxFolder folder(m_root, resolution);
        QVERIFY(folder.open(QStringLiteral("report.csv"), 100));
        QVERIFY(QFile::remove(m_root + QStringLiteral("/report.csv")));
        link(m_outside + QStringLiteral("/secret.txt"), m_root + QStringLiteral("/report.csv"));
        QCOMPARE(folder.open(QStringLiteral("report.csv"), 100).problem, Problem::Link);
        const QString target = m_dir->filePath(QStringLiteral("saved.csv"));
        QVERIFY(!folder.copyTo(QStringLiteral("report.csv"), target).isEmpty());
        QVERIFY(!QFile::exists(target));

        // A folder on the way swapped for a link to the host.
        QVERIFY(QDir(m_root + QStringLiteral("/figures")).removeRecursively());
        link(m_outside, m_root + QStringLiteral("/figures"));
        QCOMPARE(folder.open(QStringLiteral("figures/secret.txt"), 100).problem, Problem::Link);
    }

    // Reading goes through what was opened: a swap after opening changes nothing.
    void readsWhatWasOpenedEvenIfSwappedAfterwards()
    {
        const SandboxFolder folder(m_root);
        auto opened = folder.open(QStringLiteral("report.csv"), 100);
        QVERIFY(opened);
        QVERIFY(QFile::remove(m_root + QStringLiteral("/report.csv")));
        link(m_outside + QStringLiteral("/secret.txt"), m_root + QStringLiteral("/report.csv"));
        QCOMPARE(opened.file->readAll(), QByteArray("a,b\n1,2\n"));
    }

    void aFileThatGrowsPastTheLimitIsRefused()
    {
        const SandboxFolder folder(m_root);
        QString error;
        QVERIFY(folder.read(QStringLiteral("report.csv"), 8, &error));
        write(m_root + QStringLiteral("/report.csv"), QByteArray(9, 'x'));
        QVERIFY(!folder.read(QStringLiteral("report.csv"), 8, &error));
        QVERIFY2(error.contains(QLatin1String("too large")), qPrintable(error));
    }

    void copiesARegularFileAtomically()
    {
        const SandboxFolder folder(m_root);
        const QString target = m_dir->filePath(QStringLiteral("copy.csv"));
        write(target, "old content that must go");
        QCOMPARE(folder.copyTo(QStringLiteral("report.csv"), target), QString());
        QFile copy(target);
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), QByteArray("a,b\n1,2\n"));
        // A refused copy leaves the old target alone.
        link(QStringLiteral("/etc/hostname"), m_root + QStringLiteral("/leak.txt"));
        QVERIFY(!folder.copyTo(QStringLiteral("leak.txt"), target).isEmpty());
        QVERIFY(copy.seek(0));
        QCOMPARE(copy.readAll(), QByteArray("a,b\n1,2\n"));
    }

    void measuresWithoutFollowingLinks()
    {
        const SandboxFolder folder(m_root);
        const qint64 before = folder.usage().bytes;
        QVERIFY(before > 0);
        // A link to a large host file costs the link, not the file.
        write(m_outside + QStringLiteral("/big.bin"), QByteArray(4 << 20, 'b'));
        link(m_outside + QStringLiteral("/big.bin"), m_root + QStringLiteral("/big.bin"));
        link(m_outside, m_root + QStringLiteral("/outside"));
        QVERIFY(folder.usage().bytes < before + 64 * 1024);
        // A sparse file counts in full; a hard link counts once.
        QFile sparse(m_root + QStringLiteral("/sparse.bin"));
        QVERIFY(sparse.open(QIODevice::WriteOnly));
        QVERIFY(sparse.resize(qint64(100) << 20));
        sparse.close();
        const SandboxFolder::Usage withSparse = folder.usage();
        QVERIFY(withSparse.bytes >= qint64(100) << 20);
        QVERIFY(withSparse.complete);
        QCOMPARE(::link(QFile::encodeName(m_root + QStringLiteral("/sparse.bin")).constData(),
                        QFile::encodeName(m_root + QStringLiteral("/figures/again.bin")).constData()),
                 0);
        QCOMPARE(folder.usage().bytes, withSparse.bytes);
    }

    void aTreeTooDeepToMeasureSaysSo()
    {
        QString deep = m_root;
        for (int i = 0; i < 140; ++i)
            deep += QStringLiteral("/d");
        QVERIFY(QDir().mkpath(deep));
        QVERIFY(!SandboxFolder(m_root).usage().complete);
    }

    // Deleting a conversation removes its links, never what they point to, even when the sandbox
    // is still swapping folders for links.
    void removingTheFolderRemovesLinksNotTheirTargets()
    {
        link(m_outside, m_root + QStringLiteral("/outside"));
        link(m_outside + QStringLiteral("/secret.txt"), m_root + QStringLiteral("/figures/secret.txt"));
        link(QStringLiteral("/"), m_root + QStringLiteral("/root"));
        QVERIFY(QDir().mkpath(m_root + QStringLiteral("/a/b/c")));
        write(m_root + QStringLiteral("/a/b/c/deep.txt"), "deep");
        QCOMPARE(::mkfifo(QFile::encodeName(m_root + QStringLiteral("/a/pipe")).constData(), 0644), 0);
        QString error;
        QVERIFY2(SandboxFolder(m_root).removeAll(&error), qPrintable(error));
        QVERIFY(!QFileInfo::exists(m_root));
        QVERIFY(QFile::exists(m_outside + QStringLiteral("/secret.txt")));
        QVERIFY(SandboxFolder(m_dir->filePath(QStringLiteral("never-made"))).removeAll(&error));
    }

    void uploadsNeverWriteThroughALink()
    {
        const SandboxFolder folder(m_root);
        link(m_outside + QStringLiteral("/planted.txt"), m_root + QStringLiteral("/upload.txt")); // dangling
        QVERIFY(folder.contains(QStringLiteral("upload.txt")));
        QString error;
        QVERIFY(!folder.create(QStringLiteral("upload.txt"), &error));
        QVERIFY(!QFile::exists(m_outside + QStringLiteral("/planted.txt")));
        QVERIFY(!folder.create(QStringLiteral("../escape.txt"), &error));
        QVERIFY(!folder.create(QStringLiteral("figures/inner.txt"), &error));
        auto file = folder.create(QStringLiteral("fresh.txt"), &error);
        QVERIFY2(file, qPrintable(error));
        QCOMPARE(file->write("new"), 3);
        QVERIFY(!folder.contains(QStringLiteral("absent.txt")));
    }

    void formatsSizes()
    {
        QCOMPARE(SandboxFolder::formatBytes(qint64(1) << 30), QLocale().formattedDataSize(qint64(1) << 30, 0));
        QVERIFY(SandboxFolder::formatBytes(qint64(1) << 30).contains(QLatin1String("GiB")));
        QVERIFY(SandboxFolder::formatBytes(1536 * 1024).contains(QLatin1String("1.5")));
    }

    void checksFigures_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("a PNG") << pngHeader(640, 480) << true;
        QTest::newRow("8000 x 8000") << pngHeader(8000, 8000) << true;
        QTest::newRow("60000 x 60000") << pngHeader(60000, 60000) << false;
        QTest::newRow("8001 wide") << pngHeader(8001, 10) << false;
        QTest::newRow("zero size") << pngHeader(0, 10) << false;
        QTest::newRow("not a PNG") << QByteArray("GIF89a and more bytes than a header") << false;
        QTest::newRow("truncated") << pngHeader(10, 10).left(20) << false;
        const QByteArray real = Sandpiper::Test::pngImage(200, 100);
        QTest::newRow("a real PNG") << real << true;
        QTest::newRow("bytes after its end") << real + "more" << true;
        QTest::newRow("a real PNG cut in half") << real.left(real.size() / 2) << false;
        QTest::newRow("cut before its end") << real.chopped(12) << false;
        QTest::newRow("cut inside its end") << real.chopped(2) << false;
        QByteArray endWithData = real;
        endWithData[endWithData.size() - 9] = '\x01';
        QTest::newRow("an end with data") << endWithData << false;
        QByteArray longChunk = pngHeader(10, 10);
        longChunk[33] = '\x7f'; // the length of the IEND chunk, now far past the file's end
        QTest::newRow("a chunk longer than the file") << longChunk << false;
    }

    void checksFigures()
    {
        QFETCH(QByteArray, content);
        QFETCH(bool, accepted);
        write(m_root + QStringLiteral("/figures/check.png"), content);
        const QString problem = SandboxFigure::problem(SandboxFolder(m_root), QStringLiteral("figures/check.png"));
        QVERIFY2(problem.isEmpty() == accepted, qPrintable(problem));
    }

    void classifiesFilesBeforeOpening_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<bool>("executable");
        QTest::addColumn<Verdict>("verdict");
        const QByteArray elf("\x7f"
                             "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0",
                             16);
        QTest::newRow("png") << "chart.png" << pngHeader(10, 10) << false << Verdict::Open;
        QTest::newRow("csv") << "data.csv" << QByteArray("a,b\n1,2\n") << false << Verdict::Open;
        QTest::newRow("text") << "notes.txt" << QByteArray("hello\n") << false << Verdict::Open;
        QTest::newRow("pdf") << "report.pdf" << QByteArray("%PDF-1.7\n") << false << Verdict::Open;
        QTest::newRow("json") << "result.json" << QByteArray("{\"a\": 1}") << false << Verdict::Open;
        QTest::newRow("empty csv") << "empty.csv" << QByteArray() << false << Verdict::Open;
        QTest::newRow("shell script") << "run.sh" << QByteArray("#!/bin/sh\nrm -rf ~\n") << false
                                      << Verdict::ShowInFolder;
        QTest::newRow("python") << "analysis.py" << QByteArray("import os\n") << false << Verdict::ShowInFolder;
        QTest::newRow("desktop file") << "report.desktop" << QByteArray("[Desktop Entry]\nExec=sh -c x\n") << false
                                      << Verdict::ShowInFolder;
        QTest::newRow("desktop file named png")
            << "icon.png" << QByteArray("[Desktop Entry]\nExec=x\n") << false << Verdict::ShowInFolder;
        QTest::newRow("program") << "tool" << elf << false << Verdict::ShowInFolder;
        QTest::newRow("program named csv") << "data.csv" << elf << false << Verdict::ShowInFolder;
        QTest::newRow("windows program") << "setup.exe" << QByteArray("MZ\x90\0", 4) << false << Verdict::ShowInFolder;
        QTest::newRow("java archive") << "app.jar" << QByteArray("PK\x03\x04", 4) << false << Verdict::ShowInFolder;
        QTest::newRow("shebang without a name")
            << "notes" << QByteArray("#!/usr/bin/env python3\n") << false << Verdict::ShowInFolder;
        QTest::newRow("executable bit") << "data.csv" << QByteArray("a,b\n") << true << Verdict::ShowInFolder;
        QTest::newRow("html") << "page.html" << QByteArray("<!DOCTYPE html><script>") << false << Verdict::Ask;
        QTest::newRow("svg") << "chart.svg" << QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\">") << false
                             << Verdict::Ask;
        QTest::newRow("zip") << "bundle.zip" << QByteArray("PK\x03\x04", 4) << false << Verdict::Ask;
        QTest::newRow("csv that is a zip")
            << "data.csv" << QByteArray("PK\x03\x04\x14\0\0\0", 8) << false << Verdict::Ask;
        QTest::newRow("unknown binary") << "blob.qqq" << QByteArray("\x01\x02\x03\0\xff", 5) << false << Verdict::Ask;
    }

    void classifiesFilesBeforeOpening()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, head);
        QFETCH(bool, executable);
        QFETCH(Verdict, verdict);
        const SandboxFileType type = SandboxFileType::of(name, head, executable);
        QVERIFY2(type.verdict() == verdict, qPrintable(type.description()));
        QVERIFY(!type.mimeType().isEmpty());
        QVERIFY(type.description().contains(type.mimeType()));
    }

    void knowsTextFromBinary()
    {
        QVERIFY(SandboxFileType::of(QStringLiteral("run.sh"), "#!/bin/sh\necho hi\n", false).isText());
        QVERIFY(!SandboxFileType::of(QStringLiteral("tool"),
                                     QByteArray("\x7f"
                                                "ELF\0\0",
                                                6),
                                     false)
                     .isText());
    }
};

QTEST_GUILESS_MAIN(TestSandboxFolder)
#include "tst_sandboxfolder.moc"
