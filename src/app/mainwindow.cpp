#include "mainwindow.h"

#include "aboutdialog.h"
#include "chat/chatview.h"
#include "codeinspector.h"
#include "composer.h"
#include "conversationfiles.h"
#include "conversationlistmodel.h"
#include "conversationsidebar.h"
#include "desktopnotifier.h"
#include "elidedlabel.h"
#include "enginefilesonquit.h"
#include "focusring.h"
#include "kernelrestorebar.h"
#include "prompttemplates.h"
#include "providerproblembar.h"
#include "savedfilenotice.h"
#include "savelocation.h"
#include "settingsdialog.h"
#include "welcomepage.h"

#include <llm/chatclient.h>
#include <llm/modelimage.h>
#include <llm/providerpresets.h>
#include <logging.h>
#include <math/mathrenderer.h>
#include <sandbox/sandboxsession.h>
#include <session/conversationsession.h>
#include <session/messagemodel.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeDatabase>
#include <QResizeEvent>
#include <QScopedValueRollback>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <QCoroTask>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// "3.1k" for a token count in the status bar.
QString compactCount(qint64 count)
{
    return count < 1000 ? QLocale().toString(count) : QLocale().toString(double(count) / 1000.0, 'f', 1) + u'k';
}

} // namespace

MainWindow::MainWindow(Settings *settings, ConversationStore *store, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_store(store)
    , m_sessions(new SessionManager(settings, store, this))
    , m_sidebar(new ConversationSidebar(store, m_sessions))
    , m_splitter(new QSplitter)
    , m_banner(new QLabel)
    , m_chat(new ChatView)
    , m_welcome(new WelcomePage(settings))
    , m_centreStack(new QStackedWidget)
    , m_restoreBar(new KernelRestoreBar)
    , m_providerBar(new ProviderProblemBar)
    , m_composer(new Composer)
    , m_inspector(new CodeInspector)
    , m_inspectorDock(new QDockWidget(tr("Code inspector")))
    , m_providerLabel(new ElidedLabel)
    , m_dockerLabel(new ElidedLabel)
    , m_tokenLabel(new ElidedLabel)
    , m_savedNotice(new SavedFileNotice)
    , m_notifier(new DesktopNotifier(QDBusConnection::sessionBus(), this))
    , m_math(new MathRenderer(settings->string(QStringLiteral("sandbox/image")),
                              QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/math"),
                              this))
    , m_engineFilesOnQuit(new EngineFilesOnQuit(this))
{
    FocusRing::install();
    // Before any message is shown: every view draws its formulas with it.
    m_chat->setMathRenderer(m_math);
    applySandboxSettings();
    setWindowTitle(tr("Sandpiper"));
    // A first start fits a small screen too.
    const QSize available = screen() ? screen()->availableSize() : QSize(1280, 800);
    resize(QSize(1280, 800).boundedTo(available * 9 / 10));

    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setAccessibleName(tr("Sandbox status"));
    m_banner->setStyleSheet(
        QStringLiteral("QLabel { background: #fff3cd; color: #664d03; padding: 8px; border-radius: 4px; }"));
    m_banner->setVisible(false);
    auto *centre = new QWidget;
    auto *centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(m_banner);
    m_centreStack->addWidget(m_chat);
    m_centreStack->addWidget(m_welcome);
    centreLayout->addWidget(m_centreStack, 1);
    centreLayout->addWidget(m_restoreBar);
    centreLayout->addWidget(m_providerBar);
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
    m_dockerLabel->setAccessibleName(tr("Docker state"));
    m_tokenLabel->setAccessibleName(tr("Context used by this conversation"));
    statusBar()->addWidget(m_providerLabel);
    statusBar()->addWidget(m_dockerLabel);
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
        if (id == currentConversation() && m_silentServers.contains(m_session->provider().baseUrl))
            loadModels();
    });

    connect(m_sidebar, &ConversationSidebar::newRequested, this, &MainWindow::newConversation);
    connect(m_sidebar, &ConversationSidebar::renameRequested, this, &MainWindow::renameCurrent);
    connect(m_sidebar, &ConversationSidebar::deleteRequested, this, &MainWindow::deleteCurrent);
    connect(m_sidebar, &ConversationSidebar::problem, this,
            [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    connect(m_sidebar, &ConversationSidebar::conversationChosen, this, [this](qint64 id, qint64 messageId) {
        openConversation(id);
        // A search hit jumps to the message it found.
        if (messageId != 0)
            m_chat->scrollToMessage(messageId);
    });
    connect(m_sessions, &SessionManager::conversationChanged, m_sidebar, &ConversationSidebar::refresh);
    connect(m_sessions, &SessionManager::turnFinished, this, &MainWindow::announceFinished);

    connect(m_composer, &Composer::sendRequested, this, &MainWindow::send);
    connect(m_composer, &Composer::stopRequested, this, &MainWindow::stop);
    connect(m_composer, &Composer::attachRequested, this, &MainWindow::chooseFilesToAttach);
    connect(m_composer, &Composer::filesDropped, this, &MainWindow::dropFiles);
    connect(m_composer, &Composer::imagePasted, this, &MainWindow::attachPastedImage);
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
    connect(m_inspector, &CodeInspector::imageShowRequested, this, &MainWindow::showImageToModel);
    connect(m_composer, &Composer::modelChosen, this, &MainWindow::chooseModel);
    connect(m_composer, &Composer::networkToggled, this, [this](bool allowed) {
        if (!ensureConversation())
            return;
        if (auto saved = m_session->setNetworkAllowed(allowed); !saved)
            QMessageBox::warning(this, tr("Network in sandbox"), saved.error().message);
        showState();
    });

    connect(m_chat, &ChatView::toolCallActivated, m_inspector, &CodeInspector::selectCall);
    connect(m_inspector, &CodeInspector::callActivated, m_chat, &ChatView::selectToolCall);

    m_sidebar->refresh();
    if (m_sidebar->model()->rowCount() > 0)
        m_sidebar->list()->setCurrentIndex(m_sidebar->model()->index(0));
    else
        showSession(nullptr);
    loadApiKey();
    checkHealth();
    m_composer->editor()->setFocus();
}

MainWindow::~MainWindow()
{
    // Closing hides the dock, whose action then says so: no longer to this window, half gone.
    for (const Fold &fold : m_folds)
        disconnect(fold.action, nullptr, this, nullptr);
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
    fileMenu->addAction(tr("Export as &Markdown…"), this, [this] { exportCurrent(true); });
    fileMenu->addAction(tr("Export as &JSON…"), this, [this] { exportCurrent(false); });
    fileMenu->addAction(tr("Export as note&book…"), this, &MainWindow::exportNotebook);
    fileMenu->addAction(tr("&Import conversation…"), this, &MainWindow::importConversation);
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
    QAction *stopAction = editMenu->addAction(tr("S&top the answer"), this, &MainWindow::stop);
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
    m_folds = {Fold{inspectorAction, 820}, Fold{m_sidebarAction, 620}};
    for (Fold &fold : m_folds) {
        connect(fold.action, &QAction::toggled, this, [this, &fold] {
            if (!m_folding)
                fold.folded = false;
        });
    }

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&Set up a provider…"), this, [this] {
        m_welcomeAsked = true;
        showWelcome(tr("Answers can come from a model on this computer or from a provider on the internet."));
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
    foldPanels(event->oldSize().width(), event->size().width());
}

// A window made narrow folds the panels away rather than squeezing the chat until its text is
// clipped; made wide again, it brings back what it folded.
void MainWindow::foldPanels(int oldWidth, int width)
{
    const QScopedValueRollback folding(m_folding, true);
    for (Fold &fold : m_folds) {
        const bool wasWide = oldWidth < 0 || oldWidth >= fold.minimumWindowWidth;
        const bool isWide = width >= fold.minimumWindowWidth;
        // trigger(), not setChecked(): a dock's action hides and shows it on triggered only.
        if (wasWide && !isWide && fold.action->isChecked()) {
            fold.action->trigger();
            fold.folded = true;
        } else if (!wasWide && isWide && fold.folded) {
            if (!fold.action->isChecked())
                fold.action->trigger();
            fold.folded = false;
        }
    }
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
    if (session) {
        connect(session, &ConversationSession::stateChanged, this, &MainWindow::showState);
        connect(session, &ConversationSession::draftReturned, m_composer, &Composer::returnDraft);
        m_sidebar->select(session->id());
        if (session->provider().id != m_listedProvider)
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
        m_composer->modelPicker()->setCurrentText(model);
    // What the last request took of the model's window: nothing until there is one. The
    // provider's count adds up every request, each with the system prompt, the tools' descriptions
    // and the history again, so it stands alone only while no request of this run measured the context.
    QString usage;
    if (state.contextTokens > 0)
        usage = state.contextWindow > 0
                    ? tr("context %1 / %2").arg(compactCount(state.contextTokens), compactCount(state.contextWindow))
                    : tr("context %1").arg(compactCount(state.contextTokens));
    else if (state.tokens > 0)
        usage = tr("%L1 tokens sent and received").arg(state.tokens);
    m_tokenLabel->setText(usage);
    m_tokenLabel->setToolTip(
        state.tokens > 0 ? tr("The provider counted %L1 tokens for this conversation's requests and answers; every "
                              "request carries the system prompt, the tools' descriptions and the history again.")
                               .arg(state.tokens)
                         : QString());
    if (m_healthKnown && m_health.ok())
        m_dockerLabel->setText(dockerReadyText(state.kernelAlive));
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

void MainWindow::renameCurrent()
{
    if (!m_session)
        return;
    bool ok = false;
    const QString title = QInputDialog::getText(this, tr("Rename conversation"), tr("Title:"), QLineEdit::Normal,
                                                m_session->state().title, &ok);
    if (!ok || title.trimmed().isEmpty())
        return;
    if (auto renamed = m_session->rename(title.trimmed()); !renamed)
        QMessageBox::warning(this, tr("Rename conversation"), renamed.error().message);
}

void MainWindow::deleteCurrent()
{
    if (!m_session)
        return;
    const auto answer =
        QMessageBox::question(this, tr("Delete conversation"),
                              tr("Delete this conversation, its files and its figures? This cannot be undone."));
    if (answer != QMessageBox::Yes)
        return;
    const qint64 doomed = m_session->id();
    showSession(nullptr);
    if (auto deleted = m_sessions->remove(doomed); !deleted)
        QMessageBox::warning(this, tr("Delete conversation"), deleted.error().message);
    m_sidebar->refresh();
    if (m_sidebar->model()->rowCount() > 0)
        m_sidebar->list()->setCurrentIndex(m_sidebar->model()->index(0));
}

void MainWindow::exportCurrent(bool markdown)
{
    if (!m_session)
        return;
    if (const auto path = ConversationFiles::exportConversation(this, m_store, m_session->id(),
                                                                markdown ? ConversationFiles::Format::Markdown
                                                                         : ConversationFiles::Format::Json))
        m_savedNotice->announce(*path);
}

void MainWindow::exportNotebook()
{
    if (!m_session)
        return;
    statusBar()->showMessage(tr("Exporting the notebook…"));
    QCoro::connect(ConversationFiles::exportNotebook(this, m_store, m_session->id(),
                                                     m_settings->string(QStringLiteral("sandbox/image"))),
                   this, [this](const std::optional<ConversationFiles::ExportedNotebook> &exported) {
                       statusBar()->clearMessage();
                       if (!exported)
                           return;
                       const NotebookExport::Summary &summary = exported->summary;
                       m_savedNotice->announce(
                           exported->path,
                           summary.missingFigures == 0
                               ? tr("%n code cell(s).", "", summary.codeCells)
                               : tr("%n figure(s) were missing or refused; the notebook names them in their place.", "",
                                    summary.missingFigures));
                   });
}

void MainWindow::importConversation()
{
    if (const auto imported = ConversationFiles::importConversation(this, m_store)) {
        m_sidebar->select(*imported);
        openConversation(*imported);
    }
}

void MainWindow::chooseFilesToAttach()
{
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Attach files"), SaveLocation::folder());
    if (paths.isEmpty())
        return;
    SaveLocation::remember(paths.constFirst());
    attachFiles(paths);
}

void MainWindow::attachFiles(const QStringList &paths)
{
    if (!ensureConversation())
        return;
    for (const QString &path : paths) {
        if (auto attached = m_session->attach(path); !attached)
            QMessageBox::warning(
                this, tr("Attach file"),
                tr("%1 could not be attached: %2").arg(QFileInfo(path).fileName(), attached.error().message));
    }
}

void MainWindow::dropFiles(const QStringList &paths)
{
    if (!ensureConversation())
        return;
    for (const QString &path : paths) {
        const QString problem = ModelImage::check(path);
        const bool image = problem.isEmpty();
        if (auto attached = image ? m_session->attachImage(path) : m_session->attach(path); !attached) {
            QMessageBox::warning(
                this, image ? tr("Add image") : tr("Attach file"),
                tr("%1 could not be attached: %2").arg(QFileInfo(path).fileName(), attached.error().message));
        } else if (!image && QMimeDatabase().mimeTypeForFile(path).name().startsWith(QLatin1String("image/"))) {
            // An image the model cannot be shown still serves the code.
            statusBar()->showMessage(
                tr("%1 is attached as a file, not shown to the model: %2").arg(QFileInfo(path).fileName(), problem),
                15000);
        }
    }
}

void MainWindow::attachPastedImage(const QImage &image)
{
    if (!ensureConversation())
        return;
    // Through a file of its own name, so that the attachment is recorded like any other.
    const QTemporaryDir scratch;
    const QString path = scratch.filePath(
        QStringLiteral("pasted-%1.png").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    if (!scratch.isValid() || !image.save(path, "PNG")) {
        QMessageBox::warning(this, tr("Paste image"), tr("The pasted image could not be saved for sending."));
        return;
    }
    if (auto attached = m_session->attachImage(path); !attached)
        QMessageBox::warning(this, tr("Paste image"),
                             tr("The pasted image could not be attached: %1").arg(attached.error().message));
}

void MainWindow::showImageToModel(const QString &name)
{
    if (!m_session)
        return;
    if (auto shown = m_session->showImage(name); !shown) {
        QMessageBox::warning(this, tr("Show to the model"), shown.error().message);
        return;
    }
    statusBar()->showMessage(tr("%1 goes to the model with your next message.").arg(QFileInfo(name).fileName()), 5000);
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

void MainWindow::loadApiKey()
{
    // The keys that come back reach the welcome page and the bar through keysChanged().
    QCoro::connect(m_sessions->loadApiKey(), this, [this](const QString &) { loadModels(); });
}

// The models of the provider of the conversation on screen (the default one without).
void MainWindow::loadModels()
{
    ProviderConfig config = m_session ? m_session->provider() : m_settings->provider();
    config.apiKey = m_sessions->apiKey(config.id);
    config.connectTimeout = 5s;
    m_listedProvider = config.id;
    auto *client = new ChatClient(config, this);
    QCoro::connect(client->listModels(), this, [this, client, config](const ModelList &list) {
        client->deleteLater();
        if (config.id != m_listedProvider)
            return; // another conversation's provider is listed by now
        m_composer->setModels(list.models, m_session ? m_session->state().model : config.model);
        m_composer->modelPicker()->setToolTip(list.error.message);
        // A server that needs no key but does not answer is usually a local one not started.
        const auto preset = findProviderPreset(config.id);
        const bool unreachable = list.error.kind == ChatError::Kind::ConnectionRefused ||
                                 list.error.kind == ChatError::Kind::ConnectTimeout ||
                                 list.error.kind == ChatError::Kind::Network;
        if (unreachable && !(preset && preset->needsKey))
            m_silentServers.insert(config.baseUrl,
                                   tr("%1 does not answer at %2.")
                                       .arg(preset ? preset->name : config.id,
                                            config.baseUrl.isEmpty() ? tr("an empty address") : config.baseUrl));
        else
            m_silentServers.remove(config.baseUrl);
        showProviderHelp();
    });
}

QString MainWindow::problemWith(const ProviderConfig &provider) const
{
    const QString problem = m_sessions->providerProblem(provider.id);
    return problem.isEmpty() ? m_silentServers.value(provider.baseUrl) : problem;
}

void MainWindow::showProviderHelp()
{
    const ProviderConfig defaults = m_settings->provider();
    const bool emptyChat = !m_session || m_session->messages()->rowCount() == 0;
    if (const QString problem = emptyChat ? problemWith(defaults) : QString(); !problem.isEmpty())
        showWelcome(problem);
    else if (!m_welcomeAsked)
        hideWelcome();
    const ProviderConfig provider = m_session ? m_session->provider() : defaults;
    const QString problem = m_centreStack->currentWidget() == m_welcome ? QString() : problemWith(provider);
    const auto preset = findProviderPreset(defaults.id);
    const bool offerDefault = m_session && defaults.id != provider.id && problemWith(defaults).isEmpty();
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
}

void MainWindow::openSettings()
{
    SettingsDialog dialog(m_settings, this, m_mcp);
    connect(&dialog, &SettingsDialog::apiKeyEntered, m_sessions, &SessionManager::useApiKey);
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

QString MainWindow::dockerReadyText(bool kernelAlive) const
{
    const QString text = kernelAlive ? tr("Python: running") : tr("Docker: ready");
    // A remote engine says so, with its round trip: every execution pays it.
    return m_remoteEngine ? tr("%1 (remote, %2 ms)").arg(text).arg(m_remoteEngine->roundTripMs) : text;
}

void MainWindow::checkEngine()
{
    QCoro::connect(EngineStatus::check(m_settings->string(QStringLiteral("sandbox/image"))), this,
                   [this](const EngineStatus &engine) {
                       const bool remote = engine.answers && engine.locality == EngineLocality::Kind::Remote;
                       m_remoteEngine = remote ? std::optional<EngineStatus>(engine) : std::nullopt;
                       m_dockerLabel->setToolTip(engine.summary());
                       showState();
                   });
}

void MainWindow::checkHealth()
{
    if (!m_settings->boolean(QStringLiteral("sandbox/enabled"))) {
        m_dockerLabel->setText(tr("Python: off"));
        m_healthKnown = true;
        m_health.problem = SandboxHealth::Problem::None;
        Q_EMIT healthChecked();
        return;
    }
    m_dockerLabel->setText(tr("Docker: checking…"));
    QCoro::connect(SandboxHealth::check(m_settings->string(QStringLiteral("sandbox/image"))), this,
                   [this](const SandboxHealth &health) {
                       m_health = health;
                       m_healthKnown = true;
                       // Until Docker works, the model is not offered Python at all; the chat still works.
                       m_sessions->setPythonAvailable(health.ok());
                       m_dockerLabel->setText(health.ok() ? dockerReadyText(false) : tr("Docker: unavailable"));
                       m_banner->setText(
                           health.ok() ? QString()
                                       : QStringLiteral("%1<br><code>%2</code>")
                                             .arg(health.message.toHtmlEscaped(), health.command.toHtmlEscaped()));
                       m_banner->setVisible(!health.ok());
                       showState();
                       Q_EMIT healthChecked();
                       if (health.ok())
                           checkEngine();
                   });
    QCoro::connect(SandboxSession::removeLeftoverContainers(), this, [](int removed) {
        if (removed > 0)
            qCInfo(lcApp) << "removed" << removed << "sandbox containers left behind";
    });
}

// A long answer that ended while the user worked elsewhere: the desktop says so, and the taskbar
// entry asks for attention.
void MainWindow::announceFinished(qint64 id, AgentEvent::End end, qint64 durationMs)
{
    if (!DesktopNotifier::worthNotifying(durationMs, isActiveWindow(),
                                         m_settings->boolean(QStringLiteral("notifications/enabled"))) ||
        end == AgentEvent::End::Cancelled)
        return;
    ConversationSession *session = m_sessions->find(id);
    const QString title = session && !session->state().title.isEmpty() ? session->state().title : tr("Sandpiper");
    QString body = end == AgentEvent::End::Failed
                       ? tr("The answer failed.")
                       : (session ? session->lastAnswer().simplified().left(160) : QString());
    if (body.isEmpty())
        body = tr("The answer is ready.");
    m_notifier->notify(title, body);
    QApplication::alert(this);
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
