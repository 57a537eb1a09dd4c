#include "mainwindow.h"

#include "aboutdialog.h"
#include "attachments.h"
#include "chat/chatview.h"
#include "chat/messagewidget.h"
#include "codeinspector.h"
#include "composer.h"
#include "contextusagelabel.h"
#include "conversationactions.h"
#include "conversationlistmodel.h"
#include "conversationsidebar.h"
#include "elidedlabel.h"
#include "enginefilesonquit.h"
#include "firstuseprobe.h"
#include "focusring.h"
#include "kernelrestorebar.h"
#include "localmodelstatus.h"
#include "modellister.h"
#include "panelfolds.h"
#include "prompttemplates.h"
#include "providerproblembar.h"
#include "sandboxstatus.h"
#include "savedfilenotice.h"
#include "settingsdialog.h"
#include "settingspages/modelsettingspage.h"
#include "taskbarprogress.h"
#include "turnnotifier.h"
#include "welcomepage.h"

#include <llm/providerpresets.h>
#include <logging.h>
#include <math/mathrenderer.h>
#include <session/conversationsession.h>
#include <session/messagemodel.h>
#include <session/sessionmanager.h>
#include <settings/modelreports.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QImage>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QVBoxLayout>

#include <QCoroTask>

namespace Sandpiper {

namespace {

// The welcome page's reason when it is asked for, or before any provider was chosen.
QString everyChoice()
{
    return MainWindow::tr("Answers can come from a model on this computer or from a provider on the internet.");
}

} // namespace

MainWindow::MainWindow(Settings *settings, ConversationStore *store, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_sessions(new SessionManager(settings, store, this))
    , m_sidebar(new ConversationSidebar(store, m_sessions))
    , m_splitter(new QSplitter)
    , m_chat(new ChatView)
    , m_welcome(new WelcomePage(settings, m_sessions->modelDownloads()))
    , m_centreStack(new QStackedWidget)
    , m_restoreBar(new KernelRestoreBar)
    , m_providerBar(new ProviderProblemBar)
    , m_composer(new Composer)
    , m_inspector(new CodeInspector)
    , m_inspectorDock(new QDockWidget(tr("Code inspector")))
    , m_providerLabel(new ElidedLabel)
    , m_tokenLabel(new ContextUsageLabel)
    , m_savedNotice(new SavedFileNotice)
    , m_math(new MathRenderer(settings->string(QStringLiteral("sandbox/image")),
                              QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/math"),
                              this))
    , m_engineFilesOnQuit(new EngineFilesOnQuit(this))
    , m_sandbox(new SandboxStatus(settings, m_sessions, this))
    , m_models(new ModelLister(m_sessions, this))
    , m_attachments(new Attachments(this, statusBar()))
    , m_conversations(
          new ConversationActions({settings, store, m_sessions, m_sidebar, m_savedNotice, statusBar()}, this))
    , m_folds(std::make_unique<PanelFolds>())
{
    FocusRing::install();
    new TurnNotifier(settings, m_sessions, this);
    // Before any message is shown: every view draws its formulas with it.
    m_chat->setMathRenderer(m_math);
    m_inspector->setMarkdownContext(m_chat->markdownContext());
    applySandboxSettings();
    setWindowTitle(tr("Sandpiper"));
    // A first start fits a small screen too.
    const QSize available = screen() ? screen()->availableSize() : QSize(1280, 800);
    resize(QSize(1280, 800).boundedTo(available * 9 / 10));

    auto *centre = new QWidget;
    auto *centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(m_sandbox->banner());
    m_centreStack->addWidget(m_chat);
    m_centreStack->addWidget(m_welcome);
    centreLayout->addWidget(m_centreStack, 1);
    centreLayout->addWidget(m_restoreBar);
    centreLayout->addWidget(m_providerBar);
    auto *firstUseProbe = new FirstUseProbe(settings, m_sessions);
    connect(firstUseProbe, &FirstUseProbe::said, this, [this](const QString &text) { statusBar()->showMessage(text); });
    centreLayout->addWidget(firstUseProbe);
    centreLayout->addWidget(m_composer);

    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter->addWidget(m_sidebar);
    m_splitter->addWidget(centre);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({250, 800});
    setCentralWidget(m_splitter);

    m_inspectorDock->setObjectName(QStringLiteral("inspectorDock"));
    // A low window scrolls the inspector instead of growing to its height (a table and figures
    // ask for more than a laptop screen has).
    auto *inspectorScroll = new QScrollArea;
    inspectorScroll->setWidgetResizable(true);
    inspectorScroll->setFrameShape(QFrame::NoFrame);
    inspectorScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    inspectorScroll->setWidget(m_inspector);
    inspectorScroll->setAccessibleName(tr("Code inspector"));
    m_inspectorDock->setWidget(inspectorScroll);
    // Shown again after the window was narrow, the dock would come back as narrow as it was left.
    connect(m_inspectorDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_inspectorDock->width() < 260)
            resizeDocks({m_inspectorDock}, {std::min(380, width() / 3)}, Qt::Horizontal);
    });
    m_inspectorDock->setAccessibleName(tr("Code inspector"));
    addDockWidget(Qt::RightDockWidgetArea, m_inspectorDock);
    resizeDocks({m_inspectorDock}, {380}, Qt::Horizontal);

