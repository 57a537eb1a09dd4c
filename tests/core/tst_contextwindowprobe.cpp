// The context window as each kind of server tells it, against local servers that answer like
// llama.cpp, Ollama, LM Studio, vLLM and OpenRouter.
#include "fakellmserver.h"
#include "fakestreams.h"

#include <llm/contextwindowprobe.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <QCoroTask>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;
using Server = ContextWindowProbe::Server;

namespace {

FakeResponse json(const QByteArray &body, int status = 200)
{
    FakeResponse response;
    response.status = status;
    response.chunked = false;
    response.headers = {{"Content-Type", "application/json"}};
    response.chunks = {body};
    return response;
}

// llama.cpp's /v1/models, as Debian's llama-server b11669 answers.
FakeResponse llamaCppModels(qint64 nCtx)
{
    return json(
        QStringLiteral(
            R"({"models":[{"name":"tiny","model":"tiny","modified_at":"","size":"","digest":"","type":"model"}],)"
            R"("object":"list","data":[{"id":"tiny","aliases":["tiny"],"tags":[],"object":"model","created":)"
            R"(1796107144,"owned_by":"llamacpp","meta":{"vocab_type":2,"n_vocab":266,"n_ctx":%1,)"
            R"("n_ctx_train":32768,"n_embd":64,"n_params":116672,"size":466688}}]})")
            .arg(nCtx)
            .toUtf8());
}

QStringList paths(const FakeLlmServer &server)
{
    QStringList out;
    for (const RecordedRequest &request : server.requests())
        out << QString::fromLatin1(request.method + ' ' + request.path);
    return out;
}

} // namespace

