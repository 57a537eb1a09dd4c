#pragma once

#include "llm/chatmessage.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace Sandpiper {

// A conversation as the sidebar lists it: everything but its messages. A value type.
struct Conversation {
    qint64 id = 0; // row in the store; 0 until stored
    QString title; // empty until the first user message names it
    QDateTime created;
    QDateTime updated; // the last time a message or setting changed
    QString provider;
    QString model;
    // Per-conversation choices such as the approval policy or sandbox network access; the
    // store keeps them as they are, the agent interprets them.
    QJsonObject settings;
    qint64 messageCount = 0;

    // A title from the text of the first user message: its first line with words in it, cut at a
    // word boundary near TitleLength characters with an ellipsis.
    static QString titleFromFirstMessage(QStringView text);
    // The same for the first user message: from the user's words, or from the names of the files
    // and images that went with it when there are none (never from what the model was told about them).
    static QString titleFromFirstMessage(const ChatMessage &message);
    static constexpr qsizetype TitleLength = 60;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::Conversation)
