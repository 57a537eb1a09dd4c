#pragma once

#include "presenters/toolpresenter.h"

namespace Sandpiper {

// search_web and fetch_url: the query or address to approve, the sources the model may cite
// as links, and what went wrong in a line.
class WebPresenter : public ToolPresenter
{
    Q_DECLARE_TR_FUNCTIONS(WebPresenter)

public:
    enum class Kind { Search, Fetch };
    explicit WebPresenter(Kind kind)
        : m_kind(kind)
    {}

    QString title(const ToolCall &call) const override;
    void addResultWidgets(const TurnItem &item, ToolCallCard &card) const override;

private:
    Kind m_kind;
};

} // namespace Sandpiper
