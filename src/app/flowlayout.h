#pragma once

#include <QLayout>

namespace Sandpiper {

// Lays its items out in rows like words in a paragraph: as many as fit side by side, then the
// next row. Its width for height makes the rows wrap when the parent gets narrower, so a row of
// chips never widens the window.
class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget *parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem *item) override;
    int count() const override;
    QLayoutItem *itemAt(int index) const override;
    QLayoutItem *takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    // Places the items in RECT (only measures when MOVE is false); returns the height used.
    int arrange(const QRect &rect, bool move) const;

    QList<QLayoutItem *> m_items;
    int m_spacing;
};

} // namespace Sandpiper
