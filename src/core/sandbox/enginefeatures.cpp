#include "sandbox/enginefeatures.h"

#include "logging.h"
#include "sandbox/dockercli.h"
#include "sandbox/enginelocality.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

QMutex cacheMutex;
QHash<QString, EngineFeatures> &cache()
{
    static QHash<QString, EngineFeatures> answers;
    return answers;
}

EngineFeatures podmanFeatures(const QJsonObject &info)
{
    EngineFeatures features;
    features.engine = EngineFeatures::Engine::Podman;
    const QJsonObject host = info.value(QLatin1String("host")).toObject();
    features.version = info.value(QLatin1String("version")).toObject().value(QLatin1String("Version")).toString();
    features.rootless = host.value(QLatin1String("security")).toObject().value(QLatin1String("rootless")).toBool();
    features.cgroupVersion = host.value(QLatin1String("cgroupVersion")).toString().remove(QLatin1Char('v'));
    if (features.rootless) {
        // What the user may use: the controllers delegated to it (none on cgroup v1, where
        // podman ignores every limit).
        const QJsonArray controllers = host.value(QLatin1String("cgroupControllers")).toArray();
        features.memoryLimit = controllers.contains(QLatin1String("memory"));
        features.cpuLimit = controllers.contains(QLatin1String("cpu"));
        features.pidsLimit = controllers.contains(QLatin1String("pids"));
    }
    return features;
}

EngineFeatures dockerFeatures(const QJsonObject &info)
{
    EngineFeatures features;
    features.engine = EngineFeatures::Engine::Docker;
    features.version = info.value(QLatin1String("ServerVersion")).toString();
    features.rootless = info.value(QLatin1String("SecurityOptions")).toArray().contains(QLatin1String("name=rootless"));
    features.cgroupVersion = info.value(QLatin1String("CgroupVersion")).toString();
    features.memoryLimit = info.value(QLatin1String("MemoryLimit")).toBool(true);
    features.cpuLimit = info.value(QLatin1String("CpuCfsQuota")).toBool(true);
    features.pidsLimit = info.value(QLatin1String("PidsLimit")).toBool(true);
    return features;
}

} // namespace

EngineFeatures EngineFeatures::fromInfo(const QByteArray &json)
{
    const QJsonObject info = QJsonDocument::fromJson(json).object();
    if (info.value(QLatin1String("host")).isObject())
        return podmanFeatures(info);
    if (info.contains(QLatin1String("ServerVersion")) &&
        !info.value(QLatin1String("ServerVersion")).toString().isEmpty())
        return dockerFeatures(info);
    return {};
}

QStringList EngineFeatures::missingLimits() const
{
    QStringList missing;
    if (!memoryLimit)
        missing << tr("memory");
    if (!cpuLimit)
        missing << tr("CPU");
    if (!pidsLimit)
        missing << tr("processes");
    return missing;
}

QString EngineFeatures::limitsCause() const
{
    if (!rootless)
        return tr("the kernel's cgroups lack the controllers");
    return cgroupVersion == QLatin1String("1") ? tr("a rootless engine on cgroup v1 gets no cgroup controllers")
                                               : tr("the cgroup controllers are not delegated to this user");
}

QString EngineFeatures::summary() const
{
    QString line;
    switch (engine) {
    case Engine::Unknown:
        return {};
    case Engine::Docker:
        line = QStringLiteral("Docker %1").arg(version);
        break;
    case Engine::Podman:
        line = QStringLiteral("podman %1").arg(version);
        break;
    }
    if (rootless)
        line = tr("%1, rootless").arg(line);
    if (const QStringList missing = missingLimits(); !missing.isEmpty())
        line = tr("%1, no limits on %2: %3").arg(line, missing.join(QStringLiteral(", ")), limitsCause());
    return line;
}

QString EngineFeatures::limitsWarning() const
{
    const QStringList missing = missingLimits();
    if (missing.isEmpty())
        return {};
    return tr("This engine does not enforce the sandbox's limits on %1 (%2): code in the sandbox is not held to "
              "them.")
        .arg(missing.join(QStringLiteral(", ")), limitsCause());
}

QCoro::Task<EngineFeatures> EngineFeatures::of(DockerCli::Engine engine)
{
    const QString key = EngineLocality::engineKey(engine);
    {
        const QMutexLocker lock(&cacheMutex);
        if (const auto known = cache().constFind(key); known != cache().constEnd())
            co_return *known;
    }
    const auto result = co_await DockerCli::run(
        {QStringLiteral("info"), QStringLiteral("--format"), QStringLiteral("{{json .}}")}, {}, 20s, engine);
    const EngineFeatures features = result.ok() ? fromInfo(result.standardOutput) : EngineFeatures{};
    if (features.engine == Engine::Unknown) {
        qCWarning(lcSandbox) << "cannot tell what the engine is:" << result.errorMessage();
        co_return features;
    }
    qCInfo(lcSandbox) << "the engine is" << features.summary() << "cgroup v" << features.cgroupVersion;
    if (const QString warning = features.limitsWarning(); !warning.isEmpty())
        qCWarning(lcSandbox) << warning;
    const QMutexLocker lock(&cacheMutex);
    cache().insert(key, features);
    co_return features;
}

void EngineFeatures::forget()
{
    const QMutexLocker lock(&cacheMutex);
    cache().clear();
}

} // namespace Sandpiper