class TestContextWindowProbe : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;

    ProviderConfig config(const QString &preset, const QString &path = QStringLiteral("/v1"))
    {
        ProviderConfig c;
        c.id = preset;
        c.baseUrl = QStringLiteral("http://127.0.0.1:%1%2").arg(m_server->port()).arg(path);
        c.model = QStringLiteral("qwen2.5:7b");
        return c;
    }

    ContextWindowProbe::Finding discover(const ProviderConfig &c)
    {
        ContextWindowProbe probe(c);
        return QCoro::waitFor(probe.discover(c.model));
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
    }
    void cleanup() { m_server.reset(); }

    void eachServerItsOwnWay_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<qint64>("window");
        QTest::addColumn<QString>("source");
        QTest::addColumn<Server>("server");
        QTest::addColumn<bool>("settled");

        QTest::newRow("llama.cpp /props") << "llamacpp"
                                          << "llama.cpp" << qint64(4096) << "/props" << Server::LlamaCpp << true;
        QTest::newRow("ollama, loaded: /api/ps")
            << "ollama"
            << "ollama loaded" << qint64(4096) << "/api/ps" << Server::Ollama << true;
        QTest::newRow("ollama, num_ctx in the modelfile")
            << "ollama"
            << "ollama num_ctx" << qint64(8192) << "/api/show num_ctx" << Server::Ollama << true;
        QTest::newRow("ollama, only the model's own length")
            << "ollama"
            << "ollama model only" << qint64(32768) << "/api/show context_length" << Server::Ollama << false;
        QTest::newRow("lm studio, loaded")
            << "lmstudio"
            << "lm studio loaded" << qint64(4096) << "/api/v0/models loaded_context_length" << Server::LmStudio << true;
        QTest::newRow("lm studio, not loaded") << "lmstudio"
                                               << "lm studio not loaded" << qint64(32768)
                                               << "/api/v0/models max_context_length" << Server::LmStudio << false;
        QTest::newRow("vllm") << "vllm"
                              << "vllm" << qint64(16384) << "/models max_model_len" << Server::Vllm << true;
        QTest::newRow("openrouter") << "openrouter"
                                    << "openrouter" << qint64(128000) << "/models context_length" << Server::OpenRouter
                                    << true;
        // Behind "custom" the server is found by asking.
        QTest::newRow("custom llama.cpp: a slot's window")
            << "custom"
            << "llama.cpp" << qint64(4096) << "/props" << Server::LlamaCpp << true;
        QTest::newRow("custom ollama") << "custom"
                                       << "ollama num_ctx" << qint64(8192) << "/api/show num_ctx" << Server::Ollama
                                       << true;
        QTest::newRow("custom lm studio")
            << "custom"
            << "lm studio loaded" << qint64(4096) << "/api/v0/models loaded_context_length" << Server::LmStudio << true;
        QTest::newRow("custom vllm") << "custom"
                                     << "vllm" << qint64(16384) << "/models max_model_len" << Server::Vllm << true;
        QTest::newRow("a server that does not say") << "custom"
                                                    << "silent" << qint64(0) << "" << Server::Unknown << true;
    }

    void eachServerItsOwnWay()
    {
        QFETCH(QString, preset);
        QFETCH(QString, scenario);
        QFETCH(qint64, window);
        QFETCH(QString, source);
        QFETCH(Server, server);
        QFETCH(bool, settled);

        const QString model = QStringLiteral("qwen2.5:7b");
        if (scenario == QLatin1String("llama.cpp")) {
            m_server->setRoute("GET", "/props", FS::llamaCppProps(4096));
            m_server->setRoute("GET", "/v1/models", llamaCppModels(16384)); // all slots together
        } else if (scenario.startsWith(QLatin1String("ollama"))) {
            m_server->setRoute("POST", "/api/show",
                               FS::ollamaShow(32768, scenario == QLatin1String("ollama num_ctx")
                                                         ? std::optional<qint64>(8192)
                                                         : std::nullopt));
            m_server->setRoute("GET", "/api/ps",
                               FS::ollamaRunning(model, scenario == QLatin1String("ollama loaded")
                                                            ? std::optional<qint64>(4096)
                                                            : std::nullopt));
        } else if (scenario.startsWith(QLatin1String("lm studio"))) {
            m_server->setRoute("GET", "/api/v0/models",
                               FS::lmStudioModels(model, 32768,
                                                  scenario == QLatin1String("lm studio loaded")
                                                      ? std::optional<qint64>(4096)
                                                      : std::nullopt));
        } else if (scenario == QLatin1String("vllm")) {
            m_server->setRoute("GET", "/v1/models", FS::vllmModels(model, 16384));
        } else if (scenario == QLatin1String("openrouter")) {
            m_server->setRoute("GET", "/api/v1/models", FS::openRouterModels(model, 128000));
        }
        const ContextWindowProbe::Finding finding = discover(
            config(preset, preset == QLatin1String("openrouter") ? QStringLiteral("/api/v1") : QStringLiteral("/v1")));
        QCOMPARE(finding.window, window);
        QCOMPARE(finding.source, source);
        QCOMPARE(finding.server, server);
        QCOMPARE(finding.settled, settled);
    }

    void aCloudProviderIsAskedOnlyForItsModelList()
    {
        const ContextWindowProbe::Finding finding = discover(config(QStringLiteral("openai")));
        QCOMPARE(finding.window, 0);
        QCOMPARE(paths(*m_server), QStringList{QStringLiteral("GET /v1/models")});
    }

    void theKeyAndHeadersGoAlong()
    {
        ProviderConfig c = config(QStringLiteral("vllm"));
        c.apiKey = QStringLiteral("sk-local");
        c.extraHeaders = {{"X-Title", "Sandpiper"}};
        m_server->setRoute("GET", "/v1/models", FS::vllmModels(c.model, 16384));
        QCOMPARE(discover(c).window, 16384);
        QCOMPARE(m_server->requests().constFirst().headers.value("authorization"), QByteArray("Bearer sk-local"));
        QCOMPARE(m_server->requests().constFirst().headers.value("x-title"), QByteArray("Sandpiper"));
    }

    void aServerThatHangsCostsAtMostTheTimeout()
    {
        FakeResponse slow = FS::llamaCppProps(4096);
        slow.delayBeforeHeaders = std::chrono::milliseconds(5000);
        m_server->setRoute("GET", "/props", slow);
        ProviderConfig c = config(QStringLiteral("llamacpp"));
        c.connectTimeout = std::chrono::milliseconds(300);
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(discover(c).window, 0);
        QVERIFY2(timer.elapsed() < 4000, qPrintable(QString::number(timer.elapsed())));
    }

    void countsTokensWhereTheServerCan()
    {
        // llama.cpp: the template renders the prompt, /tokenize counts it (here one token a byte).
        m_server->setRoute("POST", "/apply-template", [](const RecordedRequest &request) {
            const QJsonArray messages = request.json().value(QLatin1String("messages")).toArray();
            QString prompt;
            for (const QJsonValue &m : messages)
                prompt += QStringLiteral("<|im_start|>%1\n%2<|im_end|>\n")
                              .arg(m[QLatin1String("role")].toString(), m[QLatin1String("content")].toString());
            return json(QJsonDocument(QJsonObject{{QStringLiteral("prompt"), prompt}}).toJson(QJsonDocument::Compact));
        });
        m_server->setRoute("POST", "/tokenize", [](const RecordedRequest &request) {
            QJsonArray tokens;
            for (const char byte : request.json().value(QLatin1String("content")).toString().toUtf8())
                tokens.append(int(quint8(byte)));
            return json(QJsonDocument(QJsonObject{{QStringLiteral("tokens"), tokens}}).toJson(QJsonDocument::Compact));
        });
        ContextWindowProbe probe(config(QStringLiteral("llamacpp")));
        const QJsonObject body{{QStringLiteral("model"), QStringLiteral("tiny")},
                               {QStringLiteral("messages"),
                                QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                       {QStringLiteral("content"), QStringLiteral("hello")}}}}};
        // "<|im_start|>user\nhello<|im_end|>\n": 12 + 4 + 1 + 5 + 10 + 1 bytes.
        QCOMPARE(QCoro::waitFor(probe.countTokens(Server::LlamaCpp, body)), std::optional<qint64>(33));
        QCOMPARE(QCoro::waitFor(probe.countTokens(Server::Ollama, body)), std::nullopt);
    }

    void countsTokensWithVllm()
    {
        m_server->setRoute("POST", "/tokenize", [](const RecordedRequest &request) {
            const bool generationPrompt = request.json().value(QLatin1String("add_generation_prompt")).toBool();
            return json(generationPrompt ? R"({"count":27,"max_model_len":16384,"tokens":[]})"
                                         : R"({"object":"error","message":"missing add_generation_prompt"})",
                        generationPrompt ? 200 : 400);
        });
        ContextWindowProbe probe(config(QStringLiteral("vllm")));
        QCOMPARE(
            QCoro::waitFor(probe.countTokens(Server::Vllm, QJsonObject{{QStringLiteral("messages"), QJsonArray()}})),
            std::optional<qint64>(27));
    }

    void theServerRootIsBelowV1()
    {
        QCOMPARE(ContextWindowProbe::serverRoot(QStringLiteral("http://localhost:8080/v1")),
                 QStringLiteral("http://localhost:8080"));
        QCOMPARE(ContextWindowProbe::serverRoot(QStringLiteral("http://gpu-box/llama/v1/")),
                 QStringLiteral("http://gpu-box/llama"));
        QCOMPARE(ContextWindowProbe::serverRoot(QStringLiteral("http://localhost:8080")),
                 QStringLiteral("http://localhost:8080"));
    }
};

QTEST_GUILESS_MAIN(TestContextWindowProbe)
#include "tst_contextwindowprobe.moc"
