#pragma once

#include "llm/chatmessage.h"
#include "storage/attachment.h"
#include "storage/conversation.h"
#include "storage/storedexecution.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QMetaType>

namespace Sandpiper {

// A whole conversation as loaded for display, exported, or imported in one transaction.
struct ConversationSnapshot {
    Conversation conversation;
    QList<ChatMessage> messages;       // in conversation order
    QList<StoredExecution> executions; // oldest first
    QList<Attachment> attachments;
    // Imports only: files to write into the new conversation's folder (the images of imported
    // messages), by file name at the top of the folder.
    QMap<QString, QByteArray> files;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::ConversationSnapshot)
