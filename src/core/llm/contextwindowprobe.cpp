#include "llm/contextwindowprobe.h"

#include "llm/chatclient.h"
#include "llm/providerpresets.h"
#include "logging.h"

#include <QCoroNetworkReply>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QTimer>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// A probe is a quick question to a server that may not know it; it must not hold up the answer.
constexpr auto probeTimeout = 3s;

QJsonObject entryFor(const QJsonArray &entries, const QString &model, std::initializer_list<const char *> keys)
{
    for (const QJsonValue &entry : entries) {
        for (const char *key : keys) {
            const QString id = entry[QLatin1String(key)].toString();
            if (!id.isEmpty() && (id == model || id == model + QStringLiteral(":latest")))
                return entry.toObject();
        }
    }
    // A server with a single model serves it whatever it is called.
    return entries.size() == 1 ? entries.first().toObject() : QJsonObject();
}

} // namespace

ContextWindowProbe::ContextWindowProbe(ProviderConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_network(new QNetworkAccessManager(this))
{}

ContextWindowProbe::~ContextWindowProbe()
{
    cancel();
}

void ContextWindowProbe::cancel()
{
    m_cancelled = true;
    if (m_reply)
        m_reply->abort();
}

QString ContextWindowProbe::serverRoot(const QString &baseUrl)
{
    QString root = baseUrl;
    while (root.endsWith(QLatin1Char('/')))
        root.chop(1);
    if (root.endsWith(QLatin1String("/v1")))
        root.chop(3);
    return root;
}

ContextWindowProbe::Finding ContextWindowProbe::fromProps(const QJsonObject &props)
{
    Finding finding;
    finding.server = Server::LlamaCpp;
    // A slot's window: the server's -c divided among its parallel slots.
    qint64 window = props[QLatin1String("default_generation_settings")][QLatin1String("n_ctx")].toInteger();
    if (window <= 0)
        window = props.value(QLatin1String("n_ctx")).toInteger();
    if (window > 0) {
        finding.window = window;
        finding.source = QStringLiteral("/props");
    }
    // Servers since mid-2025 say; "vision" is true only when a projector (--mmproj) is loaded.
    if (const QJsonValue vision = props[QLatin1String("modalities")][QLatin1String("vision")]; vision.isBool())
        finding.acceptsImages = vision.toBool();
    return finding;
}

ContextWindowProbe::Finding ContextWindowProbe::fromOllama(const QJsonObject &show, const QJsonObject &running,
                                                           const QString &model)
{
    Finding finding;
    finding.server = Server::Ollama;
    // Since Ollama 0.6: "completion", "tools", "vision", "thinking", ...
    if (const QJsonValue capabilities = show.value(QLatin1String("capabilities")); capabilities.isArray())
        finding.acceptsImages = capabilities.toArray().contains(QJsonValue(QStringLiteral("vision")));
    // What the loaded model really uses (OLLAMA_CONTEXT_LENGTH or num_ctx), where the server says.
    const QJsonObject loaded = entryFor(running.value(QLatin1String("models")).toArray(), model, {"name", "model"});
    if (const qint64 window = loaded.value(QLatin1String("context_length")).toInteger(); window > 0) {
        finding.window = window;
        finding.source = QStringLiteral("/api/ps");
        return finding;
    }
    static const QRegularExpression numCtx(QStringLiteral("(?:^|\\n)\\s*num_ctx\\s+(\\d+)"));
    const QRegularExpressionMatch configured = numCtx.match(show.value(QLatin1String("parameters")).toString());
    if (configured.hasMatch()) {
        finding.window = configured.captured(1).toLongLong();
        finding.source = QStringLiteral("/api/show num_ctx");
        return finding;
    }
    // The model's own limit; Ollama may run it with less, and then cuts the prompt silently.
    const QJsonObject info = show.value(QLatin1String("model_info")).toObject();
    for (auto it = info.begin(); it != info.end(); ++it) {
        if (it.key().endsWith(QLatin1String(".context_length")) && it.value().toInteger() > 0) {
            finding.window = it.value().toInteger();
            finding.source = QStringLiteral("/api/show context_length");
            finding.settled = false;
            break;
        }
    }
    return finding;
}

ContextWindowProbe::Finding ContextWindowProbe::fromLmStudio(const QJsonObject &models, const QString &model)
{
    Finding finding;
    finding.server = Server::LmStudio;
    const QJsonObject entry = entryFor(models.value(QLatin1String("data")).toArray(), model, {"id"});
    // "llm", "vlm" (a model with vision) or "embeddings".
    if (const QString type = entry.value(QLatin1String("type")).toString(); !type.isEmpty())
        finding.acceptsImages = type == QLatin1String("vlm");
    if (const qint64 loaded = entry.value(QLatin1String("loaded_context_length")).toInteger(); loaded > 0) {
        finding.window = loaded;
        finding.source = QStringLiteral("/api/v0/models loaded_context_length");
    } else if (const qint64 most = entry.value(QLatin1String("max_context_length")).toInteger(); most > 0) {
        // Not loaded yet: LM Studio loads it with its own default, often less.
        finding.window = most;
        finding.source = QStringLiteral("/api/v0/models max_context_length");
        finding.settled = false;
    }
    return finding;
}

ContextWindowProbe::Finding ContextWindowProbe::fromModelList(const QJsonObject &models, const QString &model)
{
    Finding finding;
    const QJsonObject entry = entryFor(models.value(QLatin1String("data")).toArray(), model, {"id"});
    const QString owner = entry.value(QLatin1String("owned_by")).toString();
    if (owner == QLatin1String("llamacpp"))
        finding.server = Server::LlamaCpp;
    else if (owner == QLatin1String("vllm") || entry.contains(QLatin1String("max_model_len")))
        finding.server = Server::Vllm;
    else if (entry.contains(QLatin1String("pricing")) && entry.contains(QLatin1String("context_length")))
        finding.server = Server::OpenRouter;
    const std::pair<const char *, qint64> candidates[] = {
        {"max_model_len", entry.value(QLatin1String("max_model_len")).toInteger()},
        {"context_length", entry.value(QLatin1String("context_length")).toInteger()},
        {"context_window", entry.value(QLatin1String("context_window")).toInteger()},
        {"max_context_length", entry.value(QLatin1String("max_context_length")).toInteger()},
        {"n_ctx", entry[QLatin1String("meta")][QLatin1String("n_ctx")].toInteger()},
    };
    for (const auto &[field, window] : candidates) {
        if (window > 0) {
            finding.window = window;
            finding.source = QStringLiteral("/models %1").arg(QLatin1String(field));
            break;
        }
    }
    return finding;
}

QCoro::Task<std::optional<QJsonObject>> ContextWindowProbe::request(QUrl url, QJsonObject body, bool post)
{
    if (m_cancelled)
        co_return std::nullopt;
    QPointer<ContextWindowProbe> self(this);
    QNetworkRequest request = ChatClient::request(m_config, url);
    QNetworkReply *reply = nullptr;
    if (post) {
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        reply = m_network->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    } else {
        reply = m_network->get(request);
    }
    m_reply = reply;
    QTimer timeout;
    timeout.setSingleShot(true);
    connect(&timeout, &QTimer::timeout, reply, &QNetworkReply::abort);
    timeout.start(std::min<std::chrono::milliseconds>(probeTimeout, m_config.connectTimeout));
    co_await reply;
    // A probe deleted meanwhile took its replies with it.
    if (!self)
        co_return std::nullopt;
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QJsonDocument document = status == 200 && reply->error() == QNetworkReply::NoError
                                       ? QJsonDocument::fromJson(reply->readAll())
                                       : QJsonDocument();
    if (!document.isObject()) {
        qCInfo(lcAgent) << "no context window from" << url.path() << "( HTTP" << status << ")";
        co_return std::nullopt;
    }
    co_return document.object();
}

QCoro::Task<ContextWindowProbe::Finding> ContextWindowProbe::fromPropsEndpoint()
{
    const auto props = co_await request(QUrl(serverRoot(m_config.baseUrl) + QStringLiteral("/props")), {}, false);
    co_return props ? fromProps(*props) : Finding{};
}

QCoro::Task<ContextWindowProbe::Finding> ContextWindowProbe::fromOllamaEndpoints(QString model)
{
    const QString root = serverRoot(m_config.baseUrl);
    // "name" for servers older than Ollama 0.5, which did not know "model" yet.
    const auto show =
        co_await request(QUrl(root + QStringLiteral("/api/show")),
                         QJsonObject{{QStringLiteral("model"), model}, {QStringLiteral("name"), model}}, true);
    if (!show)
        co_return Finding{};
    const auto running = co_await request(QUrl(root + QStringLiteral("/api/ps")), {}, false);
    co_return fromOllama(*show, running.value_or(QJsonObject()), model);
}

QCoro::Task<ContextWindowProbe::Finding> ContextWindowProbe::fromLmStudioEndpoint(QString model)
{
    const auto models =
        co_await request(QUrl(serverRoot(m_config.baseUrl) + QStringLiteral("/api/v0/models")), {}, false);
    co_return models ? fromLmStudio(*models, model) : Finding{};
}

QCoro::Task<ContextWindowProbe::Finding> ContextWindowProbe::fromModelsEndpoint(QString model)
{
    const auto models = co_await request(QUrl(m_config.baseUrl + QStringLiteral("/models")), {}, false);
    co_return models ? fromModelList(*models, model) : Finding{};
}

QCoro::Task<ContextWindowProbe::Finding> ContextWindowProbe::discover(QString model)
{
    QPointer<ContextWindowProbe> self(this);
    m_cancelled = false;
    const QString preset = m_config.id;
    Finding finding;
    // The server the preset names is asked its own way first.
    // "local" is Sandpiper's own llama-server.
    if (preset == QLatin1String("llamacpp") || preset == QLatin1String("local"))
        finding = co_await fromPropsEndpoint();
    else if (preset == QLatin1String("ollama"))
        finding = co_await fromOllamaEndpoints(model);
    else if (preset == QLatin1String("lmstudio"))
        finding = co_await fromLmStudioEndpoint(model);
    if (!self || finding.window > 0)
        co_return finding;

    finding = co_await fromModelsEndpoint(model);
    if (!self)
        co_return finding;
    // llama.cpp's list gives the whole context; a slot may have less.
    if (finding.server == Server::LlamaCpp) {
        const Finding props = co_await fromPropsEndpoint();
        co_return props.window > 0 ? props : finding;
    }
    const auto known = findProviderPreset(preset);
    if (finding.window > 0 || (known && known->needsKey))
        co_return finding;
    // An unnamed local server: try each kind in turn.
    for (const auto &probe : {&ContextWindowProbe::fromLmStudioEndpoint, &ContextWindowProbe::fromOllamaEndpoints}) {
        const Finding found = co_await (this->*probe)(model);
        if (!self || found.window > 0)
            co_return found;
    }
    const Finding props = co_await fromPropsEndpoint();
    co_return props.window > 0 ? props : finding;
}

QCoro::Task<std::optional<qint64>> ContextWindowProbe::countTokens(Server server, QJsonObject body)
{
    QPointer<ContextWindowProbe> self(this);
    m_cancelled = false;
    const QString root = serverRoot(m_config.baseUrl);
    if (server == Server::LlamaCpp) {
        // The prompt as the server's template renders it, then its tokens.
        const auto rendered = co_await request(QUrl(root + QStringLiteral("/apply-template")), body, true);
        if (!self || !rendered)
            co_return std::nullopt;
        const auto tokens = co_await request(
            QUrl(root + QStringLiteral("/tokenize")),
            QJsonObject{{QStringLiteral("content"), rendered->value(QLatin1String("prompt")).toString()},
                        {QStringLiteral("add_special"), true},
                        {QStringLiteral("parse_special"), true}},
            true);
        if (!self || !tokens || !tokens->value(QLatin1String("tokens")).isArray())
            co_return std::nullopt;
        co_return tokens->value(QLatin1String("tokens")).toArray().size();
    }
    if (server == Server::Vllm) {
        body.insert(QStringLiteral("add_generation_prompt"), true);
        const auto counted = co_await request(QUrl(root + QStringLiteral("/tokenize")), body, true);
        if (!self || !counted || counted->value(QLatin1String("count")).toInteger() <= 0)
            co_return std::nullopt;
        co_return counted->value(QLatin1String("count")).toInteger();
    }
    co_return std::nullopt;
}

} // namespace Sandpiper
