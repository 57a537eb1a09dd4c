// What the engine is and which limits it enforces, read from `docker info` and `podman info`
// as each prints it (the shapes of Docker 26 and podman 5), and asked of this machine's engine.
#include "dockertest.h"

#include <sandbox/enginefeatures.h>

#include <QCoroTask>
#include <QTest>

using Sandpiper::EngineFeatures;
using Engine = Sandpiper::EngineFeatures::Engine;

class TestEngineFeatures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rootlessPodmanOnCgroupV1HasNoLimits()
    {
        const auto features = EngineFeatures::fromInfo(
            R"({"host": {"cgroupVersion": "v1", "cgroupControllers": [], "security": {"rootless": true}},
                "version": {"Version": "5.4.2"}})");
        QCOMPARE(features.engine, Engine::Podman);
        QVERIFY(features.keepsUserId());
        QCOMPARE(features.cgroupVersion, QStringLiteral("1"));
        QVERIFY(!features.memoryLimit && !features.cpuLimit && !features.pidsLimit);
        QCOMPARE(features.summary(), QStringLiteral("podman 5.4.2, rootless, no limits on memory, CPU, processes: a "
                                                    "rootless engine on cgroup v1 gets no cgroup controllers"));
        QCOMPARE(features.limitsWarning(),
                 QStringLiteral("This engine does not enforce the sandbox's limits on memory, CPU, processes (a "
                                "rootless engine on cgroup v1 gets no cgroup controllers): code in the sandbox is "
                                "not held to them."));
    }

    void rootlessPodmanOnCgroupV2HasTheDelegatedOnes()
    {
        const auto features = EngineFeatures::fromInfo(
            R"({"host": {"cgroupVersion": "v2", "cgroupControllers": ["memory", "pids"],
                         "security": {"rootless": true}}, "version": {"Version": "5.4.2"}})");
        QVERIFY(features.memoryLimit && features.pidsLimit && !features.cpuLimit);
        QVERIFY2(features.limitsWarning().contains(QLatin1String("limits on CPU (the cgroup controllers are not "
                                                                 "delegated to this user)")),
                 qPrintable(features.limitsWarning()));
    }

    void rootfulPodmanKeepsNoIdAndHasEveryLimit()
    {
        const auto features = EngineFeatures::fromInfo(
            R"({"host": {"cgroupVersion": "v2", "cgroupControllers": ["cpu", "memory", "pids"],
                         "security": {"rootless": false}}, "version": {"Version": "5.4.2"}})");
        QCOMPARE(features.engine, Engine::Podman);
        QVERIFY(!features.keepsUserId());
        QVERIFY(features.limitsWarning().isEmpty());
        QCOMPARE(features.summary(), QStringLiteral("podman 5.4.2"));
    }

    void dockerSaysWhatItEnforces()
    {
        const auto rootful = EngineFeatures::fromInfo(
            R"({"ServerVersion": "26.1.5", "CgroupVersion": "1", "MemoryLimit": true, "CpuCfsQuota": true,
                "PidsLimit": true, "SecurityOptions": ["name=seccomp,profile=builtin"]})");
        QCOMPARE(rootful.engine, Engine::Docker);
        QVERIFY(!rootful.keepsUserId());
        QCOMPARE(rootful.summary(), QStringLiteral("Docker 26.1.5"));
        QVERIFY(rootful.limitsWarning().isEmpty());
        const auto rootless = EngineFeatures::fromInfo(
            R"({"ServerVersion": "28.0.1", "CgroupVersion": "2", "MemoryLimit": false, "CpuCfsQuota": false,
                "PidsLimit": true, "SecurityOptions": ["name=seccomp,profile=builtin", "name=rootless"]})");
        QVERIFY(rootless.rootless);
        QVERIFY(!rootless.keepsUserId());
        QVERIFY2(rootless.limitsWarning().contains(QLatin1String("limits on memory, CPU (the cgroup controllers")),
                 qPrintable(rootless.limitsWarning()));
    }

    void somethingElseIsUnknown()
    {
        for (const QByteArray &json :
             {QByteArray(), QByteArray("not json"), QByteArray(R"({"ServerVersion": ""})"), QByteArray(R"([1, 2])")}) {
            const auto features = EngineFeatures::fromInfo(json);
            QCOMPARE(features.engine, Engine::Unknown);
            QVERIFY(features.summary().isEmpty());
        }
    }

    void thisMachinesEngineIsKnown()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const auto features = QCoro::waitFor(EngineFeatures::of());
        QVERIFY(features.engine != Engine::Unknown);
        QVERIFY(!features.version.isEmpty());
        // Asked again, from the cache: the same.
        QCOMPARE(QCoro::waitFor(EngineFeatures::of()).summary(), features.summary());
    }
};

QTEST_GUILESS_MAIN(TestEngineFeatures)
#include "tst_enginefeatures.moc"
