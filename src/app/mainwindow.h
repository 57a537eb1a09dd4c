#pragma once

#include <agent/agentevent.h>
#include <sandbox/sandboxhealth.h>

#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QTimer>

#include <map>
#include <memory>

class QDockWidget;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QStackedWidget;

namespace Sandpiper {

class AgentThread;
class ChatView;
class CodeInspector;
class Composer;
class ConversationListModel;
class ConversationStore;
class Settings;
class WelcomePage;

// The main window: conversations on the left, the chat in the middle with the composer below,
// the code inspector on the right, the provider, Docker and token count in the status bar.
// Each conversation gets its own agent (worker thread and sandbox) when it first sends.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(Settings *settings, ConversationStore *store, QWidget *parent = nullptr);
    ~MainWindow() override;

    ChatView *chatView() const { return m_chat; }
    Composer *composer() const { return m_composer; }
    CodeInspector *inspector() const { return m_inspector; }
    QListView *conversationList() const { return m_list; }
    QLineEdit *searchField() const { return m_search; }
    QDockWidget *inspectorDock() const { return m_inspectorDock; }
    // Shown in place of the empty chat while no provider works.
    WelcomePage *welcomePage() const { return m_welcome; }
    qint64 currentConversation() const { return m_current; }
    bool isPythonAvailable() const { return m_health.ok(); }

    void openConversation(qint64 id);
    void newConversation();
    void send(const QString &text);
    void stop();
    void openSettings();

Q_SIGNALS:
    // Sandbox health was checked (at start); tests wait for it.
    void healthChecked();

private:
    void buildActions();
    void refreshList();
    void runSearch();
    void renameCurrent();
    void exportCurrent(bool markdown);
    void importConversation();
    void deleteCurrent();
    void attachFiles(const QStringList &paths);
    void chooseFilesToAttach();
    void copyLastAnswer();
    void editAndResend(qint64 messageId, const QString &text);
    void resendFrom(qint64 messageId, const QString &text);
    void regenerate();
    void checkHealth();
    void loadApiKey();
    void loadModels();
    void updateStatus();
    void showWelcome(const QString &reason);
    void hideWelcome();
    void useApiKey(const QString &providerId, const QString &key, bool remembered);
    void handleEvent(qint64 conversationId, const AgentEvent &event);
    AgentThread *agentFor(qint64 conversationId);
    void dropAgent(qint64 conversationId);
    bool ensureConversation();

    Settings *m_settings;
    ConversationStore *m_store;
    std::map<qint64, std::unique_ptr<AgentThread>> m_agents;
    qint64 m_current = 0;
    QString m_apiKey;
    // Keys typed in while no keychain answered, for this session only.
    QHash<QString, QString> m_sessionKeys;
    SandboxHealth m_health;
    bool m_healthKnown = false;
    QStringList m_pendingAttachments;
    qint64 m_tokens = 0;
    bool m_busy = false;

    ConversationListModel *m_conversations;
    QLineEdit *m_search;
    QListView *m_list;
    QPushButton *m_newButton;
    QPushButton *m_renameButton;
    QPushButton *m_deleteButton;
    QLabel *m_banner;
    ChatView *m_chat;
    WelcomePage *m_welcome;
    QStackedWidget *m_centreStack;
    Composer *m_composer;
    CodeInspector *m_inspector;
    QDockWidget *m_inspectorDock;
    QLabel *m_providerLabel;
    QLabel *m_dockerLabel;
    QLabel *m_tokenLabel;
    QTimer m_searchDelay;
};

} // namespace Sandpiper
