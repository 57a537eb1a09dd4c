#include "mcp/mcptool.h"

#include "llm/argumentrepair.h"
#include "mcp/mcptoolbox.h"
#include "tools/resultbudget.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Sandpiper {

McpTool::McpTool(McpToolInfo info, McpToolbox *toolbox)
    : m_info(std::move(info))
    , m_toolbox(toolbox)
{}

QString McpTool::description() const
{
    const QString description = m_info.description.trimmed().isEmpty() ? m_info.title : m_info.description.trimmed();
    if (description.isEmpty())
        return QStringLiteral("The tool \"%1\" of the MCP server \"%2\".").arg(m_info.name, m_info.server);
    return description;
}

PreparedCall McpTool::prepare(const ToolCall &call) const
{
    PreparedCall prepared;
    prepared.call = call;
    QString text = stripCodeFence(call.arguments.trimmed());
    if (text.isEmpty())
        text = QStringLiteral("{}");
    QJsonParseError error;
    QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    // Some models send the object as a JSON string.
    if (document.isNull() && text.startsWith(QLatin1Char('"')))
        document = QJsonDocument::fromJson(
            QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + "]").array().at(0).toString().toUtf8());
    if (!document.isObject()) {
        prepared.error = QStringLiteral("the arguments of %1 must be a JSON object matching its schema, got: %2")
                             .arg(call.name, call.arguments.left(300));
        return prepared;
    }
    prepared.arguments = document.object();
    prepared.repaired = text != call.arguments;
    // The user approves exactly what goes to the server.
    prepared.preview = QString::fromUtf8(QJsonDocument(prepared.arguments).toJson(QJsonDocument::Indented)).trimmed();
    return prepared;
}

QCoro::Task<ToolOutcome> McpTool::run(PreparedCall call)
{
    if (!m_toolbox) {
        ToolOutcome outcome;
        outcome.modelText = QStringLiteral("Error: MCP servers are not available.");
        co_return outcome;
    }
    ToolOutcome outcome = co_await m_toolbox->call(m_info, call.arguments);
    // Each part of the server's answer is capped already; together they keep to the budget too.
    if (call.resultChars > 0)
        outcome.modelText = ResultBudget::shorten(outcome.modelText, call.resultChars);
    co_return outcome;
}

void McpTool::cancel()
{
    if (m_toolbox)
        m_toolbox->cancel();
}

} // namespace Sandpiper
