#pragma once

#include "sandbox/enginefeatures.h"
#include "sandbox/enginelocality.h"

#include <QCoreApplication>
#include <QString>

#include <QCoroTask>

namespace Sandpiper {

// The engine the docker CLI talks to, as Settings and the status bar show it: which one, whether
// it is local or remote, whether it answers, and how long a round trip to it takes.
struct EngineStatus {
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::EngineStatus)

public:
    QString engine; // the host URL, the context, or "the default engine"
    EngineLocality::Kind locality = EngineLocality::Kind::Unknown;
    bool answers = false;
    QString error;           // why it does not answer
    qint64 roundTripMs = -1; // `docker version`: the client's round trip to the engine
    // A remote engine's: what a run pays there, a request and its answer on a running kernel's
    // channel (median of a few); -1 when not measured. What the status bar shows for it.
    qint64 channelRoundTripMs = -1;
    EngineFeatures features; // Docker or podman, rootless, the limits it enforces

    // ENGINE (by default the one chosen now), for the user.
    static QString describeEngine(const DockerCli::Engine &engine = DockerCli::Engine::chosen());
    // Whether it is this machine's own engine: no host URL, the default context.
    static bool isDefaultEngine(const DockerCli::Engine &engine = DockerCli::Engine::chosen());
    // Asks ENGINE (and, once per engine, whether it is local, with IMAGE).
    static QCoro::Task<EngineStatus> check(QString image, DockerCli::Engine engine = DockerCli::Engine::chosen());
    // How long a trivial execution takes there: a fresh container of IMAGE running Python's
    // `pass`, from start to end; -1 when it failed.
    static QCoro::Task<qint64> trivialExecutionMs(QString image,
                                                  DockerCli::Engine engine = DockerCli::Engine::chosen());
    // The channel's round trip on ENGINE: a kernel of IMAGE started there, a few trivial requests
    // timed from request to answer, their median; -1 when it could not be measured.
    static QCoro::Task<qint64> measureChannelRoundTrip(QString image,
                                                       DockerCli::Engine engine = DockerCli::Engine::chosen());
    // A line for the user: the engine, local or remote, its health and round trip, what it is
    // and which limits it does not enforce.
    QString summary() const;
};

} // namespace Sandpiper
