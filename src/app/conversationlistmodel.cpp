#include "conversationlistmodel.h"

#include <session/sessionmanager.h>

#include <QGuiApplication>
#include <QIcon>
#include <QLocale>
#include <QPainter>
#include <QPalette>
#include <QPixmap>

namespace Sandpiper {

namespace {

// A dot in front of the title: hollow while the conversation works, filled for an unread answer.
QIcon markIcon(bool filled)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor colour = QGuiApplication::palette().color(QPalette::Highlight);
    painter.setPen(QPen(colour, 2));
    painter.setBrush(filled ? QBrush(colour) : QBrush());
    painter.drawEllipse(QRectF(2, 2, 8, 8));
    return QIcon(pixmap);
}

} // namespace

ConversationListModel::ConversationListModel(const SessionManager *sessions, QObject *parent)
    : QAbstractListModel(parent)
    , m_sessions(sessions)
{}

void ConversationListModel::activityChanged(qint64 conversationId)
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).conversationId == conversationId)
            Q_EMIT dataChanged(index(row), index(row));
    }
}

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
    const bool running = m_sessions->isRunning(row.conversationId);
    const bool unread = m_sessions->hasUnread(row.conversationId);
    const QString mark = running ? tr("working") : unread ? tr("new answer") : QString();
    switch (role) {
    case Qt::DisplayRole:
        return m_searching ? QStringLiteral("%1\n%2").arg(row.title, row.detail.simplified().left(90)) : row.title;
    case Qt::DecorationRole:
        if (running || unread) {
            static const QIcon workingIcon = markIcon(false);
            static const QIcon unreadIcon = markIcon(true);
            return unread ? unreadIcon : workingIcon;
        }
        return {};
    case Qt::ToolTipRole:
        return mark.isEmpty() ? QStringLiteral("%1\n%2").arg(row.title, row.detail)
                              : QStringLiteral("%1 (%2)\n%3").arg(row.title, mark, row.detail);
    case Qt::AccessibleTextRole:
        return mark.isEmpty() ? row.title : tr("%1, %2").arg(row.title, mark);
    case RunningRole:
        return running;
    case UnreadRole:
        return unread;
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
