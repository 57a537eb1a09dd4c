#pragma once

#include "presenters/toolpresenter.h"

namespace Sandpiper {

// execute_python_code: the code, highlighted and editable before it runs; what it printed, its
// value or its error; the figures it drew and the files it wrote.
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
    void addResultWidgets(const TurnItem &item, const QString &folder, QVBoxLayout *layout,
                          QWidget *card) const override;

    // The tables of RESULT (a DataTableView each) into LAYOUT; Save asks the ToolCallCard CARD, when
    // there is one, to have the sandbox write the whole frame. The inspector shows them too.
    static void addTables(const ExecutionResult &result, const CallKey &key, const QString &folder, QVBoxLayout *layout,
                          QWidget *card);
    // An SVG the sandbox sent, drawn at most MAXWIDTH wide.
    static QWidget *svgImage(const QString &svg, int maxWidth);
};

} // namespace Sandpiper
