// Downloads people can trust (issue 26), against a fake Hugging Face hub that speaks the real
// one's wire format, with its file host on another loopback address: tests/llama's tiny model is
// downloaded, resumed after a dropped connection and by a new download over what an earlier one
// left, started over when the server ignores Range, refused when its checksum is wrong, when a
// redirect leads elsewhere or when it is no GGUF; a gated repository asks for a token; a split
// model comes as one; a full disk stops it with the .part kept.
#include "fakehub.h"
#include "ggufbytes.h"
#include "llamaserver.h"

#include <localmodels/modeldownload.h>
#include <localmodels/modelshelf.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;

namespace {

const QString repository = QStringLiteral("test/tiny-GGUF");
const QString fileName = QStringLiteral("tiny-F32.gguf");

HubModel tinyModel(const QString &sha256 = FakeHub::sha256Of(LlamaServer::modelPath()))
{
    HubModel model;
    model.name = QStringLiteral("tiny-F32");
    model.quantization = QStringLiteral("F32");
    model.files = {{fileName, QFileInfo(LlamaServer::modelPath()).size(), sha256}};
    return model;
}

bool waitFor(ModelDownload &download, std::chrono::milliseconds timeout = 30s)
{
    if (download.state() == ModelDownload::State::Finished || download.state() == ModelDownload::State::Failed ||
        download.state() == ModelDownload::State::Canceled)
        return true;
    QSignalSpy finished(&download, &ModelDownload::finished);
    return finished.wait(int(timeout.count()));
}

QStringList filesIn(const QString &folder)
{
    return QDir(folder).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

QList<QByteArray> rangesAsked(FakeWebServer &server)
{
    QList<QByteArray> ranges;
    for (const FakeWebRequest &request : server.requests())
        ranges << request.headers.value("range");
    return ranges;
}

} // namespace

class TestModelDownload : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeHub> m_hub;
    std::unique_ptr<QTemporaryDir> m_models;
    qint64 m_size = 0;

    FakeHubFile tinyFile() const { return {fileName, LlamaServer::modelPath()}; }
    // The tiny model, whose first DROPS answers end after AFTER bytes.
    FakeHubFile droppingFile(int drops, qint64 after) const
    {
        FakeHubFile file = tinyFile();
        file.drops = drops;
        file.dropAfter = after;
        return file;
    }

    std::unique_ptr<ModelDownload> download(HubModel model = tinyModel(), DownloadOptions options = {})
    {
        options.firstRetryDelay = 10ms;
        options.diskMargin = 0;
        options.extraHosts = {m_hub->fileHost()};
        return std::make_unique<ModelDownload>(m_hub->endpoint(), repository, std::move(model), m_models->path(),
                                               options);
    }

    QString folder() const { return m_models->path() + QLatin1Char('/') + repository; }

private Q_SLOTS:
    void init()
    {
        SANDPIPER_REQUIRE_LLAMA();
        m_size = QFileInfo(LlamaServer::modelPath()).size();
        m_hub = std::make_unique<FakeHub>();
        QVERIFY(m_hub->listen());
        m_hub->addRepository(repository);
        m_models = std::make_unique<QTemporaryDir>();
    }

    void downloadsVerifiesAndTheShelfFindsIt()
    {
        m_hub->addFile(repository, tinyFile());
        auto d = download(tinyModel(), {.token = QStringLiteral("hf_secret")});
        QSignalSpy progress(d.get(), &ModelDownload::progressed);
        d->start();
        QVERIFY(waitFor(*d));
        QVERIFY2(d->state() == ModelDownload::State::Finished, qPrintable(d->message()));
        QCOMPARE(filesIn(folder()), QStringList{fileName});
        QCOMPARE(FakeHub::sha256Of(d->modelPath()), FakeHub::sha256Of(LlamaServer::modelPath()));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toLongLong(), m_size);
        QCOMPARE(progress.last().at(1).toLongLong(), m_size);
        // The hub's first hop, then its file host; the token goes to the hub alone.
        QCOMPARE(m_hub->hub().requests().size(), 1);
        QCOMPARE(m_hub->hub().requests().first().headers.value("authorization"), QByteArray("Bearer hf_secret"));
        QCOMPARE(m_hub->files().requests().size(), 1);
        QVERIFY(!m_hub->files().requests().first().headers.contains("authorization"));

