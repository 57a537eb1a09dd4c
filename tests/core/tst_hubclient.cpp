// The Hugging Face hub's API as HubClient reads it (issue 26), against a fake hub that answers as
// the real one: search, a repository's files grouped into models (split parts together, vision
// projectors apart) over pages and folders, the quantization chosen for a pull, and the sentences
// for a gated, a missing and a GGUF-less repository.
#include "fakehub.h"

#include <localmodels/hubclient.h>
#include <localmodels/modeldownload.h>

#include <QCoroTask>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestHubClient : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeHub> m_hub;
    std::unique_ptr<QTemporaryDir> m_dir;

    // A file of SIZE bytes to serve as PATH of REPOSITORY.
    void add(const QString &repository, const QString &path, qint64 size)
    {
        const QString local = m_dir->filePath(QString::number(qHash(repository + path)));
        QFile file(local);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(size, 'g'));
        file.close();
        m_hub->addFile(repository, {path, local});
    }

    // A repository as the GGUF publishers lay them out.
    void addQwen()
    {
        const QString repository = QStringLiteral("Qwen/Qwen2.5-0.5B-Instruct-GGUF");
        m_hub->addRepository(repository, 90000);
        add(repository, QStringLiteral("README.md"), 100);
        add(repository, QStringLiteral("qwen2.5-0.5b-instruct-q8_0.gguf"), 800);
        add(repository, QStringLiteral("qwen2.5-0.5b-instruct-q4_k_m.gguf"), 400);
        add(repository, QStringLiteral("qwen2.5-0.5b-instruct-fp16.gguf"), 1600);
        add(repository, QStringLiteral("mmproj-qwen2.5-f16.gguf"), 50);
        for (int part = 1; part <= 3; ++part)
            add(repository,
                QStringLiteral("BF16/qwen2.5-0.5b-instruct-bf16-%1-of-00003.gguf").arg(part, 5, 10, QLatin1Char('0')),
                600);
        add(repository, QStringLiteral("half/half-Q2_K-00001-of-00002.gguf"), 10);
    }

