#pragma once

#include <QtGlobal>

namespace Sandpiper {

class ConversationStore;

// sandpiper-cli --branches: prints the messages of conversation CONVERSATIONID on every branch, one
// per line, each after its parent, a message with versions starting a deeper indent for each:
// "* ID ROLE: first words" with "*" on the path shown (with JSON, one object per line: id, parent,
// role, shown, version, versions, text). Returns the exit code.
int listBranches(ConversationStore &store, qint64 conversationId, bool json);

} // namespace Sandpiper
