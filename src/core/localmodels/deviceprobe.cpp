#include "localmodels/deviceprobe.h"

#include "localmodels/localrunner.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QProcess>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTimeZone>

namespace Sandpiper {

namespace {

// The folders a distribution keeps its libraries in, under ROOT.
QStringList libraryFolders(const QString &root)
{
    QStringList folders;
    for (const QString &folder : {QStringLiteral("usr/lib"), QStringLiteral("usr/lib64"), QStringLiteral("lib"),
                                  QStringLiteral("lib64"), QStringLiteral("usr/local/lib")}) {
        const QDir dir(QDir(root).filePath(folder));
        if (!dir.exists())
            continue;
        folders << dir.path();
        for (const QString &triplet : dir.entryList({QStringLiteral("*-linux-gnu*")}, QDir::Dirs))
            folders << dir.filePath(triplet);
    }
    return folders;
}

bool hasLibrary(const QStringList &folders, const QString &pattern)
{
    return std::any_of(folders.cbegin(), folders.cend(),
                       [&](const QString &folder) { return !QDir(folder).entryList({pattern}).isEmpty(); });
}

bool hasEntries(const QString &folder, const QString &pattern, QDir::Filters filters = QDir::System | QDir::Files)
{
    return !QDir(folder).entryList({pattern}, filters).isEmpty();
}

} // namespace

QStringList DeviceProbe::detectHardware(const QString &root)
{
    const QDir dir(root);
    const QStringList libraries = libraryFolders(root);
    QStringList found;
    const QStringList render = QDir(dir.filePath(QStringLiteral("dev/dri")))
                                   .entryList({QStringLiteral("renderD*")}, QDir::System | QDir::Files);
    if (!render.isEmpty()) {
        // A render node alone is not Vulkan: the loader and a driver (an ICD) must be there too.
        const bool loader = hasLibrary(libraries, QStringLiteral("libvulkan.so*"));
        const bool icd =
            hasEntries(dir.filePath(QStringLiteral("usr/share/vulkan/icd.d")), QStringLiteral("*.json"), QDir::Files) ||
            hasEntries(dir.filePath(QStringLiteral("etc/vulkan/icd.d")), QStringLiteral("*.json"), QDir::Files);
        if (loader && icd)
            found << QStringLiteral("Vulkan (/dev/dri/%1)").arg(render.first());
    }
    if (QFileInfo::exists(dir.filePath(QStringLiteral("dev/nvidia0"))) &&
        hasLibrary(libraries, QStringLiteral("libcuda.so*")))
        found << QStringLiteral("CUDA (/dev/nvidia0)");
    if (QFileInfo::exists(dir.filePath(QStringLiteral("dev/kfd"))))
        found << QStringLiteral("ROCm (/dev/kfd)");
    return found;
}

std::optional<QList<ComputeDevice>> DeviceProbe::parseDevices(const QString &output)
{
    // common/arg.cpp prints "Available devices:", then "  (none)" or one line for each device:
    //   printf("  %s: %s (%zu MiB, %zu MiB free)\n", name, description, total / MiB, free / MiB);
    // Backends may log before it (ggml_vulkan: Found 1 Vulkan devices: ...); a description may
    // hold parentheses and colons, so the memory is read from the end of the line.
    static const QRegularExpression device(
        QStringLiteral(R"(^\s+([^\s:]+):\s+(.*?)\s*\((\d+) MiB, (\d+) MiB free\)\s*$)"));
    const QStringList lines = output.split(QLatin1Char('\n'));
    qsizetype start = -1;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).trimmed() == QLatin1String("Available devices:"))
            start = i + 1;
    }
    if (start < 0)
        return std::nullopt;
    QList<ComputeDevice> devices;
    for (qsizetype i = start; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        // The list is indented; a backend that logs after it (ggml_cuda_init: found 2 CUDA
        // devices, then its own indented lines) ends it.
        if (!line.isEmpty() && !line.at(0).isSpace())
            break;
        const QRegularExpressionMatch match = device.match(line);
        if (!match.hasMatch())
            continue; // "(none)", a blank line
        devices.append(
            {match.captured(1), match.captured(2), match.captured(3).toLongLong(), match.captured(4).toLongLong()});
    }
    return devices;
}

