#pragma once

#include "presenters/toolpresenter.h"

namespace Sandpiper {

// execute_python_code: the code, highlighted and editable before it runs; what it printed, its
// value or its error; what it produced (figures, tables, files: see ExecutionResultView).
class PythonPresenter : public ToolPresenter
{
    Q_DECLARE_TR_FUNCTIONS(PythonPresenter)

public:
    QString title(const ToolCall &call) const override;
    QString argumentsText(const ToolCall &call) const override;
    QString argumentsLanguage() const override { return QStringLiteral("Python"); }
    bool isEditable() const override { return true; }
    QString editedArguments(const QString &text) const override;
    QString finishedHeader(const TurnItem &item) const override;
    QString resultText(const TurnItem &item) const override;
    // What it produced, drawn by an ExecutionResultView, as the inspector draws it too.
    void addResultWidgets(const TurnItem &item, ToolCallCard &card) const override;
};

} // namespace Sandpiper