    m_providerLabel->setAccessibleName(tr("Provider and model"));
    statusBar()->addWidget(m_providerLabel);
    statusBar()->addWidget(m_sandbox->label());
    auto *localStatus = new LocalModelStatus(m_sessions->localModels(), m_sessions->modelDownloads());
    connect(localStatus, &LocalModelStatus::downloadsRequested, this, &MainWindow::openModelSettings);
    statusBar()->addWidget(localStatus, 1);
    (new TaskbarProgress(QDBusConnection::sessionBus(), this))->follow(m_sessions->modelDownloads());
    statusBar()->addWidget(m_savedNotice);
    statusBar()->addPermanentWidget(m_tokenLabel);

    buildActions();
    restoreLayout();
    if (!m_settings->warning().isEmpty())
        statusBar()->showMessage(m_settings->warning());

    connect(m_welcome, &WelcomePage::apiKeyEntered, m_sessions, &SessionManager::useApiKey);
    connect(m_welcome, &WelcomePage::settingsRequested, this, &MainWindow::openSettings);
    connect(m_welcome, &WelcomePage::providerChosen, this, [this] {
        hideWelcome();
        m_sessions->applySettings();
        showState();
        loadApiKey();
    });
    connect(m_welcome, &WelcomePage::backRequested, this, [this] {
        hideWelcome();
        showProviderHelp();
    });
    connect(m_providerBar, &ProviderProblemBar::fallbackRequested, this, &MainWindow::useDefaultProvider);
    connect(m_providerBar, &ProviderProblemBar::settingsRequested, this, &MainWindow::openSettings);
    connect(m_sessions, &SessionManager::keysChanged, this, &MainWindow::showProviderHelp);
    // A server found silent may have been started since.
    connect(m_sessions, &SessionManager::turnFinished, this, [this](qint64 id) {
        if (id == currentConversation() && m_models->isSilent(m_session->provider().baseUrl))
            loadModels();
    });

