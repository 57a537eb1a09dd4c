#pragma once

#include <sandbox/sandboxfolder.h>

#include <QLabel>

namespace Sandpiper {

// A figure the sandbox drew, loaded from the conversation folder at a readable size, and scaled
// down further to fit a narrower column. A click opens it at full size; the context menu saves
// or copies it, or shows it to the model with the next message (where someone listens). Each of these reads the figure
// again through SandboxFolder, so a figure swapped for a link meanwhile is refused, not shown.
class FigureView : public QLabel
{
    Q_OBJECT

public:
    // NAME is the figure's path inside FOLDER, as the sandbox reported it.
    FigureView(const QString &folder, const QString &name, int maxWidth = 640, QWidget *parent = nullptr);
    QString name() const { return m_name; }
    // Why the figure is not shown, or empty when it is.
    QString problem() const { return m_problem; }

    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // "Show to the model": NAME goes with the next message.
    void showToModelRequested(const QString &name);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    QImage fullSize();
    void openFullSize();
    void saveAs();
    void copyImage();

    SandboxFolder m_folder;
    QString m_name;
    QString m_problem;
    QImage m_image; // at most the width asked for
};

} // namespace Sandpiper
