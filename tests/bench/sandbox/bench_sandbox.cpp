// scripts/bench sandbox: how fast code runs in the sandbox, against plain docker run and
// docker exec measured in the same run on the same machine; what the disk watch costs an
// execution (on against off, interleaved) and the processor while nothing runs; and, when
// scripts/bench started one (SANDPIPER_REMOTE_DOCKER_HOST), the same print and plot on an engine
// that does not share this machine's filesystem, the figure copied back into the folder, and a
// 20 MiB file beside `docker cp`, with the file channel and without it (docker exec); and,
// when scripts/bench set up rootless podman (SANDPIPER_PODMAN_USER), the same print and plot on
// it, measured by this program run again as that user (--podman), which prints its samples.
#include "benchstats.h"
#include "dockertest.h"
#include "executioncheck.h"

#include <sandbox/diskwatch.h>
#include <sandbox/dockercli.h>
#include <sandbox/sandboxsession.h>

#include <QCoreApplication>
#include <QCoroSignal>
#include <QCoroTask>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <tuple>

#include <sys/resource.h>

using namespace std::chrono_literals;
using namespace Sandpiper;
using Sandpiper::Test::elapsedMs;
using Sandpiper::Test::percentile;

namespace {

template<typename Body> QList<double> sample(int runs, Body body)
{
    QList<double> times;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        if (!body())
            qFatal("benchmark step failed");
        times << elapsedMs(timer);
    }
    return times;
}

SandboxConfig configIn(const QTemporaryDir &dir, const QString &name)
{
    SandboxConfig config;
    config.image = Test::sandboxImage();
    config.conversationId = name;
    config.dataDirectory = dir.path() + QLatin1Char('/') + name;
    return config;
}

