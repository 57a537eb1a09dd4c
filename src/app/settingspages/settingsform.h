#pragma once

#include <QString>

class QComboBox;
class QFormLayout;
class QWidget;

namespace Sandpiper {

// What the settings pages share: how an error looks, a choice picked by its data, a page laid
// out as one form.
namespace SettingsForm {

// The style of a label that says what is wrong.
QString errorStyle();

// Selects the item of COMBO whose data is VALUE, the first when none is.
void selectData(QComboBox *combo, const QString &value);

// Lays PAGE out as a form at its top; the rows go into the form returned.
QFormLayout *formOn(QWidget *page);

} // namespace SettingsForm

} // namespace Sandpiper
