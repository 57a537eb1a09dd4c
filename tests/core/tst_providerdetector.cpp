// Local server detection and the connection test's verdicts, against fake servers on port 0
// standing in for the usual local ports.
#include "fakellmserver.h"
#include "fakewebserver.h"

#include <llm/providerdetector.h>
#include <llm/providerpresets.h>

#include <QTcpServer>
#include <QTest>

#include <QCoroTask>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using namespace std::chrono_literals;

namespace {

// A port on which nothing listens: bound, then released.
quint16 closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost);
    return server.serverPort();
}

template<typename T> T await(QCoro::Task<T> task)
{
    return QCoro::waitFor(std::move(task));
}

} // namespace

class TestProviderDetector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultCandidatesAreTheKeylessPresets()
    {
        QStringList ids;
        for (const auto &candidate : ProviderDetector::localCandidates())
            ids << candidate.presetId;
        QCOMPARE(ids, (QStringList{QStringLiteral("ollama"), QStringLiteral("lmstudio"), QStringLiteral("llamacpp"),
                                   QStringLiteral("vllm")}));
        QCOMPARE(ProviderDetector::localCandidates().first().baseUrl, QStringLiteral("http://localhost:11434/v1"));
    }

    void findsTheServersThatAnswerInTheOpenAiFormat()
    {
        FakeLlmServer ollama;
        QVERIFY(ollama.listen());
        ollama.setModels({QStringLiteral("qwen2.5:7b"), QStringLiteral("llama3.2")});
        FakeLlmServer llamacpp;
        QVERIFY(llamacpp.listen());
        llamacpp.setModels({QStringLiteral("local-model")});
        FakeWebServer html;
        QVERIFY(html.listen());
        html.route("/v1/models", FakeWebResponse::html("<html><body>Welcome to nginx</body></html>"));

        const QList<ProviderDetector::Candidate> candidates = {
            {QStringLiteral("ollama"), ollama.baseUrl().toString()},
            {QStringLiteral("lmstudio"), QStringLiteral("http://127.0.0.1:%1/v1").arg(closedPort())},
            {QStringLiteral("llamacpp"), llamacpp.baseUrl().toString()},
            {QStringLiteral("vllm"), html.url(QStringLiteral("/v1")).toString()},
        };
        QElapsedTimer timer;
        timer.start();
        const auto found = await(ProviderDetector::detect(candidates, 1500ms));
        QVERIFY2(timer.elapsed() < 3000, "the probes run side by side");
        QCOMPARE(found.size(), 2);
        QCOMPARE(found[0].presetId, QStringLiteral("ollama"));
        QCOMPARE(found[0].baseUrl, ollama.baseUrl().toString());
        QCOMPARE(found[0].models, (QStringList{QStringLiteral("llama3.2"), QStringLiteral("qwen2.5:7b")}));
        QCOMPARE(found[1].presetId, QStringLiteral("llamacpp"));
        QCOMPARE(found[1].models, QStringList{QStringLiteral("local-model")});
    }

    void aSilentServerCostsOneTimeout()
    {
        FakeWebServer slow;
        QVERIFY(slow.listen());
        FakeWebResponse stalled = FakeWebResponse::json(R"({"data": []})");
        stalled.delay = 5s;
        slow.route("/v1/models", stalled);
        QElapsedTimer timer;
        timer.start();
        const auto found = await(
            ProviderDetector::detect({{QStringLiteral("vllm"), slow.url(QStringLiteral("/v1")).toString()}}, 300ms));
        QVERIFY(found.isEmpty());
        QVERIFY(timer.elapsed() < 2000);
    }

    void verdicts_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("models");

        using Kind = ProviderDetector::Verdict::Kind;
        QTest::newRow("ok") << "llm"
                            << "sk-right" << int(Kind::Ok) << 3;
        QTest::newRow("wrong key") << "llm"
                                   << "sk-wrong" << int(Kind::WrongKey) << 0;
        QTest::newRow("refused") << "closed"
                                 << "" << int(Kind::Unreachable) << 0;
        QTest::newRow("host not found") << "nohost"
                                        << "" << int(Kind::Unreachable) << 0;
        QTest::newRow("html") << "html"
                              << "" << int(Kind::NotOpenAiCompatible) << 0;
        QTest::newRow("no data array") << "json"
                                       << "" << int(Kind::NotOpenAiCompatible) << 0;
    }

    void verdicts()
    {
        QFETCH(QString, server);
        QFETCH(QString, key);
        QFETCH(int, kind);
        QFETCH(int, models);

        FakeLlmServer llm;
        QVERIFY(llm.listen());
        llm.setModels({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        llm.setRequiredApiKey(QStringLiteral("sk-right"));
        FakeWebServer web;
        QVERIFY(web.listen());
        web.route("/v1/models", FakeWebResponse::html("<!doctype html><title>Router login</title>"));
        FakeWebServer json;
        QVERIFY(json.listen());
        json.route("/v1/models", FakeWebResponse::json(R"({"models": ["a"]})"));

        ProviderConfig config;
        config.apiKey = key;
        config.connectTimeout = 3s;
        if (server == QLatin1String("llm"))
            config.baseUrl = llm.baseUrl().toString();
        else if (server == QLatin1String("closed"))
            config.baseUrl = QStringLiteral("http://127.0.0.1:%1/v1").arg(closedPort());
        else if (server == QLatin1String("nohost"))
            config.baseUrl = QStringLiteral("http://sandpiper-no-such-host.invalid/v1");
        else if (server == QLatin1String("html"))
            config.baseUrl = web.url(QStringLiteral("/v1")).toString();
        else
            config.baseUrl = json.url(QStringLiteral("/v1")).toString();

        const auto verdict = await(ProviderDetector::testConnection(config));
        QCOMPARE(int(verdict.kind), kind);
        QCOMPARE(verdict.models.size(), models);
        QVERIFY(!verdict.message.isEmpty());
        if (verdict.ok())
            QVERIFY2(verdict.message.contains(QLatin1String("3 models")), qPrintable(verdict.message));
    }

    void aBaseUrlIsNormalisedBeforeTheTest()
    {
        FakeLlmServer llm;
        QVERIFY(llm.listen());
        ProviderConfig config;
        config.baseUrl = QStringLiteral("127.0.0.1:%1/v1/chat/completions").arg(llm.port());
        // No scheme: a local host gets http://.
        const auto verdict = await(ProviderDetector::testConnection(config));
        QVERIFY2(verdict.ok(), qPrintable(verdict.message));
    }
};

QTEST_GUILESS_MAIN(TestProviderDetector)
#include "tst_providerdetector.moc"
