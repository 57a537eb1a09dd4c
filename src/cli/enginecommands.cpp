#include "enginecommands.h"

#include "localmodels/runnerimage.h"
#include "sandbox/engineservice.h"

#include <QObject>
#include <QTimer>

#include <csignal>
#include <cstdio>

namespace Sandpiper::EngineCommands {

namespace {

void note(const QString &line)
{
    std::fprintf(stderr, "sandpiper-cli: %s\n", qPrintable(line));
}

} // namespace

int check(const QString &image)
{
    EngineService engines;
    QObject::connect(&engines, &EngineService::checking, &engines, note);
    const EngineService::Check found = QCoro::waitFor(engines.checkEngine(image, DockerCli::Engine::chosen()));
    std::printf("%s\n", qPrintable(found.summary()));
    return found.ok() ? 0 : 1;
}

int listContexts()
{
    for (const EngineService::Context &context : QCoro::waitFor(EngineService::contexts()))
        std::printf("%s\t%s\n", qPrintable(context.name), qPrintable(context.endpoint));
    return 0;
}

int provideImage(const QString &image)
{
    EngineService engines;
    QObject::connect(&engines, &EngineService::imageStep, &engines, note);
    // The build's own lines, as docker build writes them.
    QObject::connect(&engines, &EngineService::imageOutput, &engines,
                     [](const QString &line) { std::fprintf(stderr, "%s\n", qPrintable(line)); });
    const EngineService::ImageOutcome outcome =
        QCoro::waitFor(engines.provideImage(image, DockerCli::Engine::chosen()));
    if (!outcome.ready) {
        note(outcome.message);
        return 1;
    }
    std::printf("%s\n", qPrintable(outcome.message));
    return 0;
}

int getRunner(const QString &reference)
{
    static volatile std::sig_atomic_t interrupted = 0;
    RunnerImage image;
    QObject::connect(&image, &RunnerImage::step, &image, note);
    QObject::connect(&image, &RunnerImage::output, &image,
                     [](const QString &line) { std::fprintf(stderr, "%s\n", qPrintable(line)); });
    // The programs it runs have a process group of their own, so Ctrl-C reaches them through it.
    std::signal(SIGINT, [](int) { interrupted = 1; });
    QTimer interruptPoll;
    QObject::connect(&interruptPoll, &QTimer::timeout, &image, [&image] {
        if (interrupted)
            image.cancel();
    });
    interruptPoll.start(100);
    const RunnerImage::Outcome outcome = QCoro::waitFor(image.provide(reference));
    std::signal(SIGINT, SIG_DFL);
    if (!outcome.ready) {
        note(outcome.message);
        return interrupted ? 130 : 1;
    }
    std::printf("%s\n", qPrintable(outcome.image));
    note(outcome.message);
    return 0;
}

int removeLeftovers()
{
    const int removed = QCoro::waitFor(EngineService::removeLeftoverContainers());
    std::printf("leftover sandbox containers removed: %d\n", removed);
    return 0;
}

} // namespace Sandpiper::EngineCommands
