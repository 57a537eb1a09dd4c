#include "presenters/chartpresenter.h"

#include "chartviews/chartwidget.h"
#include "chat/toolcallcard.h"

#include <charts/chartspec.h>

namespace Sandpiper {

QString ChartPresenter::title(const ToolCall &) const
{
    return tr("chart");
}

void ChartPresenter::addResultWidgets(const TurnItem &item, ToolCallCard &card) const
{
    const auto *chart = std::get_if<ChartResult>(&item.result);
    if (!chart)
        return; // the model was told what was wrong; the card says so
    if (const auto spec = ChartSpec::fromJson(chart->spec))
        card.addResultWidget(new ChartWidget(*spec));
}

} // namespace Sandpiper
