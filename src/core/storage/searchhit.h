#pragma once

#include <QMetaType>
#include <QString>

namespace Sandpiper {

// One result of a full-text search: a conversation, shown by one message or the code of one
// execution that matches.
struct SearchHit {
    enum class Kind { Message, Execution };

    Kind kind = Kind::Message;
    qint64 conversationId = 0;
    qint64 messageId = 0;   // for Kind::Message
    qint64 executionId = 0; // for Kind::Execution
    QString title;          // the conversation's
    // Plain text around the matches; each match sits between MatchStart and MatchEnd.
    QString snippet;
    double score = 0;   // bm25: lower is better
    int matchCount = 1; // the conversation's messages and code that match

    static constexpr QChar MatchStart = QChar(u'\x02');
    static constexpr QChar MatchEnd = QChar(u'\x03');

    // The snippet escaped for rich text, with the matches in bold.
    QString snippetHtml() const;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::SearchHit)