    connect(m_sidebar, &ConversationSidebar::newRequested, this, &MainWindow::newConversation);
    connect(m_sidebar, &ConversationSidebar::renameRequested, this, [this] { m_conversations->rename(m_session); });
    connect(m_sidebar, &ConversationSidebar::deleteRequested, this, [this] { m_conversations->remove(m_session); });
    connect(m_conversations, &ConversationActions::removing, this, [this] { showSession(nullptr); });
    connect(m_conversations, &ConversationActions::imported, this, &MainWindow::openConversation);
    connect(m_sidebar, &ConversationSidebar::problem, this,
            [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    connect(m_sidebar, &ConversationSidebar::conversationChosen, this, [this](qint64 id, qint64 messageId) {
        openConversation(id);
        // A search hit jumps to the message it found.
        if (messageId != 0)
            m_chat->scrollToMessage(messageId);
    });
    connect(m_sessions, &SessionManager::conversationChanged, m_sidebar, &ConversationSidebar::refresh);

    connect(m_composer, &Composer::sendRequested, this, &MainWindow::send);
    connect(m_composer, &Composer::stopRequested, this, &MainWindow::stop);
    connect(m_composer, &Composer::attachRequested, this, [this] {
        if (const QStringList paths = m_attachments->choose(); !paths.isEmpty() && ensureConversation())
            m_attachments->attach(m_session, paths);
    });
    connect(m_composer, &Composer::filesDropped, this, [this](const QStringList &paths) {
        if (ensureConversation())
            m_attachments->drop(m_session, paths);
    });
    connect(m_composer, &Composer::imagePasted, this, [this](const QImage &image) {
        if (ensureConversation())
            m_attachments->attachPasted(m_session, image);
    });
    connect(m_composer, &Composer::pasteRefused, this,
            [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    connect(m_composer, &Composer::imageRemoved, this, [this](const QString &name) {
        if (m_session)
            m_session->removePendingImage(name);
    });
    connect(m_composer, &Composer::attachmentRemoved, this, [this](const QString &name) {
        if (!m_session)
            return;
        if (auto removed = m_session->removePendingAttachment(name); !removed)
            statusBar()->showMessage(removed.error().message, 10000);
    });
    connect(m_chat, &ChatView::imageShowRequested, this, &MainWindow::showImageToModel);
    // The edit went as a new version: the next words are typed where messages are written.
    connect(m_chat, &ChatView::editSent, this, [this] { m_composer->editor()->setFocus(Qt::OtherFocusReason); });
    connect(m_restoreBar, &KernelRestoreBar::focusReleased, this,
            [this] { m_composer->editor()->setFocus(Qt::OtherFocusReason); });
    connect(m_inspector, &CodeInspector::imageShowRequested, this, &MainWindow::showImageToModel);
    connect(m_composer, &Composer::modelChosen, this, &MainWindow::chooseModel);
    connect(m_composer, &Composer::networkToggled, this, [this](bool allowed) {
        if (!ensureConversation())
            return;
        if (auto saved = m_session->setNetworkAllowed(allowed); !saved)
            QMessageBox::warning(this, tr("Network in sandbox"), saved.error().message);
        showState();
    });

    connect(m_sandbox, &SandboxStatus::changed, this, &MainWindow::showState);
    connect(m_sandbox, &SandboxStatus::checked, this, &MainWindow::healthChecked);
    connect(m_models, &ModelLister::listed, this, [this](const ModelList &list, const ProviderConfig &provider) {
        m_composer->setModels(list.models, m_session ? m_session->state().model : provider.model);
        m_composer->modelPicker()->setToolTip(list.error.message);
        // Each tested model says what its report card found (Settings › Providers › Test this model).
        QComboBox *picker = m_composer->modelPicker();
        for (int i = 0; i < picker->count(); ++i) {
            ProviderConfig each = provider;
            each.model = picker->itemText(i);
            if (const auto report =
                    ModelReports::find(*m_settings, provider.id, m_sessions->reportServer(each), each.model))
                picker->setItemData(i, tr("Tested: %1").arg(report->verdict()), Qt::ToolTipRole);
        }
        showProviderHelp();
    });

    connect(m_chat, &ChatView::toolCallActivated, m_inspector, &CodeInspector::selectCall);
    connect(m_inspector, &CodeInspector::callActivated, m_chat, &ChatView::selectToolCall);

    m_sidebar->refresh();
    if (m_sidebar->model()->rowCount() > 0)
        m_sidebar->list()->setCurrentIndex(m_sidebar->model()->index(0));
    else
        showSession(nullptr);
    loadApiKey();
    m_sandbox->check();
    m_composer->editor()->setFocus();
}

MainWindow::~MainWindow()
{
    // Closing hides the dock, whose action then says so: no longer to this window, half gone.
    m_folds.reset();
    disconnect(m_inspectorDock, nullptr, this, nullptr);
}

QListView *MainWindow::conversationList() const
{
    return m_sidebar->list();
}

QLineEdit *MainWindow::searchField() const
{
    return m_sidebar->searchField();
}

ConversationSession *MainWindow::currentSession() const
{
    return m_session;
}

bool MainWindow::isPythonAvailable() const
{
    return m_sandbox->isPythonAvailable();
}

qint64 MainWindow::currentConversation() const
{
    return m_session ? m_session->id() : 0;
}

void MainWindow::buildActions()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QAction *newAction = fileMenu->addAction(tr("&New chat"), this, &MainWindow::newConversation);
    newAction->setShortcut(QKeySequence::New);
    fileMenu->addSeparator();
    fileMenu->addAction(tr("Export as &Markdown…"), this, [this] {
        m_conversations->exportConversation(m_session, ConversationFiles::Format::Markdown);
    });
    fileMenu->addAction(tr("Export as &JSON…"), this,
                        [this] { m_conversations->exportConversation(m_session, ConversationFiles::Format::Json); });
    fileMenu->addAction(tr("Export as note&book…"), this, [this] { m_conversations->exportNotebook(m_session); });
    fileMenu->addAction(tr("&Import conversation…"), m_conversations, &ConversationActions::import);
    fileMenu->addSeparator();
    QAction *quitAction = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quitAction->setShortcut(QKeySequence::Quit);

    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    QAction *findAction =
        editMenu->addAction(tr("&Search conversations"), m_sidebar, &ConversationSidebar::focusSearch);
    findAction->setShortcut(QKeySequence::Find);
    QAction *copyAction = editMenu->addAction(tr("&Copy last answer"), this, &MainWindow::copyLastAnswer);
    copyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    QAction *focusAction =
        editMenu->addAction(tr("Focus the &message box"), this, [this] { m_composer->editor()->setFocus(); });
    focusAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    QAction *editLastAction = editMenu->addAction(tr("&Edit the last question"), this, &MainWindow::editLastQuestion);
    editLastAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction *regenerateAction = editMenu->addAction(tr("&Regenerate the answer"), this, &MainWindow::regenerateAnswer);
    regenerateAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    QAction *stopAction = editMenu->addAction(tr("St&op the answer"), this, &MainWindow::stop);
    stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    editMenu->addSeparator();
    QAction *settingsAction = editMenu->addAction(tr("Se&ttings…"), this, &MainWindow::openSettings);
    settingsAction->setMenuRole(QAction::PreferencesRole);
    // Not every platform maps Preferences to a key, so Ctrl+, is always there too.
    QList<QKeySequence> settingsKeys = QKeySequence::keyBindings(QKeySequence::Preferences);
    if (!settingsKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Comma)))
        settingsKeys.append(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    settingsAction->setShortcuts(settingsKeys);

    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    m_sidebarAction = viewMenu->addAction(tr("&Conversations"));
    m_sidebarAction->setCheckable(true);
    m_sidebarAction->setChecked(true);
    m_sidebarAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    connect(m_sidebarAction, &QAction::toggled, m_sidebar, &QWidget::setVisible);
    QAction *inspectorAction = m_inspectorDock->toggleViewAction();
    inspectorAction->setText(tr("Code &inspector"));
    inspectorAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    viewMenu->addAction(inspectorAction);
    // Below these widths the chat would be squeezed: the inspector folds first, then the list.
    m_folds->add(inspectorAction, 820);
    m_folds->add(m_sidebarAction, 620);

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&Set up a provider…"), this, [this] {
        m_welcomeAsked = true;
        showWelcome(everyChoice());
    });
    helpMenu->addAction(tr("&About Sandpiper"), this, [this] { AboutDialog(this).exec(); });
}

