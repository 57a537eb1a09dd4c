#include "chat/sandboxfilerow.h"

#include "chat/sandboxfileactions.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace Sandpiper {

SandboxFileRow::SandboxFileRow(const QString &folder, const QString &name, QWidget *parent)
    : QWidget(parent)
    , m_folder(folder)
    , m_name(name)
{
    auto *label = new QLabel(QStringLiteral("📄 %1").arg(name));
    label->setTextFormat(Qt::PlainText);
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
