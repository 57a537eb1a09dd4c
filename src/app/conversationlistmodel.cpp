#include "conversationlistmodel.h"

#include <QLocale>

namespace Sandpiper {

void ConversationListModel::setConversations(const QList<Conversation> &conversations)
{
    beginResetModel();
    m_searching = false;
    m_rows.clear();
    for (const Conversation &conversation : conversations) {
        m_rows.append({conversation.id, 0, conversation.title.isEmpty() ? tr("New conversation") : conversation.title,
                       QLocale().toString(conversation.updated.toLocalTime(), QLocale::ShortFormat)});
    }
    endResetModel();
}

void ConversationListModel::setSearchHits(const QList<SearchHit> &hits)
{
    beginResetModel();
    m_searching = true;
    m_rows.clear();
    for (const SearchHit &hit : hits) {
        QString snippet = hit.snippet;
        snippet.remove(SearchHit::MatchStart).remove(SearchHit::MatchEnd);
        m_rows.append(
            {hit.conversationId, hit.messageId, hit.title.isEmpty() ? tr("New conversation") : hit.title, snippet});
    }
    endResetModel();
}

int ConversationListModel::rowOf(qint64 conversationId) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).conversationId == conversationId)
            return i;
    }
    return -1;
}

int ConversationListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ConversationListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return m_searching ? QStringLiteral("%1\n%2").arg(row.title, row.detail.simplified().left(90)) : row.title;
    case Qt::ToolTipRole:
        return QStringLiteral("%1\n%2").arg(row.title, row.detail);
    case Qt::AccessibleTextRole:
        return row.title;
    case ConversationIdRole:
        return row.conversationId;
    case MessageIdRole:
        return row.messageId;
    case SnippetRole:
        return row.detail;
    default:
        return {};
    }
}

} // namespace Sandpiper
