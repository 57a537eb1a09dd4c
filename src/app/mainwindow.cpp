#include "mainwindow.h"

#include "aboutdialog.h"
#include "charts/chartwidget.h"
#include "chat/chatview.h"
#include "chat/highlighting.h"
#include "chat/messagewidget.h"
#include "codeinspector.h"
#include "composer.h"
#include "conversationlistmodel.h"
#include "settingsdialog.h"
#include "welcomepage.h"

#include <agent/agentthread.h>
#include <charts/chartspec.h>
#include <llm/apikeystore.h>
#include <llm/chatclient.h>
#include <llm/providerpresets.h>
#include <logging.h>
#include <sandbox/sandboxsession.h>
#include <settings/settings.h>
#include <storage/conversationexport.h>
#include <storage/conversationimport.h>
#include <storage/conversationstore.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

#include <QCoroTask>

using namespace std::chrono_literals;

namespace Sandpiper {

MainWindow::MainWindow(Settings *settings, ConversationStore *store, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_store(store)
    , m_conversations(new ConversationListModel(this))
    , m_search(new QLineEdit)
    , m_list(new QListView)
    , m_newButton(new QPushButton(tr("New chat")))
    , m_renameButton(new QPushButton(tr("Rename")))
    , m_deleteButton(new QPushButton(tr("Delete")))
    , m_banner(new QLabel)
    , m_chat(new ChatView)
    , m_welcome(new WelcomePage(settings))
    , m_centreStack(new QStackedWidget)
    , m_composer(new Composer)
    , m_inspector(new CodeInspector)
    , m_inspectorDock(new QDockWidget(tr("Code inspector")))
    , m_providerLabel(new QLabel)
    , m_dockerLabel(new QLabel)
    , m_tokenLabel(new QLabel)
    , m_searchDelay(this)
{
    setWindowTitle(tr("Sandpiper"));
    resize(1280, 800);

    // Sidebar.
    m_search->setPlaceholderText(tr("Search conversations (Ctrl+F)"));
    m_search->setAccessibleName(tr("Search conversations"));
    m_search->setClearButtonEnabled(true);
    m_list->setModel(m_conversations);
    m_list->setAccessibleName(tr("Conversations"));
    m_list->setWordWrap(true);
    m_list->setTextElideMode(Qt::ElideRight);
    m_newButton->setAccessibleName(tr("New conversation"));
    m_renameButton->setAccessibleName(tr("Rename conversation"));
    m_deleteButton->setAccessibleName(tr("Delete conversation"));
    auto *sidebar = new QWidget;
    auto *sideLayout = new QVBoxLayout(sidebar);
    sideLayout->setContentsMargins(6, 6, 0, 6);
    sideLayout->addWidget(m_newButton);
    sideLayout->addWidget(m_search);
    sideLayout->addWidget(m_list, 1);
    auto *sideButtons = new QHBoxLayout;
    sideButtons->addWidget(m_renameButton);
    sideButtons->addWidget(m_deleteButton);
    sideLayout->addLayout(sideButtons);

    // Centre.
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
    centreLayout->addWidget(m_composer);

    auto *splitter = new QSplitter;
    splitter->addWidget(sidebar);
    splitter->addWidget(centre);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({250, 800});
    setCentralWidget(splitter);

    m_inspectorDock->setObjectName(QStringLiteral("inspectorDock"));
    m_inspectorDock->setWidget(m_inspector);
    m_inspectorDock->setAccessibleName(tr("Code inspector"));
    addDockWidget(Qt::RightDockWidgetArea, m_inspectorDock);
    resizeDocks({m_inspectorDock}, {380}, Qt::Horizontal);

    m_providerLabel->setAccessibleName(tr("Provider and model"));
    m_dockerLabel->setAccessibleName(tr("Docker state"));
    m_tokenLabel->setAccessibleName(tr("Tokens used in this conversation"));
    statusBar()->addWidget(m_providerLabel);
    statusBar()->addWidget(m_dockerLabel);
    statusBar()->addPermanentWidget(m_tokenLabel);

    buildActions();
    if (!m_settings->warning().isEmpty())
        statusBar()->showMessage(m_settings->warning());

    connect(m_welcome, &WelcomePage::apiKeyEntered, this, &MainWindow::useApiKey);
    connect(m_welcome, &WelcomePage::settingsRequested, this, &MainWindow::openSettings);
    connect(m_welcome, &WelcomePage::providerChosen, this, [this] {
        hideWelcome();
        updateStatus();
        loadApiKey();
    });

    connect(m_newButton, &QPushButton::clicked, this, &MainWindow::newConversation);
    connect(m_renameButton, &QPushButton::clicked, this, &MainWindow::renameCurrent);
    connect(m_deleteButton, &QPushButton::clicked, this, &MainWindow::deleteCurrent);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex &index) {
        if (!index.isValid())
            return;
        openConversation(index.data(ConversationListModel::ConversationIdRole).toLongLong());
        // A search hit jumps to the message it found.
        if (const qint64 message = index.data(ConversationListModel::MessageIdRole).toLongLong(); message != 0)
            m_chat->scrollToMessage(message);
    });
    m_searchDelay.setSingleShot(true);
    m_searchDelay.setInterval(150ms);
    connect(&m_searchDelay, &QTimer::timeout, this, &MainWindow::runSearch);
    connect(m_search, &QLineEdit::textChanged, &m_searchDelay, qOverload<>(&QTimer::start));

