#pragma once

#include <QWidget>

class QPlainTextEdit;

namespace Sandpiper {

class Settings;

// The settings' System prompt tab: the prompt the model gets, the default one shown too so that
// it can be read and edited from there, and a button that puts the default back.
class SystemPromptSettingsPage : public QWidget
{
    Q_OBJECT

public:
    explicit SystemPromptSettingsPage(Settings *settings, QWidget *parent = nullptr);

    // Writes the prompt to the settings; the default, untouched, is saved as empty.
    void save();

private:
    Settings *m_settings;
    QPlainTextEdit *m_prompt;
};

} // namespace Sandpiper
