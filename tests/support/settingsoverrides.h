#pragma once

#include <QStringList>

namespace Sandpiper {
class Settings;
}

namespace Sandpiper::Test {

// Applies ASSIGNMENTS (KEY=VALUE) to SETTINGS for this run only; returns why the first one that
// was refused was, or an empty string when all were taken.
QString applySettings(Settings &settings, const QStringList &assignments);

} // namespace Sandpiper::Test
