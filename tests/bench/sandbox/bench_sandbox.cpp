// scripts/bench sandbox: how fast code runs in the sandbox, against plain docker run and
// docker exec measured in the same run on the same machine.
#include "benchstats.h"
#include "dockertest.h"

#include <sandbox/dockercli.h>
#include <sandbox/sandboxsession.h>

#include <QCoreApplication>
#include <QCoroSignal>
#include <QCoroTask>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

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

void row(const char *name, const QList<double> &samples)
{
    std::printf("%-22s %6lld %10.2f %10.2f %10.2f\n", name, qlonglong(samples.size()), percentile(samples, 0.5),
                percentile(samples, 0.95), *std::min_element(samples.begin(), samples.end()));
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
    const auto warmPrint = sample(200, [&] {
        return QCoro::waitFor(session.execute(QStringLiteral("print(2+2)"))).standardOutput == QLatin1String("4\n");
    });
    const auto warmPlot = sample(20, [&] {
        const auto r =
            QCoro::waitFor(session.execute(QStringLiteral("fig, ax = plt.subplots()\nx = np.linspace(0, 2 * np.pi, "
                                                          "200)\nax.plot(x, np.sin(x))\nax.set_title('sine');")));
        return r.figures.size() == 1 &&
               QFileInfo::exists(session.config().dataDirectory + QLatin1Char('/') + r.figures.first());
    });

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

    std::printf("%-22s %6s %10s %10s %10s\n", "measure (ms)", "runs", "median", "p95", "min");
    row("docker run (cold)", coldRun);
    row("docker exec", dockerExec);
    row("warm print(2+2)", warmPrint);
    row("warm sine plot", warmPlot);
    row("prewarmed first", prewarmedFirst);
    row("1M-row frame, kernel", previewKernel);
    row("frame.shape, kernel", shapeKernel);
    row("1M-row frame, total", previewRoundTrip);
    std::printf("target: the kernel sends a 1M-row frame's preview in <= 150 ms\n");

    const QJsonObject figures{{QStringLiteral("cold_run_ms"), percentile(coldRun, 0.5)},
                              {QStringLiteral("docker_exec_ms"), percentile(dockerExec, 0.5)},
                              {QStringLiteral("warm_print_p50_ms"), percentile(warmPrint, 0.5)},
                              {QStringLiteral("warm_print_p95_ms"), percentile(warmPrint, 0.95)},
                              {QStringLiteral("warm_plot_p50_ms"), percentile(warmPlot, 0.5)},
                              {QStringLiteral("prewarmed_first_ms"), percentile(prewarmedFirst, 0.5)},
                              {QStringLiteral("frame_preview_kernel_p50_ms"), percentile(previewKernel, 0.5)},
                              {QStringLiteral("frame_shape_kernel_p50_ms"), percentile(shapeKernel, 0.5)},
                              {QStringLiteral("frame_preview_total_p50_ms"), percentile(previewRoundTrip, 0.5)},
                              {QStringLiteral("frame_preview_target_ms"), 150}};
    std::printf("%s\n", QJsonDocument(figures).toJson(QJsonDocument::Compact).constData());
    return 0;
}
