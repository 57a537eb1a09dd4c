#pragma once

#include "agent/agentevent.h"
#include "llm/providerconfig.h"
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
class McpServerRegistry;
class Settings;

// Opens and closes the sessions of the conversations the user works with. A session that is
// still working stays alive in the background when the user switches away; idle ones are
// released once they are neither on screen, among the last few shown, nor holding a live Python
// kernel. Settings changes (provider, URL, key, model) reach every live session at its next
// request. Lives on the GUI thread.
class SessionManager : public QObject
{
    Q_OBJECT

public:
    SessionManager(Settings *settings, ConversationStore *store, QObject *parent = nullptr);
    // Returns at once: the agents shut down in the background.
    ~SessionManager() override;

    // The session of conversation ID, opened from the store if needed.
    StoreResult<ConversationSession *> open(qint64 id);
    // A new, empty conversation with the current provider and model, opened.
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

    // The API key of the chosen provider: one the user entered during this run, else read from
    // the keychain or the environment. Every live session gets it.
    QCoro::Task<QString> loadApiKey();
    // The key the user entered for PROVIDERID: used for the rest of the run, whether or not the
    // keychain could keep it.
    void useApiKey(const QString &providerId, const QString &key);
    QString apiKey() const { return m_apiKey; }
    // The settings changed: the provider, its URL, key and model apply from each session's next
    // request.
    void applySettings();
    // Whether Docker and the image work; sessions whose agent has not started yet follow it.
    void setPythonAvailable(bool available);
    // The MCP servers whose tools new agents offer (it outlives the sessions).
    void setMcpServers(McpServerRegistry *registry) { m_mcp = registry; }
    McpServerRegistry *mcpServers() const { return m_mcp; }

    // How many idle sessions stay open besides the one on screen.
    static constexpr int keptIdle = 3;

Q_SIGNALS:
    // Running or unread changed.
    void activityChanged(qint64 id);
    // The title changed or a message was added: the conversation list is out of date.
    void conversationChanged(qint64 id);
    void turnFinished(qint64 id, Sandpiper::AgentEvent::End end, qint64 durationMs);

private:
    ProviderConfig providerFor(qint64 id, bool settingsModelChanged) const;
    void releaseIdle();

    Settings *m_settings;
    ConversationStore *m_store;
    std::map<qint64, std::unique_ptr<ConversationSession>> m_sessions;
    QList<qint64> m_recent; // shown most recently first
    QSet<qint64> m_unread;
    qint64 m_shown = 0;
    QString m_apiKey;
    // The provider and model last applied: a model newly chosen in the settings replaces the
    // ones the open conversations had.
    QString m_appliedProvider;
    QString m_appliedModel;
    QHash<QString, QString> m_keysForThisRun; // typed in while no keychain answered
    bool m_pythonAvailable = true;
    McpServerRegistry *m_mcp = nullptr;
};

} // namespace Sandpiper
