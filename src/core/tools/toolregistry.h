#pragma once

#include <QJsonArray>
#include <QStringList>

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
