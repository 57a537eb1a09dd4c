#pragma once

#include <settings/settings.h>

#include <QTemporaryDir>

#include <memory>

namespace Sandpiper::Test {

// A profile of a test's own, with its settings; reopened() reads the file again, as the next
// start of the program would, to see what was saved.
class SettingsProfile
{
public:
    SettingsProfile()
        : m_settings(m_folder.path())
    {}

    Settings *settings() { return &m_settings; }
    std::unique_ptr<Settings> reopened() const { return std::make_unique<Settings>(m_folder.path()); }

private:
    QTemporaryDir m_folder;
    Settings m_settings;
};

} // namespace Sandpiper::Test
