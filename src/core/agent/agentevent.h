#pragma once

#include "agent/kernelrestore.h"
#include "llm/callkey.h"
#include "llm/chatmessage.h"
#include "llm/contextuse.h"
#include "tools/toolresult.h"

#include <QMetaType>

namespace Sandpiper {

// What the agent loop reports to the front ends. A value type that crosses threads by copy.
struct AgentEvent {
    enum class Kind {
        TurnStarted,
        TextDelta,        // text
        ReasoningDelta,   // text
        ToolCallProposed, // key, call
        ApprovalNeeded,   // key, call, preview (the code to approve)
        ToolStarted,      // key, call, preview, origin
        ToolOutput,       // key, call, stream ("stdout"/"stderr"), text: live output
        ToolProgress,     // key, call, progress, progressTotal (0: unknown), text: the tool's own words
        ToolFinished,     // key, call, origin, text (what the model is told), ran, success, result (the tool's payload)
        Usage,            // usage
        Context,          // context: before each request, the share of the context window it takes and what
                          // was left out of it to fit
        Retrying,         // text: why, and when the next try comes
        Error,            // text: for the user, with the provider's message
        Notice,           // text: something the user should know (e.g. the tool round limit)
        MessageAdded,     // message: a message joined the history (complete or partial)
        TitleChanged,     // text: the conversation's new title (written by the model)
        KernelChanged,    // kernelAlive: the conversation's Python kernel started or stopped
        TableExported,    // call.id (the request), success, text: the file written in the folder, or why not
        SendRefused,      // text: why the message was not sent; message: the user's text and images, attachments:
                          // the files that were to go with it, all given back to the composer
        RestoreOffered,   // restore: the kernel is new and earlier cells could bring its variables back
        RestoreProgress,  // restore (done of cells), text: the cell being replayed
        RestoreFinished,  // restore: how the replay ended; text: what the user is told
        TurnFinished,     // end
    };
    enum class End { Completed, Cancelled, Failed, RoundLimit };

    Kind kind = Kind::Notice;
    QString text;
    // The tool events: which call (its id is the server's, unique only within its message).
    CallKey key;
    ToolCall call;
    QString preview;
    QString stream;
    RunOrigin origin = RunOrigin::Model;
    bool ran = false; // ToolFinished: the tool ran (false: refused, denied, cancelled or invalid first)
    bool success = false;
    ToolResult result;
    bool kernelAlive = false;
    double progress = 0;
    double progressTotal = 0;
    TokenUsage usage;
    ContextUse context;
    KernelRestore restore;
    ChatMessage message;
    QStringList attachments;
    End end = End::Completed;

    // ToolFinished of code that ran: what it produced; null otherwise.
    const ExecutionResult *execution() const { return std::get_if<ExecutionResult>(&result); }

    static QString kindName(Kind kind);
    static QString endName(End end);
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::AgentEvent)
Q_DECLARE_METATYPE(Sandpiper::AgentEvent::End)
