#include "agent/agentevent.h"

namespace Sandpiper {

QString AgentEvent::kindName(Kind kind)
{
    switch (kind) {
    case Kind::TurnStarted:
        return QStringLiteral("turn_started");
    case Kind::TextDelta:
        return QStringLiteral("text_delta");
    case Kind::ReasoningDelta:
        return QStringLiteral("reasoning_delta");
    case Kind::ToolCallProposed:
        return QStringLiteral("tool_call_proposed");
    case Kind::ApprovalNeeded:
        return QStringLiteral("approval_needed");
    case Kind::ToolStarted:
        return QStringLiteral("tool_started");
    case Kind::ToolOutput:
        return QStringLiteral("tool_output");
    case Kind::ToolProgress:
        return QStringLiteral("tool_progress");
    case Kind::ToolFinished:
        return QStringLiteral("tool_finished");
    case Kind::Usage:
        return QStringLiteral("usage");
    case Kind::Context:
        return QStringLiteral("context");
    case Kind::Retrying:
        return QStringLiteral("retrying");
    case Kind::Error:
        return QStringLiteral("error");
    case Kind::Notice:
        return QStringLiteral("notice");
    case Kind::MessageAdded:
        return QStringLiteral("message_added");
    case Kind::TitleChanged:
        return QStringLiteral("title_changed");
    case Kind::KernelChanged:
        return QStringLiteral("kernel_changed");
    case Kind::TableExported:
        return QStringLiteral("table_exported");
    case Kind::SendRefused:
        return QStringLiteral("send_refused");
    case Kind::RestoreOffered:
        return QStringLiteral("restore_offered");
    case Kind::RestoreProgress:
        return QStringLiteral("restore_progress");
    case Kind::RestoreFinished:
        return QStringLiteral("restore_finished");
    case Kind::TurnFinished:
        return QStringLiteral("turn_finished");
    }
    return {};
}

QString AgentEvent::endName(End end)
{
    switch (end) {
    case End::Completed:
        return QStringLiteral("completed");
    case End::Cancelled:
        return QStringLiteral("cancelled");
    case End::Failed:
        return QStringLiteral("failed");
    case End::RoundLimit:
        return QStringLiteral("round_limit");
    }
    return {};
}

} // namespace Sandpiper
