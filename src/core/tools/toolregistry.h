#pragma once

#include <QJsonArray>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

namespace Sandpiper {

class Tool;

// The tools offered to the model, in the order they were added.
class ToolRegistry
{
public:
    ToolRegistry();
    ~ToolRegistry();

    void add(std::unique_ptr<Tool> tool);
    // Drops the tools PREDICATE picks (the MCP tools, before the current ones are added again).
    void removeIf(const std::function<bool(const Tool &)> &predicate);
    Tool *find(const QString &name) const;
    QStringList names() const;
    bool isEmpty() const { return m_tools.empty(); }
    // The "tools" array of a chat completion request.
    QJsonArray declarations() const;
    void cancelAll();

private:
    std::vector<std::unique_ptr<Tool>> m_tools;
};

} // namespace Sandpiper
