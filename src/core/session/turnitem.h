#pragma once

#include "llm/callkey.h"
#include "llm/chatmessage.h"
#include "tools/toolresult.h"

#include <QString>

namespace Sandpiper {

// One row of a conversation as it is shown: a message, a tool call with what it produced, or a
// notice. A value type; the Transcript of a ConversationSession is the only writer of the items of
// its model.
struct TurnItem {
    enum class Kind {
        Message,  // a user or assistant message (an answer still streaming has status Streaming)
        ToolCall, // a call the model made, its approval, its run and its result
        Notice,   // something the user should know: a retry, an error, a limit
    };
    enum class ToolState {
        Proposed,
        AwaitingApproval,
        Running,
        Finished,    // it ran; see success and result
        NotRun,      // refused, denied, invalid arguments or cancelled before it ran
        Interrupted, // the turn ended before it could run, or the app stopped meanwhile
    };
    enum class NoticeLevel { Info, Retrying, Error };

    Kind kind = Kind::Notice;
    // Unique within its model and stable while the item lives, so views can keep a widget per
    // item across insertions.
    qint64 key = 0;

    // Message
    ChatMessage message;

    // ToolCall. MESSAGE is the tool's answer to it; for a run of the user's own code, the user
    // message that told the model.
    CallKey callKey; // the answer that holds the call and its place there (see CallKey)
    ToolCall call;
    ToolState toolState = ToolState::Proposed;
    RunOrigin origin = RunOrigin::Model;
    QString preview;          // what the user approves and what ran: the code, the query, a summary
    QString liveOutput;       // while it runs: the output so far as a terminal shows it (the tail, when long)
    qint64 startedMs = 0;     // while it runs: when it started (ms since the epoch), for the elapsed time
    double progress = -1;     // while it runs: how far it is, when the tool says (-1: it does not)
    double progressTotal = 0; // 0: the tool does not know the total
    QString progressMessage;
    QString modelText; // what the model was told about it
    bool success = false;
    ToolResult result;

    // Notice
    NoticeLevel level = NoticeLevel::Info;
    QString text;

    bool isStreaming() const { return kind == Kind::Message && message.status == ChatMessage::Status::Streaming; }
    // Whether the answer MESSAGE shows as its tool calls alone: it only called tools and has no
    // other version. One with versions keeps a thin item of its own, which carries "< 2 / 3 >".
    static bool showsAsItsCalls(const ChatMessage &message)
    {
        return message.role == ChatMessage::Role::Assistant && message.content.isEmpty() &&
               message.reasoning.isEmpty() && message.error.isEmpty() && !message.toolCalls.isEmpty() &&
               message.versionCount <= 1;
    }
};

} // namespace Sandpiper
