#pragma once

#include "llm/chatmessage.h"
#include "storage/attachment.h"
#include "storage/conversation.h"
#include "storage/storedexecution.h"

#include <QList>
#include <QMetaType>

namespace Sandpiper {

// A whole conversation as loaded for display, exported, or imported in one transaction.
struct ConversationSnapshot {
    Conversation conversation;
    QList<ChatMessage> messages;       // in conversation order
    QList<StoredExecution> executions; // oldest first
    QList<Attachment> attachments;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::ConversationSnapshot)