QAction *MainWindow::inspectorAction() const
{
    return m_inspectorDock->toggleViewAction();
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    m_folds->resized(event->oldSize().width(), event->size().width());
}

void MainWindow::openConversation(qint64 id)
{
    if (m_session && m_session->id() == id)
        return;
    const auto session = m_sessions->open(id);
    if (!session) {
        QMessageBox::warning(this, tr("Open conversation"), session.error().message);
        return;
    }
    showSession(*session);
}

// Switching conversations: the views show another session; nothing is rebuilt that lives on.
void MainWindow::showSession(ConversationSession *session)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    m_sessions->show(session ? session->id() : 0);
    m_chat->setSession(session);
    m_inspector->setSession(session);
    m_restoreBar->setSession(session);
    m_sidebar->setConversationOpen(session != nullptr);
    if (session) {
        connect(session, &ConversationSession::stateChanged, this, &MainWindow::showState);
        connect(session, &ConversationSession::draftReturned, m_composer, &Composer::returnDraft);
        m_sidebar->select(session->id());
        if (session->provider().id != m_models->listedProvider())
            loadModels();
    }
    m_welcomeAsked = false;
    showProviderHelp();
    showState();
}

void MainWindow::showState()
{
    const SessionState state = m_session ? m_session->state() : SessionState{};
    const ProviderConfig provider = m_settings->provider();
    const QString providerId = m_session ? state.providerId : provider.id;
    const QString model = m_session ? state.model : provider.model;
    const auto preset = findProviderPreset(providerId);
    m_providerLabel->setText(tr("%1 · %2").arg(preset ? preset->name : providerId, model));
    if (m_composer->modelPicker()->currentText() != model)
        m_composer->showModel(model);
    m_tokenLabel->showUsage(state);
    m_sandbox->showKernel(state.kernelAlive);
    m_composer->setBusy(state.busy());
    m_composer->setAttachments(state.pendingAttachments, m_session ? m_session->folder() : QString());
    m_composer->setImages(state.pendingImages, m_session ? m_session->folder() : QString());
    m_composer->setNetworkAllowed(m_session ? state.networkAllowed
                                            : m_settings->boolean(QStringLiteral("sandbox/network")));
    setWindowTitle(m_session ? tr("%1 — Sandpiper").arg(state.title.isEmpty() ? tr("New conversation") : state.title)
                             : tr("Sandpiper"));
}

