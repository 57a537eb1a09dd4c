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

// An engine address where nothing listens: tcp://127.0.0.1:PORT.
QString silentEngineAddress();

// Starts an idle container of the sandbox image labelled as a Sandpiper process of this machine
// with OWNERPID made it: this process's pid for a live owner, a pid no process has for one that
// crashed. Its id; empty when it did not start.
QString startOwnedContainer(qint64 ownerPid);
// Whether the container ID is still there, running or not.
bool containerExists(const QString &id);
// A pid no process has: above the largest the kernel gives.
constexpr qint64 deadPid = 4'194'304 + 1000;

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
