#pragma once

#include <QString>
#include <QTest>

namespace Sandpiper::Test {

// The image the build expects (the tag carries the hash of its definition).
QString sandboxImage();

// Empty when Docker and the sandbox image are usable, else why not.
QString dockerUnavailableReason();

// The second, "remote" engine that scripts/test starts (scripts/lib/remote-engine.sh), as a
// DOCKER_HOST value; empty when there is none.
QString remoteDockerHost();
// Empty when that engine and Docker are usable, else why not.
QString remoteEngineUnavailableReason();

} // namespace Sandpiper::Test

// A test that needs something the machine lacks (REASON says what, empty when nothing) fails in
// CI (CI=true) and skips elsewhere.
#define SANDPIPER_REQUIRE_AVAILABLE(reason)                                                                            \
    do {                                                                                                               \
        const QString reason_ = (reason);                                                                              \
        if (!reason_.isEmpty()) {                                                                                      \
            if (qEnvironmentVariable("CI") == QLatin1String("true"))                                                   \
                QFAIL(qPrintable(reason_));                                                                            \
            QSKIP(qPrintable(reason_));                                                                                \
        }                                                                                                              \
    } while (false)

#define SANDPIPER_REQUIRE_DOCKER() SANDPIPER_REQUIRE_AVAILABLE(Sandpiper::Test::dockerUnavailableReason())
