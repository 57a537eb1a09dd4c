#include "conversationsidebar.h"

#include "conversationitemdelegate.h"
#include "conversationlistmodel.h"

#include <session/sessionmanager.h>
#include <storage/conversationstore.h>

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QVBoxLayout>

using namespace std::chrono_literals;

namespace Sandpiper {

ConversationSidebar::ConversationSidebar(ConversationStore *store, SessionManager *sessions, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_model(new ConversationListModel(sessions, this))
    , m_search(new QLineEdit)
    , m_list(new QListView)
    , m_rename(new QPushButton(tr("Rename")))
    , m_delete(new QPushButton(tr("Delete")))
    , m_searchDelay(this)
{
    auto *newButton = new QPushButton(tr("New chat"));
    newButton->setAccessibleName(tr("New conversation"));
    m_rename->setAccessibleName(tr("Rename conversation"));
    m_delete->setAccessibleName(tr("Delete conversation"));
    setConversationOpen(false);
    m_search->setPlaceholderText(tr("Search conversations (Ctrl+F)"));
    m_search->setAccessibleName(tr("Search conversations"));
    m_search->setClearButtonEnabled(true);
    m_search->installEventFilter(this);
    m_list->setModel(m_model);
    m_list->setItemDelegate(new ConversationItemDelegate(m_list));
    m_list->setAccessibleName(tr("Conversations"));
    // Long titles end in "…" with the whole one in the tooltip: the list never scrolls sideways.
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->installEventFilter(this);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 0, 6);
    layout->addWidget(newButton);
    layout->addWidget(m_search);
    layout->addWidget(m_list, 1);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_rename);
    buttons->addWidget(m_delete);
    layout->addLayout(buttons);

    connect(newButton, &QPushButton::clicked, this, &ConversationSidebar::newRequested);
    connect(m_rename, &QPushButton::clicked, this, &ConversationSidebar::renameRequested);
    connect(m_delete, &QPushButton::clicked, this, &ConversationSidebar::deleteRequested);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex &index) {
        if (!m_refreshing && !m_model->isSearching())
            openHit(index);
    });
    connect(m_list, &QListView::clicked, this, [this](const QModelIndex &index) {
        if (m_model->isSearching())
            openHit(index);
    });
    connect(sessions, &SessionManager::activityChanged, m_model, &ConversationListModel::activityChanged);
    m_searchDelay.setSingleShot(true);
    m_searchDelay.setInterval(150ms);
    connect(&m_searchDelay, &QTimer::timeout, this, &ConversationSidebar::refresh);
    connect(m_search, &QLineEdit::textChanged, &m_searchDelay, qOverload<>(&QTimer::start));
}

void ConversationSidebar::setConversationOpen(bool open)
{
    m_rename->setEnabled(open);
    m_delete->setEnabled(open);
}

void ConversationSidebar::openHit(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    m_selected = index.data(ConversationListModel::ConversationIdRole).toLongLong();
    Q_EMIT conversationChosen(m_selected, index.data(ConversationListModel::MessageIdRole).toLongLong());
}

void ConversationSidebar::refresh()
{
    const QString query = m_search->text().trimmed();
    // In a search the list keeps the hit the user is on; else it follows the open conversation.
    const qint64 current = m_list->currentIndex().data(ConversationListModel::ConversationIdRole).toLongLong();
    // Selecting again after a reset would open the conversation again: the list only follows.
    const QScopedValueRollback refreshing(m_refreshing, true);
    if (query.isEmpty()) {
        const auto conversations = m_store->conversations();
        if (!conversations) {
            Q_EMIT problem(conversations.error().message);
            return;
        }
        m_model->setConversations(*conversations);
    } else {
        const auto hits = m_store->search(query);
        if (!hits) {
            Q_EMIT problem(hits.error().message);
            return;
        }
        m_model->setSearchHits(*hits);
    }
    const qint64 follow = m_model->isSearching() && m_model->rowOf(current) >= 0 ? current : m_selected;
    if (const int row = m_model->rowOf(follow); row >= 0)
        m_list->setCurrentIndex(m_model->index(row));
}

void ConversationSidebar::searchNow()
{
    if (m_searchDelay.isActive()) {
        m_searchDelay.stop();
        refresh();
    }
}

bool ConversationSidebar::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress || (watched != m_search && watched != m_list))
        return QWidget::eventFilter(watched, event);
    const int key = static_cast<QKeyEvent *>(event)->key();
    const bool enter = key == Qt::Key_Return || key == Qt::Key_Enter;
    if (watched == m_search) {
        if (key == Qt::Key_Escape && !m_search->text().isEmpty()) {
            m_search->clear();
            return true;
        }
        if (key != Qt::Key_Down && !(enter && !m_search->text().trimmed().isEmpty()))
            return false;
        searchNow(); // what was typed a moment ago
        if (m_model->rowCount() == 0)
            return true;
        // The hits start at the best one; the conversations where the open one is.
        if (m_model->isSearching() || !m_list->currentIndex().isValid())
            m_list->setCurrentIndex(m_model->index(0));
        if (enter)
            openHit(m_list->currentIndex());
        else
            m_list->setFocus(Qt::TabFocusReason);
        return true;
    }
    if (key == Qt::Key_Up && m_list->currentIndex().row() <= 0) {
        m_search->setFocus(Qt::BacktabFocusReason);
        return true;
    }
    if (enter && m_model->isSearching()) {
        openHit(m_list->currentIndex());
        return true;
    }
    return false;
}

void ConversationSidebar::select(qint64 id)
{
    m_selected = id;
    if (m_model->isSearching() && m_model->rowOf(id) < 0) {
        const QSignalBlocker blocker(m_search);
        m_search->clear();
    }
    refresh();
}

void ConversationSidebar::focusSearch()
{
    m_search->setFocus();
    m_search->selectAll();
}

} // namespace Sandpiper