void MainWindow::newConversation()
{
    const auto session = m_sessions->create();
    if (!session) {
        QMessageBox::warning(this, tr("New conversation"), session.error().message);
        return;
    }
    showSession(*session);
    m_composer->editor()->setFocus();
}

bool MainWindow::ensureConversation()
{
    if (!m_session)
        newConversation();
    return m_session != nullptr;
}

void MainWindow::send(const QString &text)
{
    // Nothing goes to a provider that cannot answer, nor silently to another: the text stays.
    const QString providerId = m_session ? m_session->provider().id : m_settings->string(QStringLiteral("provider"));
    if (const QString problem = m_sessions->providerProblem(providerId); !problem.isEmpty()) {
        m_composer->returnDraft(text);
        statusBar()->showMessage(tr("Not sent: no provider can answer. %1").arg(problem), 15000);
        showProviderHelp();
        return;
    }
    if (ensureConversation())
        m_session->send(text);
}

void MainWindow::stop()
{
    if (m_session)
        m_session->stop();
}

void MainWindow::chooseModel(const QString &model)
{
    // The conversation's own model; with none on screen, the default that the next one takes.
    if (m_session) {
        if (auto saved = m_session->setModel(model); !saved)
            QMessageBox::warning(this, tr("Model"), saved.error().message);
    } else {
        m_settings->setValue(QStringLiteral("providers/%1/model").arg(m_settings->string(QStringLiteral("provider"))),
                             model);
        m_sessions->applySettings();
    }
    showState();
}

void MainWindow::useDefaultProvider()
{
    if (!m_session)
        return;
    const ProviderConfig defaults = m_settings->provider();
    if (auto used = m_sessions->useProvider(m_session->id(), defaults.id, defaults.model); !used)
        QMessageBox::warning(this, tr("Model"), used.error().message);
    loadModels();
    showProviderHelp();
    showState();
}

void MainWindow::showImageToModel(const QString &name)
{
    if (m_session && m_attachments->showToModel(m_session, name))
        m_composer->editor()->setFocus();
}

void MainWindow::copyLastAnswer()
{
    const QString answer = m_session ? m_session->lastAnswer() : QString();
    if (answer.isEmpty())
        return;
    QApplication::clipboard()->setText(answer);
    statusBar()->showMessage(tr("The last answer was copied."), 3000);
}

void MainWindow::editLastQuestion()
{
    const QList<MessageWidget *> messages = m_chat->messageWidgets();
    for (auto message = messages.crbegin(); message != messages.crend(); ++message) {
        if ((*message)->editButton()->isVisible()) {
            (*message)->editButton()->click();
            return;
        }
    }
    statusBar()->showMessage(tr("There is no question here to edit."), 5000);
}

void MainWindow::regenerateAnswer()
{
    if (!m_session)
        return;
    if (auto regenerated = m_session->regenerate(); !regenerated)
        statusBar()->showMessage(regenerated.error().message, 5000);
}

void MainWindow::loadApiKey()
{
    // The keys that come back reach the welcome page and the bar through keysChanged().
    QCoro::connect(m_sessions->loadApiKey(), this, [this](const QString &) { loadModels(); });
}

// The models of the provider of the conversation on screen (the default one without).
void MainWindow::loadModels()
{
    m_models->list(m_session ? m_session->provider() : m_settings->provider());
}

