#pragma once

#include <QString>
#include <QTest>

namespace Sandpiper::Test {

// The image the build expects (the tag carries the hash of its definition).
QString sandboxImage();

// Empty when Docker and the sandbox image are usable, else why not.
QString dockerUnavailableReason();

} // namespace Sandpiper::Test

// Tests that need Docker fail in CI (CI=true) when it is missing, and skip elsewhere.
#define SANDPIPER_REQUIRE_DOCKER()                                                                                     \
    do {                                                                                                               \
        const QString reason_ = Sandpiper::Test::dockerUnavailableReason();                                            \
        if (!reason_.isEmpty()) {                                                                                      \
            if (qEnvironmentVariable("CI") == QLatin1String("true"))                                                   \
                QFAIL(qPrintable(reason_));                                                                            \
            QSKIP(qPrintable(reason_));                                                                                \
        }                                                                                                              \
    } while (false)
