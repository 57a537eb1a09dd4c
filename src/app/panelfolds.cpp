#include "panelfolds.h"

#include <QAction>
#include <QScopedValueRollback>

namespace Sandpiper {

void PanelFolds::add(QAction *action, int minimumWindowWidth)
{
    const qsizetype index = m_folds.size();
    m_folds.append(Fold{action, minimumWindowWidth});
    // The user's own choice ends the fold: the panel stays as it was left.
    connect(action, &QAction::toggled, this, [this, index] {
        if (!m_folding)
            m_folds[index].folded = false;
    });
}

void PanelFolds::resized(int oldWidth, int width)
{
    const QScopedValueRollback folding(m_folding, true);
    for (Fold &fold : m_folds) {
        const bool wasWide = oldWidth < 0 || oldWidth >= fold.minimumWindowWidth;
        const bool isWide = width >= fold.minimumWindowWidth;
        // trigger(), not setChecked(): a dock's action hides and shows it on triggered only.
        if (wasWide && !isWide && fold.action->isChecked()) {
            fold.action->trigger();
            fold.folded = true;
        } else if (!wasWide && isWide && fold.folded) {
            if (!fold.action->isChecked())
                fold.action->trigger();
            fold.folded = false;
        }
    }
}

} // namespace Sandpiper
