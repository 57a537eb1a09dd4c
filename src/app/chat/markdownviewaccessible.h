#pragma once

#include <QAccessibleWidget>
#include <QList>

class QTextBrowser;

namespace Sandpiper {

// What a screen reader reads of a rendered Markdown view: its text, with each formula read as
// its TeX ($…$ or $$…$$) instead of the one object character that draws it, and the caret,
// selections, character positions and scrolling mapped between the two. Read-only, as the view.
class MarkdownViewAccessible : public QAccessibleWidget, public QAccessibleTextInterface
{
public:
    explicit MarkdownViewAccessible(QTextBrowser *view);

    // Makes the screen reader's interface of every MarkdownView this one (once per process).
    static void install();

    void *interface_cast(QAccessible::InterfaceType type) override;
    QAccessible::State state() const override;
    QString text(QAccessible::Text type) const override;

    void selection(int selectionIndex, int *startOffset, int *endOffset) const override;
    int selectionCount() const override;
    void addSelection(int startOffset, int endOffset) override;
    void removeSelection(int selectionIndex) override;
    void setSelection(int selectionIndex, int startOffset, int endOffset) override;
    int cursorPosition() const override;
    void setCursorPosition(int position) override;
    QString text(int startOffset, int endOffset) const override;
    int characterCount() const override;
    QRect characterRect(int offset) const override;
    int offsetAtPoint(const QPoint &point) const override;
    void scrollToSubstring(int startIndex, int endIndex) override;
    QString attributes(int offset, int *startOffset, int *endOffset) const override;

private:
    // A formula: its position in the document, and how many characters its TeX reads as.
    struct Formula {
        int position = 0;
        int length = 0;
    };
    QList<Formula> formulas() const;
    // The offset in what is read of a position in the document, and back (an offset inside a
    // formula's TeX is the formula's position; UPTOEND: the position after it).
    int offsetOf(int position) const;
    int positionOf(int offset, bool upToEnd = false) const;
    QTextBrowser *view() const;
};

} // namespace Sandpiper
