#pragma once

#include "storage/conversationsnapshot.h"
#include "storage/storeresult.h"

#include <QByteArray>
#include <QString>

namespace Sandpiper {
class ConversationStore;
}

namespace Sandpiper::ConversationImport {

// Reads a JSON export (ConversationExport::toJson). A file that is not one, or whose history
// a server would refuse (unknown roles, tool results without their call), or with an image that
// is not embedded, too large or does not decode, is refused as a whole, with an error that says
// where the problem is. The images come back as the snapshot's files.
StoreResult<ConversationSnapshot> parse(const QByteArray &json);

// Parses FILEPATH and stores it as a new conversation, in one transaction: all or nothing.
StoreResult<Conversation> importFile(ConversationStore &store, const QString &filePath);

} // namespace Sandpiper::ConversationImport
