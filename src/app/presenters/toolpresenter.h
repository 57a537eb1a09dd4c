#pragma once

#include <session/turnitem.h>

#include <QCoreApplication>
#include <QString>

namespace Sandpiper {

class ToolCallCard;

// How the chat shows the calls of one tool: the card's title, how the arguments read, what
// the result looks like. One presenter per tool, found by the tool's own name constant; the
// tools of MCP servers (SERVER__TOOL) share one; others get the generic presenter.
class ToolPresenter
{
    Q_DECLARE_TR_FUNCTIONS(ToolPresenter)

public:
    virtual ~ToolPresenter() = default;

    // The presenter of the tool named NAME.
    static const ToolPresenter &forTool(const QString &name);

    // What the card calls the tool: "Python", "web search".
    virtual QString title(const ToolCall &call) const;
    // The arguments as the user reads and approves them, and their highlighting language.
    virtual QString argumentsText(const ToolCall &call) const;
    virtual QString argumentsLanguage() const { return QStringLiteral("JSON"); }
    // Whether the user may change the arguments before approving, and the tool's arguments
    // (JSON) for the text they edited.
    virtual bool isEditable() const { return false; }
    virtual QString editedArguments(const QString &text) const { return text; }
    // The approval card's button that stops asking, and a line above the buttons (none by default).
    virtual QString alwaysAllowText() const;
    virtual QString approvalNote(const ToolCall &) const { return {}; }
    // The header of a call that ran.
    virtual QString finishedHeader(const TurnItem &item) const;
    // The text under the header of a call that ran or did not.
    virtual QString resultText(const TurnItem &item) const;
    // Widgets for what the call produced (figures, files, a chart, sources), added to CARD.
    virtual void addResultWidgets(const TurnItem &item, ToolCallCard &card) const;
};

} // namespace Sandpiper
