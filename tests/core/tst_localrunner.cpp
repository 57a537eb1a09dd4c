// llama-server run by Sandpiper as a child process (issue 26): Debian's real server with the
// tiny model, started on first use, known to be loading, answering, started again once after
// a kill, stopped when idle; and the plan of flags it is given for this machine.
#include "dockertest.h"
#include "llamaserver.h"

#include <localmodels/deviceprobe.h>
#include <localmodels/localrunner.h>

#include <QCoroTask>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using namespace std::chrono_literals;

class TestLocalRunner : public QObject
{
    Q_OBJECT

    QTemporaryDir m_logs;

    std::unique_ptr<LocalRunner> runner(const QString &modelPath = LlamaServer::modelPath())
    {
        QString why;
        const auto command = LlamaServer::command(&why);
        if (!command)
            return nullptr;
        RunnerPlan plan = RunnerPlan::forModel(modelPath, GgufInfo{}, 0, 1);
        plan.alias = QStringLiteral("tiny");
        return std::make_unique<LocalRunner>(RunnerProgram{command->program, command->leading, command->environment},
                                             plan, m_logs.filePath(QStringLiteral("llama-server.log")));
    }

    // The model list of the server at BASEURL, as a client would ask for it.
    static QStringList models(const QUrl &baseUrl)
    {
        QNetworkAccessManager network;
        QNetworkReply *reply = network.get(QNetworkRequest(QUrl(baseUrl.toString() + QStringLiteral("/models"))));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        finished.wait(10000);
        QStringList ids;
        for (const QJsonValue &model :
             QJsonDocument::fromJson(reply->readAll()).object()[QLatin1String("data")].toArray())
            ids << model[QLatin1String("id")].toString();
        reply->deleteLater();
        return ids;
    }

private Q_SLOTS:
    void init() { SANDPIPER_REQUIRE_LLAMA(); }

    // The context comes from the memory left after the weights, never more than the model was
    // trained for; slots share the server's context.
    void thePlanFitsTheMachine()
    {
        GgufInfo info;
        info.trainedContext = 32768;
        info.kvBytesPerToken = 131072; // an 8B model's 128 KiB a token
        info.weightBytes = qint64(5) << 30;
        const qint64 gib = qint64(1) << 30;
        QCOMPARE(RunnerPlan::forModel(QStringLiteral("/m/a.gguf"), info, 64 * gib, 8).contextSize, 32768);
        // 8 GiB: 2 GiB after the weights and the margin, 16384 tokens.
        QCOMPARE(RunnerPlan::forModel(QStringLiteral("/m/a.gguf"), info, 8 * gib, 8).contextSize, 16384);
        QCOMPARE(RunnerPlan::forModel(QStringLiteral("/m/a.gguf"), info, 8 * gib, 8, 2).contextSize, 8192);
        QCOMPARE(RunnerPlan::forModel(QStringLiteral("/m/a.gguf"), info, 4 * gib, 8).contextSize, 2048);
        info.kvBytesPerToken = 0;
        QCOMPARE(RunnerPlan::forModel(QStringLiteral("/m/a.gguf"), info, 4 * gib, 8).contextSize, 32768);
        info.trainedContext = 0;
        QCOMPARE(RunnerPlan::forModel(QStringLiteral("/m/a.gguf"), info, 4 * gib, 8).contextSize, 8192);

        info.trainedContext = 32768;
        const RunnerPlan plan = RunnerPlan::forModel(QStringLiteral("/m/a.gguf"), info, 64 * gib, 4, 2);
        QCOMPARE(plan.alias, QStringLiteral("a"));
        const QStringList arguments = plan.arguments(8123);
        QVERIFY(arguments.contains(QLatin1String("--jinja")));
        QCOMPARE(arguments.at(arguments.indexOf(QLatin1String("--host")) + 1), QStringLiteral("127.0.0.1"));
        QCOMPARE(arguments.at(arguments.indexOf(QLatin1String("--port")) + 1), QStringLiteral("8123"));
        QCOMPARE(arguments.at(arguments.indexOf(QLatin1String("-c")) + 1), QStringLiteral("65536"));
        QCOMPARE(arguments.at(arguments.indexOf(QLatin1String("-np")) + 1), QStringLiteral("2"));
        QCOMPARE(arguments.at(arguments.indexOf(QLatin1String("-t")) + 1), QStringLiteral("4"));
        QCOMPARE(arguments.at(arguments.indexOf(QLatin1String("-m")) + 1), QStringLiteral("/m/a.gguf"));
    }

