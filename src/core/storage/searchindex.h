#pragma once

#include "storage/searchhit.h"
#include "storage/storedatabase.h"

namespace Sandpiper {

// Full-text search over user and assistant messages and executed code (SQLite FTS5), one hit
// per conversation.
class SearchIndex
{
    Q_DECLARE_TR_FUNCTIONS(SearchIndex)

public:
    explicit SearchIndex(StoreDatabase &database)
        : m_db(database)
    {}

    // The conversations that match, best match first, at most LIMIT: each shown by its best
    // matching message (by its best matching code when no message matches) and counting all of
    // its matches. TEXT is what the user typed: every whitespace-separated word must occur (as a
    // word or the start of one); it is never parsed as FTS syntax. Empty finds nothing.
    StoreResult<QList<SearchHit>> search(const QString &text, int limit);

private:
    StoreDatabase &m_db;
};

} // namespace Sandpiper
