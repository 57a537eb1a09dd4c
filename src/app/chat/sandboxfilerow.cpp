#include "chat/sandboxfilerow.h"

#include "chat/sandboxfileactions.h"

#include <sandbox/enginefiles.h>

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

#include <QCoroTask>

namespace Sandpiper {

SandboxFileRow::SandboxFileRow(const QString &folder, const QString &name, qint64 engineSize, QWidget *parent)
    : QWidget(parent)
    , m_folder(folder)
    , m_name(name)
    , m_engineSize(engineSize)
    , m_label(new QLabel)
    , m_openButton(new QPushButton(tr("Open")))
    , m_saveButton(new QPushButton(tr("Save…")))
{
    m_label->setTextFormat(Qt::PlainText);
    m_openButton->setAccessibleName(tr("Open %1").arg(name));
    m_saveButton->setAccessibleName(tr("Save %1").arg(name));
    connect(m_openButton, &QPushButton::clicked, this, [this] { whenHere(&SandboxFileRow::open); });
    connect(m_saveButton, &QPushButton::clicked, this, [this] { whenHere(&SandboxFileRow::save); });
    // The style's file icon: an emoji needs a font that many desktops lack.
    auto *icon = new QLabel;
    const int side = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon->setPixmap(style()->standardIcon(QStyle::SP_FileIcon).pixmap(side, side));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(icon);
    row->addWidget(m_label);
    row->addWidget(m_openButton);
    row->addWidget(m_saveButton);
    row->addStretch(1);
    showState(false);
}

bool SandboxFileRow::isOnEngine() const
{
    const QFileInfo here(SandboxFolder(m_folder).hostPath(m_name));
    return m_engineSize >= 0 && !here.exists() && !here.isSymLink();
}

void SandboxFileRow::showState(bool fetching)
{
    const QString size = SandboxFolder::formatBytes(std::max<qint64>(0, m_engineSize));
    const QString text = fetching       ? tr("%1 (%2, being copied from the Docker engine…)").arg(m_name, size)
                         : isOnEngine() ? tr("%1 (%2, on the Docker engine)").arg(m_name, size)
                                        : m_name;
    m_label->setText(text);
    m_label->setAccessibleName(text);
    m_label->setToolTip(isOnEngine() || fetching ? tr("Kept in the sandbox on the Docker engine: it is copied here "
                                                      "when you open or save it.")
                                                 : QString());
    m_openButton->setEnabled(!fetching);
    m_saveButton->setEnabled(!fetching);
}

void SandboxFileRow::whenHere(void (SandboxFileRow::*action)())
{
    if (!isOnEngine()) {
        (this->*action)();
        return;
    }
    showState(true);
    QCoro::connect(EngineFiles::fetch(m_folder, m_name), this, [this, action](const QString &error) {
        showState(false);
        if (!error.isEmpty())
            SandboxFileActions::warn(this, tr("Copy from the Docker engine"), error);
        else
            (this->*action)();
    });
}

// Both check the file when clicked, not when listed: the code may have replaced it by a link.
void SandboxFileRow::open()
{
    SandboxFileActions::open(this, SandboxFolder(m_folder), m_name);
}

void SandboxFileRow::save()
{
    SandboxFileActions::saveAs(this, SandboxFolder(m_folder), m_name);
}

} // namespace Sandpiper