void MainWindow::showProviderHelp()
{
    const ProviderConfig defaults = m_settings->provider();
    const bool emptyChat = !m_session || m_session->messages()->rowCount() == 0;
    if (const QString problem = emptyChat ? m_models->problemWith(defaults) : QString(); !problem.isEmpty())
        // Before any provider was chosen, what the default one lacks is no news: there is a choice.
        showWelcome(m_settings->isSet(QStringLiteral("provider")) ? problem : everyChoice());
    else if (!m_welcomeAsked)
        hideWelcome();
    const ProviderConfig provider = m_session ? m_session->provider() : defaults;
    const QString problem = m_centreStack->currentWidget() == m_welcome ? QString() : m_models->problemWith(provider);
    const auto preset = findProviderPreset(defaults.id);
    const bool offerDefault = m_session && defaults.id != provider.id && m_models->problemWith(defaults).isEmpty();
    m_providerBar->setProblem(
        problem, offerDefault ? tr("%1 · %2").arg(preset ? preset->name : defaults.id, defaults.model) : QString());
}

void MainWindow::showWelcome(const QString &reason)
{
    // Asked for, it can be left; shown because no provider answers, it goes once one does.
    m_welcome->setBackOffered(m_welcomeAsked);
    if (m_centreStack->currentWidget() == m_welcome)
        return;
    m_centreStack->setCurrentWidget(m_welcome);
    m_composer->setVisible(false);
    m_providerBar->setVisible(false);
    m_welcome->start(reason);
}

void MainWindow::hideWelcome()
{
    m_welcomeAsked = false;
    m_centreStack->setCurrentWidget(m_chat);
    m_composer->setVisible(true);
    // The welcome page's button that had the focus is gone with it: the next thing to do is to type.
    m_composer->editor()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::openSettings()
{
    showSettings(false);
}

void MainWindow::openModelSettings()
{
    showSettings(true);
}

void MainWindow::showSettings(bool models)
{
    SettingsDialog dialog(m_settings, this, m_mcp, m_sessions->modelDownloads());
    connect(&dialog, &SettingsDialog::apiKeyEntered, m_sessions, &SessionManager::useApiKey);
    if (models)
        dialog.showPage(dialog.modelsPage());
    if (dialog.exec() != QDialog::Accepted)
        return;
    hideWelcome();
    applySandboxSettings();
    // Applies each provider's settings and key (and the tools' policies) to the open conversations,
    // and a new default to the empty ones.
    loadApiKey();
    showProviderHelp();
    showState();
}

void MainWindow::applySandboxSettings()
{
    DockerCli::Engine::setChosen(m_settings->engine());
    m_math->setImage(m_settings->string(QStringLiteral("sandbox/image")));
    m_math->setEnabled(m_settings->boolean(QStringLiteral("sandbox/enabled")));
}

void MainWindow::setMcpServers(McpServerRegistry *registry)
{
    m_mcp = registry;
    m_sessions->setMcpServers(registry);
    auto *prompts = new PromptTemplates(registry, m_composer, this);
    connect(prompts, &PromptTemplates::problem, this,
            [this](const QString &message) { statusBar()->showMessage(message, 10000); });
}

void MainWindow::restoreLayout()
{
    restoreGeometry(QByteArray::fromBase64(m_settings->string(QStringLiteral("window/geometry")).toLatin1()));
    restoreState(QByteArray::fromBase64(m_settings->string(QStringLiteral("window/state")).toLatin1()));
    m_splitter->restoreState(QByteArray::fromBase64(m_settings->string(QStringLiteral("window/splitter")).toLatin1()));
}

void MainWindow::saveLayout()
{
    m_settings->setValue(QStringLiteral("window/geometry"), QString::fromLatin1(saveGeometry().toBase64()));
    m_settings->setValue(QStringLiteral("window/state"), QString::fromLatin1(saveState().toBase64()));
    m_settings->setValue(QStringLiteral("window/splitter"), QString::fromLatin1(m_splitter->saveState().toBase64()));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Files that only a remote engine's container holds would go with it: asked first.
    if (!m_engineFilesOnQuit->mayClose()) {
        event->ignore();
        return;
    }
    saveLayout();
    // The sessions let their agents go without waiting; containers are removed in the background.
    QElapsedTimer closing;
    closing.start();
    const int open = m_sessions->openCount();
    showSession(nullptr);
    m_sessions->closeAll();
    qCInfo(lcApp) << "closed" << open << "conversations in" << closing.elapsed() << "ms";
    QMainWindow::closeEvent(event);
}

} // namespace Sandpiper
