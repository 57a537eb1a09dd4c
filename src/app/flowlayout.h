#pragma once

#include <QLayout>
#include <QList>

namespace Sandpiper {

// Lays its items out in a row and starts a new row where the width runs out, like words in a
// line of text: a row of buttons or chips wraps in a narrow window instead of making the window
// wider. An item that asks to expand horizontally takes the rest of its row.
class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget *parent = nullptr, int horizontalSpacing = 6, int verticalSpacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem *item) override;
    // Whatever follows starts on a new row.
    void addBreak();
    int count() const override;
    QLayoutItem *itemAt(int index) const override;
    QLayoutItem *takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    // Places the items in RECT (or only measures, when APPLY is false); returns the height used.
    int arrange(const QRect &rect, bool apply) const;

    QList<QLayoutItem *> m_items;
    QList<int> m_breaks; // indices of items that start a new row
    int m_horizontalSpacing;
    int m_verticalSpacing;
};

} // namespace Sandpiper
