#include "flowlayout.h"

#include <QWidget>

namespace Sandpiper {

FlowLayout::FlowLayout(QWidget *parent, int horizontalSpacing, int verticalSpacing)
    : QLayout(parent)
    , m_horizontalSpacing(horizontalSpacing)
    , m_verticalSpacing(verticalSpacing)
{
    setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem *item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem *item)
{
    m_items << item;
}

void FlowLayout::addBreak()
{
    m_breaks << int(m_items.size());
}

int FlowLayout::count() const
{
    return int(m_items.size());
}

QLayoutItem *FlowLayout::itemAt(int index) const
{
    return m_items.value(index);
}

QLayoutItem *FlowLayout::takeAt(int index)
{
    if (index < 0 || index >= m_items.size())
        return nullptr;
    for (int &at : m_breaks) {
        if (at > index)
            --at;
    }
    return m_items.takeAt(index);
}

Qt::Orientations FlowLayout::expandingDirections() const
{
    return {};
}

int FlowLayout::heightForWidth(int width) const
{
    return arrange(QRect(0, 0, width, 0), false);
}

QSize FlowLayout::minimumSize() const
{
    // As narrow as the widest item: everything else wraps.
    QSize size;
    for (const QLayoutItem *item : m_items) {
        if (!item->isEmpty())
            size = size.expandedTo(item->minimumSize());
    }
    const QMargins margins = contentsMargins();
    return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom());
}

QSize FlowLayout::sizeHint() const
{
    // All on one row.
    int width = 0;
    int height = 0;
    for (const QLayoutItem *item : m_items) {
        if (item->isEmpty())
            continue;
        const QSize hint = item->sizeHint();
        width += (width > 0 ? m_horizontalSpacing : 0) + hint.width();
        height = std::max(height, hint.height());
    }
    const QMargins margins = contentsMargins();
    return {width + margins.left() + margins.right(), height + margins.top() + margins.bottom()};
}

void FlowLayout::setGeometry(const QRect &rect)
{
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowLayout::arrange(const QRect &rect, bool apply) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    struct Placed {
        QLayoutItem *item;
        QSize size;
    };
    QList<Placed> row;
    int y = area.y();
    int rowWidth = 0;
    int rowHeight = 0;
    const auto finishRow = [&] {
        if (row.isEmpty())
            return;
        // An item that expands horizontally takes what is left of the row.
        int spare = area.width() - rowWidth;
        int x = area.x();
        for (Placed &placed : row) {
            QSize size = placed.size;
            if (spare > 0 && placed.item->expandingDirections() & Qt::Horizontal) {
                const int grown = std::min(placed.item->maximumSize().width(), size.width() + spare);
                spare -= grown - size.width();
                size.setWidth(grown);
            }
            if (apply) {
                // Items shorter than the row sit in its middle.
                placed.item->setGeometry(QRect(QPoint(x, y + (rowHeight - size.height()) / 2), size));
            }
            x += size.width() + m_horizontalSpacing;
        }
        y += rowHeight + m_verticalSpacing;
        row.clear();
        rowWidth = 0;
        rowHeight = 0;
    };
    for (int index = 0; index < m_items.size(); ++index) {
        QLayoutItem *item = m_items.at(index);
        if (m_breaks.contains(index))
            finishRow();
        if (item->isEmpty())
            continue;
        QSize size = item->sizeHint().boundedTo(item->maximumSize()).expandedTo(item->minimumSize());
        size.setWidth(std::min(size.width(), area.width()));
        if (item->hasHeightForWidth())
            size.setHeight(item->heightForWidth(size.width()));
        const int needed = (row.isEmpty() ? 0 : m_horizontalSpacing) + size.width();
        if (!row.isEmpty() && rowWidth + needed > area.width())
            finishRow();
        rowWidth += (row.isEmpty() ? 0 : m_horizontalSpacing) + size.width();
        rowHeight = std::max(rowHeight, size.height());
        row << Placed{item, size};
    }
    finishRow();
    const int used = y > area.y() ? y - m_verticalSpacing - area.y() : 0;
    const QMargins margins = contentsMargins();
    return used + margins.top() + margins.bottom();
}

} // namespace Sandpiper
