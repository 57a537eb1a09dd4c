#include "conversationitemdelegate.h"

#include "conversationlistmodel.h"

#include <QApplication>
#include <QLocale>
#include <QPainter>
#include <QTextLayout>

#include <optional>

namespace Sandpiper {

namespace {

constexpr int padding = 6;     // around a row's content, so rows stand apart
constexpr int markColumn = 16; // the ring or the dot, before the title
constexpr qreal markSize = 8;
constexpr int lineGap = 2; // between the title and the snippet

// The colours the style fills the row with in this state.
QPalette::ColorGroup colourGroup(const QStyleOptionViewItem &option)
{
    if (!(option.state & QStyle::State_Enabled))
        return QPalette::Disabled;
    return option.state & QStyle::State_Active ? QPalette::Active : QPalette::Inactive;
}

QFont titleFont(const QStyleOptionViewItem &option, bool searching)
{
    QFont font = option.font;
    font.setBold(searching);
    return font;
}

QFont countFont(const QStyleOptionViewItem &option)
{
    QFont font = option.font;
    font.setPointSizeF(font.pointSizeF() * 0.9);
    return font;
}

// TEXT from TOPLEFT in WIDTH on LINES lines at most, the matches of RANGES in MATCH; an ellipsis
// ends it when it does not fit.
void drawSnippet(QPainter *painter, const QString &text, const ConversationListModel::MatchRanges &ranges,
                 const QTextCharFormat &match, const QFont &font, QPointF topLeft, qreal width, int lines)
{
    QList<QTextLayout::FormatRange> formats;
    for (const auto &[start, length] : ranges)
        formats.append({int(start), int(length), match});
    QTextLayout layout(text, font, painter->device());
    QTextOption textOption(Qt::AlignLeft);
    textOption.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(textOption);
    layout.setFormats(formats);
    const QString ellipsis(QChar(0x2026));
    const qreal ellipsisWidth = QFontMetricsF(font, painter->device()).horizontalAdvance(ellipsis);
    std::optional<QPointF> ellipsisAt;
    qreal y = 0;
    layout.beginLayout();
    for (int i = 0; i < lines; ++i) {
        QTextLine line = layout.createLine();
        if (!line.isValid())
            break;
        line.setLineWidth(width);
        if (i == lines - 1 && line.textStart() + line.textLength() < text.size()) {
            line.setLineWidth(width - ellipsisWidth);
            ellipsisAt = QPointF(line.naturalTextWidth(), y + line.ascent());
        }
        line.setPosition(QPointF(0, y));
        y += line.height();
    }
    layout.endLayout();
    layout.draw(painter, topLeft);
    if (ellipsisAt) {
        painter->setFont(font);
        painter->drawText(topLeft + *ellipsisAt, ellipsis);
    }
}

} // namespace

void ConversationItemDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                                     const QModelIndex &index) const
{
    // The style draws the row's background, selection and focus; the text is drawn here.
    QStyleOptionViewItem row = option;
    initStyleOption(&row, index);
    row.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &row, painter, widget);

    const int matchCount = index.data(ConversationListModel::MatchCountRole).toInt();
    const bool searching = matchCount > 0;
    const QPalette::ColorGroup group = colourGroup(option);
    const bool selected = option.state & QStyle::State_Selected;
    const QColor text = option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    // A selected row is filled with Highlight: there the marks take the text's colour.
    const QColor accent = selected ? text : option.palette.color(group, QPalette::Highlight);
    const QRect content = option.rect.adjusted(padding, padding, -padding, -padding);
    const QFont title = titleFont(option, searching);
    const QFontMetrics titleMetrics(title);
    const QRect titleLine(content.left() + markColumn, content.top(), content.width() - markColumn,
                          titleMetrics.height());

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const bool unread = index.data(ConversationListModel::UnreadRole).toBool();
    if (unread || index.data(ConversationListModel::RunningRole).toBool()) {
        // Hollow while the conversation works, filled for an unread answer.
        painter->setPen(QPen(accent, 2));
        painter->setBrush(unread ? QBrush(accent) : QBrush());
        const QPointF centre(content.left() + markSize / 2 + 1, titleLine.center().y() + 0.5);
        painter->drawEllipse(QRectF(centre.x() - markSize / 2, centre.y() - markSize / 2, markSize, markSize));
    }

    const QString titleText = index.data(Qt::DisplayRole).toString();
    int titleWidth = titleLine.width();
    if (searching) {
        const QFontMetrics countMetrics(countFont(option));
        QString count = tr("%n match(es)", "", matchCount);
        // In a narrow sidebar the title comes first: the count shrinks to its number.
        if (titleMetrics.horizontalAdvance(titleText) + padding + countMetrics.horizontalAdvance(count) > titleWidth)
            count = QLocale().toString(matchCount);
        painter->setFont(countFont(option));
        painter->setPen(selected ? text : option.palette.color(group, QPalette::PlaceholderText));
        painter->drawText(titleLine, Qt::AlignRight | Qt::AlignVCenter, count);
        titleWidth -= countMetrics.horizontalAdvance(count) + padding;
    }
    painter->setFont(title);
    painter->setPen(text);
    painter->drawText(QRect(titleLine.topLeft(), QSize(std::max(titleWidth, 0), titleLine.height())),
                      Qt::AlignLeft | Qt::AlignVCenter, titleMetrics.elidedText(titleText, Qt::ElideRight, titleWidth));

    if (searching) {
        QTextCharFormat match;
        match.setFontWeight(QFont::Bold);
        if (selected) {
            match.setFontUnderline(true);
        } else {
            QColor tint = accent;
            tint.setAlpha(70);
            match.setBackground(tint);
        }
        drawSnippet(painter, index.data(ConversationListModel::SnippetRole).toString(),
                    index.data(ConversationListModel::MatchRangesRole).value<ConversationListModel::MatchRanges>(),
                    match, option.font, QPointF(titleLine.left(), titleLine.bottom() + 1 + lineGap), titleLine.width(),
                    snippetLines);
    }
    painter->restore();
}

QSize ConversationItemDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const bool searching = index.data(ConversationListModel::MatchCountRole).toInt() > 0;
    int height = QFontMetrics(titleFont(option, searching)).height();
    if (searching)
        height += lineGap + snippetLines * QFontMetrics(option.font).lineSpacing();
    // Rows take the list's width and paint the title elided to it: a width of the whole title
    // would let the list scroll sideways.
    return {markColumn + 2 * padding, height + 2 * padding};
}

} // namespace Sandpiper