    // First use starts it; while it loads the state says so; two askers share the one start.
    void startsOnFirstUseAndAnswers()
    {
        auto local = runner();
        QVERIFY(local);
        QSignalSpy states(local.get(), &LocalRunner::stateChanged);
        auto first = local->ready();
        auto second = local->ready();
        const Result<QUrl> url = QCoro::waitFor(std::move(first));
        QVERIFY2(url.ok(), qPrintable(url.error()));
        const Result<QUrl> again = QCoro::waitFor(std::move(second));
        QVERIFY2(again.ok(), qPrintable(again.error()));
        QCOMPARE(*again, *url);
        QCOMPARE(local->state(), LocalRunner::State::Ready);
        QVERIFY(!states.isEmpty());
        QCOMPARE(states.first().at(0).value<LocalRunner::State>(), LocalRunner::State::Loading);
        QVERIFY2(states.first().at(1).toString().startsWith(QLatin1String("Loading tiny.gguf")),
                 qPrintable(states.first().at(1).toString()));
        QVERIFY2(local->message().contains(QLatin1String("is ready (loaded in ")), qPrintable(local->message()));
        QCOMPARE(models(*url), QStringList{QStringLiteral("tiny")});
        QVERIFY(local->processId() > 0);

        QFile log(local->logFile());
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY2(log.readAll().contains("--jinja"), "the log starts with the command");
    }

    // Killed while it runs, it is started again once, on another process; killed again, it says
    // so with its log, and the next message starts it.
    void isStartedAgainOnceAfterAKill()
    {
        auto local = runner();
        QVERIFY(local);
        QVERIFY(QCoro::waitFor(local->ready()).ok());
        const qint64 first = local->processId();
        QCOMPARE(::kill(pid_t(first), SIGKILL), 0);
        QTRY_VERIFY_WITH_TIMEOUT(local->state() == LocalRunner::State::Ready && local->processId() != 0 &&
                                     local->processId() != first,
                                 60000);
        const qint64 second = local->processId();
        QCOMPARE(::kill(pid_t(second), SIGKILL), 0);
        QTRY_COMPARE_WITH_TIMEOUT(local->state(), LocalRunner::State::Failed, 10000);
        QVERIFY2(local->message().startsWith(QLatin1String("The local model's server stopped again (it was killed or "
                                                           "crashed); it starts with the next message.")),
                 qPrintable(local->message()));
        // Its log holds only what a running server writes: not shown to the user (Log opens it).
        QVERIFY2(!local->message().contains(QLatin1String("The end of its log (")), qPrintable(local->message()));
        const Result<QUrl> url = QCoro::waitFor(local->ready());
        QVERIFY2(url.ok(), qPrintable(url.error()));
        QVERIFY(local->processId() != second);
    }

    void stopsWhenIdle()
    {
        auto local = runner();
        QVERIFY(local);
        local->setIdleStop(500ms);
        QVERIFY(QCoro::waitFor(local->ready()).ok());
        const qint64 pid = local->processId();
        QTRY_COMPARE_WITH_TIMEOUT(local->state(), LocalRunner::State::Stopped, 10000);
        QVERIFY2(local->message().contains(QLatin1String("without use")), qPrintable(local->message()));
        QCOMPARE(local->processId(), 0);
        QTRY_VERIFY(::kill(pid_t(pid), 0) != 0);
    }

