#pragma once

#include <QObject>
#include <QPointer>

class QFocusFrame;
class QWidget;

namespace Sandpiper {

// A ring in the highlight colour around the widget that has the focus, while the user works
// with the keyboard (from a key press until the next mouse click): the styles draw focus faintly
// or not at all on many widgets, and a person tabbing through the window must see where they are.
class FocusRing : public QObject
{
    Q_OBJECT

public:
    // Watches the application's input from now on (once per application).
    static void install();
    // The widget the ring is around, null while none shows (the mouse is in use).
    static QWidget *ringedWidget();

private:
    explicit FocusRing(QObject *parent);
    bool eventFilter(QObject *watched, QEvent *event) override;
    void ring(QWidget *widget);

    QPointer<QFocusFrame> m_frame;
    bool m_keyboard = false;
};

} // namespace Sandpiper
