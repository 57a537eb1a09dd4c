#pragma once

#include "elidedlabel.h"

namespace Sandpiper {

struct SessionState;

// The status bar's count of what the conversation on screen takes of the model's window.
class ContextUsageLabel : public ElidedLabel
{
    Q_OBJECT

public:
    explicit ContextUsageLabel(QWidget *parent = nullptr);

    // What the last request of STATE took of the model's window: nothing until there is one.
    void showUsage(const SessionState &state);
};

} // namespace Sandpiper
