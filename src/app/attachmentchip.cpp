#include "attachmentchip.h"

#include <sandbox/sandboxfolder.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QMimeDatabase>
#include <QStyle>
#include <QToolButton>

namespace Sandpiper {

namespace {

// Long names are cut in the middle, so that their extension and number stay.
constexpr int nameChars = 32;

} // namespace

AttachmentChip::AttachmentChip(const QString &name, qint64 size, bool removable, QWidget *parent)
    : QFrame(parent)
    , m_name(name)
{
    setObjectName(QStringLiteral("attachmentChip"));
    setFrameShape(QFrame::StyledPanel);
    setBackgroundRole(QPalette::Button);
    setAutoFillBackground(true);
    setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    const QString sizeText = size > 0 ? SandboxFolder::formatBytes(size) : QString();
    setToolTip(tr("%1 — in /mnt/data for the code").arg(name));
    setAccessibleName(sizeText.isEmpty() ? tr("Attached file %1").arg(name)
                                         : tr("Attached file %1, %2").arg(name, sizeText));

    auto *icon = new QLabel;
    const int side = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon->setPixmap(iconFor(name, this).pixmap(side, side));
    auto *label = new QLabel;
    label->setTextFormat(Qt::PlainText);
    label->setText(fontMetrics().elidedText(name, Qt::ElideMiddle, fontMetrics().averageCharWidth() * nameChars));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(6, 2, removable ? 2 : 8, 2);
    row->setSpacing(4);
    row->addWidget(icon);
    row->addWidget(label);
    if (!sizeText.isEmpty()) {
        auto *sizeLabel = new QLabel(sizeText);
        sizeLabel->setForegroundRole(QPalette::PlaceholderText);
        row->addWidget(sizeLabel);
    }
    if (removable) {
        m_remove = new QToolButton;
        m_remove->setAutoRaise(true);
        m_remove->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
        m_remove->setIconSize(QSize(side * 3 / 4, side * 3 / 4));
        m_remove->setFocusPolicy(Qt::StrongFocus);
        m_remove->setAccessibleName(tr("Remove %1").arg(name));
        m_remove->setToolTip(tr("Take %1 off this message").arg(name));
        connect(m_remove, &QToolButton::clicked, this, [this] { Q_EMIT removeRequested(m_name); });
        row->addWidget(m_remove);
    }
}

QIcon AttachmentChip::iconFor(const QString &name, const QWidget *widget)
{
    const QMimeType type = QMimeDatabase().mimeTypeForFile(name, QMimeDatabase::MatchExtension);
    for (const QString &iconName : {type.iconName(), type.genericIconName()}) {
        if (QIcon::hasThemeIcon(iconName))
            return QIcon::fromTheme(iconName);
    }
    return widget->style()->standardIcon(QStyle::SP_FileIcon);
}

} // namespace Sandpiper
