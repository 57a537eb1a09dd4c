#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace Sandpiper {

struct RunnerPlan;

// llama-server in a container on this machine's Docker engine, for a machine without a
// llama-server of its own: an image of the repository sandpiper-llama, which RunnerImage makes
// (llama.cpp's published server image, or Debian's llama.cpp-tools by sandbox/llama/build-image.sh).
// Its entrypoint is llama-server, so the server's arguments follow the image.
namespace RunnerContainer {

// The images' repository: the newest sandpiper-llama:TAG is the one used.
QString repository();
// The Docker engine of this machine: DOCKER_HOST only when it names a local socket (the model
// file is mounted from this machine's disk).
QProcessEnvironment environment();
// The docker program, empty when there is none.
QString docker();
// The newest image of repository() on this machine's engine; empty when there is none, or no
// Docker (asked within a few seconds, and remembered for a few more).
QString findImage();
// findImage() asks Docker again next time: an image was just made or removed.
void forgetImage();
// The network the containers use, made once: see runArguments().
bool ensureNetwork();
// `docker run` arguments that start IMAGE as NAME for PLAN, answering on 127.0.0.1:PORT alone.
QStringList runArguments(const QString &image, const RunnerPlan &plan, quint16 port, const QString &name);
// `docker run` arguments that ask IMAGE's llama-server for its version, run as runArguments()
// runs it (the app's user, a read-only root, no capabilities), without network: whether the
// server starts there at all.
QStringList versionArguments(const QString &image);
// Removes the container NAME if it is still there, and waits until it is gone.
void remove(const QString &name);
// Removes the containers that a Sandpiper which no longer runs left behind (killed, its docker
// client could not stop them): each carries its owner's process id.
void removeOrphans();

} // namespace RunnerContainer

} // namespace Sandpiper
