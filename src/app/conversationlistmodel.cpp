#include "conversationlistmodel.h"

#include <session/sessionmanager.h>

#include <QLocale>

namespace Sandpiper {

namespace {

// SNIPPET without its match marks and with every run of white space as one space (a row shows
// it on two lines at most); the matches are added to MATCHES.
QString plainSnippet(const QString &snippet, ConversationListModel::MatchRanges &matches)
{
    QString text;
    text.reserve(snippet.size());
    qsizetype matchStart = -1;
    for (const QChar c : snippet) {
        if (c == SearchHit::MatchStart) {
            matchStart = text.size();
        } else if (c == SearchHit::MatchEnd) {
            if (matchStart >= 0 && text.size() > matchStart)
                matches.append({matchStart, text.size() - matchStart});
            matchStart = -1;
        } else if (c.isSpace()) {
            if (!text.isEmpty() && !text.endsWith(QLatin1Char(' ')))
                text += QLatin1Char(' ');
        } else {
            text += c;
        }
    }
    if (text.endsWith(QLatin1Char(' ')))
        text.chop(1);
    return text;
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
        Row row{hit.conversationId, hit.messageId, hit.title.isEmpty() ? tr("New conversation") : hit.title, {}, {},
                hit.matchCount};
        row.detail = plainSnippet(hit.snippet, row.matches);
        m_rows.append(row);
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
    const QString title = mark.isEmpty() ? row.title : tr("%1, %2").arg(row.title, mark);
    switch (role) {
    case Qt::DisplayRole:
        return row.title;
    case Qt::ToolTipRole:
        return mark.isEmpty() ? QStringLiteral("%1\n%2").arg(row.title, row.detail)
                              : QStringLiteral("%1 (%2)\n%3").arg(row.title, mark, row.detail);
    case Qt::AccessibleTextRole:
        return m_searching ? tr("%1: %2 (%n match(es))", "a search hit: title, snippet, count", row.matchCount)
                                 .arg(title, row.detail)
                           : title;
    case RunningRole:
        return running;
    case UnreadRole:
        return unread;
    case ConversationIdRole:
        return row.conversationId;
    case MessageIdRole:
        return row.messageId;
    case SnippetRole:
        return m_searching ? row.detail : QString();
    case MatchRangesRole:
        return QVariant::fromValue(row.matches);
    case MatchCountRole:
        return row.matchCount;
    default:
        return {};
    }
}

} // namespace Sandpiper
