#include "presenters/chartpresenter.h"

#include "chartviews/chartwidget.h"

#include <charts/chartspec.h>

#include <QVBoxLayout>

namespace Sandpiper {

QString ChartPresenter::title(const ToolCall &) const
{
    return tr("chart");
}

void ChartPresenter::addResultWidgets(const TurnItem &item, const QString &, QVBoxLayout *layout, QWidget *) const
{
    const auto *chart = std::get_if<ChartResult>(&item.result);
    if (!chart)
        return; // the model was told what was wrong; the card says so
    if (const auto spec = ChartSpec::fromJson(chart->spec))
        layout->addWidget(new ChartWidget(*spec));
}

} // namespace Sandpiper
