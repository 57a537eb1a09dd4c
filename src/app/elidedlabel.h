#pragma once

#include <QLabel>

namespace Sandpiper {

// A one-line label that never asks for more width than it gets: text that does not fit ends
// in "…", and the whole text shows as a tooltip. text() stays the whole text.
class ElidedLabel : public QLabel
{
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void elide();

    QString m_text;
};

} // namespace Sandpiper
