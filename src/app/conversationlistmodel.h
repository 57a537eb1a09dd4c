#pragma once

#include <storage/conversation.h>
#include <storage/searchhit.h>

#include <QAbstractListModel>

#include <utility>

namespace Sandpiper {

class SessionManager;

// The sidebar: conversations, most recent first, or the full-text search hits for a query, one
// per conversation (each pointing at the message to jump to, with the matches in its snippet
// and how many there are). A conversation whose session is working, or that has an answer the
// user has not seen, is marked; ConversationItemDelegate draws the rows.
class ConversationListModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        ConversationIdRole = Qt::UserRole + 1,
        MessageIdRole,
        SnippetRole,     // a search hit's text around the matches, on one line
        MatchRangesRole, // MatchRanges: where the matches are in SnippetRole's text
        MatchCountRole,  // a search hit's matches in its conversation; 0 outside a search
        RunningRole,
        UnreadRole
    };
    using MatchRanges = QList<std::pair<qsizetype, qsizetype>>; // start, length

    // SESSIONS says which conversations are running or unread.
    explicit ConversationListModel(const SessionManager *sessions, QObject *parent = nullptr);

    void setConversations(const QList<Conversation> &conversations);
    void setSearchHits(const QList<SearchHit> &hits);
    bool isSearching() const { return m_searching; }
    int rowOf(qint64 conversationId) const;
    // The marks of CONVERSATIONID changed.
    void activityChanged(qint64 conversationId);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        qint64 conversationId = 0;
        qint64 messageId = 0;
        QString title;
        QString detail; // the time of the last change, or the search hit's snippet
        MatchRanges matches;
        int matchCount = 0;
    };
    const SessionManager *m_sessions;
    QList<Row> m_rows;
    bool m_searching = false;
};

} // namespace Sandpiper
