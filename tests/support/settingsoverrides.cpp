#include "settingsoverrides.h"

#include <settings/settings.h>

namespace Sandpiper::Test {

QString applySettings(Settings &settings, const QStringList &assignments)
{
    for (const QString &assignment : assignments) {
        if (QString error = settings.addOverride(assignment); !error.isEmpty())
            return error;
    }
    return {};
}

} // namespace Sandpiper::Test