private Q_SLOTS:
    void init()
    {
        m_hub = std::make_unique<FakeHub>();
        QVERIFY(m_hub->listen());
        m_dir = std::make_unique<QTemporaryDir>();
    }

    void searchesGgufRepositoriesByDownloads()
    {
        addQwen();
        m_hub->addRepository(QStringLiteral("bartowski/Qwen2.5-7B-Instruct-GGUF"), 120000, true);
        m_hub->addRepository(QStringLiteral("someone/llama-GGUF"), 5);
        HubClient client(m_hub->endpoint());
        const auto found = QCoro::waitFor(client.search(QStringLiteral("qwen"), 10));
        QVERIFY2(found, qPrintable(found.error()));
        QCOMPARE(found->size(), 2);
        QCOMPARE(found->at(0).id, QStringLiteral("bartowski/Qwen2.5-7B-Instruct-GGUF"));
        QCOMPARE(found->at(0).downloads, 120000);
        QVERIFY(found->at(0).gated);
        QCOMPARE(found->at(1).id, QStringLiteral("Qwen/Qwen2.5-0.5B-Instruct-GGUF"));
        QVERIFY(!found->at(1).gated);
        const QUrlQuery asked(QString::fromUtf8(m_hub->hub().requests().first().target.split('?').value(1)));
        QCOMPARE(asked.queryItemValue(QStringLiteral("filter")), QStringLiteral("gguf"));
        QCOMPARE(asked.queryItemValue(QStringLiteral("sort")), QStringLiteral("downloads"));
        QCOMPARE(asked.queryItemValue(QStringLiteral("limit")), QStringLiteral("10"));
    }

    void listsTheModelsOfARepository_data()
    {
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<bool>("ignoresRecursive");
        QTest::newRow("one page") << 1000 << false;
        QTest::newRow("pages of two") << 2 << false;
        QTest::newRow("folder by folder") << 1000 << true;
    }

    void listsTheModelsOfARepository()
    {
        QFETCH(int, pageSize);
        QFETCH(bool, ignoresRecursive);
        addQwen();
        m_hub->setPageSize(pageSize);
        m_hub->setIgnoresRecursive(ignoresRecursive);
        HubClient client(m_hub->endpoint());
        const auto models = QCoro::waitFor(client.models(QStringLiteral("Qwen/Qwen2.5-0.5B-Instruct-GGUF")));
        QVERIFY2(models, qPrintable(models.error()));
        QStringList seen;
        for (const HubModel &model : *models)
            seen << QStringLiteral("%1 %2 %3/%4 %5%6")
                        .arg(model.name, model.quantization)
                        .arg(model.files.size())
                        .arg(model.partsExpected)
                        .arg(model.bytes())
                        .arg(model.projector ? QStringLiteral(" projector") : QString());
        QCOMPARE(seen, (QStringList{QStringLiteral("half-Q2_K Q2_K 1/2 10"),
                                    QStringLiteral("qwen2.5-0.5b-instruct-q4_k_m Q4_K_M 1/1 400"),
                                    QStringLiteral("qwen2.5-0.5b-instruct-q8_0 Q8_0 1/1 800"),
                                    QStringLiteral("qwen2.5-0.5b-instruct-fp16 FP16 1/1 1600"),
                                    QStringLiteral("qwen2.5-0.5b-instruct-bf16 BF16 3/3 1800"),
                                    QStringLiteral("mmproj-qwen2.5-f16 F16 1/1 50 projector")}));
        const HubModel &split = models->at(4);
        QCOMPARE(split.files.at(2).path, QStringLiteral("BF16/qwen2.5-0.5b-instruct-bf16-00003-of-00003.gguf"));
        QCOMPARE(split.files.at(0).sha256,
                 FakeHub::sha256Of(m_dir->filePath(QString::number(
                     qHash(QStringLiteral("Qwen/Qwen2.5-0.5B-Instruct-GGUF") + split.files.at(0).path)))));
        QCOMPARE(
            client.fileUrl(QStringLiteral("Qwen/Qwen2.5-0.5B-Instruct-GGUF"), split.files.at(0).path),
            m_hub->hub().url(QStringLiteral(
                "/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/BF16/qwen2.5-0.5b-instruct-bf16-00001-of-00003.gguf")));
    }

    void choosesTheQuantization_data()
    {
        QTest::addColumn<QString>("asked");
        QTest::addColumn<QString>("chosen");
        QTest::addColumn<QString>("error");
        QTest::newRow("default") << QString() << QStringLiteral("Q4_K_M") << QString();
        QTest::newRow("any case") << QStringLiteral("q8_0") << QStringLiteral("Q8_0") << QString();
        QTest::newRow("split") << QStringLiteral("BF16") << QStringLiteral("BF16") << QString();
        QTest::newRow("missing") << QStringLiteral("IQ2_XS") << QString()
                                 << QStringLiteral(
                                        "it has no model quantized as IQ2_XS (it has Q4_K_M, Q8_0, FP16, BF16)");
        QTest::newRow("incomplete") << QStringLiteral("Q2_K") << QString()
                                    << QStringLiteral(
                                           "it has no model quantized as Q2_K (it has Q4_K_M, Q8_0, FP16, BF16)");
    }

    void choosesTheQuantization()
    {
        QFETCH(QString, asked);
        QFETCH(QString, chosen);
        QFETCH(QString, error);
        addQwen();
        HubClient client(m_hub->endpoint());
        const auto models = QCoro::waitFor(client.models(QStringLiteral("Qwen/Qwen2.5-0.5B-Instruct-GGUF")));
        QVERIFY2(models, qPrintable(models.error()));
        QString why;
        const auto model = HubClient::choose(*models, asked, &why);
        QCOMPARE(model ? model->quantization : QString(), chosen);
        QCOMPARE(why, error);
    }

    void withoutQ4TheSmallestIsChosen()
    {
        HubFile big{QStringLiteral("m-Q8_0.gguf"), 800, {}};
        HubFile small{QStringLiteral("m-Q3_K_S.gguf"), 300, {}};
        QString why;
        const auto model = HubClient::choose(HubClient::group({big, small}), QString(), &why);
        QVERIFY(model);
        QCOMPARE(model->quantization, QStringLiteral("Q3_K_S"));
    }

    void saysWhatIsWrongWithARepository()
    {
        m_hub->addRepository(QStringLiteral("test/gated-GGUF"), 0, true);
        add(QStringLiteral("test/gated-GGUF"), QStringLiteral("gated-Q4_K_M.gguf"), 10);
        m_hub->addRepository(QStringLiteral("test/safetensors"));
        add(QStringLiteral("test/safetensors"), QStringLiteral("model.safetensors"), 10);
        HubClient client(m_hub->endpoint());

        auto gated = QCoro::waitFor(client.models(QStringLiteral("test/gated-GGUF")));
        QVERIFY(!gated);
        QVERIFY2(gated.error().startsWith(QLatin1String(
                     "Access to repository test/gated-GGUF needs a Hugging Face token: it is gated or private.")),
                 qPrintable(gated.error()));
        client.setToken(QStringLiteral("hf_wrong"));
        gated = QCoro::waitFor(client.models(QStringLiteral("test/gated-GGUF")));
        QVERIFY2(gated.error().startsWith(QLatin1String("The hub refused the Hugging Face token for repository "
                                                        "test/gated-GGUF")),
                 qPrintable(gated.error()));
        client.setToken(QString::fromLatin1(FakeHub::goodToken));
        gated = QCoro::waitFor(client.models(QStringLiteral("test/gated-GGUF")));
        QVERIFY2(gated, qPrintable(gated.error()));

        const auto missing = QCoro::waitFor(client.models(QStringLiteral("test/missing")));
        QCOMPARE(missing.error(),
                 QStringLiteral("The hub has no repository test/missing. It said: Repository not found"));
        const auto noGguf = QCoro::waitFor(client.models(QStringLiteral("test/safetensors")));
        QCOMPARE(noGguf.error(), QStringLiteral("The repository test/safetensors has no GGUF file."));
        const auto badName = QCoro::waitFor(client.models(QStringLiteral("../etc")));
        QVERIFY(badName.error().contains(QLatin1String("is not the name of a repository")));
        QCOMPARE(m_hub->hub().requests().size(), 5);
    }

    void theEndpointComesFromHfEndpoint()
    {
        qputenv("HF_ENDPOINT", "https://mirror.example.org/");
        QCOMPARE(HubClient::defaultEndpoint(), QUrl(QStringLiteral("https://mirror.example.org")));
        qunsetenv("HF_ENDPOINT");
        QCOMPARE(HubClient::defaultEndpoint(), QUrl(QStringLiteral("https://huggingface.co")));
    }

    void redirectsGoOnlyToTheHubsHosts_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<bool>("allowed");
        const QString hub = QStringLiteral("https://huggingface.co");
        QTest::newRow("the hub") << hub << QStringLiteral("huggingface.co") << QStringList() << true;
        QTest::newRow("lfs cdn") << hub << QStringLiteral("cdn-lfs-us-1.hf.co") << QStringList() << true;
        QTest::newRow("xet") << hub << QStringLiteral("cas-bridge.xethub.hf.co") << QStringList() << true;
        QTest::newRow("cdn") << hub << QStringLiteral("cdn-lfs.huggingface.co") << QStringList() << true;
        QTest::newRow("lookalike") << hub << QStringLiteral("evilhf.co") << QStringList() << false;
        QTest::newRow("suffix") << hub << QStringLiteral("huggingface.co.example.org") << QStringList() << false;
        QTest::newRow("elsewhere") << hub << QStringLiteral("example.org") << QStringList() << false;
        const QString mirror = QStringLiteral("https://hf-mirror.example.org");
        QTest::newRow("mirror") << mirror << QStringLiteral("hf-mirror.example.org") << QStringList() << true;
        QTest::newRow("mirror, not hf.co") << mirror << QStringLiteral("cdn-lfs.hf.co") << QStringList() << false;
        QTest::newRow("mirror's files") << mirror << QStringLiteral("files.example.org")
                                        << QStringList{QStringLiteral("files.example.org")} << true;
        QTest::newRow("mirror's cdn") << mirror << QStringLiteral("a.cdn.example.org")
                                      << QStringList{QStringLiteral("*.cdn.example.org")} << true;
        QTest::newRow("empty extra") << mirror << QStringLiteral("x.org") << QStringList{QString()} << false;
    }

    void redirectsGoOnlyToTheHubsHosts()
    {
        QFETCH(QString, endpoint);
        QFETCH(QString, host);
        QFETCH(QStringList, extra);
        QFETCH(bool, allowed);
        QCOMPARE(ModelDownload::hostAllowed(QUrl(endpoint), host, extra), allowed);
    }
};

QTEST_GUILESS_MAIN(TestHubClient)
#include "tst_hubclient.moc"
