#include "appearancesettingspage.h"

#include "appearance.h"
#include "settingsform.h"

#include <settings/settings.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace Sandpiper {

using SettingsForm::selectData;

AppearanceSettingsPage::AppearanceSettingsPage(Settings *settings, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_theme(new QComboBox)
    , m_fontSize(new QSpinBox)
    , m_language(new QComboBox)
    , m_notifications(new QCheckBox(tr("&Notify me when an answer that took over 10 s ends in the background")))
{
    m_theme->addItem(tr("Follow the system"), QStringLiteral("system"));
    m_theme->addItem(tr("Light"), QStringLiteral("light"));
    m_theme->addItem(tr("Dark"), QStringLiteral("dark"));
    m_theme->setAccessibleName(tr("Theme"));
    m_fontSize->setRange(0, 48);
    m_fontSize->setSpecialValueText(tr("System size"));
    m_fontSize->setSuffix(tr(" pt"));
    m_fontSize->setAccessibleName(tr("Chat font size"));
    m_language->addItem(tr("Follow the system"), QStringLiteral("system"));
    // Each language is named in itself, so that a user can find theirs whatever is showing.
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_language->setAccessibleName(tr("Language"));
    m_notifications->setAccessibleName(tr("Desktop notifications"));

    QFormLayout *form = SettingsForm::formOn(this);
    form->addRow(tr("&Theme:"), m_theme);
    form->addRow(tr("Chat &font size:"), m_fontSize);
    form->addRow(tr("&Language:"), m_language);
    form->addRow(QString(), m_notifications);
    auto *restartNote = new QLabel(tr("A new language shows after a restart."));
    restartNote->setWordWrap(true);
    form->addRow(QString(), restartNote);
    load();
}

void AppearanceSettingsPage::load()
{
    selectData(m_theme, m_settings->string(QStringLiteral("appearance/theme")));
    m_fontSize->setValue(m_settings->integer(QStringLiteral("appearance/chat_font_size")));
    selectData(m_language, m_settings->string(QStringLiteral("appearance/language")));
    m_notifications->setChecked(m_settings->boolean(QStringLiteral("notifications/enabled")));
}

void AppearanceSettingsPage::save()
{
    m_settings->setValue(QStringLiteral("appearance/theme"), m_theme->currentData());
    m_settings->setValue(QStringLiteral("appearance/chat_font_size"), m_fontSize->value());
    m_settings->setValue(QStringLiteral("appearance/language"), m_language->currentData());
    m_settings->setValue(QStringLiteral("notifications/enabled"), m_notifications->isChecked());
    applyAppearance(*qApp, *m_settings);
}

} // namespace Sandpiper