DeviceProbe DeviceProbe::run(const RunnerProgram &program, std::chrono::milliseconds timeout)
{
    DeviceProbe probe;
    probe.hardware = detectHardware();
    if (program.isContainer()) {
        probe.note = QStringLiteral("in a container, without the GPU");
        return probe;
    }
    if (program.program.isEmpty()) {
        probe.note = QStringLiteral("no llama-server");
        return probe;
    }
    QProcess process;
    process.setProcessEnvironment(program.environment);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program.program, program.leading + QStringList{QStringLiteral("--list-devices")});
    if (!process.waitForStarted(int(timeout.count()))) {
        probe.note = QStringLiteral("llama-server could not be started (%1)").arg(process.errorString());
        return probe;
    }
    if (!process.waitForFinished(int(timeout.count()))) {
        process.kill();
        process.waitForFinished(2000);
        probe.note =
            QStringLiteral("llama-server --list-devices did not answer within %1 s").arg(timeout.count() / 1000);
        return probe;
    }
    const std::optional<QList<ComputeDevice>> devices = parseDevices(QString::fromLocal8Bit(process.readAll()));
    if (!devices) {
        probe.note = QStringLiteral("this llama-server cannot list its devices (--list-devices)");
        return probe;
    }
    probe.listed = true;
    probe.devices = *devices;
    return probe;
}

QString DeviceProbe::stamp(const RunnerProgram &program)
{
    if (program.isContainer() || program.program.isEmpty())
        return {};
    QStringList parts;
    for (const QString &path : QStringList{program.program} + program.leading) {
        const QFileInfo file(path);
        if (file.isFile())
            parts << QStringLiteral("%1 %2 %3")
                         .arg(file.absoluteFilePath())
                         .arg(file.size())
                         .arg(file.lastModified(QTimeZone::UTC).toMSecsSinceEpoch());
    }
    return parts.join(QLatin1Char('\n'));
}

namespace {

QJsonObject toJson(const DeviceProbe &probe, const QString &stamp)
{
    QJsonArray devices;
    for (const ComputeDevice &device : probe.devices)
        devices.append(QJsonObject{{QStringLiteral("name"), device.name},
                                   {QStringLiteral("description"), device.description},
                                   {QStringLiteral("total_mib"), device.totalMiB},
                                   {QStringLiteral("free_mib"), device.freeMiB}});
    return {
        {QStringLiteral("stamp"), stamp}, {QStringLiteral("note"), probe.note}, {QStringLiteral("devices"), devices}};
}

std::optional<DeviceProbe> fromJson(const QJsonObject &object, const QString &stamp)
{
    if (object.value(QLatin1String("stamp")).toString() != stamp)
        return std::nullopt;
    DeviceProbe probe;
    probe.listed = true;
    probe.note = object.value(QLatin1String("note")).toString();
    for (const QJsonValue &value : object.value(QLatin1String("devices")).toArray()) {
        const QJsonObject device = value.toObject();
        probe.devices.append({device.value(QLatin1String("name")).toString(),
                              device.value(QLatin1String("description")).toString(),
                              device.value(QLatin1String("total_mib")).toInteger(),
                              device.value(QLatin1String("free_mib")).toInteger()});
    }
    return probe;
}

QMutex cacheMutex;

QJsonObject readCache(const QString &cacheFile)
{
    QFile file(cacheFile);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.read(1024 * 1024)).object();
}

} // namespace

DeviceProbe DeviceProbe::cached(const RunnerProgram &program, const QString &cacheFile)
{
    const QString stamped = stamp(program);
    if (stamped.isEmpty())
        return run(program);
    // One entry for each way of starting a server; its stamp says which build answered.
    const QString key = (QStringList{program.program} + program.leading).join(QLatin1Char('\n'));
    static QHash<QString, DeviceProbe> probes; // by stamp, for the life of the app
    QMutexLocker lock(&cacheMutex);
    std::optional<DeviceProbe> probe;
    if (const auto found = probes.constFind(stamped); found != probes.cend())
        probe = *found;
    else if (!cacheFile.isEmpty())
        probe = fromJson(readCache(cacheFile).value(key).toObject(), stamped);
    if (!probe) {
        // Two programs are not asked at once: they would share the processor and the GPU's driver.
        probe = run(program);
        if (probe->listed && !cacheFile.isEmpty()) {
            QJsonObject stored = readCache(cacheFile);
            stored.insert(key, toJson(*probe, stamped));
            QDir().mkpath(QFileInfo(cacheFile).absolutePath());
            QSaveFile file(cacheFile);
            if (file.open(QIODevice::WriteOnly)) {
                file.write(QJsonDocument(stored).toJson(QJsonDocument::Compact));
                file.commit();
            }
        }
    }
    probes.insert(stamped, *probe);
    probe->hardware = detectHardware();
    return *probe;
}

} // namespace Sandpiper
