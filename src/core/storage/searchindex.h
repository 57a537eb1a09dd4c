#pragma once

#include "storage/searchhit.h"
#include "storage/storedatabase.h"

namespace Sandpiper {

// Full-text search over user and assistant messages and executed code (SQLite FTS5).
class SearchIndex
{
    Q_DECLARE_TR_FUNCTIONS(SearchIndex)

public:
    explicit SearchIndex(StoreDatabase &database)
        : m_db(database)
    {}

    // Best match first. TEXT is what the user typed: every whitespace-separated word must occur
    // (as a word or the start of one); it is never parsed as FTS syntax. Empty finds nothing.
    StoreResult<QList<SearchHit>> search(const QString &text, int limit);

private:
    StoreResult<QList<SearchHit>> searchTable(QSqlQuery &query, const QString &match, SearchHit::Kind kind, int limit);

    StoreDatabase &m_db;
};

} // namespace Sandpiper
