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
    QList<ChatMessage> messages;       // the path shown, from the first message down
    QList<StoredExecution> executions; // the runs of the path shown (and of no message), oldest first
    QList<Attachment> attachments;
    // Every message on any branch, each after its parent (ChatMessage::parentId), and every run:
    // what an export keeps. An import with no TREE stores MESSAGES as one path.
    QList<ChatMessage> tree;
    QList<StoredExecution> allExecutions;
    // Imports only: files to write into the new conversation's folder (the images of imported
    // messages), by file name at the top of the folder.
    QMap<QString, QByteArray> files;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::ConversationSnapshot)
