#include "prompttemplates.h"

#include "composer.h"
#include "mcppromptdialog.h"

#include <mcp/mcpserverregistry.h>

#include <QJsonArray>

namespace Sandpiper {

QString promptText(const QJsonObject &result)
{
    QStringList parts;
    for (const QJsonValue &message : result.value(QLatin1String("messages")).toArray()) {
        const QJsonObject content = message[QLatin1String("content")].toObject();
        const QString type = content.value(QLatin1String("type")).toString();
        if (type == QLatin1String("text"))
            parts << content.value(QLatin1String("text")).toString();
        else if (type == QLatin1String("resource"))
            parts << content[QLatin1String("resource")][QLatin1String("text")].toString();
    }
    parts.removeAll(QString());
    return parts.join(QStringLiteral("\n\n"));
}

PromptTemplates::PromptTemplates(McpServerRegistry *registry, Composer *composer, QWidget *window)
    : QObject(window)
    , m_registry(registry)
    , m_composer(composer)
    , m_window(window)
{
    connect(registry, &McpServerRegistry::serversChanged, this, &PromptTemplates::update, Qt::QueuedConnection);
    connect(composer, &Composer::promptsWanted, this, [this] { m_registry->startEnabled(); });
    connect(composer, &Composer::promptChosen, this, &PromptTemplates::choose);
    update();
}

void PromptTemplates::update()
{
    QList<McpPromptInfo> prompts;
    for (const McpServerStatus &server : m_registry->servers()) {
        if (server.state == McpServerStatus::State::Running)
            prompts << server.prompts;
    }
    if (m_composer)
        m_composer->setPrompts(prompts);
}

void PromptTemplates::choose(const McpPromptInfo &prompt)
{
    QJsonObject arguments;
    if (!prompt.arguments.isEmpty()) {
        McpPromptDialog dialog(prompt, m_window);
        if (dialog.exec() != QDialog::Accepted)
            return;
        arguments = dialog.arguments();
    }
    QCoro::connect(fetch(prompt, arguments), this, [] {});
}

QCoro::Task<> PromptTemplates::fetch(McpPromptInfo prompt, QJsonObject arguments)
{
    QPointer<PromptTemplates> self(this);
    QJsonObject params{{QStringLiteral("name"), prompt.name}};
    if (!arguments.isEmpty())
        params.insert(QStringLiteral("arguments"), arguments);
    const McpReply reply = co_await m_registry->call(prompt.server, QStringLiteral("prompts/get"), params);
    if (!self || !m_composer)
        co_return;
    if (!reply.ok()) {
        Q_EMIT problem(tr("The prompt %1 could not be fetched: %2").arg(prompt.name, reply.message));
        co_return;
    }
    m_composer->insertTemplate(promptText(reply.result));
}

} // namespace Sandpiper
