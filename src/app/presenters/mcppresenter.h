#pragma once

#include "presenters/toolpresenter.h"

namespace Sandpiper {

// The tools of MCP servers (SERVER__TOOL): the card names the tool and its server, the approval
// card says that the server runs with the user's rights and shows the arguments in full, and
// "Always allow" is kept in the settings. Images show inline like figures; embedded resources
// as files of the conversation's folder, resource links with their address.
class McpPresenter : public ToolPresenter
{
    Q_DECLARE_TR_FUNCTIONS(McpPresenter)

public:
    QString title(const ToolCall &call) const override;
    QString alwaysAllowText() const override;
    // The JSON arguments, as the server will get them.
    bool isEditable() const override { return true; }
    QString approvalNote(const ToolCall &call) const override;
    QString resultText(const TurnItem &item) const override;
    void addResultWidgets(const TurnItem &item, ToolCallCard &card) const override;
};

} // namespace Sandpiper
