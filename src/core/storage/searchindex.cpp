#include "storage/searchindex.h"

#include <QHash>
#include <QRegularExpression>
#include <QScopeGuard>

#include <algorithm>
#include <limits>

namespace Sandpiper {

namespace {

// What the user types, as an FTS5 query that cannot be a syntax error: every word becomes a
// quoted phrase (quotes doubled) matched as a prefix, and the phrases must all occur. Words
// without letters or digits are dropped: the tokenizer would see no token in them anyway.
QString ftsQuery(const QString &text)
{
    QStringList phrases;
    for (const QString &word : text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        if (std::none_of(word.begin(), word.end(), [](QChar c) { return c.isLetterOrNumber(); }))
            continue;
        QString escaped = word;
        escaped.replace(QLatin1Char('"'), QLatin1String("\"\""));
        phrases.append(QLatin1Char('"') + escaped + QLatin1String("\"*"));
    }
    return phrases.join(QLatin1Char(' '));
}

// One conversation's matches in both indexes.
struct ConversationMatches {
    QString title;
    int count = 0;
    double bestScore = std::numeric_limits<double>::max(); // bm25: lower is better
    qint64 bestMessage = 0;
    qint64 bestExecution = 0;
};

QString ftsTable(SearchHit::Kind kind)
{
    return kind == SearchHit::Kind::Message ? QStringLiteral("messages_fts") : QStringLiteral("executions_fts");
}

// Adds how often each conversation matches in KIND's index, and its best row there, to MATCHES.
// No snippets yet: they are made for the rows shown only.
bool countMatches(QSqlQuery &query, const QString &match, SearchHit::Kind kind,
                  QHash<qint64, ConversationMatches> &matches)
{
    const bool messages = kind == SearchHit::Kind::Message;
    // With one MIN() in the query, SQLite takes the bare rowid from the row that has it.
    const QString sql = QStringLiteral("SELECT r.conversation_id, c.title, COUNT(*), MIN(%1.rank), %1.rowid FROM %1 "
                                       "JOIN %2 r ON r.id = %1.rowid JOIN conversations c ON c.id = r.conversation_id "
                                       "WHERE %1 MATCH ? GROUP BY r.conversation_id")
                            .arg(ftsTable(kind), messages ? QStringLiteral("messages") : QStringLiteral("executions"));
    if (!StoreDatabase::run(query, sql, {match}))
        return false;
    while (query.next()) {
        ConversationMatches &conversation = matches[query.value(0).toLongLong()];
        conversation.title = query.value(1).toString();
        conversation.count += query.value(2).toInt();
        conversation.bestScore = std::min(conversation.bestScore, query.value(3).toDouble());
        (messages ? conversation.bestMessage : conversation.bestExecution) = query.value(4).toLongLong();
    }
    return true;
}

// The snippets of the HITS of KIND: the text around the matches of each one's row, each match
// between MatchStart and MatchEnd.
bool readSnippets(QSqlQuery &query, const QString &match, SearchHit::Kind kind, QList<SearchHit> &hits)
{
    const bool messages = kind == SearchHit::Kind::Message;
    QHash<qint64, SearchHit *> byRow;
    for (SearchHit &hit : hits) {
        if (hit.kind == kind)
            byRow.insert(messages ? hit.messageId : hit.executionId, &hit);
    }
    if (byRow.isEmpty())
        return true;
    QVariantList values{QString(SearchHit::MatchStart), QString(SearchHit::MatchEnd), QString(QChar(0x2026)), match};
    for (const qint64 row : byRow.keys())
        values.append(row);
    // One pass over the matches, with snippets for the rows shown only. The unary + keeps SQLite
    // from looking each row up on its own, which costs a full MATCH per row.
    const QString sql = QStringLiteral("SELECT rowid, snippet(%1, 0, ?, ?, ?, 16) FROM %1 WHERE %1 MATCH ? AND "
                                       "+rowid IN (%2)")
                            .arg(ftsTable(kind), QStringList(byRow.size(), QStringLiteral("?")).join(QLatin1Char(',')));
    if (!StoreDatabase::run(query, sql, values))
        return false;
    while (query.next()) {
        if (SearchHit *hit = byRow.value(query.value(0).toLongLong()))
            hit->snippet = query.value(1).toString();
    }
    return true;
}

} // namespace

StoreResult<QList<SearchHit>> SearchIndex::search(const QString &text, int limit)
{
    const QString match = ftsQuery(text);
    if (match.isEmpty() || limit <= 0)
        return QList<SearchHit>();
    auto db = m_db.connection();
    if (!db)
        return db.error();
    const QString failed = tr("The search did not work.");
    // One read transaction, so the snippets are made from the rows that were counted.
    QSqlQuery transaction(*db);
    if (!transaction.exec(QStringLiteral("BEGIN")))
        return m_db.sqlError(transaction, failed);
    const auto end = qScopeGuard([&transaction] { transaction.exec(QStringLiteral("COMMIT")); });
    QSqlQuery query(*db);
    query.setForwardOnly(true);
    QHash<qint64, ConversationMatches> matches;
    // Both indexes use the same tokenizer and bm25, so their scores are close enough to compare.
    if (!countMatches(query, match, SearchHit::Kind::Message, matches) ||
        !countMatches(query, match, SearchHit::Kind::Execution, matches))
        return m_db.sqlError(query, failed);
    QList<SearchHit> hits;
    hits.reserve(matches.size());
    for (auto it = matches.cbegin(); it != matches.cend(); ++it) {
        SearchHit hit;
        hit.conversationId = it.key();
        hit.title = it->title;
        hit.matchCount = it->count;
        // The conversation's best match ranks it, whichever index holds it.
        hit.score = it->bestScore;
        // A message is where the chat can scroll to, so it stands for the conversation when one matches.
        if (it->bestMessage != 0) {
            hit.messageId = it->bestMessage;
        } else {
            hit.kind = SearchHit::Kind::Execution;
            hit.executionId = it->bestExecution;
        }
        hits.append(hit);
    }
    // Ties go to the newer conversation.
    std::sort(hits.begin(), hits.end(), [](const SearchHit &a, const SearchHit &b) {
        return a.score != b.score ? a.score < b.score : a.conversationId > b.conversationId;
    });
    if (hits.size() > limit)
        hits.resize(limit);
    if (!readSnippets(query, match, SearchHit::Kind::Message, hits) ||
        !readSnippets(query, match, SearchHit::Kind::Execution, hits))
        return m_db.sqlError(query, failed);
    return hits;
}

} // namespace Sandpiper
