#pragma once

#include "contextusagelabel.h"

#include <QMainWindow>
#include <QPointer>

#include <memory>

class QAction;
class QDockWidget;
class QLineEdit;
class QListView;
class QSplitter;
class QStackedWidget;

namespace Sandpiper {

class Attachments;
class ChatView;
class CodeInspector;
class Composer;
class ConversationActions;
class ConversationSession;
class ConversationSidebar;
class ConversationStore;
class EngineFilesOnQuit;
class KernelRestoreBar;
class MathRenderer;
class ModelLister;
class PanelFolds;
class ProviderProblemBar;
class McpServerRegistry;
class SandboxStatus;
class SavedFileNotice;
class SessionManager;
class Settings;
class WelcomePage;

// The main window: conversations on the left, the chat in the middle with the composer below,
// the code inspector on the right, the provider, Docker and token count in the status bar.
// It lays the views out and turns the user's actions into calls on the session on screen; the
// sessions (SessionManager) own the conversations and their state. Its jobs of their own go to
// helpers: ConversationActions (rename, delete, export, import), Attachments, ModelLister,
// SandboxStatus, TurnNotifier, PanelFolds and ContextUsageLabel.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(Settings *settings, ConversationStore *store, QWidget *parent = nullptr);
    ~MainWindow() override;

    ChatView *chatView() const { return m_chat; }
    Composer *composer() const { return m_composer; }
    CodeInspector *inspector() const { return m_inspector; }
    QListView *conversationList() const;
    QLineEdit *searchField() const;
    QDockWidget *inspectorDock() const { return m_inspectorDock; }
    ElidedLabel *providerLabel() const { return m_providerLabel; }
    ContextUsageLabel *tokenLabel() const { return m_tokenLabel; }
    SavedFileNotice *savedFileNotice() const { return m_savedNotice; }
    // Shown in place of the empty chat while no provider works.
    WelcomePage *welcomePage() const { return m_welcome; }
    // View › Conversations and View › Code inspector.
    QAction *sidebarAction() const { return m_sidebarAction; }
    QAction *inspectorAction() const;
    // Above the composer while the conversation's provider cannot answer.
    ProviderProblemBar *providerProblemBar() const { return m_providerBar; }
    SessionManager *sessions() const { return m_sessions; }
    ConversationSession *currentSession() const;
    qint64 currentConversation() const;
    bool isPythonAvailable() const;

    void openConversation(qint64 id);
    void newConversation();
    void send(const QString &text);
    void stop();
    void openSettings();
    // The settings at their Models tab (the status bar's download was clicked).
    void openModelSettings();
    // The MCP servers whose tools conversations use and whose prompts the composer offers; it
    // outlives the window.
    void setMcpServers(McpServerRegistry *registry);

Q_SIGNALS:
    // Sandbox health was checked (at start); tests wait for it.
    void healthChecked();

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // The engine the sandboxes start on; the formulas follow the sandbox's settings (its
    // image; off with the sandbox).
    void applySandboxSettings();
    // The settings dialog, at its Models tab with MODELS; applied when it is accepted.
    void showSettings(bool models);
    void buildActions();
    void showSession(ConversationSession *session);
    void showState();
    bool ensureConversation();
    // "Show to the model" on a figure: NAME in the folder goes with the next message.
    void showImageToModel(const QString &name);
    void copyLastAnswer();
    // The keyboard's way to the last question's Edit and to Regenerate, wherever the focus is.
    void editLastQuestion();
    void regenerateAnswer();
    void chooseModel(const QString &model);
    void loadApiKey();
    void loadModels();
    void showWelcome(const QString &reason);
    void hideWelcome();
    // The set-up page in place of an empty chat while the default provider cannot answer, else
    // the bar above the composer while the conversation's own provider cannot.
    void showProviderHelp();
    // The conversation on screen goes on with the default provider and model (the bar's offer).
    void useDefaultProvider();
    void restoreLayout();
    void saveLayout();

    Settings *m_settings;
    SessionManager *m_sessions;
    McpServerRegistry *m_mcp = nullptr;
    QPointer<ConversationSession> m_session;
    bool m_welcomeAsked = false; // from the Help menu: stays until the user leaves it

    ConversationSidebar *m_sidebar;
    QSplitter *m_splitter;
    ChatView *m_chat;
    WelcomePage *m_welcome;
    QStackedWidget *m_centreStack;
    KernelRestoreBar *m_restoreBar;
    ProviderProblemBar *m_providerBar;
    Composer *m_composer;
    CodeInspector *m_inspector;
    QDockWidget *m_inspectorDock;
    ElidedLabel *m_providerLabel;
    ContextUsageLabel *m_tokenLabel;
    QAction *m_sidebarAction = nullptr;
    SavedFileNotice *m_savedNotice;
    MathRenderer *m_math;
    EngineFilesOnQuit *m_engineFilesOnQuit;
    SandboxStatus *m_sandbox;
    ModelLister *m_models;
    Attachments *m_attachments;
    ConversationActions *m_conversations;
    // Gone before the window's widgets, and its connections with it.
    std::unique_ptr<PanelFolds> m_folds;
};

} // namespace Sandpiper
