#include "localmodel.h"

#include "session/localmodelhost.h"
#include "terminalfilter.h"

#include <QCoroTask>
#include <QFileInfo>

#include <cstdio>

namespace Sandpiper {

Result<QUrl> startLocalModel(LocalModelHost &host, const QString &name)
{
    QObject context;
    bool told = false;
    QObject::connect(&host, &LocalModelHost::stateChanged, &context,
                     [&host, &told](LocalRunner::State state, const QString &message) {
                         if (state != LocalRunner::State::Loading && state != LocalRunner::State::Ready)
                             return;
                         if (!std::exchange(told, true)) {
                             const RunnerPlan plan = host.plan();
                             std::fprintf(stderr,
                                          "sandpiper-cli: running %s with llama-server (context %d, %d threads)\n",
                                          qPrintable(TerminalFilter::clean(QFileInfo(plan.modelPath).fileName())),
                                          plan.contextSize, plan.threads);
                         }
                         std::fprintf(stderr, "sandpiper-cli: %s\n", qPrintable(message));
                     });
    return QCoro::waitFor(host.address(name));
}

} // namespace Sandpiper
