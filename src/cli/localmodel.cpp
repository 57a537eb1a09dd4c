#include "localmodel.h"

#include "session/localmodelhost.h"
#include "settings/settings.h"
#include "terminalfilter.h"

#include <QCoroTask>
#include <QDir>
#include <QFileInfo>
#include <QThread>

#include <cstdio>

namespace Sandpiper {

std::unique_ptr<LocalRunner> startLocalModel(const Settings &settings, const QString &name, QUrl *baseUrl,
                                             QString *error)
{
    const Result<ModelFile> found = findLocalModel(modelsOnThisComputer(settings), name, settings.localModelsFolder());
    if (!found) {
        *error = found.error();
        return nullptr;
    }
    const ModelFile &model = *found;
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