    // The devices llama-server lists (--list-devices, common/arg.cpp: "Available devices:", then
    // "  (none)" or "  NAME: DESCRIPTION (TOTAL MiB, FREE MiB free)"), in the shapes real servers
    // print them: a Vulkan build that logs its devices first, a CUDA build that logs after the
    // list, a description with parentheses, and a server too old to know the flag.
    void theListedDevicesAreRead()
    {
        // llama.cpp issue 16659 (a Vulkan build).
        const auto vulkan = DeviceProbe::parseDevices(QStringLiteral(
            "ggml_vulkan: Found 1 Vulkan devices:\n"
            "ggml_vulkan: 0 = NVIDIA GeForce RTX 2060 (NVIDIA) | uma: 0 | fp16: 1 | bf16: 1 | warp size: 32 | "
            "shared memory: 49152 | int dot: 1 | matrix cores: NV_coopmat2\n"
            "Available devices:\n"
            "  Vulkan0: NVIDIA GeForce RTX 2060 (6144 MiB, 5136 MiB free)\n"));
        QVERIFY(vulkan);
        QCOMPARE(vulkan->size(), 1);
        QCOMPARE(vulkan->at(0).name, QStringLiteral("Vulkan0"));
        QCOMPARE(vulkan->at(0).description, QStringLiteral("NVIDIA GeForce RTX 2060"));
        QCOMPARE(vulkan->at(0).totalMiB, qint64(6144));
        QCOMPARE(vulkan->at(0).freeMiB, qint64(5136));

        // Two CUDA devices, with the backend's own log after the list (ollama issue 16508).
        const auto cuda = DeviceProbe::parseDevices(
            QStringLiteral("Available devices:\n"
                           "  CUDA0: NVIDIA GeForce RTX 3080 Ti (11909 MiB, 11650 MiB free)\n"
                           "  CUDA1: NVIDIA RTX PRO 4000 Blackwell SFF Edition (24026 MiB, 23795 MiB free)\n"
                           "ggml_cuda_init: found 2 CUDA devices (Total VRAM: 35936 MiB):\n"
                           "  Device 0: NVIDIA GeForce RTX 3080 Ti, compute capability 8.6, VMM: yes, VRAM: 11909 MiB\n"
                           "load_backend: loaded CUDA backend from /usr/lib/ollama/cuda_v13/libggml-cuda.so\n"));
        QVERIFY(cuda);
        QCOMPARE(cuda->size(), 2);
        QCOMPARE(cuda->at(1).name, QStringLiteral("CUDA1"));
        QCOMPARE(cuda->at(1).description, QStringLiteral("NVIDIA RTX PRO 4000 Blackwell SFF Edition"));
        QCOMPARE(cuda->at(1).freeMiB, qint64(23795));

        // A description with parentheses of its own (RADV names the chip so).
        const auto radv = DeviceProbe::parseDevices(
            QStringLiteral("Available devices:\r\n  Vulkan0: AMD Radeon 780M (RADV PHOENIX) (16384 MiB, 15012 MiB "
                           "free)\r\n"));
        QVERIFY(radv);
        QCOMPARE(radv->size(), 1);
        QCOMPARE(radv->at(0).description, QStringLiteral("AMD Radeon 780M (RADV PHOENIX)"));
        QCOMPARE(radv->at(0).totalMiB, qint64(16384));

        const auto none = DeviceProbe::parseDevices(QStringLiteral("Available devices:\n  (none)\n"));
        QVERIFY(none);
        QVERIFY(none->isEmpty());
        QVERIFY(!DeviceProbe::parseDevices(QStringLiteral("error: invalid argument: --list-devices\n")));
        QVERIFY(!DeviceProbe::parseDevices(QString()));
    }

    // Layers go to a device only when llama-server listed one; the flags and the words say which.
    void layersAreOffloadedOnlyToAListedDevice()
    {
        RunnerPlan plan;
        DeviceProbe probe;
        probe.hardware = {QStringLiteral("Vulkan (/dev/dri/renderD128)")};
        probe.listed = true;
        plan.offloadTo(probe);
        QCOMPARE(plan.gpuLayers, 0);
        QCOMPARE(plan.arguments(1).at(plan.arguments(1).indexOf(QLatin1String("-ngl")) + 1), QStringLiteral("0"));
        QVERIFY2(plan.offload.contains(QLatin1String("lists no GPU (Vulkan (/dev/dri/renderD128))")),
                 qPrintable(plan.offload));
        probe.devices = {{QStringLiteral("Vulkan0"), QStringLiteral("AMD Radeon 780M"), 16384, 15012}};
        plan.offloadTo(probe);
        QCOMPARE(plan.gpuLayers, 999);
        QCOMPARE(plan.arguments(1).at(plan.arguments(1).indexOf(QLatin1String("-ngl")) + 1), QStringLiteral("999"));
        QCOMPARE(plan.offload, QStringLiteral("all layers on Vulkan0 (AMD Radeon 780M, 15012 MiB free)"));
    }

