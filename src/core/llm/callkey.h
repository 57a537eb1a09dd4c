#pragma once

#include <QHashFunctions>
#include <QMetaType>

namespace Sandpiper {

// Which tool call of a conversation: the message that holds it (its row in the store) and the
// call's place in that message's tool_calls. A server's call ids are unique within one message
// only (some count from call_0 each turn), so the id alone names no call; the card in the chat,
// the run in the inspector and the stored execution of a call all carry this key. A run of the
// user's own code has the user message that tells the model about it, at place 0.
struct CallKey {
    qint64 messageId = 0;
    int index = -1;

    bool isValid() const { return index >= 0; }
    friend bool operator==(const CallKey &, const CallKey &) = default;
    friend size_t qHash(const CallKey &key, size_t seed = 0) noexcept
    {
        return qHashMulti(seed, key.messageId, key.index);
    }
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::CallKey)
