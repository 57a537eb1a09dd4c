#include "probecommand.h"

#include "llm/modelprobe.h"
#include "settings/modelreports.h"
#include "settings/settings.h"

#include <QCoroTask>
#include <QJsonDocument>

#include <cstdio>

namespace Sandpiper::ProbeCommand {

int run(Settings &settings, const ProviderConfig &config, bool json)
{
    ModelProbe probe(config);
    QObject::connect(&probe, &ModelProbe::stepStarted, &probe, [](int number, int count, const QString &title) {
        std::fprintf(stderr, "sandpiper-cli: probe %d/%d: %s\n", number, count, qPrintable(title));
    });
    ModelReport report = QCoro::waitFor(probe.run());
    if (report.answered()) {
        report = ModelReports::apply(settings, config.id, report);
        ModelReports::keep(settings, config.id, report);
    }
    if (json)
        std::printf("%s\n", QJsonDocument(report.toJson()).toJson(QJsonDocument::Indented).constData());
    else
        std::printf("%s\n", qPrintable(report.card()));
    return report.answered() ? 0 : 1;
}

} // namespace Sandpiper::ProbeCommand
