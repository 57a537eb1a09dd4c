#include "localmodel.h"

#include "modellisting.h"
#include "settings/settings.h"
#include "terminalfilter.h"

#include <QCoroTask>
#include <QDir>
#include <QFileInfo>
#include <QThread>

#include <cstdio>

namespace Sandpiper {

namespace {

bool matches(const ModelFile &model, const QString &name)
{
    return model.path == QFileInfo(name).absoluteFilePath() || QFileInfo(model.path).completeBaseName() == name ||
           QFileInfo(model.path).fileName() == name || (model.info && model.info->name == name);
}

} // namespace

std::unique_ptr<LocalRunner> startLocalModel(const Settings &settings, const QString &name, QUrl *baseUrl,
                                             QString *error)
{
    const QString ownFolder = settings.localModelsFolder();
    QList<ModelFile> models = modelsOnThisComputer(settings);
    if (!name.isEmpty())
        models.removeIf([&](const ModelFile &model) { return !matches(model, name); });
    if (models.isEmpty()) {
        *error = name.isEmpty()
                     ? QStringLiteral("there is no GGUF model on this computer (put one in %1)").arg(ownFolder)
                     : QStringLiteral("there is no model \"%1\" on this computer (--models lists them)").arg(name);
        return nullptr;
    }
    if (name.isEmpty() && models.size() > 1) {
        *error = QStringLiteral("there are %1 models on this computer: choose one with --model (--models lists them)")
                     .arg(models.size());
        return nullptr;
    }
    const ModelFile &model = models.constFirst();
    if (!model.runnable()) {
        *error = QStringLiteral("%1 cannot be run: %2").arg(model.path, model.problem);
        return nullptr;
    }

    RunnerPlan plan =
        RunnerPlan::forModel(model.path, *model.info, RunnerPlan::availableMemory(), QThread::idealThreadCount());
    if (!name.isEmpty())
        plan.alias = name;
    QDir().mkpath(settings.dataDirectory() + QStringLiteral("/logs"));
    auto runner =
        std::make_unique<LocalRunner>(RunnerProgram::find(settings.string(QStringLiteral("local/server"))), plan,
                                      settings.dataDirectory() + QStringLiteral("/logs/llama-server.log"));
    std::fprintf(stderr, "sandpiper-cli: running %s with llama-server (context %d, %d threads)\n",
                 qPrintable(TerminalFilter::clean(QFileInfo(model.path).fileName())), plan.contextSize, plan.threads);
    QObject::connect(runner.get(), &LocalRunner::stateChanged, runner.get(),
                     [](LocalRunner::State state, const QString &message) {
                         if (state == LocalRunner::State::Loading || state == LocalRunner::State::Ready)
                             std::fprintf(stderr, "sandpiper-cli: %s\n", qPrintable(message));
                     });
    const Result<QUrl> url = QCoro::waitFor(runner->ready());
    if (!url) {
        *error = url.error();
        return nullptr;
    }
    *baseUrl = *url;
    return runner;
}

} // namespace Sandpiper
