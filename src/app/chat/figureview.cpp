#include "chat/figureview.h"

#include "chat/sandboxfileactions.h"
#include "chat/sandboximage.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMetaMethod>
#include <QResizeEvent>
#include <QScrollArea>
#include <QVBoxLayout>

namespace Sandpiper {

FigureView::FigureView(const QString &folder, const QString &name, int maxWidth, QWidget *parent)
    : QLabel(parent)
    , m_folder(folder)
    , m_name(name)
{
    setAlignment(Qt::AlignLeft);
    m_image = SandboxImage::load(m_folder, name, maxWidth, &m_problem);
    if (m_image.isNull()) {
        setTextFormat(Qt::PlainText); // the reason quotes a name the sandbox chose
        setText(tr("⚠ The figure was not shown. %1").arg(m_problem));
        setWordWrap(true);
        setForegroundRole(QPalette::PlaceholderText);
        setAccessibleName(tr("Figure not shown"));
        return;
    }
    setPixmap(QPixmap::fromImage(m_image));
    setCursor(Qt::PointingHandCursor);
    QSizePolicy policy(QSizePolicy::Maximum, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Figure %1").arg(QFileInfo(name).fileName()));
    setToolTip(tr("Click to open at full size; right-click to save, copy or show it to the model."));
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
    if (m_problem.isEmpty())
        openFullSize();
}

void FigureView::keyPressEvent(QKeyEvent *event)
{
    if (m_problem.isEmpty() &&
        (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space))
        openFullSize();
    else
        QLabel::keyPressEvent(event);
}

void FigureView::contextMenuEvent(QContextMenuEvent *event)
{
    if (!m_problem.isEmpty())
        return;
    QMenu menu(this);
    menu.addAction(tr("Open at full size"), this, &FigureView::openFullSize);
    menu.addAction(tr("Save image as…"), this, &FigureView::saveAs);
    menu.addAction(tr("Copy image"), this, &FigureView::copyImage);
    if (isSignalConnected(QMetaMethod::fromSignal(&FigureView::showToModelRequested))) {
        menu.addSeparator();
        menu.addAction(tr("Show to the model"), this, [this] { Q_EMIT showToModelRequested(m_name); });
    }
    menu.exec(event->globalPos());
}

QImage FigureView::fullSize()
{
    QString error;
    const QImage image = SandboxImage::load(m_folder, m_name, 0, &error);
    if (image.isNull())
        SandboxFileActions::warn(this, tr("Figure"), tr("The figure cannot be used. %1").arg(error));
    return image;
}

void FigureView::openFullSize()
{
    const QImage image = fullSize();
    if (image.isNull())
        return;
    auto *dialog = new QDialog(window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QFileInfo(m_name).fileName());
    auto *label = new QLabel;
    label->setPixmap(QPixmap::fromImage(image));
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
    SandboxFileActions::saveAs(this, m_folder, m_name, tr("PNG images (*.png)"));
}

void FigureView::copyImage()
{
    const QImage image = fullSize();
    if (!image.isNull())
        QApplication::clipboard()->setImage(image);
}

} // namespace Sandpiper
