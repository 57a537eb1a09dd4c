#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace Sandpiper {

struct RunnerProgram;

// A device llama-server can offload layers to, as `llama-server --list-devices` lists it
// ("Vulkan0", "AMD Radeon 780M (RADV PHOENIX)", 16384 MiB, 15000 MiB free).
struct ComputeDevice {
    QString name;
    QString description;
    qint64 totalMiB = 0;
    qint64 freeMiB = 0;
};

// What this machine has for a model besides its processors, never assumed: the GPU's device files
// and libraries (HARDWARE, for the user) and the devices the installed llama-server lists
// (DEVICES). Layers are offloaded only to a listed device.
struct DeviceProbe {
    QStringList hardware;
    // False when the server could not list its devices (too old for --list-devices, it did not
    // answer in time, it runs in a container without the GPU); NOTE says why.
    bool listed = false;
    QList<ComputeDevice> devices;
    QString note;

    // Vulkan (a /dev/dri/renderD* node and a Vulkan loader with an ICD), CUDA (/dev/nvidia* and
    // libcuda), ROCm (/dev/kfd), looked for under ROOT ("/" on a real machine).
    static QStringList detectHardware(const QString &root = QStringLiteral("/"));
    // The devices of `llama-server --list-devices` OUTPUT; nullopt when it is not such a list
    // (an older server's "unknown argument"). The CPU is never listed there.
    static std::optional<QList<ComputeDevice>> parseDevices(const QString &output);
    // Asks PROGRAM's llama-server for its devices (within TIMEOUT) and looks at the hardware.
    // A server in a container is given no GPU, so it is not asked.
    static DeviceProbe run(const RunnerProgram &program, std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // What identifies PROGRAM's llama-server on disk: the path, size and time of change of its
    // file and of each file among its leading arguments (a loader's server); empty for a container,
    // which is never asked.
    static QString stamp(const RunnerProgram &program);
    // run(), once for each llama-server: remembered for the life of the app, and in CACHEFILE (JSON)
    // across runs for as long as its stamp() stays the same, so a new build of the server is asked
    // again. Only a list is kept in the file: a server that could not list its devices (it did not
    // start, a library was missing) is asked again at the next run. The hardware is looked at each
    // time.
    // Blocks while the server is asked: call it off the GUI thread (RunnerDiscovery does).
    static DeviceProbe cached(const RunnerProgram &program, const QString &cacheFile);
};

} // namespace Sandpiper
