#include "focusring.h"

#include <QApplication>
#include <QFocusFrame>
#include <QKeyEvent>
#include <QPainter>

namespace Sandpiper {

namespace {

FocusRing *theRing = nullptr;

class RingFrame : public QFocusFrame
{
public:
    using QFocusFrame::QFocusFrame;

protected:
    void paintEvent(QPaintEvent *) override
    {
        // The frame lies around the widget by the style's focus margin; the ring fills that margin.
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        QPen pen(palette().color(QPalette::Highlight), 2);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 3, 3);
    }
};

bool isKeyboardReason(Qt::FocusReason reason)
{
    return reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason || reason == Qt::ShortcutFocusReason;
}

} // namespace

FocusRing::FocusRing(QObject *parent)
    : QObject(parent)
{}

void FocusRing::install()
{
    if (theRing)
        return;
    theRing = new FocusRing(qApp);
    qApp->installEventFilter(theRing);
}

QWidget *FocusRing::ringedWidget()
{
    if (!theRing || !theRing->m_frame || !theRing->m_frame->isVisible())
        return nullptr;
    return theRing->m_frame->widget();
}

bool FocusRing::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::KeyPress:
        if (!m_keyboard) {
            m_keyboard = true;
            ring(QApplication::focusWidget());
        }
        break;
    case QEvent::MouseButtonPress:
        if (m_keyboard) {
            m_keyboard = false;
            ring(nullptr);
        }
        break;
    case QEvent::FocusIn:
        if (watched->isWidgetType() && (m_keyboard || isKeyboardReason(static_cast<QFocusEvent *>(event)->reason()))) {
            m_keyboard = true;
            ring(static_cast<QWidget *>(watched));
        }
        break;
    default:
        break;
    }
    return false;
}

void FocusRing::ring(QWidget *widget)
{
    if (widget && widget->isWindow())
        widget = nullptr;
    if (!widget) {
        if (m_frame)
            m_frame->setWidget(nullptr);
        return;
    }
    if (!m_frame)
        m_frame = new RingFrame(widget);
    m_frame->setWidget(widget);
}

} // namespace Sandpiper
