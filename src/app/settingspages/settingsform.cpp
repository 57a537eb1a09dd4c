#include "settingsform.h"

#include <QComboBox>
#include <QFormLayout>
#include <QVBoxLayout>

namespace Sandpiper::SettingsForm {

QString errorStyle()
{
    return QStringLiteral("color: #b3261e;");
}

void selectData(QComboBox *combo, const QString &value)
{
    const int index = combo->findData(value);
    combo->setCurrentIndex(index >= 0 ? index : 0);
}

QFormLayout *formOn(QWidget *page)
{
    auto *layout = new QVBoxLayout(page);
    auto *form = new QFormLayout;
    layout->addLayout(form);
    layout->addStretch(1);
    return form;
}

} // namespace Sandpiper::SettingsForm
