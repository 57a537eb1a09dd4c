#pragma once

#include <QStyledItemDelegate>

namespace Sandpiper {

// Draws a row of the sidebar (ConversationListModel): the working ring or the unread dot, the
// title, and for a search hit how many matches its conversation has and the snippet with the
// matches marked, on lines of their own. The marks take the colours of the row's state, so they
// show on a selected row too.
class ConversationItemDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The lines of snippet a search hit shows at most.
    static constexpr int snippetLines = 2;
};

} // namespace Sandpiper
