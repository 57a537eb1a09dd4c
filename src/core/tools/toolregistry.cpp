#include "tools/toolregistry.h"

#include "tools/tool.h"

#include <QJsonObject>

namespace Sandpiper {

ToolRegistry::ToolRegistry() = default;
ToolRegistry::~ToolRegistry() = default;

void ToolRegistry::add(std::unique_ptr<Tool> tool)
{
    m_tools.push_back(std::move(tool));
}

void ToolRegistry::removeIf(const std::function<bool(const Tool &)> &predicate)
{
    std::erase_if(m_tools, [&predicate](const std::unique_ptr<Tool> &tool) { return predicate(*tool); });
}

Tool *ToolRegistry::find(const QString &name) const
{
    for (const auto &tool : m_tools) {
        if (tool->name() == name)
            return tool.get();
    }
    return nullptr;
}

QStringList ToolRegistry::names() const
{
    QStringList names;
    for (const auto &tool : m_tools)
        names << tool->name();
    return names;
}

QJsonArray ToolRegistry::declarations() const
{
    QJsonArray declarations;
    for (const auto &tool : m_tools) {
        declarations.append(
            QJsonObject{{QStringLiteral("type"), QStringLiteral("function")},
                        {QStringLiteral("function"), QJsonObject{{QStringLiteral("name"), tool->name()},
                                                                 {QStringLiteral("description"), tool->description()},
                                                                 {QStringLiteral("parameters"), tool->parameters()}}}});
    }
    return declarations;
}

void ToolRegistry::cancelAll()
{
    for (const auto &tool : m_tools)
        tool->cancel();
}

} // namespace Sandpiper
