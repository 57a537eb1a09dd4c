#include "mcp/mcpcatalog.h"

#include "mcp/mcptoolname.h"

namespace Sandpiper {

namespace {

constexpr int maxPages = 100; // of tools/list or prompts/list: a server that pages forever stops here

} // namespace

McpCatalog::McpCatalog(QString server, Send send, QObject *parent)
    : QObject(parent)
    , m_server(std::move(server))
    , m_send(std::move(send))
{}

void McpCatalog::clear()
{
    m_tools.clear();
    m_prompts.clear();
    m_hasPrompts = false;
    m_listingTools = false;
    m_toolsChangedMeanwhile = false;
}

void McpCatalog::list(const QJsonObject &capabilities)
{
    m_hasPrompts = capabilities.contains(QLatin1String("prompts"));
    if (capabilities.contains(QLatin1String("tools")))
        listTools({}, {}, 0, true);
    else if (m_hasPrompts)
        listPrompts({}, {}, 0, true);
    else
        Q_EMIT listed();
}

void McpCatalog::toolsChanged(bool running)
{
    // A change while the list is read is read again once that is done.
    if (m_listingTools)
        m_toolsChangedMeanwhile = true;
    else if (running)
        listTools({}, {}, 0, false);
}

void McpCatalog::promptsChanged(bool running)
{
    if (running && m_hasPrompts)
        listPrompts({}, {}, 0, false);
}

void McpCatalog::refreshIfChanged()
{
    if (std::exchange(m_toolsChangedMeanwhile, false))
        listTools({}, {}, 0, false);
}

QList<McpToolInfo> McpCatalog::readTools(const QString &server, const QJsonArray &tools, QSet<QString> *seen,
                                         QStringList *problems)
{
    QList<McpToolInfo> read;
    for (const QJsonValue &value : tools) {
        const QJsonObject tool = value.toObject();
        const QString name = tool.value(QLatin1String("name")).toString();
        if (name.isEmpty()) {
            *problems << tr("It listed a tool without a name; it is not offered to the model.");
            continue;
        }
        const QJsonValue schema = tool.value(QLatin1String("inputSchema"));
        if (!schema.isObject() ||
            schema.toObject().value(QLatin1String("type")).toString() != QLatin1String("object")) {
            *problems << tr("The tool \"%1\" has an invalid input schema (it must be a JSON Schema object of type "
                            "\"object\"); it is not offered to the model.")
                             .arg(name);
            continue;
        }
        if (seen->contains(name)) {
            *problems << tr("It lists the tool \"%1\" twice; only the first is offered to the model.").arg(name);
            continue;
        }
        seen->insert(name);
        McpToolInfo info;
        info.server = server;
        info.name = name;
        info.exposedName = McpToolName::forTool(server, name);
        info.title = tool.value(QLatin1String("title")).toString();
        info.description = tool.value(QLatin1String("description")).toString();
        info.inputSchema = schema.toObject();
        // Some providers refuse the meta-schema key; it says nothing the model needs.
        info.inputSchema.remove(QStringLiteral("$schema"));
        read << info;
    }
    return read;
}

QList<McpPromptInfo> McpCatalog::readPrompts(const QString &server, const QJsonArray &prompts)
{
    QList<McpPromptInfo> read;
    for (const QJsonValue &value : prompts) {
        const QJsonObject object = value.toObject();
        McpPromptInfo prompt;
        prompt.server = server;
        prompt.name = object.value(QLatin1String("name")).toString();
        if (prompt.name.isEmpty())
            continue;
        prompt.title = object.value(QLatin1String("title")).toString();
        prompt.description = object.value(QLatin1String("description")).toString();
        for (const QJsonValue &argument : object.value(QLatin1String("arguments")).toArray()) {
            const QJsonObject a = argument.toObject();
            if (!a.value(QLatin1String("name")).toString().isEmpty())
                prompt.arguments << McpPromptArgument{a.value(QLatin1String("name")).toString(),
                                                      a.value(QLatin1String("description")).toString(),
                                                      a.value(QLatin1String("required")).toBool()};
        }
        read << prompt;
    }
    return read;
}

void McpCatalog::listTools(QString cursor, QList<McpToolInfo> tools, int page, bool first)
{
    QJsonObject params;
    if (!cursor.isEmpty())
        params.insert(QStringLiteral("cursor"), cursor);
    m_listingTools = true;
    m_send(QStringLiteral("tools/list"), params, [this, tools, page, first](const McpReply &reply) mutable {
        if (!reply.ok()) {
            m_listingTools = false;
            if (first)
                Q_EMIT failed(tr("It did not list its tools: %1").arg(reply.message));
            else
                Q_EMIT problem(tr("It did not list its tools again: %1").arg(reply.message));
            return;
        }
        QSet<QString> seen;
        for (const McpToolInfo &tool : std::as_const(tools))
            seen.insert(tool.name);
        QStringList problems;
        tools << readTools(m_server, reply.result.value(QLatin1String("tools")).toArray(), &seen, &problems);
        for (const QString &sentence : std::as_const(problems))
            Q_EMIT problem(sentence);
        const QString next = reply.result.value(QLatin1String("nextCursor")).toString();
        if (!next.isEmpty() && page + 1 < maxPages) {
            listTools(next, tools, page + 1, first);
            return;
        }
        m_listingTools = false;
        m_tools = tools;
        if (first) {
            if (m_hasPrompts)
                listPrompts({}, {}, 0, true);
            else
                Q_EMIT listed();
            return;
        }
        Q_EMIT changed();
        refreshIfChanged();
    });
}

void McpCatalog::listPrompts(QString cursor, QList<McpPromptInfo> prompts, int page, bool first)
{
    QJsonObject params;
    if (!cursor.isEmpty())
        params.insert(QStringLiteral("cursor"), cursor);
    m_send(QStringLiteral("prompts/list"), params, [this, prompts, page, first](const McpReply &reply) mutable {
        if (reply.ok()) {
            prompts << readPrompts(m_server, reply.result.value(QLatin1String("prompts")).toArray());
            const QString next = reply.result.value(QLatin1String("nextCursor")).toString();
            if (!next.isEmpty() && page + 1 < maxPages) {
                listPrompts(next, prompts, page + 1, first);
                return;
            }
        } else {
            // Prompts are a convenience: a server whose list fails still serves its tools.
            Q_EMIT problem(tr("It did not list its prompts: %1").arg(reply.message));
        }
        m_prompts = prompts;
        if (first)
            Q_EMIT listed();
        else
            Q_EMIT changed();
    });
}

} // namespace Sandpiper
