#include "llm/contextshortener.h"

#include <QJsonDocument>
#include <QLocale>

namespace Sandpiper {

namespace {

constexpr qint64 perMessage = 4; // the template's markup around each message
constexpr qint64 perCall = 4;
// An image of 1568 px costs vision models between about 600 (Qwen-VL, Gemma) and 1600 tokens
// (Claude, GPT-4o in detail); the larger figure keeps the answer room.
constexpr qint64 perImage = 1600;

struct Round {
    qsizetype first; // the assistant message with the calls
    qsizetype last;  // its last tool message
};

} // namespace

qint64 ContextShortener::units(QStringView text)
{
    qint64 ascii = 0;
    for (const QChar c : text)
        ascii += c.unicode() < 0x80;
    return (ascii + 3) / 4 + (text.size() - ascii);
}

qint64 ContextShortener::units(const ChatMessage &message, bool withReasoning)
{
    qint64 total = perMessage + units(message.modelContent()) + perImage * message.imageUrls.size();
    for (const ToolCall &call : message.toolCalls)
        total += perCall + units(call.name) + units(call.arguments);
    if (withReasoning)
        total += units(message.reasoning);
    return total;
}

qint64 ContextShortener::units(const QJsonArray &tools)
{
    return tools.isEmpty() ? 0 : units(QString::fromUtf8(QJsonDocument(tools).toJson(QJsonDocument::Compact)));
}

qint64 ContextShortener::units(const QList<ChatMessage> &messages, bool reasoningBack)
{
    const qsizetype turnStart = ChatMessage::currentTurnStart(messages);
    qint64 total = 0;
    for (qsizetype i = 0; i < messages.size(); ++i)
        total += units(messages.at(i),
                       reasoningBack && i >= turnStart && messages.at(i).role == ChatMessage::Role::Assistant);
    return total;
}

QString ContextShortener::shortened(const QString &text, qsizetype head, qsizetype tail)
{
    if (text.size() <= head + tail)
        return text;
    qsizetype headEnd = head;
    if (headEnd > 0 && text.at(headEnd - 1).isHighSurrogate())
        --headEnd;
    qsizetype tailStart = text.size() - tail;
    if (text.at(tailStart).isLowSurrogate())
        ++tailStart;
    // The model reads this, so it is not translated, like every tool result.
    return text.first(headEnd) +
           QStringLiteral("\n[… %1 characters left out here to fit the context window …]\n").arg(tailStart - headEnd) +
           text.sliced(tailStart);
}

ContextShortener::Outcome ContextShortener::shorten(const QList<ChatMessage> &messages, qint64 budget, qint64 fixed,
                                                    bool reasoningBack)
{
    using Role = ChatMessage::Role;
    Outcome out;
    const qsizetype count = messages.size();
    const qsizetype turnStart = ChatMessage::currentTurnStart(messages);
    const qsizetype lastUser = turnStart - 1;
    QList<ChatMessage> work = messages;
    QList<qint64> size(count);
    QList<bool> dropped(count, false);
    QList<bool> shortenedOnce(count, false);
    qint64 total = fixed;
    for (qsizetype i = 0; i < count; ++i) {
        size[i] = units(work.at(i), reasoningBack && i >= turnStart && work.at(i).role == Role::Assistant);
        total += size[i];
    }
    const auto fits = [&total, budget] {
        return total <= budget;
    };

    QList<Round> rounds;
    for (qsizetype i = 0; i < count; ++i) {
        if (work.at(i).role != Role::Assistant || work.at(i).toolCalls.isEmpty())
            continue;
        qsizetype last = i;
        while (last + 1 < count && work.at(last + 1).role == Role::Tool)
            ++last;
        rounds.append({i, last});
    }
    // The round the model is about to answer is what it needs most.
    const bool hasLatest = !rounds.isEmpty() && rounds.constLast().first >= turnStart;
    const auto inLatest = [&](qsizetype i) {
        return hasLatest && i >= rounds.constLast().first && i <= rounds.constLast().last;
    };
    const auto shortenResult = [&](qsizetype i, qsizetype head, qsizetype tail) {
        ChatMessage &message = work[i];
        if (dropped.at(i) || message.role != Role::Tool || message.content.size() <= head + tail + 200)
            return;
        message.content = shortened(message.content, head, tail);
        const qint64 smaller = units(message, false);
        total -= size.at(i) - smaller;
        size[i] = smaller;
        shortenedOnce[i] = true;
    };
    const auto drop = [&](qsizetype first, qsizetype last) {
        for (qsizetype i = first; i <= last; ++i) {
            if (dropped.at(i) || (i == 0 && work.at(0).role == Role::System) || i == lastUser)
                continue;
            dropped[i] = true;
            total -= size.at(i);
        }
    };

    // 1. Old tool results, oldest first.
    for (qsizetype i = 0; i < count && !fits(); ++i) {
        if (!inLatest(i))
            shortenResult(i, oldHead, oldTail);
    }
    // 2. Whole tool rounds, oldest first.
    for (qsizetype r = 0; r < rounds.size() - (hasLatest ? 1 : 0) && !fits(); ++r)
        drop(rounds.at(r).first, rounds.at(r).last);
    // 3. Whole turns, oldest first, up to the last user message. A turn begins with its user
    // message (the first one with whatever came before it).
    const qsizetype firstTurn = count > 0 && work.at(0).role == Role::System ? 1 : 0;
    QList<bool> turnDropped(count + 1, false); // by the index the turn begins at
    qsizetype turnBegin = firstTurn;
    for (qsizetype i = firstTurn + 1; i <= lastUser && !fits(); ++i) {
        if (work.at(i).role != Role::User)
            continue;
        drop(turnBegin, i - 1);
        turnDropped[turnBegin] = true;
        ++out.droppedTurns;
        turnBegin = i;
    }
    // 4. The latest tool results too.
    for (qsizetype i = 0; i < count && !fits(); ++i)
        shortenResult(i, latestHead, latestTail);

    // What the user is told counts what is missing from what is sent: a round inside a turn
    // that went, or a result that was shortened and then left out, is not counted again.
    for (const Round &round : std::as_const(rounds)) {
        qsizetype begin = round.first;
        while (begin > firstTurn && work.at(begin).role != Role::User)
            --begin;
        if (dropped.at(round.first) && !turnDropped.at(begin))
            ++out.droppedRounds;
    }
    for (qsizetype i = 0; i < count; ++i)
        out.shortenedResults += shortenedOnce.at(i) && !dropped.at(i);

    out.fits = fits();
    out.units = total;
    for (qsizetype i = 0; i < count; ++i) {
        if (!dropped.at(i))
            out.messages.append(work.at(i));
    }
    return out;
}

QString ContextShortener::Outcome::summary(qint64 window) const
{
    // Singular and plural spelled out: the core has no English translation to pick plural forms.
    QStringList parts;
    if (droppedTurns == 1)
        parts << tr("leaves out the oldest turn");
    else if (droppedTurns > 1)
        parts << tr("leaves out the %1 oldest turns").arg(droppedTurns);
    if (droppedRounds == 1)
        parts << tr("leaves out an earlier tool round");
    else if (droppedRounds > 1)
        parts << tr("leaves out %1 earlier tool rounds").arg(droppedRounds);
    if (shortenedResults == 1)
        parts << tr("shortens a tool result");
    else if (shortenedResults > 1)
        parts << tr("shortens %1 tool results").arg(shortenedResults);
    QString text;
    if (!parts.isEmpty())
        text = tr("To fit the model's context window of %1 tokens, this request %2. The conversation itself is kept "
                  "in full.")
                   .arg(QLocale().toString(window), QLocale().createSeparatedList(parts));
    if (!fits) {
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) +
                tr("The last message and what it needs come close to or exceed the model's context window of %1 "
                   "tokens; the server may refuse the request.")
                    .arg(QLocale().toString(window));
    }
    return text;
}

} // namespace Sandpiper
