#include "chat/sandboxfilerow.h"

#include <QDesktopServices>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QUrl>

namespace Sandpiper {

SandboxFileRow::SandboxFileRow(const QString &folder, const QString &name, QWidget *parent)
    : QWidget(parent)
    , m_folder(folder)
    , m_name(name)
{
    auto *label = new QLabel(QStringLiteral("📄 %1").arg(name.toHtmlEscaped()));
    auto *openButton = new QPushButton(tr("Open"));
    auto *saveButton = new QPushButton(tr("Save…"));
    openButton->setAccessibleName(tr("Open %1").arg(name));
    saveButton->setAccessibleName(tr("Save %1").arg(name));
    connect(openButton, &QPushButton::clicked, this, &SandboxFileRow::open);
    connect(saveButton, &QPushButton::clicked, this, &SandboxFileRow::save);
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(label);
    row->addWidget(openButton);
    row->addWidget(saveButton);
    row->addStretch(1);
}

void SandboxFileRow::open()
{
    QDesktopServices::openUrl(QUrl::fromLocalFile(m_folder + QLatin1Char('/') + m_name));
}

void SandboxFileRow::save()
{
    const QString target = QFileDialog::getSaveFileName(this, tr("Save file"), QFileInfo(m_name).fileName());
    if (target.isEmpty())
        return;
    QFile::remove(target);
    if (!QFile::copy(m_folder + QLatin1Char('/') + m_name, target))
        QMessageBox::warning(this, tr("Save file"), tr("The file could not be saved to %1.").arg(target));
}

} // namespace Sandpiper
