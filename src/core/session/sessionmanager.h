#pragma once

#include "agent/agentevent.h"
#include "llm/providerconfig.h"
#include "storage/conversation.h"
#include "storage/storeresult.h"

#include <QHash>
#include <QObject>
#include <QSet>

#include <QCoroTask>

#include <map>
#include <memory>

namespace Sandpiper {

class ConversationSession;
class ConversationStore;
class LocalModelHost;
class ModelDownloads;
class McpServerRegistry;
class Settings;

// Opens and closes the sessions of the conversations the user works with. A session that is
// still working stays alive in the background when the user switches away; idle ones are
// released once they are neither on screen, among the last few shown, nor holding a live Python
// kernel. Each conversation keeps its own provider and model (stored with it); the settings give
// the default that new conversations take, and each provider's URL, headers and key, which reach
// every live session of that provider at its next request. Lives on the GUI thread.
class SessionManager : public QObject
{
    Q_OBJECT

public:
    SessionManager(Settings *settings, ConversationStore *store, QObject *parent = nullptr);
    // Returns at once: the agents shut down in the background.
    ~SessionManager() override;

    // The session of conversation ID, opened from the store if needed.
    StoreResult<ConversationSession *> open(qint64 id);
    // A new, empty conversation with the default provider and model, opened.
    StoreResult<ConversationSession *> create();
    ConversationSession *find(qint64 id) const;
    // The conversation on screen (0 for none): its answers count as read.
    void show(qint64 id);
    qint64 shown() const { return m_shown; }
    // Lets the session of conversation ID go (its agent shuts down in the background); the
    // conversation stays in the store. Not the one on screen.
    void close(qint64 id);
    // Stops the conversation's session and deletes it with its files.
    StoreResult<void> remove(qint64 id);
    // Ends every session (the window closes); returns at once.
    void closeAll();

    bool isRunning(qint64 id) const;
    // An answer finished while the user looked at another conversation.
    bool hasUnread(qint64 id) const { return m_unread.contains(id); }
    int openCount() const { return int(m_sessions.size()); }

    // The API key of the default provider: one the user entered during this run, else read from
    // the keychain or the environment. Every live session of that provider gets it.
    QCoro::Task<QString> loadApiKey();
    // The key the user entered for PROVIDERID: used for the rest of the run, whether or not the
    // keychain could keep it.
    void useApiKey(const QString &providerId, const QString &key);
    // The key known for PROVIDERID (empty when none was found or it was not looked up yet).
    QString apiKey(const QString &providerId) const { return m_keys.value(providerId); }
    // Why PROVIDERID cannot answer, for the user, or empty: a provider this version does not
    // know, one without an address, or one that needs a key and has none.
    QString providerProblem(const QString &providerId) const;
    // Where the report card of PROVIDER's model is kept (ModelReports): its base URL, or for a
    // model on this computer its file, which stays when its server listens on another port.
    QString reportServer(const ProviderConfig &provider) const;
    // Conversation ID goes on with PROVIDERID and MODEL from its next request (the user chose them).
    StoreResult<void> useProvider(qint64 id, const QString &providerId, const QString &model);
    // The settings changed: each provider's URL, key and headers apply from the next request of
    // its sessions; a new default provider or model reaches the conversations that have no
    // message yet, and only those.
    void applySettings();
    // Whether Docker and the image work; sessions whose agent has not started yet follow it.
    void setPythonAvailable(bool available);
    // The MCP servers whose tools new agents offer (it outlives the sessions).
    void setMcpServers(McpServerRegistry *registry) { m_mcp = registry; }
    McpServerRegistry *mcpServers() const { return m_mcp; }
    // The model on this computer, shared by the conversations of the provider "This computer".
    LocalModelHost *localModels() const { return m_local; }
    // The app's model downloads from the hub (they outlive the dialog that started them).
    ModelDownloads *modelDownloads() const { return m_downloads; }

    // How many idle sessions stay open besides the one on screen.
    static constexpr int keptIdle = 3;

Q_SIGNALS:
    // Running or unread changed.
    void activityChanged(qint64 id);
    // The title changed or a message was added: the conversation list is out of date.
    void conversationChanged(qint64 id);
    void turnFinished(qint64 id, Sandpiper::AgentEvent::End end, qint64 durationMs);
    // A provider's key was looked up, or a program to run models on this computer was found (or
    // lost): providerProblem() may say something else now.
    void keysChanged();

private:
    // The settings of CONVERSATION's provider with its own model and the provider's key.
    ProviderConfig providerFor(const Conversation &conversation) const;
    // Reads the key of PROVIDERID in the background unless it is on its way, or known (AGAIN: read
    // it anyway).
    void lookUpKey(const QString &providerId, bool again = false);
    void releaseIdle();

    Settings *m_settings;
    ConversationStore *m_store;
    std::map<qint64, std::unique_ptr<ConversationSession>> m_sessions;
    QList<qint64> m_recent; // shown most recently first
    QSet<qint64> m_unread;
    qint64 m_shown = 0;
    QHash<QString, QString> m_keys; // by provider, as looked up (empty: none was found)
    QSet<QString> m_keysOnTheirWay;
    // The default provider and model last applied: a new one reaches the empty conversations.
    QString m_appliedProvider;
    QString m_appliedModel;
    QHash<QString, QString> m_keysForThisRun; // typed in while no keychain answered
    bool m_pythonAvailable = true;
    McpServerRegistry *m_mcp = nullptr;
    LocalModelHost *m_local;
    ModelDownloads *m_downloads;
};

} // namespace Sandpiper
