#include "llm/providerdetector.h"

#include "llm/chatclient.h"
#include "llm/providerpresets.h"

#include <memory>
#include <vector>

namespace Sandpiper {

ProviderDetector::Verdict ProviderDetector::verdictFor(const ModelList &list)
{
    using Kind = Verdict::Kind;
    Verdict verdict;
    verdict.models = list.models;
    switch (list.error.kind) {
    case ChatError::Kind::None:
        verdict.kind = Kind::Ok;
        verdict.message = list.models.size() == 1 ? tr("Connected: 1 model available.")
                                                  : tr("Connected: %1 models available.").arg(list.models.size());
        break;
    case ChatError::Kind::Authentication:
        verdict.kind = Kind::WrongKey;
        verdict.message = tr("The server refused the API key (HTTP %1). Check the key.").arg(list.error.httpStatus);
        break;
    case ChatError::Kind::ConnectionRefused:
    case ChatError::Kind::ConnectTimeout:
    case ChatError::Kind::Network:
        verdict.kind = Kind::Unreachable;
        verdict.message = tr("The server could not be reached: %1").arg(list.error.message);
        break;
    case ChatError::Kind::Protocol:
    case ChatError::Kind::UnknownModel: // a 404 for /models: not an OpenAI-style API at this URL
        verdict.kind = Kind::NotOpenAiCompatible;
        verdict.message = tr("The server answered, but not like an OpenAI-compatible API. Check that the base "
                             "URL ends where /chat/completions would start (often /v1).");
        break;
    default:
        verdict.kind = Kind::Failed;
        verdict.message = list.error.message;
        break;
    }
    return verdict;
}

QList<ProviderDetector::Candidate> ProviderDetector::localCandidates()
{
    QList<Candidate> candidates;
    for (const ProviderPreset &preset : providerPresets()) {
        if (!preset.needsKey && !preset.baseUrl.isEmpty())
            candidates.append({preset.id, preset.baseUrl});
    }
    return candidates;
}

QCoro::Task<QList<ProviderDetector::Found>> ProviderDetector::detect(QList<Candidate> candidates,
                                                                     std::chrono::milliseconds timeout)
{
    // Tasks start at once, so the probes run side by side and the whole scan takes one timeout.
    std::vector<std::unique_ptr<ChatClient>> clients;
    std::vector<QCoro::Task<ModelList>> probes;
    for (const Candidate &candidate : std::as_const(candidates)) {
        ProviderConfig config;
        config.id = candidate.presetId;
        config.baseUrl = normalizeBaseUrl(candidate.baseUrl).url;
        config.connectTimeout = timeout;
        config.maxRetries = 0;
        clients.push_back(std::make_unique<ChatClient>(config));
        probes.push_back(clients.back()->listModels());
    }
    QList<Found> found;
    for (std::size_t i = 0; i < probes.size(); ++i) {
        const ModelList list = co_await std::move(probes[i]);
        if (list.error.kind == ChatError::Kind::None)
            found.append({candidates[qsizetype(i)].presetId, clients[i]->config().baseUrl, list.models});
    }
    co_return found;
}

QCoro::Task<ProviderDetector::Verdict> ProviderDetector::testConnection(ProviderConfig config)
{
    const BaseUrl baseUrl = normalizeBaseUrl(config.baseUrl);
    if (!baseUrl.error.isEmpty())
        co_return Verdict{Verdict::Kind::Failed, {}, baseUrl.error};
    config.baseUrl = baseUrl.url;
    config.maxRetries = 0;
    ChatClient client(config);
    co_return verdictFor(co_await client.listModels());
}

} // namespace Sandpiper
