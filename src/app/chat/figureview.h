#pragma once

#include <QLabel>

namespace Sandpiper {

// A figure the sandbox drew, loaded from the conversation folder at a readable size, and scaled
// down further to fit a narrower column. A click opens it at full size; the context menu saves
// or copies it.
class FigureView : public QLabel
{
    Q_OBJECT

public:
    explicit FigureView(const QString &path, int maxWidth = 640, QWidget *parent = nullptr);
    QString path() const { return m_path; }

    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void openFullSize();
    void saveAs();
    void copyImage();

    QString m_path;
    QImage m_image; // at most the width asked for
};

} // namespace Sandpiper
