#include "aboutdialog.h"
#include "ui_aboutdialog.h"

#include <sandpiper/buildinfo.h>

namespace Sandpiper {

AboutDialog::AboutDialog(QWidget *parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::AboutDialog>())
{
    m_ui->setupUi(this);
    m_ui->iconLabel->setPixmap(windowIcon().pixmap(96, 96));
    m_ui->titleLabel->setText(QStringLiteral("<h2>Sandpiper %1</h2>").arg(QLatin1String(BuildInfo::version)));
    m_ui->detailsLabel->setText(tr("Qt %1 · sandbox image %2 · MIT License")
                                    .arg(QLatin1String(qVersion()), QLatin1String(BuildInfo::defaultSandboxImage)));
}

AboutDialog::~AboutDialog() = default;

} // namespace Sandpiper
