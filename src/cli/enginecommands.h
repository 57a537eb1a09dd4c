#pragma once

#include <QString>

namespace Sandpiper {

// What sandpiper-cli does with the engine alone, as the settings' Sandbox tab does (EngineService).
// Each prints its answer on stdout, what happens meanwhile on stderr, and returns the exit code.
namespace EngineCommands {

// --check-engine: the engine of the settings, where it is, how fast it answers and how long a
// trivial execution of IMAGE takes; 0 when it answers and ran it, 1 otherwise.
int check(const QString &image);

// --list-engines: the docker command's contexts, one a line, NAME<TAB>endpoint; always 0 (podman
// has none).
int listContexts();

// --build-image: IMAGE on the engine of the settings, sent from this machine or built there,
// with the build's output; 0 when it is there.
int provideImage(const QString &image);

// --get-runner: llama-server for Docker as Settings › Models gets it (RunnerImage): REFERENCE pulled
// (empty: llama.cpp's published image for this computer), else built from Debian's packages, with
// the output on stderr; Ctrl-C stops it. 0 when the image is there.
int getRunner(const QString &reference);

// --remove-leftovers: removes the containers of Sandpiper processes of this machine that no
// longer run (crashes) and says how many; 0.
int removeLeftovers();

} // namespace EngineCommands

} // namespace Sandpiper
