#pragma once

#include "llm/chatmessage.h"
#include "sandbox/executionresult.h"
#include "tools/websource.h"

#include <QJsonObject>
#include <QMetaType>

#include <optional>

namespace Sandpiper {

// What the agent loop reports to the front ends. A value type that crosses threads by copy.
struct AgentEvent {
    enum class Kind {
        TurnStarted,
        TextDelta,        // text
        ReasoningDelta,   // text
        ToolCallProposed, // call
        ApprovalNeeded,   // call, preview (the code to approve)
        ToolStarted,      // call, preview
        ToolOutput,       // call, stream ("stdout"/"stderr"), text: live output
        ToolFinished,     // call, text (what the model is told), execution (if code ran), chart (if drawn),
                          // sources and userNote (web tools)
        Usage,            // usage
        Retrying,         // text: why, and when the next try comes
        Error,            // text: for the user, with the provider's message
        Notice,           // text: something the user should know (e.g. the tool round limit)
        MessageAdded,     // message: a message joined the history (complete or partial)
        TurnFinished,     // end
    };
    enum class End { Completed, Cancelled, Failed, RoundLimit };

    Kind kind = Kind::Notice;
    QString text;
    ToolCall call;
    QString preview;
    QString stream;
    std::optional<ExecutionResult> execution;
    QJsonObject chart;        // ToolFinished of create_chart: the normalised spec (see ChartSpec)
    QList<WebSource> sources; // ToolFinished of search_web and fetch_url: what the model may cite
    QString userNote;         // ToolFinished of a web tool that failed: what happened, for the user
    TokenUsage usage;
    ChatMessage message;
    End end = End::Completed;

    static QString kindName(Kind kind);
    static QString endName(End end);
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::AgentEvent)