// Processor time of this process, user and system, in milliseconds.
double processorMs()
{
    rusage usage = {};
    ::getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

// The share of one core this process used while its event loop ran for DURATION, in percent.
double idleProcessorPercent(std::chrono::milliseconds duration)
{
    const double before = processorMs();
    QEventLoop loop;
    QTimer::singleShot(duration, &loop, &QEventLoop::quit);
    loop.exec();
    return (processorMs() - before) / double(duration.count()) * 100.0;
}

// A conversation that has been used for a while: 2000 files in 40 folders.
void fillFolder(const QString &folder)
{
    for (int d = 0; d < 40; ++d) {
        const QString sub = QStringLiteral("%1/run-%2").arg(folder).arg(d);
        QDir().mkpath(sub);
        for (int f = 0; f < 50; ++f) {
            QFile file(QStringLiteral("%1/out-%2.csv").arg(sub).arg(f));
            if (file.open(QIODevice::WriteOnly))
                file.write("a,b\n1,2\n");
        }
    }
}

void row(const char *name, const QList<double> &samples)
{
    std::printf("%-22s %6lld %10.2f %10.2f %10.2f\n", name, qlonglong(samples.size()), percentile(samples, 0.5),
                percentile(samples, 0.95), *std::min_element(samples.begin(), samples.end()));
}

const QString sinePlot = QStringLiteral("fig, ax = plt.subplots()\nx = np.linspace(0, 2 * np.pi, 200)\n"
                                        "ax.plot(x, np.sin(x))\nax.set_title('sine');");

// Whether R passed CHECK; says what R was when not.
bool expect(const ExecutionResult &r, bool check)
{
    if (!check)
        std::fprintf(stderr, "%s\n", qPrintable(Test::describeExecution(r)));
    return check;
}

bool printIn(SandboxSession &session)
{
    const auto r = QCoro::waitFor(session.execute(QStringLiteral("print(2+2)")));
    return expect(r, r.standardOutput == QLatin1String("4\n"));
}

// The sine plot, its figure in the conversation's folder.
bool plotIn(SandboxSession &session)
{
    const auto r = QCoro::waitFor(session.execute(sinePlot));
    return expect(r,
                  r.figures.size() == 1 &&
                      QFileInfo(session.config().dataDirectory + QLatin1Char('/') + r.figures.first()).size() > 5000);
}

// Run as the podman user: print(2+2) and the sine plot in a warm sandbox, as JSON samples.
int measurePodman(const QTemporaryDir &dir)
{
    SandboxSession session(configIn(dir, QStringLiteral("podman")));
    QCoro::waitFor(session.execute(QStringLiteral("import matplotlib.pyplot as plt, numpy as np")));
    const auto print = sample(50, [&] { return printIn(session); });
    const auto plot = sample(20, [&] { return plotIn(session); });
    const QJsonObject samples{
        {QStringLiteral("print"), QJsonArray::fromVariantList(QVariantList(print.begin(), print.end()))},
        {QStringLiteral("plot"), QJsonArray::fromVariantList(QVariantList(plot.begin(), plot.end()))}};
    std::printf("%s\n", QJsonDocument(samples).toJson(QJsonDocument::Compact).constData());
    return 0;
}

// This program again, as the podman user, through LAUNCHER; its samples, or empty lists.
std::pair<QList<double>, QList<double>> podmanSamples(const QString &launcher)
{
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(launcher, {QCoreApplication::applicationFilePath(), QStringLiteral("--podman")});
    if (!child.waitForFinished(300000) || child.exitCode() != 0) {
        std::fprintf(stderr, "note: the podman rows could not be measured\n");
        return {};
    }
    const QList<QByteArray> lines = child.readAllStandardOutput().trimmed().split('\n');
    const QJsonObject samples = QJsonDocument::fromJson(lines.last()).object();
    auto list = [&](const char *key) {
        QList<double> values;
        for (const QJsonValue &value : samples.value(QLatin1String(key)).toArray())
            values << value.toDouble();
        return values;
    };
    return {list("print"), list("plot")};
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QString reason = Test::dockerUnavailableReason();
    if (!reason.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(reason));
        return 1;
    }
    const QString image = Test::sandboxImage();
    QTemporaryDir dir;
    if (app.arguments().contains(QStringLiteral("--podman")))
        return measurePodman(dir);

    const auto coldRun = sample(10, [&] {
        return QCoro::waitFor(
                   DockerCli::run({QStringLiteral("run"), QStringLiteral("--rm"), image, QStringLiteral("python3"),
                                   QStringLiteral("-c"), QStringLiteral("print(2+2)")}))
            .ok();
    });

    const auto started =
        QCoro::waitFor(DockerCli::run({QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--rm"), image,
                                       QStringLiteral("sleep"), QStringLiteral("600")}));
    const QString container = QString::fromUtf8(started.standardOutput.trimmed());
    const auto dockerExec = sample(10, [&] {
        return QCoro::waitFor(DockerCli::run({QStringLiteral("exec"), container, QStringLiteral("python3"),
                                              QStringLiteral("-c"), QStringLiteral("print(2+2)")}))
            .ok();
    });
    QCoro::waitFor(DockerCli::run({QStringLiteral("rm"), QStringLiteral("-f"), container}));

    SandboxSession session(configIn(dir, QStringLiteral("warm")));
    QCoro::waitFor(session.start());
    QCoro::waitFor(session.execute(QStringLiteral("import matplotlib.pyplot as plt, numpy as np")));
    // The same, without a disk watch (no folder limit, no free-space check).
    SandboxConfig unwatchedConfig = configIn(dir, QStringLiteral("unwatched"));
    unwatchedConfig.diskLimitBytes = 0;
    unwatchedConfig.minFreeDiskBytes = 0;
    SandboxSession unwatched(unwatchedConfig);
    QCoro::waitFor(unwatched.start());
    // Interleaved in blocks, so that a busy moment of the machine hits both alike.
    QList<double> warmPrint, unwatchedPrint;
    for (int block = 0; block < 10; ++block) {
        warmPrint += sample(20, [&] { return printIn(session); });
        unwatchedPrint += sample(20, [&] { return printIn(unwatched); });
    }
    const auto warmPlot = sample(20, [&] { return plotIn(session); });

    // A 1 000 000-row DataFrame as the last value: what the kernel spends on its preview (the
    // table's first rows, shape and dtypes, and the repr for the model), against the same cell
    // without a preview (the frame's shape), and the whole round trip.
    QCoro::waitFor(
        session.execute(QStringLiteral("import pandas as pd\nframe = pd.DataFrame({'id': np.arange(1_000_000),"
                                       " 'value': np.random.default_rng(1).random(1_000_000),"
                                       " 'label': np.where(np.arange(1_000_000) % 2, 'odd', 'even')})")));
    QList<double> previewKernel;
    const auto previewRoundTrip = sample(20, [&] {
        const auto r = QCoro::waitFor(session.execute(QStringLiteral("frame")));
        previewKernel << double(r.durationMs);
        return r.tables.size() == 1 && r.tables.first().totalRows == 1000000 && r.tables.first().rows.size() == 200;
    });
    QList<double> shapeKernel;
    (void)sample(20, [&] {
        const auto r = QCoro::waitFor(session.execute(QStringLiteral("frame.shape")));
        shapeKernel << double(r.durationMs);
        return r.tables.isEmpty();
    });

    QList<double> prewarmedFirst;
    for (int i = 0; i < 5; ++i) {
        SandboxSession fresh(configIn(dir, QStringLiteral("prewarmed%1").arg(i)));
        fresh.prewarm();
        if (!QCoro::waitFor(qCoro(&fresh, &SandboxSession::prewarmed, 60s)).has_value())
            qFatal("the sandbox was not prewarmed in time");
        QElapsedTimer timer;
        timer.start();
        const auto r = QCoro::waitFor(fresh.execute(QStringLiteral("import numpy, matplotlib.pyplot; print(1)")));
        prewarmedFirst << elapsedMs(timer);
        if (r.standardOutput != QLatin1String("1\n"))
            qFatal("prewarmed execution failed");
    }

    // The remote engine: uploads, figures and files travel on the kernel's channel; the same
    // through `docker exec tar` (the channel switched off, as before it) for comparison, and a
    // 20 MiB file the code writes brought back here, beside `docker cp` of one from the same engine.
    QList<double> remotePrint, remotePlot, execPrint, execPlot, remoteLarge, execLarge, dockerCp;
    if (const QByteArray remote = qgetenv("SANDPIPER_REMOTE_DOCKER_HOST"); !remote.isEmpty()) {
        qputenv("DOCKER_HOST", remote);
        const auto measureRemote = [&](const QString &name, QList<double> &print, QList<double> &plot,
                                       QList<double> &large, int runs) {
            SandboxSession far(configIn(dir, name));
            QCoro::waitFor(far.execute(QStringLiteral("import matplotlib.pyplot as plt, numpy as np, os")));
            if (!far.isRemote())
                qFatal("the remote engine was not found remote");
            print = sample(50, [&] { return printIn(far); });
            plot = sample(20, [&] { return plotIn(far); });
            SandboxConfig unlimited = configIn(dir, name + QStringLiteral("-large"));
            unlimited.remoteFetchLimitBytes = 0;
            SandboxSession largeSession(unlimited);
            QCoro::waitFor(largeSession.execute(QStringLiteral("import os\ndata = bytearray(os.urandom(20 << 20))")));
            int round = 0;
            large = sample(runs, [&] {
                const auto r = QCoro::waitFor(largeSession.execute(
                    QStringLiteral("data[0] = %1\nopen('big.bin', 'wb').write(data);").arg(++round % 256)));
                return expect(r, QFileInfo(unlimited.dataDirectory + QStringLiteral("/big.bin")).size() == 20 << 20);
            });
        };
        measureRemote(QStringLiteral("remote"), remotePrint, remotePlot, remoteLarge, 10);
        qputenv("SANDPIPER_REMOTE_CHANNEL", "0");
        measureRemote(QStringLiteral("remote-exec"), execPrint, execPlot, execLarge, 10);
        qunsetenv("SANDPIPER_REMOTE_CHANNEL");
        // docker cp of a 20 MiB file in a container's own filesystem (it does not see a tmpfs).
        const auto holder = QCoro::waitFor(DockerCli::run(
            {QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--rm"), image, QStringLiteral("sh"),
             QStringLiteral("-c"), QStringLiteral("head -c 20971520 /dev/urandom > /tmp/big.bin && sleep 600")}));
        const QString cpContainer = QString::fromUtf8(holder.standardOutput.trimmed());
        QCoro::waitFor(DockerCli::run({QStringLiteral("exec"), cpContainer, QStringLiteral("sh"), QStringLiteral("-c"),
                                       QStringLiteral("while [ ! -s /tmp/big.bin ]; do sleep 0.1; done; sync")}));
        const QString cpTarget = dir.path() + QStringLiteral("/cp.bin");
        dockerCp = sample(10, [&] {
            QFile::remove(cpTarget);
            return QCoro::waitFor(
                       DockerCli::run({QStringLiteral("cp"), cpContainer + QStringLiteral(":/tmp/big.bin"), cpTarget},
                                      {}, 120s))
                       .ok() &&
                   QFileInfo(cpTarget).size() == 20 << 20;
        });
        QCoro::waitFor(DockerCli::run({QStringLiteral("rm"), QStringLiteral("-f"), cpContainer}));
        qunsetenv("DOCKER_HOST");
    }
    // Rootless podman, as its user.
    QList<double> podmanPrint, podmanPlot;
    if (const QString launcher = qEnvironmentVariable("SANDPIPER_PODMAN_LAUNCHER");
        !launcher.isEmpty() && qEnvironmentVariableIsSet("SANDPIPER_PODMAN_USER"))
        std::tie(podmanPrint, podmanPlot) = podmanSamples(launcher);

    // The processor while nothing runs: a watched and an unwatched idle sandbox, and the watch
    // alone over a used folder, with inotify and by polling.
    constexpr auto idleTime = std::chrono::seconds(5);
    constexpr auto settle = std::chrono::seconds(2); // a stopped container's last events
    unwatched.stop();
    idleProcessorPercent(settle);
    const double idleWatched = idleProcessorPercent(idleTime);
    session.stop();
    QCoro::waitFor(unwatched.start());
    idleProcessorPercent(settle);
    const double idleUnwatched = idleProcessorPercent(idleTime);
    unwatched.stop();
    const QString used = dir.path() + QStringLiteral("/used");
    fillFolder(used);
    double watchIdle[2] = {};
    int fileCount = 0;
    for (const DiskWatch::Method method : {DiskWatch::Method::Inotify, DiskWatch::Method::Polling}) {
        DiskWatch watch(SandboxFolder(used), {qint64(1) << 30, qint64(1) << 30}, method);
        watch.start();
        if (watch.method() != method)
            std::fprintf(stderr, "note: inotify is not available here; both rows poll\n");
        fileCount = int(SandboxFolder(used).usage().entries);
        watchIdle[method == DiskWatch::Method::Polling] = idleProcessorPercent(idleTime);
    }

    std::printf("%-22s %6s %10s %10s %10s\n", "measure (ms)", "runs", "median", "p95", "min");
    row("docker run (cold)", coldRun);
    row("docker exec", dockerExec);
    row("warm print(2+2)", warmPrint);
    row("  without disk watch", unwatchedPrint);
    row("warm sine plot", warmPlot);
    row("prewarmed first", prewarmedFirst);
    if (!remotePrint.isEmpty()) {
        row("remote print(2+2)", remotePrint);
        row("remote sine plot", remotePlot);
        row("remote 20 MiB back", remoteLarge);
        row("  docker cp 20 MiB", dockerCp);
        row("remote print, exec", execPrint);
        row("remote plot, exec", execPlot);
        row("remote 20 MiB, exec", execLarge);
        std::printf("target: remote print and plot <= 1.5x local (now %.2fx, %.2fx); 20 MiB back <= 2x docker cp "
                    "(now %.2fx); \"exec\" rows: the channel off (SANDPIPER_REMOTE_CHANNEL=0), files by docker exec\n",
                    percentile(remotePrint, 0.5) / percentile(warmPrint, 0.5),
                    percentile(remotePlot, 0.5) / percentile(warmPlot, 0.5),
                    percentile(remoteLarge, 0.5) / percentile(dockerCp, 0.5));
    } else {
        std::printf("remote engine: not measured (SANDPIPER_REMOTE_DOCKER_HOST is not set; scripts/bench sets it)\n");
    }
    if (!podmanPrint.isEmpty()) {
        row("podman print(2+2)", podmanPrint);
        row("podman sine plot", podmanPlot);
    } else {
        std::printf("rootless podman: not measured (SANDPIPER_PODMAN_USER is not set; scripts/bench sets it)\n");
    }
    row("1M-row frame, kernel", previewKernel);
    row("frame.shape, kernel", shapeKernel);
    row("1M-row frame, total", previewRoundTrip);
    std::printf("target: the kernel sends a 1M-row frame's preview in <= 150 ms\n");
    const double slowdown = percentile(warmPrint, 0.5) / percentile(unwatchedPrint, 0.5);
    std::printf("disk watch: warm print(2+2) median %.3fx of the same without it\n", slowdown);
    std::printf("processor while idle (%% of one core, %lld s each):\n", qlonglong(idleTime.count()));
    std::printf("  idle sandbox, disk watch on     %8.3f\n", idleWatched);
    std::printf("  idle sandbox, disk watch off    %8.3f\n", idleUnwatched);
    std::printf("  watch alone, inotify, %d entries %8.3f\n", fileCount, watchIdle[0]);
    std::printf("  watch alone, polling, %d entries %8.3f\n", fileCount, watchIdle[1]);

    const QJsonObject figures{
        {QStringLiteral("cold_run_ms"), percentile(coldRun, 0.5)},
        {QStringLiteral("docker_exec_ms"), percentile(dockerExec, 0.5)},
        {QStringLiteral("warm_print_p50_ms"), percentile(warmPrint, 0.5)},
        {QStringLiteral("warm_print_p95_ms"), percentile(warmPrint, 0.95)},
        {QStringLiteral("warm_print_without_watch_p50_ms"), percentile(unwatchedPrint, 0.5)},
        {QStringLiteral("watch_slowdown_ratio"), slowdown},
        {QStringLiteral("idle_cpu_percent_watch_on"), idleWatched},
        {QStringLiteral("idle_cpu_percent_watch_off"), idleUnwatched},
        {QStringLiteral("watch_idle_cpu_percent_inotify"), watchIdle[0]},
        {QStringLiteral("watch_idle_cpu_percent_polling"), watchIdle[1]},
        {QStringLiteral("warm_plot_p50_ms"), percentile(warmPlot, 0.5)},
        {QStringLiteral("prewarmed_first_ms"), percentile(prewarmedFirst, 0.5)},
        {QStringLiteral("frame_preview_kernel_p50_ms"), percentile(previewKernel, 0.5)},
        {QStringLiteral("frame_shape_kernel_p50_ms"), percentile(shapeKernel, 0.5)},
        {QStringLiteral("frame_preview_total_p50_ms"), percentile(previewRoundTrip, 0.5)},
        {QStringLiteral("frame_preview_target_ms"), 150},
        {QStringLiteral("remote_print_p50_ms"), remotePrint.isEmpty() ? -1 : percentile(remotePrint, 0.5)},
        {QStringLiteral("remote_plot_p50_ms"), remotePlot.isEmpty() ? -1 : percentile(remotePlot, 0.5)},
        {QStringLiteral("remote_plot_target_ms"), 250},
        {QStringLiteral("remote_large_p50_ms"), remoteLarge.isEmpty() ? -1 : percentile(remoteLarge, 0.5)},
        {QStringLiteral("docker_cp_large_p50_ms"), dockerCp.isEmpty() ? -1 : percentile(dockerCp, 0.5)},
        {QStringLiteral("remote_exec_print_p50_ms"), execPrint.isEmpty() ? -1 : percentile(execPrint, 0.5)},
        {QStringLiteral("remote_exec_plot_p50_ms"), execPlot.isEmpty() ? -1 : percentile(execPlot, 0.5)},
        {QStringLiteral("remote_exec_large_p50_ms"), execLarge.isEmpty() ? -1 : percentile(execLarge, 0.5)},
        {QStringLiteral("podman_print_p50_ms"), podmanPrint.isEmpty() ? -1 : percentile(podmanPrint, 0.5)},
        {QStringLiteral("podman_plot_p50_ms"), podmanPlot.isEmpty() ? -1 : percentile(podmanPlot, 0.5)}};
    std::printf("%s\n", QJsonDocument(figures).toJson(QJsonDocument::Compact).constData());
    return 0;
}
