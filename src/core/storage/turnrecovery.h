#pragma once

#include "storage/storedatabase.h"

namespace Sandpiper {

// What opening the store does about the turns the last run left unfinished: answers still
// marked as streaming become interrupted, and tool calls without a tool message get one saying
// so, because strict servers reject a history with unanswered calls.
class TurnRecovery
{
    Q_DECLARE_TR_FUNCTIONS(TurnRecovery)

public:
    static StoreResult<StoreRecovery> recover(const StoreDatabase &database, QSqlQuery &query);

private:
    static StoreResult<int> supplyMissingToolResults(const StoreDatabase &database, QSqlQuery &query,
                                                     qint64 conversationId);
};

} // namespace Sandpiper
