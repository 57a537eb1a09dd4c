#pragma once

#include <QTimer>
#include <QWidget>

class QLineEdit;
class QListView;
class QPushButton;

namespace Sandpiper {

class ConversationListModel;
class ConversationStore;
class SessionManager;

// The left side of the window: New chat, the search field, the conversations (or the search
// hits) with their running and unread marks, Rename and Delete. Moving through the
// conversations opens them; moving through search hits does not: Enter or a click opens one.
// Down in the search field goes to the hits, Up on the first row comes back, Escape clears it.
class ConversationSidebar : public QWidget
{
    Q_OBJECT

public:
    ConversationSidebar(ConversationStore *store, SessionManager *sessions, QWidget *parent = nullptr);

    QListView *list() const { return m_list; }
    QLineEdit *searchField() const { return m_search; }
    ConversationListModel *model() const { return m_model; }
    // Reads the conversations (or the hits of the search) again, keeping the selection.
    void refresh();
    // Selects conversation ID in the list, clearing a search that hides it.
    void select(qint64 id);
    void focusSearch();
    // Rename and Delete act on the open conversation: without one they are disabled.
    void setConversationOpen(bool open);

Q_SIGNALS:
    // The user picked a conversation; MESSAGEID is the search hit to jump to, or 0.
    void conversationChosen(qint64 id, qint64 messageId);
    void newRequested();
    void renameRequested();
    void deleteRequested();
    // Reading the list failed; MESSAGE says why.
    void problem(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void openHit(const QModelIndex &index);
    void searchNow();

    ConversationStore *m_store;
    ConversationListModel *m_model;
    QLineEdit *m_search;
    QListView *m_list;
    QPushButton *m_rename;
    QPushButton *m_delete;
    QTimer m_searchDelay;
    qint64 m_selected = 0;
    bool m_refreshing = false;
};

} // namespace Sandpiper
