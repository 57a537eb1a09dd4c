#pragma once

#include "llm/providerconfig.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <QCoroTask>

#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QUrl;

namespace Sandpiper {

// Asks a server how large the model's context window is (and whether it takes images), each
// server in its own way:
// llama.cpp's /props (n_ctx of a slot), Ollama's /api/ps and /api/show (the configured num_ctx,
// else the model's context_length), LM Studio's /api/v0/models (loaded_context_length), and the
// OpenAI-style /models list with vLLM's max_model_len, OpenRouter's context_length and the
// like. Also counts a request's tokens exactly where the server can (llama.cpp, vLLM).
class ContextWindowProbe : public QObject
{
    Q_OBJECT

public:
    enum class Server { Unknown, LlamaCpp, Ollama, LmStudio, Vllm, OpenRouter };
    struct Finding {
        qint64 window = 0; // tokens; 0 when the server did not say
        Server server = Server::Unknown;
        QString source; // where the window came from, such as "/props"
        // False when the server may use less than it said until the model is loaded (Ollama,
        // LM Studio): worth asking again after the first answer.
        bool settled = true;
        // Whether the model takes images: llama.cpp's "modalities", Ollama's "capabilities",
        // LM Studio's model type; unknown where the server does not say.
        std::optional<bool> acceptsImages;
    };

    explicit ContextWindowProbe(ProviderConfig config, QObject *parent = nullptr);
    ~ContextWindowProbe() override;

    QCoro::Task<Finding> discover(QString model);
    // BODY: the request's model, messages and tools. Nothing where the server cannot count.
    QCoro::Task<std::optional<qint64>> countTokens(Server server, QJsonObject body);
    // Aborts what is in flight; the tasks then return what they have.
    void cancel();

    // The server's own root, where llama.cpp, Ollama and LM Studio keep their native APIs.
    static QString serverRoot(const QString &baseUrl);
    // One parser per answer, for the tests.
    static Finding fromProps(const QJsonObject &props);
    static Finding fromOllama(const QJsonObject &show, const QJsonObject &running, const QString &model);
    static Finding fromLmStudio(const QJsonObject &models, const QString &model);
    static Finding fromModelList(const QJsonObject &models, const QString &model);

private:
    QCoro::Task<std::optional<QJsonObject>> request(QUrl url, QJsonObject body, bool post);
    QCoro::Task<Finding> fromPropsEndpoint();
    QCoro::Task<Finding> fromOllamaEndpoints(QString model);
    QCoro::Task<Finding> fromLmStudioEndpoint(QString model);
    QCoro::Task<Finding> fromModelsEndpoint(QString model);

    ProviderConfig m_config;
    QNetworkAccessManager *m_network;
    QPointer<QNetworkReply> m_reply;
    bool m_cancelled = false;
};

} // namespace Sandpiper
