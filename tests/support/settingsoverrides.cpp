#include "settingsoverrides.h"

#include <settings/settings.h>

namespace Sandpiper::Test {

QString applySettings(Settings &settings, const QStringList &assignments)
{
    QString error;
    for (const QString &assignment : assignments) {
        if (!settings.addOverride(assignment, &error))
            return error;
    }
    return {};
}

} // namespace Sandpiper::Test
