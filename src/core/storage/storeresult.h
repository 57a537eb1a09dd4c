#pragma once

#include "result.h"

#include <QString>

namespace Sandpiper {

// Why a storage call failed, worded for the user in whole sentences.
struct StoreError {
    enum class Kind {
        Unavailable,  // the database could not be opened or created; the next call tries again
        WriteFailed,  // read-only folder, full disk, I/O error: nothing was changed
        NotFound,     // no conversation, message or execution with that id
        InvalidInput, // an import file or an argument the store cannot accept
        Database,     // anything else SQLite reported
    };

    Kind kind = Kind::Database;
    QString message;
};

template<typename T> using StoreResult = Result<T, StoreError>;

} // namespace Sandpiper
