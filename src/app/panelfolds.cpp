#include "panelfolds.h"

#include <QAction>
#include <QScopedValueRollback>

namespace Sandpiper {

void PanelFolds::add(QAction *action, int minimumWindowWidth)
{
    const qsizetype index = m_folds.size();
    m_folds.append(Fold{action, minimumWindowWidth});
    connect(action, &QAction::toggled, this, [this, index](bool shown) {
        if (!m_folding)
            toggledByUser(index, shown);
    });
}

void PanelFolds::toggledByUser(qsizetype index, bool shown)
{
    // The user's own choice ends the fold: the panel stays as it was left.
    Fold &chosen = m_folds[index];
    chosen.folded = false;
    chosen.madeRoomFor = nullptr;
    if (!shown) {
        giveRoomBack(chosen.action);
        return;
    }
    if (m_width < 0 || m_width >= chosen.minimumWindowWidth)
        return;
    const QScopedValueRollback folding(m_folding, true);
    for (Fold &other : m_folds) {
        if (other.action != chosen.action && other.action->isChecked()) {
            other.action->trigger();
            other.madeRoomFor = chosen.action;
        }
    }
}

void PanelFolds::giveRoomBack(const QAction *panel)
{
    const QScopedValueRollback folding(m_folding, true);
    for (Fold &fold : m_folds) {
        if (fold.madeRoomFor != panel)
            continue;
        fold.madeRoomFor = nullptr;
        if (fold.action->isChecked())
            continue;
        if (m_width < 0 || m_width >= fold.minimumWindowWidth)
            fold.action->trigger();
        else
            fold.folded = true; // too narrow for it by itself: it comes back when the window is wide
    }
}

void PanelFolds::resized(int oldWidth, int width)
{
    m_width = width;
    for (const Fold &fold : m_folds) {
        if (width >= fold.minimumWindowWidth || !fold.action->isChecked())
            giveRoomBack(fold.action);
    }
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
