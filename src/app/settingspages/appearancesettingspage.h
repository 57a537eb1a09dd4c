#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace Sandpiper {

class Settings;

// The settings' Appearance tab: the theme, the chat's font size, the language and the desktop
// notifications.
class AppearanceSettingsPage : public QWidget
{
    Q_OBJECT

public:
    explicit AppearanceSettingsPage(Settings *settings, QWidget *parent = nullptr);

    // Writes the fields to the settings and applies the theme and font size at once.
    void save();

private:
    void load();

    Settings *m_settings;
    QComboBox *m_theme;
    QSpinBox *m_fontSize;
    QComboBox *m_language;
    QCheckBox *m_notifications;
};

} // namespace Sandpiper
