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
#include <QResizeEvent>
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
    m_image = reader.read();
    if (m_image.isNull()) {
        setText(tr("The figure %1 could not be read.").arg(QFileInfo(path).fileName()));
    } else {
        setPixmap(QPixmap::fromImage(m_image));
        setCursor(Qt::PointingHandCursor);
        QSizePolicy policy(QSizePolicy::Maximum, QSizePolicy::Preferred);
        policy.setHeightForWidth(true);
        setSizePolicy(policy);
    }
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Figure %1").arg(QFileInfo(path).fileName()));
    setToolTip(tr("Click to open at full size; right-click to save or copy."));
    setAlignment(Qt::AlignLeft);
}

bool FigureView::hasHeightForWidth() const
{
    return !m_image.isNull();
}

int FigureView::heightForWidth(int width) const
{
    if (m_image.isNull() || width >= m_image.width())
        return m_image.isNull() ? QLabel::heightForWidth(width) : m_image.height();
    return m_image.height() * width / m_image.width();
}

QSize FigureView::sizeHint() const
{
    return m_image.isNull() ? QLabel::sizeHint() : m_image.size();
}

QSize FigureView::minimumSizeHint() const
{
    // A narrow column shrinks the figure instead of cutting it off.
    return m_image.isNull() ? QLabel::minimumSizeHint() : QSize(std::min(m_image.width(), 80), heightForWidth(80));
}

void FigureView::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    if (m_image.isNull())
        return;
    const int width = std::min(m_image.width(), contentsRect().width());
    if (width > 0 && (pixmap().width() != width))
        setPixmap(QPixmap::fromImage(
            width == m_image.width() ? m_image : m_image.scaledToWidth(width, Qt::SmoothTransformation)));
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
