#include "storage/searchindex.h"

#include <QRegularExpression>

#include <algorithm>

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

} // namespace

StoreResult<QList<SearchHit>> SearchIndex::searchTable(QSqlQuery &query, const QString &match, SearchHit::Kind kind,
                                                       int limit)
{
    // The inner query lets FTS5 sort by rank itself and stop at LIMIT, so snippets are made for
    // the hits returned only, not for every row that matches.
    const bool messages = kind == SearchHit::Kind::Message;
    const QString sql =
        messages
            ? QStringLiteral("SELECT f.rowid, f.snip, f.score, m.conversation_id, c.title FROM (SELECT rowid, "
                             "snippet(messages_fts, 0, ?, ?, ?, 16) AS snip, rank AS score FROM messages_fts "
                             "WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?) AS f "
                             "JOIN messages m ON m.id = f.rowid JOIN conversations c ON c.id = m.conversation_id "
                             "ORDER BY f.score")
            : QStringLiteral("SELECT f.rowid, f.snip, f.score, e.conversation_id, c.title FROM (SELECT rowid, "
                             "snippet(executions_fts, 0, ?, ?, ?, 16) AS snip, rank AS score FROM executions_fts "
                             "WHERE executions_fts MATCH ? ORDER BY rank LIMIT ?) AS f "
                             "JOIN executions e ON e.id = f.rowid JOIN conversations c ON c.id = e.conversation_id "
                             "ORDER BY f.score");
    if (!StoreDatabase::run(
            query, sql,
            {QString(SearchHit::MatchStart), QString(SearchHit::MatchEnd), QString(QChar(0x2026)), match, limit}))
        return m_db.sqlError(query, tr("The search did not work."));
    QList<SearchHit> hits;
    while (query.next()) {
        SearchHit hit;
        hit.kind = kind;
        (messages ? hit.messageId : hit.executionId) = query.value(0).toLongLong();
        hit.snippet = query.value(1).toString();
        hit.score = query.value(2).toDouble();
        hit.conversationId = query.value(3).toLongLong();
        hit.title = query.value(4).toString();
        hits.append(hit);
    }
    return hits;
}

StoreResult<QList<SearchHit>> SearchIndex::search(const QString &text, int limit)
{
    const QString match = ftsQuery(text);
    if (match.isEmpty() || limit <= 0)
        return QList<SearchHit>();
    auto db = m_db.connection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    query.setForwardOnly(true);
    auto hits = searchTable(query, match, SearchHit::Kind::Message, limit);
    if (!hits)
        return hits;
    auto code = searchTable(query, match, SearchHit::Kind::Execution, limit);
    if (!code)
        return code;
    // Both indexes use the same tokenizer and bm25, so their scores are close enough to merge;
    // each side already holds its own best LIMIT hits.
    QList<SearchHit> all = std::move(hits).value() + std::move(code).value();
    std::stable_sort(all.begin(), all.end(), [](const SearchHit &a, const SearchHit &b) { return a.score < b.score; });
    if (all.size() > limit)
        all.resize(limit);
    return all;
}

} // namespace Sandpiper