    // The GPU's device files and libraries, looked for in a made-up root: a render node is Vulkan
    // only with a loader and a driver; CUDA needs libcuda beside /dev/nvidia0; ROCm is /dev/kfd.
    void theHardwareIsLookedFor()
    {
        QTemporaryDir root;
        const auto touch = [&](const QString &path) {
            QVERIFY(QDir(root.path()).mkpath(QFileInfo(root.filePath(path)).path()));
            QFile file(root.filePath(path));
            QVERIFY(file.open(QIODevice::WriteOnly));
        };
        QCOMPARE(DeviceProbe::detectHardware(root.path()), QStringList());
        touch(QStringLiteral("dev/dri/renderD128"));
        touch(QStringLiteral("dev/nvidia0"));
        touch(QStringLiteral("dev/kfd"));
        QCOMPARE(DeviceProbe::detectHardware(root.path()), QStringList{QStringLiteral("ROCm (/dev/kfd)")});
        touch(QStringLiteral("usr/lib/x86_64-linux-gnu/libvulkan.so.1"));
        QCOMPARE(DeviceProbe::detectHardware(root.path()), QStringList{QStringLiteral("ROCm (/dev/kfd)")});
        touch(QStringLiteral("usr/share/vulkan/icd.d/radeon_icd.x86_64.json"));
        touch(QStringLiteral("usr/lib/x86_64-linux-gnu/libcuda.so.1"));
        QCOMPARE(DeviceProbe::detectHardware(root.path()),
                 (QStringList{QStringLiteral("Vulkan (/dev/dri/renderD128)"), QStringLiteral("CUDA (/dev/nvidia0)"),
                              QStringLiteral("ROCm (/dev/kfd)")}));
    }

    // Debian's real server, on this machine without a GPU: it lists none, and no layer is offloaded.
    void theRealServerListsNoDeviceHere()
    {
        QString why;
        const auto command = LlamaServer::command(&why);
        QVERIFY2(command, qPrintable(why));
        const DeviceProbe probe =
            DeviceProbe::run(RunnerProgram{command->program, command->leading, command->environment});
        QVERIFY2(probe.listed, qPrintable(probe.note));
        QVERIFY(probe.devices.isEmpty());
        RunnerPlan plan;
        plan.offloadTo(probe);
        QCOMPARE(plan.gpuLayers, 0);
        QVERIFY2(plan.offload.startsWith(QLatin1String("on the processor: llama-server lists no GPU")),
                 qPrintable(plan.offload));

        // A program that is no llama-server cannot list devices: nothing is offloaded.
        const DeviceProbe unknown = DeviceProbe::run(RunnerProgram{QStringLiteral("/bin/true")});
        QVERIFY(!unknown.listed);
        QVERIFY2(unknown.note.contains(QLatin1String("cannot list its devices")), qPrintable(unknown.note));
    }

