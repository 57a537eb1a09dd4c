// Tar streams between the host and a remote engine's container: what the real tar writes is
// unpacked whole, what a hostile sandbox or a broken connection sends leaves nothing unsafe or
// half-written; what TarWriter writes, the real tar reads.
#include "sandboxfiles.h"

#include <sandbox/tarreader.h>
#include <sandbox/tarwriter.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using Sandpiper::TarReader;
using Sandpiper::TarWriter;
using Sandpiper::Test::readFile;
using Sandpiper::Test::writeFile;

namespace {

// What the system's tar makes of NAMES in FOLDER (as `docker exec … tar -c` does in the container).
QByteArray tarOf(const QString &folder, const QStringList &names, const QStringList &options = {})
{
    QProcess tar;
    // One block per record: the archive ends in exactly two zero blocks, so streams can be joined.
    tar.start(QStringLiteral("tar"),
              options +
                  QStringList{QStringLiteral("-b1"), QStringLiteral("-c"), QStringLiteral("-f"), QStringLiteral("-"),
                              QStringLiteral("-C"), folder, QStringLiteral("--no-recursion"), QStringLiteral("--")} +
                  names);
    tar.waitForFinished(30000);
    return tar.readAllStandardOutput();
}

QStringList entriesOf(const QString &folder)
{
    QStringList names;
    for (const QString &name : QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot))
        names << name;
    return names;
}

} // namespace

class TestTarReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unpacksWhatTarWrites_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("gnu") << QStringLiteral("--format=gnu");
        QTest::newRow("pax") << QStringLiteral("--format=pax");
        QTest::newRow("ustar") << QStringLiteral("--format=ustar");
    }

    void unpacksWhatTarWrites()
    {
        QFETCH(QString, format);
        QTemporaryDir source, target;
        const QString longName = QStringLiteral("out/") + QString(120, QLatin1Char('n')) + QStringLiteral(".csv");
        const QByteArray big(3 * 1024 * 1024 + 7, 'b');
        QVERIFY(writeFile(source.filePath(QStringLiteral("figures/fig-1.png")), "png"));
        QVERIFY(writeFile(source.filePath(QStringLiteral("empty.txt")), {}));
        QVERIFY(writeFile(source.filePath(QStringLiteral("big.bin")), big));
        QVERIFY(writeFile(source.filePath(QStringLiteral("ünïcode €.txt")), "u"));
        QStringList names{QStringLiteral("figures/fig-1.png"), QStringLiteral("empty.txt"), QStringLiteral("big.bin"),
                          QStringLiteral("ünïcode €.txt")};
        if (format != QLatin1String("--format=ustar")) {
            QVERIFY(writeFile(source.filePath(longName), "long"));
            names << longName;
        }
        const QByteArray stream = tarOf(source.path(), names, {format});
        QVERIFY(stream.size() > big.size());

        TarReader reader(target.path(), qint64(1) << 30);
        // In pieces of odd sizes, as a pipe delivers them.
        for (qsizetype at = 0; at < stream.size(); at += 777)
            QVERIFY2(reader.feed(QByteArrayView(stream).sliced(at, std::min<qsizetype>(777, stream.size() - at))),
                     qPrintable(reader.error()));
        reader.finish();
        QVERIFY2(reader.error().isEmpty(), qPrintable(reader.error()));
        QVERIFY2(reader.refused().isEmpty(), qPrintable(reader.refused().join(u'\n')));
        QCOMPARE(QSet<QString>(reader.written().cbegin(), reader.written().cend()),
                 QSet<QString>(names.cbegin(), names.cend()));
        QCOMPARE(readFile(target.filePath(QStringLiteral("big.bin"))), big);
        QCOMPARE(readFile(target.filePath(QStringLiteral("figures/fig-1.png"))), QByteArray("png"));
        QVERIFY(QFile::exists(target.filePath(QStringLiteral("empty.txt"))));
        QCOMPARE(readFile(target.filePath(QStringLiteral("ünïcode €.txt"))), QByteArray("u"));
        if (names.contains(longName))
            QCOMPARE(readFile(target.filePath(longName)), QByteArray("long"));
    }

    void aStreamThatBreaksOffLeavesNoHalfFile()
    {
        QTemporaryDir source, target;
        QVERIFY(writeFile(source.filePath(QStringLiteral("first.txt")), "whole"));
        QVERIFY(writeFile(source.filePath(QStringLiteral("second.bin")), QByteArray(200000, 's')));
        QVERIFY(writeFile(target.filePath(QStringLiteral("second.bin")), "the old version"));
        const QByteArray stream = tarOf(source.path(), {QStringLiteral("first.txt"), QStringLiteral("second.bin")});
        TarReader reader(target.path(), qint64(1) << 30);
        QVERIFY(reader.feed(QByteArrayView(stream).first(2048 + 100000)));
        reader.finish();
        QVERIFY(reader.error().contains(QLatin1String("second.bin")));
        QCOMPARE(reader.written(), QStringList{QStringLiteral("first.txt")});
        QCOMPARE(readFile(target.filePath(QStringLiteral("first.txt"))), QByteArray("whole"));
        // The old version stays as it was, and no temporary file is left beside it.
        QCOMPARE(readFile(target.filePath(QStringLiteral("second.bin"))), QByteArray("the old version"));
        QCOMPARE(entriesOf(target.path()), (QStringList{QStringLiteral("first.txt"), QStringLiteral("second.bin")}));
    }

    void linksSpecialFilesAndEscapesAreRefused()
    {
        QTemporaryDir source, target, outside;
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), source.filePath(QStringLiteral("passwd"))));
        QVERIFY(QFile::link(outside.path(), source.filePath(QStringLiteral("out"))));
        QVERIFY(writeFile(source.filePath(QStringLiteral("ok.txt")), "ok"));
        QVERIFY(::mkfifo(QFile::encodeName(source.filePath(QStringLiteral("fifo"))).constData(), 0600) == 0);
        QVERIFY(::link(QFile::encodeName(source.filePath(QStringLiteral("ok.txt"))).constData(),
                       QFile::encodeName(source.filePath(QStringLiteral("hard.txt"))).constData()) == 0);
        // Absolute names and "..": tar writes them as given with -P.
        QVERIFY(writeFile(outside.filePath(QStringLiteral("escape.txt")), "x"));
        QByteArray stream =
            tarOf(source.path(), {QStringLiteral("passwd"), QStringLiteral("out"), QStringLiteral("fifo"),
                                  QStringLiteral("ok.txt"), QStringLiteral("hard.txt")});
        stream.chop(1024); // the end of the first archive; a second one follows
        stream += tarOf(source.path(),
                        {QStringLiteral("../") + QFileInfo(outside.path()).fileName() + QStringLiteral("/escape.txt")},
                        {QStringLiteral("-P")});
        // A folder on the host that is a link: nothing is written through it.
        QVERIFY(QFile::link(outside.path(), target.filePath(QStringLiteral("linked"))));
        stream.chop(1024);
        QTemporaryDir nested;
        QVERIFY(writeFile(nested.filePath(QStringLiteral("linked/inside.txt")), "i"));
        stream += tarOf(nested.path(), {QStringLiteral("linked/inside.txt")});

        TarReader reader(target.path(), qint64(1) << 30);
        QVERIFY(reader.feed(stream));
        reader.finish();
        QVERIFY2(reader.error().isEmpty(), qPrintable(reader.error()));
        QCOMPARE(reader.written(), QStringList{QStringLiteral("ok.txt")});
        const QString refused = reader.refused().join(u'\n');
        QVERIFY2(refused.contains(QLatin1String("passwd is a symbolic link")), qPrintable(refused));
        QVERIFY2(refused.contains(QLatin1String("out is a symbolic link")), qPrintable(refused));
        QVERIFY2(refused.contains(QLatin1String("fifo is not a regular file")), qPrintable(refused));
        QVERIFY2(refused.contains(QLatin1String("hard.txt is a hard link")), qPrintable(refused));
        QVERIFY2(refused.contains(QLatin1String("linked/inside.txt was not copied")), qPrintable(refused));
        QCOMPARE(reader.refusedNames().size(), 6);
        QCOMPARE(entriesOf(target.path()), (QStringList{QStringLiteral("linked"), QStringLiteral("ok.txt")}));
        QCOMPARE(entriesOf(outside.path()), QStringList{QStringLiteral("escape.txt")});
        QCOMPARE(readFile(outside.filePath(QStringLiteral("escape.txt"))), QByteArray("x"));
    }

    void theLimitKeepsLaterFilesOut()
    {
        QTemporaryDir source, target;
        QVERIFY(writeFile(source.filePath(QStringLiteral("a.bin")), QByteArray(600, 'a')));
        QVERIFY(writeFile(source.filePath(QStringLiteral("b.bin")), QByteArray(600, 'b')));
        QVERIFY(writeFile(source.filePath(QStringLiteral("c.bin")), QByteArray(300, 'c')));
        TarReader reader(target.path(), 1000);
        QVERIFY(reader.feed(
            tarOf(source.path(), {QStringLiteral("a.bin"), QStringLiteral("b.bin"), QStringLiteral("c.bin")})));
        reader.finish();
        QCOMPARE(reader.written(), (QStringList{QStringLiteral("a.bin"), QStringLiteral("c.bin")}));
        QCOMPARE(reader.refusedNames(), QStringList{QStringLiteral("b.bin")});
        QVERIFY(reader.refused().constFirst().contains(QLatin1String("limit")));
        QVERIFY(!QFile::exists(target.filePath(QStringLiteral("b.bin"))));
    }

    void onlyTheNamesAskedForArriveAndEachOnce()
    {
        // The code in the container can write into tar's stream: what it adds is refused.
        QTemporaryDir source, target;
        QVERIFY(writeFile(source.filePath(QStringLiteral("asked.txt")), "the real one"));
        QVERIFY(writeFile(source.filePath(QStringLiteral("extra.txt")), "not listed"));
        const QByteArray asked = tarOf(source.path(), {QStringLiteral("asked.txt")});
        QVERIFY(writeFile(source.filePath(QStringLiteral("asked.txt")), "a forged second copy"));
        const QByteArray forged = tarOf(source.path(), {QStringLiteral("extra.txt"), QStringLiteral("asked.txt")});
        TarReader reader(target.path(), 1 << 20);
        reader.expectOnly({QStringLiteral("asked.txt")});
        // The forged entries come first, as if written into the pipe before tar's own; the
        // forged archive's end (two zero blocks) is left out so that the reader goes on.
        QVERIFY(reader.feed(QByteArray(forged.first(forged.size() - 1024) + asked)));
        reader.finish();
        QCOMPARE(reader.written(), QStringList{QStringLiteral("asked.txt")});
        QCOMPARE(reader.refusedNames(), (QStringList{QStringLiteral("extra.txt"), QStringLiteral("asked.txt")}));
        QVERIFY(!QFile::exists(target.filePath(QStringLiteral("extra.txt"))));
        // Of two copies the first counts: the code could have written it into the file as well.
        QCOMPARE(readFile(target.filePath(QStringLiteral("asked.txt"))), QByteArray("a forged second copy"));
    }

    void garbageIsAnErrorNotACrash()
    {
        QTemporaryDir target;
        TarReader reader(target.path(), 1000);
        QVERIFY(!reader.feed(QByteArray(4096, 'g')));
        QVERIFY(reader.error().contains(QLatin1String("damaged")));
        QVERIFY(entriesOf(target.path()).isEmpty());
    }

    void whatTarWriterWritesTarReads()
    {
        QTemporaryDir target;
        const QString longName = QStringLiteral("deep/") + QString(150, QLatin1Char('l')) + QStringLiteral(".txt");
        QByteArray stream;
        const QList<std::pair<QString, QByteArray>> files{{QStringLiteral("data.csv"), "a,b\n1,2\n"},
                                                          {longName, QByteArray(1000, 'x')},
                                                          {QStringLiteral("empty"), {}}};
        for (const auto &[name, data] : files)
            stream += TarWriter::fileHeader(name, data.size(), 1700000000) + data + TarWriter::padding(data.size());
        stream += TarWriter::end();
        QProcess tar;
        tar.start(QStringLiteral("tar"), {QStringLiteral("-x"), QStringLiteral("-f"), QStringLiteral("-"),
                                          QStringLiteral("-C"), target.path()});
        tar.write(stream);
        tar.closeWriteChannel();
        QVERIFY(tar.waitForFinished(30000));
        QVERIFY2(tar.exitCode() == 0, tar.readAllStandardError().constData());
        for (const auto &[name, data] : files)
            QCOMPARE(readFile(target.filePath(name)), data);
        QCOMPARE(QFileInfo(target.filePath(QStringLiteral("data.csv"))).lastModified().toSecsSinceEpoch(), 1700000000);
        // And TarReader reads it too.
        QTemporaryDir again;
        TarReader reader(again.path(), qint64(1) << 30);
        QVERIFY(reader.feed(stream));
        reader.finish();
        QCOMPARE(reader.written().size(), 3);
        QCOMPARE(readFile(again.filePath(longName)), QByteArray(1000, 'x'));
    }
};

QTEST_GUILESS_MAIN(TestTarReader)
#include "tst_tarreader.moc"
