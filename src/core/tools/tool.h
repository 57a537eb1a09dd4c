#pragma once

#include "llm/chatmessage.h"
#include "tools/toolresult.h"

#include <QJsonObject>
#include <QString>

#include <QCoroTask>

#include <optional>

namespace Sandpiper {

enum class ApprovalPolicy {
    Ask,   // the user approves each call
    Auto,  // runs without asking
    Never, // refused; the model is told so
};

QString approvalPolicyName(ApprovalPolicy policy);
std::optional<ApprovalPolicy> approvalPolicyFromName(QStringView name);

// A call whose arguments were checked (and repaired where the model was sloppy).
struct PreparedCall {
    ToolCall call;
    QJsonObject arguments; // the normalised arguments, as the tool will use them
    QString preview;       // what the user approves, e.g. the code to run
    QString error;         // why the arguments cannot be used; goes back to the model
    bool repaired = false;
    // How many characters the text for the model may take, from the model's context window (see
    // ResultBudget); 0: the tool's own default.
    int resultChars = 0;
    bool ok() const { return error.isEmpty(); }
};

struct ToolOutcome {
    QString modelText; // the compact text the model receives as the tool message
    bool success = false;
    ToolResult result;
};

// A function the model may call. Tools run on the agent's thread.
class Tool
{
public:
    virtual ~Tool() = default;
    virtual QString name() const = 0;
    virtual QString description() const = 0;
    virtual QJsonObject parameters() const = 0; // a JSON Schema object
    virtual ApprovalPolicy defaultApproval() const = 0;

    virtual PreparedCall prepare(const ToolCall &call) const = 0;
    virtual QCoro::Task<ToolOutcome> run(PreparedCall call) = 0;
    // Stops a run in progress; the run still returns, saying it was stopped.
    virtual void cancel() = 0;
};

} // namespace Sandpiper