    connect(m_composer, &Composer::sendRequested, this, &MainWindow::send);
    connect(m_composer, &Composer::stopRequested, this, &MainWindow::stop);
    connect(m_composer, &Composer::attachRequested, this, &MainWindow::chooseFilesToAttach);
    connect(m_composer, &Composer::filesDropped, this, &MainWindow::attachFiles);
    connect(m_composer, &Composer::modelChosen, this, [this](const QString &model) {
        m_settings->setValue(QStringLiteral("providers/%1/model").arg(m_settings->string(QStringLiteral("provider"))),
                             model);
        if (m_current)
            (void)m_store->setConversationModel(m_current, m_settings->string(QStringLiteral("provider")), model);
        for (auto &[id, agent] : m_agents)
            agent->setModel(model);
        updateStatus();
    });
    connect(m_composer, &Composer::networkToggled, this, [this](bool allowed) {
        if (!ensureConversation())
            return;
        auto conversation = m_store->conversation(m_current);
        if (!conversation)
            return;
        QJsonObject choices = conversation->settings;
        choices.insert(QStringLiteral("sandbox_network"), allowed);
        (void)m_store->setConversationSettings(m_current, choices);
        if (auto it = m_agents.find(m_current); it != m_agents.end())
            it->second->setSandboxNetwork(allowed);
    });

    connect(m_chat, &ChatView::approve, this, [this](const QString &id) { agentFor(m_current)->approve(id); });
    connect(m_chat, &ChatView::approveEdited, this,
            [this](const QString &id, const QString &arguments) { agentFor(m_current)->approveEdited(id, arguments); });
    connect(m_chat, &ChatView::alwaysAllow, this, [this](const QString &id) { agentFor(m_current)->alwaysAllow(id); });
    connect(m_chat, &ChatView::deny, this,
            [this](const QString &id, const QString &reason) { agentFor(m_current)->deny(id, reason); });
    connect(m_chat, &ChatView::toolCallActivated, m_inspector, &CodeInspector::selectCall);
    connect(m_inspector, &CodeInspector::callActivated, m_chat, &ChatView::selectToolCall);
    connect(m_chat, &ChatView::editMessage, this, &MainWindow::editAndResend);
    connect(m_chat, &ChatView::regenerate, this, &MainWindow::regenerate);
    connect(m_chat, &ChatView::retry, this, &MainWindow::regenerate);
    connect(m_inspector, &CodeInspector::runRequested, this, [this](const QString &code) {
        if (ensureConversation())
            agentFor(m_current)->runUserCode(code);
    });
    connect(m_inspector, &CodeInspector::restartRequested, this, [this] {
        if (m_current)
            agentFor(m_current)->restartSandbox();
    });

