#pragma once

#include <QList>
#include <QWidget>

#include <utility>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace Sandpiper {

class Settings;

// The settings' Tools tab: whether each built-in tool asks before it runs, runs at once or never,
// how many tool rounds an answer may take, how long a tool's result for the model may be, and which
// web search backend answers.
class ToolSettingsPage : public QWidget
{
    Q_OBJECT

public:
    explicit ToolSettingsPage(Settings *settings, QWidget *parent = nullptr);

    // Writes the fields to the settings.
    void save();

private:
    void load();
    // The SearXNG address matters only with that backend.
    void enableSearxngUrl();

    Settings *m_settings;
    QList<std::pair<QString, QComboBox *>> m_approvals; // by tool name
    QSpinBox *m_maxRounds;
    QSpinBox *m_resultChars; // 0: automatic
    QComboBox *m_searchBackend;
    QLineEdit *m_searxngUrl;
};

} // namespace Sandpiper
