#pragma once

#include "presenters/toolpresenter.h"

namespace Sandpiper {

// create_chart: a summary of the chart to approve, the interactive chart once drawn.
class ChartPresenter : public ToolPresenter
{
    Q_DECLARE_TR_FUNCTIONS(ChartPresenter)

public:
    QString title(const ToolCall &call) const override;
    void addResultWidgets(const TurnItem &item, ToolCallCard &card) const override;
};

} // namespace Sandpiper