    refreshList();
    if (m_conversations->rowCount() > 0)
        m_list->setCurrentIndex(m_conversations->index(0));
    else
        m_inspector->setConversation({}, {});
    updateStatus();
    loadApiKey();
    checkHealth();
    m_composer->editor()->setFocus();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QAction *newAction = fileMenu->addAction(tr("&New chat"), this, &MainWindow::newConversation);
    newAction->setShortcut(QKeySequence::New);
    fileMenu->addSeparator();
    fileMenu->addAction(tr("Export as &Markdown…"), this, [this] { exportCurrent(true); });
    fileMenu->addAction(tr("Export as &JSON…"), this, [this] { exportCurrent(false); });
    fileMenu->addAction(tr("&Import conversation…"), this, &MainWindow::importConversation);
    fileMenu->addSeparator();
    QAction *quitAction = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quitAction->setShortcut(QKeySequence::Quit);

    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    QAction *findAction = editMenu->addAction(tr("&Search conversations"), this, [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
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
    QAction *inspectorAction = m_inspectorDock->toggleViewAction();
    inspectorAction->setText(tr("Code &inspector"));
    inspectorAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    viewMenu->addAction(inspectorAction);

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&About Sandpiper"), this, [this] { AboutDialog(this).exec(); });
}

void MainWindow::refreshList()
{
    if (m_conversations->isSearching())
        return;
    const auto conversations = m_store->conversations();
    if (!conversations) {
        statusBar()->showMessage(conversations.error().message, 10000);
        return;
    }
    m_conversations->setConversations(*conversations);
    const int row = m_conversations->rowOf(m_current);
    if (row >= 0) {
        const QSignalBlocker blocker(m_list->selectionModel());
        m_list->setCurrentIndex(m_conversations->index(row));
    }
}

void MainWindow::runSearch()
{
    const QString query = m_search->text().trimmed();
    if (query.isEmpty()) {
        m_conversations->setConversations({});
        m_conversations->setConversations(m_store->conversations().value());
        return;
    }
    const auto hits = m_store->search(query, 50);
    if (!hits) {
        statusBar()->showMessage(hits.error().message, 10000);
        return;
    }
    m_conversations->setSearchHits(*hits);
}

void MainWindow::openConversation(qint64 id)
{
    if (id == m_current && id != 0)
        return;
    const auto snapshot = m_store->loadConversation(id);
    if (!snapshot) {
        QMessageBox::warning(this, tr("Open conversation"), snapshot.error().message);
        return;
    }
    m_current = id;
    hideWelcome();
    m_pendingAttachments.clear();
    m_composer->setAttachments({});
    const QString folder = m_store->conversationFolder(id);
    m_chat->showConversation(snapshot->messages, snapshot->executions, folder);
    m_inspector->setConversation(snapshot->executions, folder);
    m_tokens = 0;
    for (const ChatMessage &message : snapshot->messages)
        m_tokens += message.usage.totalTokens;
    m_composer->setNetworkAllowed(snapshot->conversation.settings.value(QLatin1String("sandbox_network"))
                                      .toBool(m_settings->boolean(QStringLiteral("sandbox/network"))));
    const auto agent = m_agents.find(id);
    m_busy = false;
    m_composer->setBusy(false);
    Q_UNUSED(agent)
    setWindowTitle(
        tr("%1 — Sandpiper")
            .arg(snapshot->conversation.title.isEmpty() ? tr("New conversation") : snapshot->conversation.title));
    updateStatus();
}

void MainWindow::newConversation()
{
    const ProviderConfig provider = m_settings->provider();
    const auto created = m_store->createConversation(provider.id, provider.model);
    if (!created) {
        QMessageBox::warning(this, tr("New conversation"), created.error().message);
        return;
    }
    m_search->clear();
    m_current = 0;
    refreshList();
    m_list->setCurrentIndex(m_conversations->index(m_conversations->rowOf(created->id)));
    openConversation(created->id);
    m_composer->editor()->setFocus();
}

bool MainWindow::ensureConversation()
{
    if (m_current == 0)
        newConversation();
    return m_current != 0;
}

AgentThread *MainWindow::agentFor(qint64 conversationId)
{
    auto it = m_agents.find(conversationId);
    if (it != m_agents.end())
        return it->second.get();
    AgentConfig config = m_settings->agent();
    config.provider.apiKey = m_apiKey;
    const auto conversation = m_store->conversation(conversationId);
    if (conversation && !conversation->model.isEmpty())
        config.provider.model = conversation->model;
    config.sandbox = m_settings->sandbox(QString::number(conversationId), m_store->conversationFolder(conversationId));
    if (conversation)
        config.sandbox.network =
            conversation->settings.value(QLatin1String("sandbox_network")).toBool(config.sandbox.network);
    // Until Docker works, the model is not offered Python at all; the chat still works.
    config.pythonEnabled = config.pythonEnabled && (!m_healthKnown || m_health.ok());
    const auto messages = m_store->messages(conversationId);
    auto agent =
        std::make_unique<AgentThread>(config, m_store, conversationId, messages ? *messages : QList<ChatMessage>());
    connect(agent.get(), &AgentThread::event, this,
            [this, conversationId](const AgentEvent &event) { handleEvent(conversationId, event); });
    AgentThread *raw = agent.get();
    m_agents.emplace(conversationId, std::move(agent));
    return raw;
}

void MainWindow::dropAgent(qint64 conversationId)
{
    m_agents.erase(conversationId);
}

void MainWindow::send(const QString &text)
{
    if (!ensureConversation())
        return;
    QString message = text;
    if (!m_pendingAttachments.isEmpty()) {
        QStringList lines;
        for (const QString &name : std::as_const(m_pendingAttachments))
            lines << tr("[Attached file: /mnt/data/%1]").arg(name);
        message = lines.join(QLatin1Char('\n')) + QStringLiteral("\n\n") + text;
        m_pendingAttachments.clear();
        m_composer->setAttachments({});
    }
    m_busy = true;
    m_composer->setBusy(true);
    agentFor(m_current)->send(message);
}

void MainWindow::stop()
{
    if (auto it = m_agents.find(m_current); it != m_agents.end())
        it->second->cancel();
}

void MainWindow::handleEvent(qint64 conversationId, const AgentEvent &event)
{
    if (event.kind == AgentEvent::Kind::TurnFinished || event.kind == AgentEvent::Kind::MessageAdded)
        refreshList();
    if (conversationId != m_current)
        return;
    m_chat->handleEvent(event);
    ExecutionListModel *executions = m_inspector->model();
    switch (event.kind) {
    case AgentEvent::Kind::ToolStarted:
        if (event.call.name == QLatin1String("execute_python_code"))
            executions->addRunning(event.call.id, event.preview, event.call.id.startsWith(QLatin1String("user-run-")));
        break;
    case AgentEvent::Kind::ToolOutput:
        executions->appendOutput(event.call.id, event.stream, event.text);
        break;
    case AgentEvent::Kind::ToolFinished:
        if (event.execution)
            executions->finish(event.call.id, *event.execution);
        break;
    case AgentEvent::Kind::Usage:
        m_tokens += event.usage.totalTokens;
        updateStatus();
        break;
    case AgentEvent::Kind::TurnFinished:
        m_busy = false;
        m_composer->setBusy(false);
        break;
    default:
        break;
    }
}

void MainWindow::renameCurrent()
{
    if (!m_current)
        return;
    const auto conversation = m_store->conversation(m_current);
    bool ok = false;
    const QString title = QInputDialog::getText(this, tr("Rename conversation"), tr("Title:"), QLineEdit::Normal,
                                                conversation ? conversation->title : QString(), &ok);
    if (!ok || title.trimmed().isEmpty())
        return;
    if (auto renamed = m_store->renameConversation(m_current, title.trimmed()); !renamed)
        QMessageBox::warning(this, tr("Rename conversation"), renamed.error().message);
    refreshList();
}

void MainWindow::exportCurrent(bool markdown)
{
    if (!m_current)
        return;
    const auto snapshot = m_store->loadConversation(m_current);
    if (!snapshot) {
        QMessageBox::warning(this, tr("Export"), snapshot.error().message);
        return;
    }
    QString suggested = snapshot->conversation.title.isEmpty() ? tr("conversation") : snapshot->conversation.title;
    suggested.replace(QLatin1Char('/'), QLatin1Char('-'));
    suggested += markdown ? QStringLiteral(".md") : QStringLiteral(".json");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export conversation"), suggested,
                                                      markdown ? tr("Markdown (*.md)") : tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    ConversationExport::MarkdownOptions options;
    // Charts are drawn as PNG files next to the Markdown, as they look in the chat.
    options.renderChart = [dark = Highlighting::isDark(palette())](const QJsonObject &spec, const QString &png) {
        const auto chart = ChartSpec::fromJson(spec);
        return chart && ChartWidget::renderToPng(*chart, png, QSize(800, 480), dark);
    };
    const auto written =
        markdown ? ConversationExport::writeMarkdown(*snapshot, m_store->conversationFolder(m_current), path, options)
                 : ConversationExport::writeJson(*snapshot, path);
    if (!written)
        QMessageBox::warning(this, tr("Export"), written.error().message);
    else
        statusBar()->showMessage(tr("Exported to %1").arg(path), 5000);
}

void MainWindow::importConversation()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import conversation"), QString(), tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    const auto imported = ConversationImport::importFile(*m_store, path);
    if (!imported) {
        QMessageBox::warning(this, tr("Import conversation"), imported.error().message);
        return;
    }
    m_search->clear();
    refreshList();
    m_list->setCurrentIndex(m_conversations->index(m_conversations->rowOf(imported->id)));
}

void MainWindow::deleteCurrent()
{
    if (!m_current)
        return;
    const auto answer =
        QMessageBox::question(this, tr("Delete conversation"),
                              tr("Delete this conversation, its files and its figures? This cannot be undone."));
    if (answer != QMessageBox::Yes)
        return;
    const qint64 doomed = m_current;
    dropAgent(doomed); // stops its sandbox first
    if (auto deleted = m_store->deleteConversation(doomed); !deleted) {
        QMessageBox::warning(this, tr("Delete conversation"), deleted.error().message);
        return;
    }
    m_current = 0;
    m_chat->clear();
    m_inspector->setConversation({}, {});
    refreshList();
    if (m_conversations->rowCount() > 0)
        m_list->setCurrentIndex(m_conversations->index(0));
}

void MainWindow::chooseFilesToAttach()
{
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Attach files"));
    if (!paths.isEmpty())
        attachFiles(paths);
}

void MainWindow::attachFiles(const QStringList &paths)
{
    if (!ensureConversation())
        return;
    for (const QString &path : paths) {
        const auto attached = m_store->attachFile(m_current, path);
        if (!attached) {
            QMessageBox::warning(
                this, tr("Attach file"),
                tr("%1 could not be attached: %2").arg(QFileInfo(path).fileName(), attached.error().message));
            continue;
        }
        m_pendingAttachments << attached->fileName;
    }
    m_composer->setAttachments(m_pendingAttachments);
}

void MainWindow::copyLastAnswer()
{
    const QList<MessageWidget *> widgets = m_chat->messageWidgets();
    for (auto it = widgets.crbegin(); it != widgets.crend(); ++it) {
        if ((*it)->message().role == ChatMessage::Role::Assistant && !(*it)->plainText().isEmpty()) {
            QApplication::clipboard()->setText((*it)->plainText());
            statusBar()->showMessage(tr("The last answer was copied."), 3000);
            return;
        }
    }
}

void MainWindow::editAndResend(qint64 messageId, const QString &text)
{
    const auto answer = QMessageBox::question(this, tr("Edit and resend"),
                                              tr("Resending drops the messages after this one. Continue?"));
    if (answer == QMessageBox::Yes)
        resendFrom(messageId, text);
}

// Drops MESSAGEID and everything after it, then sends TEXT in its place.
void MainWindow::resendFrom(qint64 messageId, const QString &text)
{
    if (m_busy)
        return;
    if (auto dropped = m_store->deleteMessagesFrom(m_current, messageId); !dropped) {
        QMessageBox::warning(this, tr("Resend"), dropped.error().message);
        return;
    }
    const qint64 id = m_current;
    if (auto it = m_agents.find(id); it != m_agents.end()) {
        const auto messages = m_store->messages(id);
        it->second->replaceHistory(messages ? *messages : QList<ChatMessage>());
    }
    m_current = 0;
    openConversation(id);
    send(text);
}

void MainWindow::regenerate()
{
    const QList<MessageWidget *> widgets = m_chat->messageWidgets();
    for (auto it = widgets.crbegin(); it != widgets.crend(); ++it) {
        const ChatMessage &message = (*it)->message();
        if (message.role == ChatMessage::Role::User && message.id != 0) {
            resendFrom(message.id, message.content);
            return;
        }
    }
}

void MainWindow::loadApiKey()
{
    const QString provider = m_settings->string(QStringLiteral("provider"));
    QCoro::connect(ApiKeyStore::read(provider, m_settings->apiKeyVariable()), this,
                   [this, provider](const ApiKeyStore::Lookup &lookup) {
                       m_apiKey = m_sessionKeys.value(provider, lookup.key);
                       const auto preset = findProviderPreset(provider);
                       if (preset && preset->needsKey && m_apiKey.isEmpty())
                           showWelcome(tr("No API key for %1 was found.").arg(preset->name));
                       loadModels();
                   });
}

void MainWindow::loadModels()
{
    ProviderConfig config = m_settings->provider();
    config.apiKey = m_apiKey;
    config.connectTimeout = 5s;
    auto *client = new ChatClient(config, this);
    QCoro::connect(client->listModels(), this, [this, client, config](const ModelList &list) {
        client->deleteLater();
        m_composer->setModels(list.models, config.model);
        if (!list.error.message.isEmpty())
            m_composer->modelPicker()->setToolTip(list.error.message);
        // A server that needs no key but does not answer is usually a local one not started.
        const auto preset = findProviderPreset(config.id);
        const bool unreachable = list.error.kind == ChatError::Kind::ConnectionRefused ||
                                 list.error.kind == ChatError::Kind::ConnectTimeout ||
                                 list.error.kind == ChatError::Kind::Network;
        if (unreachable && !(preset && preset->needsKey))
            showWelcome(tr("%1 does not answer at %2.")
                            .arg(preset ? preset->name : config.id,
                                 config.baseUrl.isEmpty() ? tr("an empty address") : config.baseUrl));
    });
}

void MainWindow::showWelcome(const QString &reason)
{
    // A conversation on screen stays there: its history matters more than the hint.
    if (m_current != 0 || m_centreStack->currentWidget() == m_welcome)
        return;
    m_centreStack->setCurrentWidget(m_welcome);
    m_composer->setVisible(false);
    m_welcome->start(reason);
}

void MainWindow::hideWelcome()
{
    m_centreStack->setCurrentWidget(m_chat);
    m_composer->setVisible(true);
}

void MainWindow::useApiKey(const QString &providerId, const QString &key, bool remembered)
{
    if (!remembered) {
        m_sessionKeys.insert(providerId, key);
        statusBar()->showMessage(
            tr("The keychain is not available: the API key is used until you quit and will not be remembered."));
    }
    if (providerId == m_settings->string(QStringLiteral("provider")))
        m_apiKey = key;
}

void MainWindow::openSettings()
{
    SettingsDialog dialog(m_settings, this);
    connect(&dialog, &SettingsDialog::apiKeyEntered, this, &MainWindow::useApiKey);
    if (dialog.exec() != QDialog::Accepted)
        return;
    hideWelcome();
    updateStatus();
    loadApiKey();
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
                       m_dockerLabel->setText(health.ok() ? tr("Docker: ready") : tr("Docker: unavailable"));
                       m_banner->setText(
                           health.ok() ? QString()
                                       : QStringLiteral("%1<br><code>%2</code>")
                                             .arg(health.message.toHtmlEscaped(), health.command.toHtmlEscaped()));
                       m_banner->setVisible(!health.ok());
                       Q_EMIT healthChecked();
                   });
    QCoro::connect(SandboxSession::removeLeftoverContainers(), this, [](int removed) {
        if (removed > 0)
            qCInfo(lcApp) << "removed" << removed << "sandbox containers left behind";
    });
}

void MainWindow::updateStatus()
{
    const ProviderConfig provider = m_settings->provider();
    const auto preset = findProviderPreset(provider.id);
    const QString model =
        m_composer->modelPicker()->currentText().isEmpty() ? provider.model : m_composer->modelPicker()->currentText();
    m_providerLabel->setText(tr("%1 · %2").arg(preset ? preset->name : provider.id, model));
    m_tokenLabel->setText(tr("%L1 tokens").arg(m_tokens));
}

} // namespace Sandpiper
