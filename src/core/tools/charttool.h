#pragma once

#include "charts/chartspec.h"
#include "tools/tool.h"

namespace Sandpiper {

// create_chart: the model hands over data and the GUI draws a native, interactive chart.
// Nothing runs: the call is checked (and tidied) and the normalised spec travels to the GUI
// in ToolOutcome::chart. The stored call arguments are enough to draw it again later.
class ChartTool : public Tool
{
public:
    explicit ChartTool(ChartLimits limits = {});

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    ApprovalPolicy defaultApproval() const override { return ApprovalPolicy::Auto; }
    PreparedCall prepare(const ToolCall &call) const override;
    QCoro::Task<ToolOutcome> run(PreparedCall call) override;
    void cancel() override {}

    static QString toolName() { return QStringLiteral("create_chart"); }

private:
    ChartLimits m_limits;
};

} // namespace Sandpiper