        const QList<ModelFile> shelf = ModelShelf::scan(ModelShelf::folders(m_models->path(), {}));
        const auto mine = std::find_if(shelf.cbegin(), shelf.cend(), [&](const ModelFile &model) {
            return model.source == ModelFolder::Source::Sandpiper;
        });
        QVERIFY(mine != shelf.cend());
        QCOMPARE(mine->path, d->modelPath());
        QVERIFY2(mine->runnable(), qPrintable(mine->problem));

        // Asked again: it is here, nothing is fetched.
        auto again = download();
        again->start();
        QCOMPARE(again->state(), ModelDownload::State::Finished);
        QCOMPARE(again->message(), QStringLiteral("tiny-F32 is already here."));
        QCOMPARE(m_hub->hub().requests().size(), 1);
    }

    void resumesAfterADroppedConnection()
    {
        m_hub->addFile(repository, droppingFile(2, 100000));
        auto d = download();
        QStringList said;
        connect(d.get(), &ModelDownload::stateChanged, this,
                [&](ModelDownload::State, const QString &message) { said << message; });
        d->start();
        QVERIFY(waitFor(*d));
        QVERIFY2(d->state() == ModelDownload::State::Finished, qPrintable(d->message()));
        // Qt's network thread asks once more by itself when a connection closes before the answer's
        // head was read; past that, each drop is a Range from the last byte.
        const QList<QByteArray> ranges = rangesAsked(m_hub->files());
        QVERIFY2(ranges.contains("bytes=100000-") || ranges.contains("bytes=200000-"), ranges.join(' '));
        for (const QByteArray &range : ranges)
            QVERIFY2(range.isEmpty() || range == "bytes=100000-" || range == "bytes=200000-", range);
        QVERIFY2(!said.filter(QStringLiteral("The connection dropped")).isEmpty(), qPrintable(said.join('\n')));
        QCOMPARE(FakeHub::sha256Of(d->modelPath()), FakeHub::sha256Of(LlamaServer::modelPath()));
    }

    // A hash slower than the network holds the network back (here: after every byte), and what
    // the answer still held when it ended is read once the hash caught up.
    void aSlowHashHoldsTheNetworkBack()
    {
        m_hub->addFile(repository, droppingFile(1, 100000));
        auto d = download(tinyModel(), {.hashBacklog = 0});
        d->start();
        QVERIFY(waitFor(*d));
        QVERIFY2(d->state() == ModelDownload::State::Finished, qPrintable(d->message()));
        // Nothing was asked again but after the drop.
        for (const QByteArray &range : rangesAsked(m_hub->files()))
            QVERIFY2(range.isEmpty() || range == "bytes=100000-", range);
        QCOMPARE(FakeHub::sha256Of(d->modelPath()), FakeHub::sha256Of(LlamaServer::modelPath()));
    }

    void givesUpAfterItsRetriesAndKeepsThePart()
    {
        m_hub->addFile(repository, droppingFile(100, 1000));
        auto d = download(tinyModel(), {.retries = 2});
        d->start();
        QVERIFY(waitFor(*d));
        QCOMPARE(d->state(), ModelDownload::State::Failed);
        QVERIFY2(d->message().contains(QLatin1String("What was downloaded is kept")), qPrintable(d->message()));
        QCOMPARE(filesIn(folder()), QStringList{fileName + QStringLiteral(".part")});
        // Each try went on from the last byte (1000 bytes each), and the next start too.
        const qint64 kept = QFileInfo(folder() + QLatin1Char('/') + fileName + QStringLiteral(".part")).size();
        QCOMPARE(kept, 3000);
        m_hub->file(0).drops = 0;
        d->resume();
        QVERIFY(waitFor(*d));
        QVERIFY2(d->state() == ModelDownload::State::Finished, qPrintable(d->message()));
        QCOMPARE(rangesAsked(m_hub->files()).last(), "bytes=" + QByteArray::number(kept) + '-');
        QCOMPARE(FakeHub::sha256Of(d->modelPath()), FakeHub::sha256Of(LlamaServer::modelPath()));
    }

    // After a restart of the app: a new download goes on from the .part, whose bytes it checks.
    void aNewDownloadGoesOnFromThePart_data()
    {
        QTest::addColumn<bool>("damaged");
        QTest::newRow("sound") << false;
        QTest::newRow("damaged") << true;
    }

    void aNewDownloadGoesOnFromThePart()
    {
        QFETCH(bool, damaged);
        m_hub->addFile(repository, tinyFile());
        QVERIFY(QDir().mkpath(folder()));
        QFile model(LlamaServer::modelPath());
        QVERIFY(model.open(QIODevice::ReadOnly));
        QByteArray head = model.read(300000);
        if (damaged)
            head[150000] = char(head[150000] ^ 0x55);
        QFile part(folder() + QLatin1Char('/') + fileName + QStringLiteral(".part"));
        QVERIFY(part.open(QIODevice::WriteOnly));
        part.write(head);
        part.close();

        auto d = download();
        QList<ModelDownload::State> states;
        connect(d.get(), &ModelDownload::stateChanged, this,
                [&](ModelDownload::State state, const QString &) { states << state; });
        d->start();
        QVERIFY(waitFor(*d));
        QVERIFY(states.contains(ModelDownload::State::Checking));
        QCOMPARE(rangesAsked(m_hub->files()), QList<QByteArray>{"bytes=300000-"});
        QCOMPARE(m_hub->files().bodyBytesSent(), m_size - 300000);
        if (damaged) {
            QCOMPARE(d->state(), ModelDownload::State::Failed);
            QVERIFY2(d->message().contains(QLatin1String("does not match the SHA-256")), qPrintable(d->message()));
            QCOMPARE(filesIn(folder()), QStringList());
        } else {
            QVERIFY2(d->state() == ModelDownload::State::Finished, qPrintable(d->message()));
            QCOMPARE(FakeHub::sha256Of(d->modelPath()), FakeHub::sha256Of(LlamaServer::modelPath()));
        }
    }

    void aServerThatIgnoresRangeSendsItAgainWhole()
    {
        FakeHubFile file = droppingFile(1, 200000);
        file.ignoresRange = true;
        m_hub->addFile(repository, file);
        auto d = download();
        d->start();
        QVERIFY(waitFor(*d));
        QVERIFY2(d->state() == ModelDownload::State::Finished, qPrintable(d->message()));
        QCOMPARE(rangesAsked(m_hub->files()).last(), QByteArray("bytes=200000-"));
        QCOMPARE(FakeHub::sha256Of(d->modelPath()), FakeHub::sha256Of(LlamaServer::modelPath()));
    }

    void aWrongChecksumLeavesNothing()
    {
        const QString wrong = QString(64, QLatin1Char('e'));
        m_hub->addFile(repository, {fileName, LlamaServer::modelPath(), wrong});
        auto d = download(tinyModel(wrong));
        d->start();
        QVERIFY(waitFor(*d));
        QCOMPARE(d->state(), ModelDownload::State::Failed);
        QVERIFY2(d->message().startsWith(fileName + QStringLiteral(" does not match the SHA-256 that the hub "
                                                                   "publishes for it (eeeeeeeeeeee…")),
                 qPrintable(d->message()));
        QCOMPARE(filesIn(folder()), QStringList());
    }

    void aRedirectElsewhereIsRefused()
    {
        FakeHubFile file = tinyFile();
        file.redirectTo = m_hub->elsewhere().url(QStringLiteral("/tiny.gguf")).toEncoded();
        m_hub->addFile(repository, file);
        auto d = download();
        d->start();
        QVERIFY(waitFor(*d));
        QCOMPARE(d->state(), ModelDownload::State::Failed);
        QCOMPARE(d->message(), QStringLiteral("The hub sent the download of tiny-F32.gguf to 127.0.0.3, which is "
                                              "neither the hub nor one of its file hosts; Sandpiper did not follow "
                                              "it."));
        QCOMPARE(m_hub->elsewhere().requests().size(), 0);
        QCOMPARE(filesIn(folder()), QStringList{fileName + QStringLiteral(".part")});
        QCOMPARE(QFileInfo(folder() + QLatin1Char('/') + fileName + QStringLiteral(".part")).size(), 0);
    }

    void aGatedRepositoryAsksForAToken()
    {
        m_hub->addRepository(QStringLiteral("test/gated-GGUF"), 0, true);
        m_hub->addFile(QStringLiteral("test/gated-GGUF"), tinyFile());
        DownloadOptions options;
        options.diskMargin = 0;
        options.extraHosts = {m_hub->fileHost()};
        ModelDownload without(m_hub->endpoint(), QStringLiteral("test/gated-GGUF"), tinyModel(), m_models->path(),
                              options);
        without.start();
        QVERIFY(waitFor(without));
        QCOMPARE(without.state(), ModelDownload::State::Failed);
        QVERIFY2(without.message().startsWith(
                     QLatin1String("Access to file tiny-F32.gguf of test/gated-GGUF needs a Hugging Face token")),
                 qPrintable(without.message()));

        options.token = QString::fromLatin1(FakeHub::goodToken);
        ModelDownload with(m_hub->endpoint(), QStringLiteral("test/gated-GGUF"), tinyModel(), m_models->path(),
                           options);
        with.start();
        QVERIFY(waitFor(with));
        QVERIFY2(with.state() == ModelDownload::State::Finished, qPrintable(with.message()));
    }

    // A split model comes as one: its parts are renamed into place only when all are checked.
    void aSplitModelComesAsOne()
    {
        using namespace Sandpiper::Test::GgufBytes;
        HubModel model;
        model.name = QStringLiteral("split-Q8_0");
        model.partsExpected = 3;
        const QTemporaryDir sources;
        for (quint16 part = 0; part < 3; ++part) {
            const QString name = QStringLiteral("split-Q8_0-%1-of-00003.gguf").arg(part + 1, 5, 10, QLatin1Char('0'));
            const QString local = sources.filePath(name);
            QFile file(local);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(header(0, 3,
                              stringValue("general.architecture", "qwen2") + uint16Value("split.no", part) +
                                  uint16Value("split.count", 3)));
            file.close();
            FakeHubFile hubFile{QStringLiteral("Q8_0/") + name, local};
            if (part == 2) {
                hubFile.drops = 1;
                hubFile.dropAfter = 10;
            }
            m_hub->addFile(repository, hubFile);
            model.files.append({hubFile.path, QFileInfo(local).size(), FakeHub::sha256Of(local)});
        }
        auto d = download(model);
        QStringList seenMidway;
        connect(d.get(), &ModelDownload::stateChanged, this, [&](ModelDownload::State state, const QString &) {
            if (state == ModelDownload::State::Downloading)
                seenMidway << filesIn(folder());
        });
        d->start();
        QVERIFY(waitFor(*d));
        QVERIFY2(d->state() == ModelDownload::State::Finished, qPrintable(d->message()));
        QVERIFY(seenMidway.filter(QRegularExpression(QStringLiteral("\\.gguf$"))).isEmpty());
        QCOMPARE(filesIn(folder()).size(), 3);
        const QList<ModelFile> shelf = ModelShelf::scan({{m_models->path(), ModelFolder::Source::Sandpiper}});
        QCOMPARE(shelf.size(), 1);
        QCOMPARE(shelf.first().partsFound, 3);
        QCOMPARE(shelf.first().path, d->modelPath());
        QVERIFY2(shelf.first().runnable(), qPrintable(shelf.first().problem));
    }

    // tests/llama's model cut short, with the checksum of what is served: no GGUF to keep.
    void aFileThatIsNoModelIsRemoved()
    {
        const QString cut = m_models->path() + QStringLiteral("/cut.gguf");
        QFile source(LlamaServer::modelPath());
        QVERIFY(source.open(QIODevice::ReadOnly));
        QFile file(cut);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(source.read(5000));
        file.close();
        m_hub->addFile(repository, {fileName, cut});
        HubModel model = tinyModel(FakeHub::sha256Of(cut));
        model.files.first().size = 5000;
        auto d = download(model);
        d->start();
        QVERIFY(waitFor(*d));
        QCOMPARE(d->state(), ModelDownload::State::Failed);
        QVERIFY2(d->message().startsWith(QLatin1String("tiny-F32 is not a GGUF model that Sandpiper can run (")),
                 qPrintable(d->message()));
        QCOMPARE(filesIn(folder()), QStringList());
    }

    void pausesResumesAndCancels()
    {
        // The first answer ends early, so a pause always comes before the last byte.
        m_hub->addFile(repository, droppingFile(1, 100000));
        auto d = download();
        bool paused = false;
        connect(d.get(), &ModelDownload::progressed, this, [&](qint64 done, qint64, double, qint64) {
            if (!paused && done > 0) {
                paused = true;
                d->pause();
            }
        });
        d->start();
        QTRY_COMPARE(d->state(), ModelDownload::State::Paused);
        const qint64 kept = QFileInfo(folder() + QLatin1Char('/') + fileName + QStringLiteral(".part")).size();
        QVERIFY(kept > 0 && kept <= 100000);
        QCOMPARE(d->bytesDone(), kept);
        // Paused is paused: nothing more comes, nothing more is asked.
        const qsizetype asked = m_hub->files().requests().size();
        QTest::qWait(500);
        QCOMPARE(d->state(), ModelDownload::State::Paused);
        QCOMPARE(QFileInfo(folder() + QLatin1Char('/') + fileName + QStringLiteral(".part")).size(), kept);
        QCOMPARE(m_hub->files().requests().size(), asked);
        d->resume();
        QVERIFY(waitFor(*d));
        QVERIFY2(d->state() == ModelDownload::State::Finished, qPrintable(d->message()));
        QCOMPARE(rangesAsked(m_hub->files()).last(), "bytes=" + QByteArray::number(kept) + '-');

        QVERIFY(QFile::remove(d->modelPath()));
        auto canceled = download();
        connect(canceled.get(), &ModelDownload::progressed, this, [&](qint64 done, qint64, double, qint64) {
            if (done > 0)
                canceled->cancel();
        });
        canceled->start();
        QVERIFY(waitFor(*canceled));
        QCOMPARE(canceled->state(), ModelDownload::State::Canceled);
        // Nothing stays of it, not even the empty folders of its repository.
        QVERIFY(!QFileInfo::exists(folder()));
        QVERIFY(!QFileInfo::exists(QFileInfo(folder()).path()));
        QVERIFY(QFileInfo::exists(m_models->path()));
    }

    void refusesToStartWithoutRoom()
    {
        m_hub->addFile(repository, tinyFile());
        DownloadOptions options;
        options.diskMargin = qint64(1) << 55;
        ModelDownload d(m_hub->endpoint(), repository, tinyModel(), m_models->path(), options);
        d.start();
        QCOMPARE(d.state(), ModelDownload::State::Failed);
        QVERIFY2(d.message().startsWith(QLatin1String("The disk is full: tiny-F32 needs ")), qPrintable(d.message()));
        QCOMPARE(m_hub->hub().requests().size(), 0);
    }

    // A disk that fills up while the model comes (a small tmpfs, mounted as root): the download
    // stops with a sentence and keeps what it has, and goes on once there is room.
    void aDiskThatFillsUpMidway()
    {
        const QString mountPoint = m_models->path() + QStringLiteral("/small");
        QVERIFY(QDir().mkpath(mountPoint));
        if (QProcess::execute(QStringLiteral("mount"),
                              {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                               QStringLiteral("size=1m"), QStringLiteral("tmpfs"), mountPoint}) != 0)
            QSKIP("a tmpfs cannot be mounted here (not root)");
        const auto unmount = qScopeGuard([&] { QProcess::execute(QStringLiteral("umount"), {mountPoint}); });
        // In two answers: the disk fills after the first bytes, before the second answer at the latest.
        m_hub->addFile(repository, droppingFile(1, 100000));
        DownloadOptions options;
        options.diskMargin = 0;
        options.extraHosts = {m_hub->fileHost()};
        options.firstRetryDelay = 10ms;
        ModelDownload d(m_hub->endpoint(), repository, tinyModel(), mountPoint, options);
        const QString filler = mountPoint + QStringLiteral("/filler");
        bool filled = false;
        connect(&d, &ModelDownload::progressed, this, [&](qint64 done, qint64, double, qint64) {
            if (done == 0 || filled)
                return;
            filled = true;
            QFile fill(filler);
            if (fill.open(QIODevice::WriteOnly)) {
                const QByteArray block(4096, 'x');
                while (fill.write(block) == block.size() && fill.flush()) {
                }
            }
        });
        d.start();
        QVERIFY(waitFor(d));
        QCOMPARE(d.state(), ModelDownload::State::Failed);
        QVERIFY2(d.message().startsWith(QLatin1String("The disk is full")), qPrintable(d.message()));
        const QString part = d.folder() + QLatin1Char('/') + fileName + QStringLiteral(".part");
        QVERIFY(QFileInfo(part).size() > 0);
        QCOMPARE(QFileInfo(part).size(), d.bytesDone());
        QVERIFY(QFile::remove(filler));
        d.resume();
        QVERIFY(waitFor(d));
        QVERIFY2(d.state() == ModelDownload::State::Finished, qPrintable(d.message()));
        QCOMPARE(FakeHub::sha256Of(d.modelPath()), FakeHub::sha256Of(LlamaServer::modelPath()));
    }
};

QTEST_GUILESS_MAIN(TestModelDownload)
#include "tst_modeldownload.moc"
