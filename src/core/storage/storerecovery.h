#pragma once

namespace Sandpiper {

// What opening the store found the last run had left streaming (now interrupted) and the tool
// results it had to supply.
struct StoreRecovery {
    int interruptedMessages = 0;
    int synthesizedToolResults = 0;
};

} // namespace Sandpiper
