#include "chat/figureview.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDialog>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageReader>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QVBoxLayout>

namespace Sandpiper {

FigureView::FigureView(const QString &path, int maxWidth, QWidget *parent)
    : QLabel(parent)
    , m_path(path)
{
    QImageReader reader(path);
    QSize size = reader.size();
    if (size.isValid() && size.width() > maxWidth) {
        size = size.scaled(maxWidth, size.height() * maxWidth / size.width() + 1, Qt::KeepAspectRatio);
        reader.setScaledSize(size);
    }
    const QImage image = reader.read();
    if (image.isNull()) {
        setText(tr("The figure %1 could not be read.").arg(QFileInfo(path).fileName()));
    } else {
        setPixmap(QPixmap::fromImage(image));
        setCursor(Qt::PointingHandCursor);
    }
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Figure %1").arg(QFileInfo(path).fileName()));
    setToolTip(tr("Click to open at full size; right-click to save or copy."));
    setAlignment(Qt::AlignLeft);
}

void FigureView::mouseReleaseEvent(QMouseEvent *event)
{
    QLabel::mouseReleaseEvent(event);
    openFullSize();
}

void FigureView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space)
        openFullSize();
    else
        QLabel::keyPressEvent(event);
}

void FigureView::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    menu.addAction(tr("Open at full size"), this, &FigureView::openFullSize);
    menu.addAction(tr("Save image as…"), this, &FigureView::saveAs);
    menu.addAction(tr("Copy image"), this, &FigureView::copyImage);
    menu.exec(event->globalPos());
}

void FigureView::openFullSize()
{
    auto *dialog = new QDialog(window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QFileInfo(m_path).fileName());
    auto *label = new QLabel;
    label->setPixmap(QPixmap(m_path));
    label->setAccessibleName(tr("Figure at full size"));
    auto *scroll = new QScrollArea;
    scroll->setWidget(label);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(scroll);
    dialog->resize(std::min(label->sizeHint().width() + 40, 1400), std::min(label->sizeHint().height() + 40, 1000));
    dialog->show();
}

void FigureView::saveAs()
{
    const QString target =
        QFileDialog::getSaveFileName(this, tr("Save figure"), QFileInfo(m_path).fileName(), tr("PNG images (*.png)"));
    if (target.isEmpty())
        return;
    QFile::remove(target);
    if (!QFile::copy(m_path, target))
        QMessageBox::warning(this, tr("Save figure"), tr("The figure could not be saved to %1.").arg(target));
}

void FigureView::copyImage()
{
    QApplication::clipboard()->setImage(QImage(m_path));
}

} // namespace Sandpiper
