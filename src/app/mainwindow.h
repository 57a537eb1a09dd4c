#pragma once

#include "elidedlabel.h"

#include <agent/agentevent.h>
#include <llm/providerconfig.h>
#include <sandbox/enginestatus.h>
#include <sandbox/sandboxhealth.h>

#include <QHash>
#include <QMainWindow>
#include <QPointer>

#include <array>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QListView;
class QSplitter;
class QStackedWidget;

namespace Sandpiper {

class ChatView;
class CodeInspector;
class Composer;
class ConversationSession;
class ConversationSidebar;
class ConversationStore;
class DesktopNotifier;
class EngineFilesOnQuit;
class KernelRestoreBar;
class MathRenderer;
class ProviderProblemBar;
class McpServerRegistry;
class SavedFileNotice;
class SessionManager;
class Settings;
class WelcomePage;

// The main window: conversations on the left, the chat in the middle with the composer below,
// the code inspector on the right, the provider, Docker and token count in the status bar.
// It lays the views out and turns the user's actions into calls on the session on screen; the
// sessions (SessionManager) own the conversations and their state.
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
    ElidedLabel *tokenLabel() const { return m_tokenLabel; }
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
    bool isPythonAvailable() const { return m_health.ok(); }

    void openConversation(qint64 id);
    void newConversation();
    void send(const QString &text);
    void stop();
    void openSettings();
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
    void buildActions();
    void showSession(ConversationSession *session);
    void showState();
    bool ensureConversation();
    void renameCurrent();
    void deleteCurrent();
    void exportCurrent(bool markdown);
    void exportNotebook();
    void importConversation();
    void attachFiles(const QStringList &paths);
    // Dropped or pasted files: images go to the model as images (and to the folder), others as files.
    void dropFiles(const QStringList &paths);
    void attachPastedImage(const QImage &image);
    // "Show to the model" on a figure: NAME in the folder goes with the next message.
    void showImageToModel(const QString &name);
    void chooseFilesToAttach();
    void copyLastAnswer();
    void chooseModel(const QString &model);
    void checkHealth();
    void loadApiKey();
    void loadModels();
    void showWelcome(const QString &reason);
    void hideWelcome();
    // Why PROVIDER cannot answer (see SessionManager::providerProblem), or that its server did
    // not answer the model list; empty when it can, as far as is known.
    QString problemWith(const ProviderConfig &provider) const;
    // The set-up page in place of an empty chat while the default provider cannot answer, else
    // the bar above the composer while the conversation's own provider cannot.
    void showProviderHelp();
    // The conversation on screen goes on with the default provider and model (the bar's offer).
    void useDefaultProvider();
    void restoreLayout();
    void saveLayout();
    void announceFinished(qint64 id, AgentEvent::End end, qint64 durationMs);

    Settings *m_settings;
    ConversationStore *m_store;
    SessionManager *m_sessions;
    McpServerRegistry *m_mcp = nullptr;
    QPointer<ConversationSession> m_session;
    QString m_listedProvider;                // whose models the model box offers
    QHash<QString, QString> m_silentServers; // local servers that did not answer: base URL, why
    bool m_welcomeAsked = false;             // from the Help menu: stays until the user leaves it
    SandboxHealth m_health;
    bool m_healthKnown = false;
    // The engine when it is remote (issue 18): the Docker state shows its round trip.
    std::optional<EngineStatus> m_remoteEngine;
    QString dockerReadyText(bool kernelAlive) const;
    void checkEngine();

    ConversationSidebar *m_sidebar;
    QSplitter *m_splitter;
    QLabel *m_banner;
    ChatView *m_chat;
    WelcomePage *m_welcome;
    QStackedWidget *m_centreStack;
    KernelRestoreBar *m_restoreBar;
    ProviderProblemBar *m_providerBar;
    Composer *m_composer;
    CodeInspector *m_inspector;
    QDockWidget *m_inspectorDock;
    ElidedLabel *m_providerLabel;
    ElidedLabel *m_dockerLabel;
    ElidedLabel *m_tokenLabel;
    QAction *m_sidebarAction = nullptr;
    // A panel the window folded away for being too narrow; it comes back when the window is wide
    // again, unless the user showed or hid it in between.
    struct Fold {
        QAction *action = nullptr;
        int minimumWindowWidth = 0;
        bool folded = false;
    };
    std::array<Fold, 2> m_folds;
    bool m_folding = false;
    void foldPanels(int oldWidth, int width);
    SavedFileNotice *m_savedNotice;
    DesktopNotifier *m_notifier;
    MathRenderer *m_math;
    EngineFilesOnQuit *m_engineFilesOnQuit;
};

} // namespace Sandpiper
