#pragma once

#include <chat/chatview.h>
#include <chat/toolcallcard.h>

namespace Sandpiper::Test {

// The newest card on CHAT's page of a call with the server's id ID: for scripts whose ids do not
// repeat (the app itself goes by CallKey, as servers do repeat them).
inline ToolCallCard *newestCard(const ChatView *chat, const QString &id)
{
    const QList<ToolCallCard *> cards = chat->cards();
    for (auto card = cards.crbegin(); card != cards.crend(); ++card) {
        if ((*card)->callId() == id)
            return *card;
    }
    return nullptr;
}

} // namespace Sandpiper::Test
