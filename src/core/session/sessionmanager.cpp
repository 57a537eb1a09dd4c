#include "session/sessionmanager.h"

#include "llm/apikeystore.h"
#include "mcp/mcptrust.h"
#include "session/conversationsession.h"
#include "settings/settings.h"
#include "storage/conversationstore.h"

#include <QPointer>

namespace Sandpiper {

SessionManager::SessionManager(Settings *settings, ConversationStore *store, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_store(store)
{
    const ProviderConfig provider = m_settings->provider();
    m_appliedProvider = provider.id;
    m_appliedModel = provider.model;
}

SessionManager::~SessionManager() = default;

ProviderConfig SessionManager::providerFor(qint64 id, bool settingsModelChanged) const
{
    ProviderConfig provider = m_settings->provider();
    provider.apiKey = m_apiKey;
    // A conversation keeps the model chosen for it while it stays with the same provider,
    // unless the settings now name another one.
    if (settingsModelChanged)
        return provider;
    if (const auto conversation = m_store->conversation(id);
        conversation && conversation->provider == provider.id && !conversation->model.isEmpty())
        provider.model = conversation->model;
    return provider;
}

StoreResult<ConversationSession *> SessionManager::open(qint64 id)
{
    if (ConversationSession *existing = find(id))
        return existing;
    AgentConfig config = m_settings->agent();
    config.provider = providerFor(id, false);
    config.sandbox = m_settings->sandbox(QString::number(id), m_store->conversationFolder(id));
    config.pythonEnabled = config.pythonEnabled && m_pythonAvailable;
    config.mcp = m_mcp;
    auto session = std::make_unique<ConversationSession>(id, m_store, config);
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
    const ApiKeyStore::Lookup lookup = co_await ApiKeyStore::read(provider, m_settings->apiKeyVariable());
    if (!self)
        co_return {};
    m_apiKey = m_keysForThisRun.value(provider, lookup.key);
    applySettings();
    co_return m_apiKey;
}

void SessionManager::useApiKey(const QString &providerId, const QString &key)
{
    m_keysForThisRun.insert(providerId, key);
    if (providerId == m_settings->string(QStringLiteral("provider"))) {
        m_apiKey = key;
        applySettings();
    }
}

void SessionManager::applySettings()
{
    const ProviderConfig settings = m_settings->provider();
    const bool modelChanged = settings.id != m_appliedProvider || settings.model != m_appliedModel;
    m_appliedProvider = settings.id;
    m_appliedModel = settings.model;
    const AgentConfig agent = m_settings->agent();
    for (const auto &[id, session] : m_sessions) {
        const ProviderConfig provider = providerFor(id, modelChanged);
        session->setProvider(provider);
        session->setApprovals(agent.approval);
        session->setRestoreAutomatically(agent.restoreKernelAutomatically);
        if (modelChanged)
            (void)m_store->setConversationModel(id, provider.id, provider.model);
    }
}

void SessionManager::setPythonAvailable(bool available)
{
    m_pythonAvailable = available;
    for (const auto &[id, session] : m_sessions)
        session->setPythonEnabled(available && m_settings->boolean(QStringLiteral("sandbox/enabled")));
}

} // namespace Sandpiper
