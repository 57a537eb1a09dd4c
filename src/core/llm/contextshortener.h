#pragma once

#include "llm/chatmessage.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace Sandpiper {

// Makes a request fit the model's context window by leaving out what matters least, in this
// order: the old tool results (head and tail kept, marked as shortened), then the oldest tool
// rounds, then the oldest turns, and last the latest tool results. The system prompt, the tool
// declarations and the last user message are always sent in full. It works on a copy: the
// conversation itself is never changed.
//
// Sizes are counted in units that are about a token each for English text and code (four
// ASCII characters) and one per other character; ContextBudget turns them into the model's
// tokens with a factor learnt from the server.
class ContextShortener
{
    Q_DECLARE_TR_FUNCTIONS(ContextShortener)

public:
    // How much of a shortened tool result is kept: of old ones, and, as a last resort, of the
    // latest ones.
    static constexpr qsizetype oldHead = 800;
    static constexpr qsizetype oldTail = 400;
    static constexpr qsizetype latestHead = 300;
    static constexpr qsizetype latestTail = 200;

    struct Outcome {
        QList<ChatMessage> messages;
        qint64 units = 0; // of the messages and the fixed part together
        int shortenedResults = 0;
        int droppedRounds = 0;
        int droppedTurns = 0;
        bool fits = true;

        bool changed() const { return shortenedResults + droppedRounds + droppedTurns > 0; }
        // For the user: what was left out to fit WINDOW tokens; empty when nothing was.
        QString summary(qint64 window) const;
    };

    static qint64 units(QStringView text);
    // With WITHREASONING the message's reasoning goes along (see ChatClient::wireMessages).
    static qint64 units(const ChatMessage &message, bool withReasoning);
    static qint64 units(const QJsonArray &tools);
    static qint64 units(const QList<ChatMessage> &messages, bool reasoningBack);

    // Leaves out of MESSAGES what is needed to bring them, with FIXED units of declarations
    // and framing, within BUDGET units.
    static Outcome shorten(const QList<ChatMessage> &messages, qint64 budget, qint64 fixed, bool reasoningBack);

    // TEXT with only its first HEAD and last TAIL characters, and a note where the rest was.
    static QString shortened(const QString &text, qsizetype head, qsizetype tail);
};

} // namespace Sandpiper
