#pragma once

#include <mcp/mcpserverstatus.h>

#include <QObject>
#include <QPointer>

#include <QCoroTask>

class QWidget;

namespace Sandpiper {

class Composer;
class McpServerRegistry;

// The MCP servers' prompts in the composer: "/" lists them (starting the servers first when
// needed), choosing one asks for its arguments, fetches it (prompts/get) off the GUI thread and
// puts its text in the message box as a template.
class PromptTemplates : public QObject
{
    Q_OBJECT

public:
    PromptTemplates(McpServerRegistry *registry, Composer *composer, QWidget *window);

Q_SIGNALS:
    // A prompt could not be fetched; MESSAGE says why, for the status bar.
    void problem(const QString &message);

private:
    void update();
    void choose(const McpPromptInfo &prompt);
    QCoro::Task<> fetch(McpPromptInfo prompt, QJsonObject arguments);

    McpServerRegistry *m_registry;
    QPointer<Composer> m_composer;
    QPointer<QWidget> m_window;
};

// The text of a prompts/get answer: its messages' text, an embedded resource's text, one after
// the other.
QString promptText(const QJsonObject &result);

} // namespace Sandpiper
