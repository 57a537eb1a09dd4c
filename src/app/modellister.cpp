#include "modellister.h"

#include <llm/providerpresets.h>
#include <session/localmodelhost.h>
#include <session/sessionmanager.h>

#include <QFileInfo>
#include <QTimer>

#include <QCoroTask>

using namespace std::chrono_literals;

namespace Sandpiper {

ModelLister::ModelLister(SessionManager *sessions, QObject *parent)
    : QObject(parent)
    , m_sessions(sessions)
{}

void ModelLister::list(ProviderConfig provider)
{
    provider.apiKey = m_sessions->apiKey(provider.id);
    provider.connectTimeout = 5s;
    m_listedProvider = provider.id;
    if (provider.id == LocalModelHost::providerId()) {
        // The models on this computer are files, not a server's list: named as the runner knows them.
        ModelList list;
        for (const ModelFile &model : m_sessions->localModels()->models()) {
            if (model.runnable())
                list.models << QFileInfo(model.path).completeBaseName();
        }
        list.models.removeDuplicates();
        // Said from the event loop, as a server's answer would be.
        QTimer::singleShot(0, this, [this, list, provider] {
            if (provider.id == m_listedProvider)
                Q_EMIT listed(list, provider);
        });
        return;
    }
    auto *client = new ChatClient(provider, this);
    QCoro::connect(client->listModels(), this, [this, client, provider](const ModelList &list) {
        client->deleteLater();
        if (provider.id != m_listedProvider)
            return; // another conversation's provider is listed by now
        const auto preset = findProviderPreset(provider.id);
        const bool unreachable = list.error.kind == ChatError::Kind::ConnectionRefused ||
                                 list.error.kind == ChatError::Kind::ConnectTimeout ||
                                 list.error.kind == ChatError::Kind::Network;
        if (unreachable && !(preset && preset->needsKey))
            m_silentServers.insert(provider.baseUrl,
                                   tr("%1 does not answer at %2.")
                                       .arg(preset ? preset->name : provider.id,
                                            provider.baseUrl.isEmpty() ? tr("an empty address") : provider.baseUrl));
        else
            m_silentServers.remove(provider.baseUrl);
        Q_EMIT listed(list, provider);
    });
}

QString ModelLister::problemWith(const ProviderConfig &provider) const
{
    const QString problem = m_sessions->providerProblem(provider.id);
    return problem.isEmpty() ? m_silentServers.value(provider.baseUrl) : problem;
}

} // namespace Sandpiper
