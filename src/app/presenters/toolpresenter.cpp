#include "presenters/toolpresenter.h"

#include "presenters/chartpresenter.h"
#include "presenters/mcppresenter.h"
#include "presenters/pythonpresenter.h"
#include "presenters/webpresenter.h"

#include <mcp/mcptoolname.h>
#include <tools/charttool.h>
#include <tools/fetchtool.h>
#include <tools/pythontool.h>
#include <tools/searchtool.h>

#include <QHash>
#include <QJsonDocument>

#include <memory>

namespace Sandpiper {

const ToolPresenter &ToolPresenter::forTool(const QString &name)
{
    static const ToolPresenter generic;
    static const McpPresenter mcp;
    static const QHash<QString, std::shared_ptr<const ToolPresenter>> presenters{
        {PythonTool::toolName(), std::make_shared<PythonPresenter>()},
        {ChartTool::toolName(), std::make_shared<ChartPresenter>()},
        {SearchTool::toolName(), std::make_shared<WebPresenter>(WebPresenter::Kind::Search)},
        {FetchTool::toolName(), std::make_shared<WebPresenter>(WebPresenter::Kind::Fetch)},
    };
    const auto found = presenters.constFind(name);
    if (found != presenters.cend())
        return **found;
    return McpToolName::isMcp(name) ? static_cast<const ToolPresenter &>(mcp) : generic;
}

QString ToolPresenter::title(const ToolCall &call) const
{
    return call.name;
}

QString ToolPresenter::argumentsText(const ToolCall &call) const
{
    // Formatted in full, so that nothing the call would do is hidden from the user.
    const QJsonDocument arguments = QJsonDocument::fromJson(call.arguments.toUtf8());
    return arguments.isObject() ? QString::fromUtf8(arguments.toJson(QJsonDocument::Indented)).trimmed()
                                : call.arguments;
}

QString ToolPresenter::alwaysAllowText() const
{
    return tr("Always allow in this chat");
}

QString ToolPresenter::finishedHeader(const TurnItem &item) const
{
    return item.success ? tr("Used %1").arg(title(item.call)) : tr("%1 · failed").arg(title(item.call));
}

QString ToolPresenter::resultText(const TurnItem &item) const
{
    return item.modelText;
}

void ToolPresenter::addResultWidgets(const TurnItem &, ToolCallCard &) const {}

} // namespace Sandpiper
