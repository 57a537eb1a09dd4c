#include "chat/markdownviewaccessible.h"

#include "chat/markdownview.h"
#include "chat/mathobject.h"

#include <QScrollArea>
#include <QTextBlock>
#include <QTextBrowser>

namespace Sandpiper {

namespace {

QAccessibleInterface *markdownViewFactory(const QString &className, QObject *object)
{
    if (className == QLatin1String(MarkdownView::staticMetaObject.className()) && object && object->isWidgetType())
        return new MarkdownViewAccessible(static_cast<MarkdownView *>(object));
    return nullptr;
}

} // namespace

MarkdownViewAccessible::MarkdownViewAccessible(QTextBrowser *view)
    : QAccessibleWidget(view, QAccessible::EditableText)
{}

void MarkdownViewAccessible::install()
{
    static const bool installed = [] {
        QAccessible::installFactory(markdownViewFactory);
        return true;
    }();
    Q_UNUSED(installed)
}

QTextBrowser *MarkdownViewAccessible::view() const
{
    return static_cast<QTextBrowser *>(widget());
}

void *MarkdownViewAccessible::interface_cast(QAccessible::InterfaceType type)
{
    if (type == QAccessible::TextInterface)
        return static_cast<QAccessibleTextInterface *>(this);
    return QAccessibleWidget::interface_cast(type);
}

QAccessible::State MarkdownViewAccessible::state() const
{
    QAccessible::State state = QAccessibleWidget::state();
    state.readOnly = true;
    state.multiLine = true;
    state.selectableText = true;
    return state;
}

QString MarkdownViewAccessible::text(QAccessible::Text type) const
{
    if (type == QAccessible::Value)
        return text(0, characterCount());
    return QAccessibleWidget::text(type);
}

QList<MarkdownViewAccessible::Formula> MarkdownViewAccessible::formulas() const
{
    QList<Formula> found;
    for (QTextBlock block = view()->document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!MathObject::isFormula(fragment.charFormat()))
                continue;
            const int length = int(MathObject::source(fragment.charFormat()).size());
            for (int i = 0; i < fragment.length(); ++i)
                found.append({fragment.position() + i, length});
        }
    }
    return found;
}

int MarkdownViewAccessible::offsetOf(int position) const
{
    int offset = position;
    for (const Formula &formula : formulas()) {
        if (formula.position >= position)
            break;
        offset += formula.length - 1;
    }
    return offset;
}

int MarkdownViewAccessible::positionOf(int offset, bool upToEnd) const
{
    int shift = 0; // what the formulas before add
    for (const Formula &formula : formulas()) {
        const int start = formula.position + shift;
        if (offset <= start)
            break;
        if (offset < start + formula.length)
            return upToEnd ? formula.position + 1 : formula.position;
        shift += formula.length - 1;
    }
    return std::clamp(offset - shift, 0, view()->document()->characterCount() - 1);
}

int MarkdownViewAccessible::characterCount() const
{
    return offsetOf(view()->document()->characterCount() - 1);
}

QString MarkdownViewAccessible::text(int startOffset, int endOffset) const
{
    const int start = positionOf(startOffset);
    const int end = positionOf(endOffset, true);
    if (start >= end)
        return {};
    // Whole formulas are read from START; the offsets may fall inside one.
    const QString read = MathObject::readableText(view()->document(), start, end);
    const int from = std::max(0, startOffset - offsetOf(start));
    return read.mid(from, std::max(0, endOffset - startOffset));
}

void MarkdownViewAccessible::selection(int selectionIndex, int *startOffset, int *endOffset) const
{
    *startOffset = *endOffset = 0;
    const QTextCursor cursor = view()->textCursor();
    if (selectionIndex != 0 || !cursor.hasSelection())
        return;
    *startOffset = offsetOf(cursor.selectionStart());
    *endOffset = offsetOf(cursor.selectionEnd());
}

int MarkdownViewAccessible::selectionCount() const
{
    return view()->textCursor().hasSelection() ? 1 : 0;
}

void MarkdownViewAccessible::addSelection(int startOffset, int endOffset)
{
    setSelection(0, startOffset, endOffset);
}

void MarkdownViewAccessible::removeSelection(int selectionIndex)
{
    if (selectionIndex != 0)
        return;
    QTextCursor cursor = view()->textCursor();
    cursor.clearSelection();
    view()->setTextCursor(cursor);
}

void MarkdownViewAccessible::setSelection(int selectionIndex, int startOffset, int endOffset)
{
    if (selectionIndex != 0)
        return;
    // A selection that touches a formula holds all of it.
    QTextCursor cursor = view()->textCursor();
    cursor.setPosition(positionOf(startOffset));
    cursor.setPosition(positionOf(endOffset, true), QTextCursor::KeepAnchor);
    view()->setTextCursor(cursor);
}

int MarkdownViewAccessible::cursorPosition() const
{
    return offsetOf(view()->textCursor().position());
}

void MarkdownViewAccessible::setCursorPosition(int position)
{
    QTextCursor cursor = view()->textCursor();
    cursor.setPosition(positionOf(position));
    view()->setTextCursor(cursor);
}

QRect MarkdownViewAccessible::characterRect(int offset) const
{
    QTextCursor cursor(view()->document());
    cursor.setPosition(positionOf(offset));
    const QRect at = view()->cursorRect(cursor);
    // As wide as the way to the next character on the line (a formula: all of it).
    cursor.movePosition(QTextCursor::NextCharacter);
    const QRect next = view()->cursorRect(cursor);
    const int width = next.top() == at.top() && next.left() > at.left() ? next.left() - at.left()
                                                                        : view()->fontMetrics().averageCharWidth();
    return QRect(view()->viewport()->mapToGlobal(at.topLeft()), QSize(width, at.height()));
}

int MarkdownViewAccessible::offsetAtPoint(const QPoint &point) const
{
    const QPoint local = view()->viewport()->mapFromGlobal(point);
    if (!view()->viewport()->rect().contains(local))
        return -1;
    return offsetOf(view()->cursorForPosition(local).position());
}

void MarkdownViewAccessible::scrollToSubstring(int startIndex, int endIndex)
{
    QTextCursor cursor(view()->document());
    cursor.setPosition(positionOf(endIndex, true));
    const QRect end = view()->cursorRect(cursor);
    cursor.setPosition(positionOf(startIndex));
    const QRect start = view()->cursorRect(cursor);
    // The view grows with its text: the chat around it is what scrolls.
    for (QWidget *parent = view()->parentWidget(); parent; parent = parent->parentWidget()) {
        auto *area = qobject_cast<QScrollArea *>(parent);
        if (!area || !area->widget() || !area->widget()->isAncestorOf(view()))
            continue;
        const QPoint top = view()->viewport()->mapTo(area->widget(), start.topLeft());
        const QPoint bottom = view()->viewport()->mapTo(area->widget(), end.bottomLeft());
        area->ensureVisible(bottom.x(), bottom.y(), 0, 0);
        area->ensureVisible(top.x(), top.y(), 0, 0);
        return;
    }
}

QString MarkdownViewAccessible::attributes(int offset, int *startOffset, int *endOffset) const
{
    Q_UNUSED(offset)
    // No attributes are told: all of it is alike.
    *startOffset = 0;
    *endOffset = characterCount();
    return {};
}

} // namespace Sandpiper
