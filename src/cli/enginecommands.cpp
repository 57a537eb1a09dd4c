#include "enginecommands.h"

#include "sandbox/engineservice.h"

#include <QObject>

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

int removeLeftovers()
{
    const int removed = QCoro::waitFor(EngineService::removeLeftoverContainers());
    std::printf("leftover sandbox containers removed: %d\n", removed);
    return 0;
}

} // namespace Sandpiper::EngineCommands