    // What a llama-server says about its devices is kept: a new process asks the file, not the
    // server, until the program changes (a new build: here its file is touched).
    void theDevicesAreRememberedAcrossRuns()
    {
        const QString server = m_logs.filePath(QStringLiteral("listing-server"));
        const QString asked = m_logs.filePath(QStringLiteral("listing-asked"));
        QCOMPARE(LlamaServer::writeListingLauncher(server, asked, 0), QString());
        const QString cacheFile = m_logs.filePath(QStringLiteral("cache/devices.json"));
        const auto probe = [&] {
            return DeviceProbe::cached(RunnerProgram{server}, cacheFile);
        };
        const auto timesAsked = [&] {
            QFile file(asked);
            return file.open(QIODevice::ReadOnly) ? int(file.readAll().count('\n')) : 0;
        };

        DeviceProbe first = probe();
        QVERIFY2(first.listed, qPrintable(first.note));
        QCOMPARE(first.devices.size(), 1);
        QCOMPARE(first.devices.constFirst().name, QStringLiteral("Vulkan0"));
        QCOMPARE(first.devices.constFirst().freeMiB, 8000);
        QCOMPARE(timesAsked(), 1);
        QVERIFY(QFileInfo::exists(cacheFile));

        // Another run of the app: this test in a process of its own.
        QProcess other;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("SANDPIPER_TEST_PROBE_SERVER"), server);
        environment.insert(QStringLiteral("SANDPIPER_TEST_PROBE_CACHE"), cacheFile);
        other.setProcessEnvironment(environment);
        other.setProcessChannelMode(QProcess::MergedChannels);
        other.start(QCoreApplication::applicationFilePath(), {QStringLiteral("probeInAnotherProcess")});
        QVERIFY(other.waitForFinished(60000));
        const QString said = QString::fromLocal8Bit(other.readAll());
        QVERIFY2(other.exitCode() == 0 &&
                     said.contains(QLatin1String("PASS   : TestLocalRunner::probeInAnotherProcess")),
                 qPrintable(said));
        QCOMPARE(timesAsked(), 1);

        // A new build of the server (its file changed): asked again, and remembered again.
        QFile file(server);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTimeUtc().addSecs(60), QFileDevice::FileModificationTime));
        file.close();
        QVERIFY(probe().listed);
        QCOMPARE(timesAsked(), 2);
        QVERIFY(probe().listed);
        QCOMPARE(timesAsked(), 2);
    }

    // The other process of theDevicesAreRememberedAcrossRuns: the devices come from the file.
    void probeInAnotherProcess()
    {
        const QString server = qEnvironmentVariable("SANDPIPER_TEST_PROBE_SERVER");
        if (server.isEmpty())
            QSKIP("run by theDevicesAreRememberedAcrossRuns");
        const DeviceProbe probe =
            DeviceProbe::cached(RunnerProgram{server}, qEnvironmentVariable("SANDPIPER_TEST_PROBE_CACHE"));
        QVERIFY2(probe.listed, qPrintable(probe.note));
        QCOMPARE(probe.devices.size(), 1);
        QCOMPARE(probe.devices.constFirst().description, QStringLiteral("Fake GPU"));
    }

    void whatCannotRunIsSaid()
    {
        LocalRunner none(RunnerProgram{}, RunnerPlan{}, m_logs.filePath(QStringLiteral("none.log")));
        Result<QUrl> url = QCoro::waitFor(none.ready());
        QVERIFY(!url.ok());
        QVERIFY2(url.error().startsWith(QLatin1String("No llama-server was found")), qPrintable(url.error()));

        LocalRunner missing(RunnerProgram{QStringLiteral("/nonexistent/llama-server")}, RunnerPlan{},
                            m_logs.filePath(QStringLiteral("missing.log")));
        url = QCoro::waitFor(missing.ready());
        QVERIFY(!url.ok());
        QVERIFY2(url.error().startsWith(QLatin1String("llama-server could not be started (/nonexistent/llama-server)")),
                 qPrintable(url.error()));

        // A file that is no model: the server exits while loading, and its log says why.
        QFile notAModel(m_logs.filePath(QStringLiteral("notes.gguf")));
        QVERIFY(notAModel.open(QIODevice::WriteOnly));
        notAModel.write("these are notes, not weights\n");
        notAModel.close();
        auto local = runner(notAModel.fileName());
        QVERIFY(local);
        url = QCoro::waitFor(local->ready());
        QVERIFY(!url.ok());
        QCOMPARE(local->state(), LocalRunner::State::Failed);
        QVERIFY2(url.error().startsWith(QLatin1String("llama-server stopped while loading notes.gguf (")),
                 qPrintable(url.error()));
        QVERIFY2(url.error().contains(QLatin1String("The end of its log (")), qPrintable(url.error()));
    }
};

QTEST_GUILESS_MAIN(TestLocalRunner)
#include "tst_localrunner.moc"
