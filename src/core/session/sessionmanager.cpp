#include "session/sessionmanager.h"

#include "llm/apikeystore.h"
#include "llm/providerpresets.h"
#include "mcp/mcptrust.h"
#include "session/agentsettings.h"
#include "session/conversationsession.h"
#include "session/localmodelhost.h"
#include "session/modeldownloads.h"
#include "settings/settings.h"
#include "storage/conversationstore.h"

#include <QPointer>

namespace Sandpiper {

SessionManager::SessionManager(Settings *settings, ConversationStore *store, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_store(store)
    , m_local(new LocalModelHost(settings, this))
    , m_downloads(new ModelDownloads(settings, this))
{
    const ProviderConfig defaults = m_settings->provider();
    m_appliedProvider = defaults.id;
    m_appliedModel = defaults.model;
    // A model just downloaded can be chosen and run at once, not after the next look at the folders.
    connect(m_downloads, &ModelDownloads::started, m_local, [this](ModelDownload *download) {
        connect(download, &ModelDownload::finished, m_local, &LocalModelHost::lookAgain);
    });
    // Whether a program to run models was found changes what providerProblem() says.
    connect(m_local, &LocalModelHost::discovered, this, &SessionManager::keysChanged);
    if (defaults.id == LocalModelHost::providerId())
        m_local->prepare();
}

SessionManager::~SessionManager() = default;

ProviderConfig SessionManager::providerFor(const Conversation &conversation) const
{
    ProviderConfig provider = m_settings->provider(conversation.provider);
    // Empty: whichever model the provider's settings name.
    if (!conversation.model.isEmpty())
        provider.model = conversation.model;
    provider.apiKey = m_keys.value(provider.id);
    return provider;
}

StoreResult<ConversationSession *> SessionManager::open(qint64 id)
{
    if (ConversationSession *existing = find(id))
        return existing;
    auto conversation = m_store->conversation(id);
    if (!conversation)
        return conversation.error();
    // A conversation stored before each kept its provider has none: it takes the default once,
    // and keeps it from then on.
    if (conversation->provider.isEmpty()) {
        const ProviderConfig defaults = m_settings->provider();
        conversation->provider = defaults.id;
        if (conversation->model.isEmpty())
            conversation->model = defaults.model;
        if (auto saved = m_store->setConversationModel(id, conversation->provider, conversation->model); !saved)
            return saved.error();
    }
    AgentConfig config = AgentSettings::read(*m_settings);
    config.provider = providerFor(*conversation);
    config.sandbox = m_settings->sandbox(QString::number(id), m_store->conversationFolder(id));
    config.pythonEnabled = config.pythonEnabled && m_pythonAvailable;
    config.mcp = m_mcp;
    auto session = std::make_unique<ConversationSession>(id, m_store, config);
    session->setLocalModels(m_local);
    if (auto loaded = session->load(); !loaded)
        return loaded.error();
    ConversationSession *raw = session.get();
    connect(raw, &ConversationSession::stateChanged, this, [this, id, wasBusy = false]() mutable {
        const ConversationSession *changed = find(id);
        if (!changed || changed->isBusy() == wasBusy)
            return;
        wasBusy = changed->isBusy();
        Q_EMIT activityChanged(id);
        // Not from inside the signal of the session that may go.
        if (!wasBusy)
            QMetaObject::invokeMethod(this, &SessionManager::releaseIdle, Qt::QueuedConnection);
    });
    connect(raw, &ConversationSession::toolAllowedAlways, this, [this](const QString &tool) {
        McpTrust::allowAlways(*m_settings, tool);
        applySettings();
    });
    connect(raw, &ConversationSession::titleChanged, this, [this, id] { Q_EMIT conversationChanged(id); });
    connect(raw, &ConversationSession::historyChanged, this, [this, id] { Q_EMIT conversationChanged(id); });
    connect(raw, &ConversationSession::turnFinished, this, [this, id](AgentEvent::End end, qint64 durationMs) {
        if (id != m_shown) {
            m_unread.insert(id);
            Q_EMIT activityChanged(id);
        }
        Q_EMIT turnFinished(id, end, durationMs);
    });
    m_sessions.emplace(id, std::move(session));
    lookUpKey(config.provider.id);
    return raw;
}

StoreResult<ConversationSession *> SessionManager::create()
{
    const ProviderConfig provider = m_settings->provider();
    const auto created = m_store->createConversation(provider.id, provider.model);
    if (!created)
        return created.error();
    return open(created->id);
}

ConversationSession *SessionManager::find(qint64 id) const
{
    const auto it = m_sessions.find(id);
    return it == m_sessions.end() ? nullptr : it->second.get();
}

void SessionManager::show(qint64 id)
{
    m_shown = id;
    if (id != 0) {
        m_recent.removeAll(id);
        m_recent.prepend(id);
        if (m_unread.remove(id))
            Q_EMIT activityChanged(id);
    }
    releaseIdle();
}

void SessionManager::releaseIdle()
{
    QList<qint64> doomed;
    int keptSoFar = 0;
    for (const qint64 id : std::as_const(m_recent)) {
        const ConversationSession *session = find(id);
        if (!session || id == m_shown)
            continue;
        // A live kernel holds the conversation's variables: its idle stop comes first.
        if (session->isBusy() || session->state().kernelAlive || keptSoFar++ < keptIdle)
            continue;
        doomed << id;
    }
    for (const qint64 id : std::as_const(doomed)) {
        m_recent.removeAll(id);
        m_sessions.erase(id);
    }
}

void SessionManager::close(qint64 id)
{
    if (id == m_shown)
        return;
    m_recent.removeAll(id);
    m_sessions.erase(id);
}

StoreResult<void> SessionManager::remove(qint64 id)
{
    m_sessions.erase(id); // stops its sandbox before the folder goes
    m_recent.removeAll(id);
    m_unread.remove(id);
    if (m_shown == id)
        m_shown = 0;
    return m_store->deleteConversation(id);
}

void SessionManager::closeAll()
{
    m_sessions.clear();
    m_recent.clear();
}

bool SessionManager::isRunning(qint64 id) const
{
    const ConversationSession *session = find(id);
    return session && session->isBusy();
}

QCoro::Task<QString> SessionManager::loadApiKey()
{
    QPointer<SessionManager> self(this);
    const QString provider = m_settings->string(QStringLiteral("provider"));
    const ApiKeyStore::Lookup lookup = co_await ApiKeyStore::read(provider, m_settings->apiKeyVariable(provider));
    if (!self)
        co_return {};
    m_keys.insert(provider, m_keysForThisRun.value(provider, lookup.key));
    // The other providers' keys are read again as well: the settings may name other variables now.
    const QStringList known = m_keys.keys();
    for (const QString &other : known) {
        if (other != provider)
            lookUpKey(other, true);
    }
    applySettings();
    Q_EMIT keysChanged();
    co_return m_keys.value(provider);
}

void SessionManager::lookUpKey(const QString &providerId, bool again)
{
    if ((m_keys.contains(providerId) && !again) || m_keysOnTheirWay.contains(providerId))
        return;
    m_keysOnTheirWay.insert(providerId);
    QCoro::connect(ApiKeyStore::read(providerId, m_settings->apiKeyVariable(providerId)), this,
                   [this, providerId](const ApiKeyStore::Lookup &lookup) {
                       m_keysOnTheirWay.remove(providerId);
                       m_keys.insert(providerId, m_keysForThisRun.value(providerId, lookup.key));
                       applySettings();
                       Q_EMIT keysChanged();
                   });
}

void SessionManager::useApiKey(const QString &providerId, const QString &key)
{
    m_keysForThisRun.insert(providerId, key);
    m_keys.insert(providerId, key);
    applySettings();
    Q_EMIT keysChanged();
}

QString SessionManager::providerProblem(const QString &providerId) const
{
    const auto preset = findProviderPreset(providerId);
    if (!preset)
        return tr("The provider \"%1\" is not one this version of Sandpiper knows.").arg(providerId);
    if (providerId == LocalModelHost::providerId())
        return m_local->problem();
    if (m_settings->provider(providerId).baseUrl.isEmpty())
        return tr("%1 has no server address.").arg(preset->name);
    if (preset->needsKey && m_keys.contains(providerId) && m_keys.value(providerId).isEmpty())
        return tr("No API key for %1 was found.").arg(preset->name);
    return {};
}

QString SessionManager::reportServer(const ProviderConfig &provider) const
{
    if (provider.id == LocalModelHost::providerId())
        if (const QString identity = m_local->modelIdentity(provider.model); !identity.isEmpty())
            return identity;
    return provider.baseUrl;
}

StoreResult<void> SessionManager::useProvider(qint64 id, const QString &providerId, const QString &model)
{
    if (auto saved = m_store->setConversationModel(id, providerId, model); !saved)
        return saved;
    if (ConversationSession *session = find(id)) {
        Conversation chosen;
        chosen.provider = providerId;
        chosen.model = model;
        session->setProvider(providerFor(chosen));
    }
    if (providerId == LocalModelHost::providerId())
        m_local->prepare();
    lookUpKey(providerId);
    return {};
}

void SessionManager::applySettings()
{
    const ProviderConfig defaults = m_settings->provider();
    const bool defaultChanged = defaults.id != m_appliedProvider || defaults.model != m_appliedModel;
    m_appliedProvider = defaults.id;
    m_appliedModel = defaults.model;
    const AgentConfig agent = AgentSettings::read(*m_settings);
    m_local->applySettings();
    if (defaults.id == LocalModelHost::providerId())
        m_local->prepare();
    for (const auto &[id, session] : m_sessions) {
        auto conversation = m_store->conversation(id);
        if (!conversation)
            continue;
        // One that has asked nothing yet was made for the default; one with history keeps its own.
        if (defaultChanged && conversation->messageCount == 0 &&
            m_store->setConversationModel(id, defaults.id, defaults.model)) {
            conversation->provider = defaults.id;
            conversation->model = defaults.model;
        }
        session->setProvider(providerFor(*conversation));
        session->setApprovals(agent.approval);
        session->setRestoreAutomatically(agent.restoreKernelAutomatically);
    }
}

void SessionManager::setPythonAvailable(bool available)
{
    m_pythonAvailable = available;
    for (const auto &[id, session] : m_sessions)
        session->setPythonEnabled(available && m_settings->boolean(QStringLiteral("sandbox/enabled")));
}

} // namespace Sandpiper
