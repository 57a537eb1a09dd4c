#pragma once

#include <QList>
#include <QObject>

class QAction;

namespace Sandpiper {

// The panels a window folds away when it is made too narrow for them, rather than squeezing the
// chat until its text is clipped; made wide again, it brings back what it folded, unless the user
// showed or hid the panel in between. A panel the user shows in a window too narrow for it makes
// room by folding the others, which come back when it goes or the window is wide enough.
class PanelFolds : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    // The panel that the checkable ACTION shows and hides folds below MINIMUMWINDOWWIDTH.
    void add(QAction *action, int minimumWindowWidth);
    // The window went from OLDWIDTH (negative before it was first shown) to WIDTH.
    void resized(int oldWidth, int width);

private:
    struct Fold {
        QAction *action = nullptr;
        int minimumWindowWidth = 0;
        bool folded = false;
        // Folded to make room for this other panel, not for the window's width.
        QAction *madeRoomFor = nullptr;
    };
    void toggledByUser(qsizetype index, bool shown);
    // The panels folded to make room for FOR come back.
    void giveRoomBack(const QAction *panel);

    QList<Fold> m_folds;
    bool m_folding = false;
    int m_width = -1;
};

} // namespace Sandpiper
