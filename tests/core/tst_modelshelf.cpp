// The GGUF models on this computer as ModelShelf finds them (issue 26): a model split into files
// counts once (and says when a part is missing), a vision projector is no model, files being
// downloaded are not GGUF yet, a folder link that loops does not hold the scan, and a file
// reached twice is listed once.
#include "ggufbytes.h"

#include <localmodels/modelshelf.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test::GgufBytes;

namespace {

// A weightless GGUF of ARCHITECTURE; PART of COUNT when COUNT > 1.
QByteArray model(const QByteArray &architecture, quint16 part = 0, quint16 count = 1)
{
    QByteArray values = stringValue("general.architecture", architecture);
    int valueCount = 1;
    if (count > 1) {
        values += uint16Value("split.no", part) + uint16Value("split.count", count);
        valueCount += 2;
    }
    return header(0, valueCount, values);
}

bool write(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(path.section(QLatin1Char('/'), 0, -2));
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace

class TestModelShelf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void findsWhatCanBeRun()
    {
        const QTemporaryDir folder;
        const QString own = folder.filePath(QStringLiteral("own"));
        QVERIFY(write(own + QStringLiteral("/plain.gguf"), model("llama")));
        for (quint16 part = 0; part < 3; ++part)
            QVERIFY(write(own + QStringLiteral("/big/big-%1-of-00003.gguf").arg(part + 1, 5, 10, QLatin1Char('0')),
                          model("qwen3", part, 3)));
        QVERIFY(write(own + QStringLiteral("/half/half-00002-of-00002.gguf"), model("gemma3", 1, 2)));
        QVERIFY(write(own + QStringLiteral("/plain-mmproj-f16.gguf"), model("clip")));
        QVERIFY(write(own + QStringLiteral("/loading.gguf.part"), model("llama")));
        QVERIFY(write(own + QStringLiteral("/loading.gguf.incomplete"), model("llama")));
        QVERIFY(QFile::link(own, own + QStringLiteral("/loop")));

        // The own folder added again: its files are the same files.
        const QList<ModelFile> found =
            ModelShelf::scan(ModelShelf::folders(own, {own + QStringLiteral("/big"), QStringLiteral("  ")}));
        QStringList names;
        for (const ModelFile &file : found)
            names << QDir(own).relativeFilePath(file.path);
        names.sort();
        QCOMPARE(names, (QStringList{QStringLiteral("big/big-00001-of-00003.gguf"),
                                     QStringLiteral("half/half-00002-of-00002.gguf"), QStringLiteral("plain.gguf")}));
        for (const ModelFile &file : found) {
            QCOMPARE(file.source, ModelFolder::Source::Sandpiper);
            if (file.path.endsWith(QLatin1String("big-00001-of-00003.gguf"))) {
                QVERIFY2(file.runnable(), qPrintable(file.problem));
                QCOMPARE(file.partsFound, 3);
                QCOMPARE(file.bytes, 3 * model("qwen3", 0, 3).size());
            } else if (file.path.contains(QLatin1String("half"))) {
                QVERIFY(!file.runnable());
                QCOMPARE(file.problem,
                         QStringLiteral("Only 1 of its 2 files are here: download the model again (Settings › "
                                        "Models) to get the rest."));
            } else {
                QVERIFY2(file.runnable(), qPrintable(file.problem));
                QCOMPARE(file.info->architecture, QStringLiteral("llama"));
            }
        }
    }

    // The other applications' folders, where this user's environment puts them.
    void looksWhereTheOtherApplicationsKeepTheirs()
    {
        qputenv("XDG_CACHE_HOME", "/c");
        qputenv("HF_HOME", "/hf");
        qunsetenv("HF_HUB_CACHE");
        qputenv("LLAMA_CACHE", "/llama");
        const QList<ModelFolder> folders = ModelShelf::folders(QStringLiteral("/own"), {QStringLiteral("/more/")});
        QStringList paths;
        for (const ModelFolder &folder : folders)
            paths << folder.path;
        QCOMPARE(paths, (QStringList{QStringLiteral("/own"), QDir::homePath() + QStringLiteral("/.lmstudio/models"),
                                     QStringLiteral("/llama"), QStringLiteral("/hf/hub"), QStringLiteral("/more")}));
        QCOMPARE(folders.constLast().source, ModelFolder::Source::Added);
        qunsetenv("LLAMA_CACHE");
        qunsetenv("HF_HOME");
        QCOMPARE(ModelShelf::folders(QStringLiteral("/own"), {}).at(2).path, QStringLiteral("/c/llama.cpp"));
        QCOMPARE(ModelShelf::folders(QStringLiteral("/own"), {}).at(3).path, QStringLiteral("/c/huggingface/hub"));
    }

    // A recommended model is marked as here once its download finished, not while it comes.
    void knowsWhatWasDownloaded()
    {
        QTemporaryDir own;
        const QString repository = QStringLiteral("Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF");
        QVERIFY(!ModelShelf::downloaded(own.path(), repository, QStringLiteral("Q4_K_M")));
        const QString file =
            own.path() + QLatin1Char('/') + repository + QStringLiteral("/qwen2.5-coder-1.5b-q4_k_m.gguf");
        QVERIFY(write(file + QStringLiteral(".part"), "GGUF"));
        QVERIFY(!ModelShelf::downloaded(own.path(), repository, QStringLiteral("Q4_K_M")));
        QVERIFY(QFile::rename(file + QStringLiteral(".part"), file));
        QVERIFY(ModelShelf::downloaded(own.path(), repository, QStringLiteral("Q4_K_M")));
        QVERIFY(!ModelShelf::downloaded(own.path(), repository, QStringLiteral("Q8_0")));
        QVERIFY(!ModelShelf::downloaded(own.path(), QStringLiteral("other/Model-GGUF"), QStringLiteral("Q4_K_M")));
    }
};

QTEST_GUILESS_MAIN(TestModelShelf)
#include "tst_modelshelf.moc"
