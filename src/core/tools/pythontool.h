#pragma once

#include "tools/tool.h"

#include <QPointer>

namespace Sandpiper {

class SandboxSession;

// How much of an execution the model gets to read; the rest is summarised.
struct ModelTextLimits {
    int streamChars = 8000; // per stream: head and tail are kept
    int valueChars = 4000;
    int tracebackChars = 6000;
    // The whole result, shared by all of it (see ResultBudget); 0: from the model's context window.
    int resultChars = 0;

    // The budget of a result for a model whose context window is WINDOW tokens (0: unknown).
    int resultBudget(qint64 window) const;
};

// execute_python_code: runs code in the conversation's sandbox session.
class PythonTool : public Tool
{
public:
    explicit PythonTool(SandboxSession *session, ModelTextLimits limits = {});

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    ApprovalPolicy defaultApproval() const override { return ApprovalPolicy::Ask; }
    PreparedCall prepare(const ToolCall &call) const override;
    QCoro::Task<ToolOutcome> run(PreparedCall call) override;
    void cancel() override;

    static QString toolName() { return QStringLiteral("execute_python_code"); }
    // The compact text the model reads about an execution, within BUDGET characters (0: the
    // budget of LIMITS for an unknown window): never images, never megabytes.
    static QString reportForModel(const ExecutionResult &result, const ModelTextLimits &limits, int budget = 0);

private:
    QPointer<SandboxSession> m_session;
    ModelTextLimits m_limits;
};

} // namespace Sandpiper
