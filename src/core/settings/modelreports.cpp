#include "settings/modelreports.h"

#include "settings/settings.h"

#include <QJsonDocument>

namespace Sandpiper {

namespace {

QString reportsKey(const QString &providerId)
{
    return QStringLiteral("providers/%1/model_reports").arg(providerId);
}

// Server and model: a card holds for both together.
QString entryKey(const QString &server, const QString &model)
{
    return server + QLatin1Char(' ') + model;
}

QJsonObject storedReports(const Settings &settings, const QString &providerId)
{
    return QJsonDocument::fromJson(settings.string(reportsKey(providerId)).toUtf8()).object();
}

} // namespace

std::optional<ModelReport> ModelReports::find(const Settings &settings, const QString &providerId,
                                              const QString &server, const QString &model)
{
    return ModelReport::fromJson(storedReports(settings, providerId).value(entryKey(server, model)).toObject());
}

void ModelReports::keep(Settings &settings, const QString &providerId, const ModelReport &report, const QString &server)
{
    QJsonObject reports = storedReports(settings, providerId);
    reports.insert(entryKey(server.isEmpty() ? report.baseUrl : server, report.model), report.toJson());
    settings.setValue(reportsKey(providerId), QString::fromUtf8(QJsonDocument(reports).toJson(QJsonDocument::Compact)));
}

ModelReport ModelReports::apply(Settings &settings, const QString &providerId, ModelReport report)
{
    const ProviderConfig current = settings.provider(providerId);
    const QString prefix = QStringLiteral("providers/%1/").arg(providerId);
    for (ModelReport::Switch &each : report.switches) {
        const bool on = each.value == QLatin1String("true");
        if (each.key == QLatin1String("text_tool_calls")) {
            each.state = current.recoverTextToolCalls == on ? ModelReport::Switch::State::AlreadySo
                                                            : ModelReport::Switch::State::Set;
        } else if (each.key == QLatin1String("reasoning_back")) {
            each.state = current.sendReasoningBack == on ? ModelReport::Switch::State::AlreadySo
                                                         : ModelReport::Switch::State::Set;
        } else if (each.key == QLatin1String("context_windows")) {
            QHash<QString, qint64> windows = current.contextWindows;
            const qint64 window = each.value.toLongLong();
            if (window <= 0 || windows.value(report.model) == window) {
                each.state = ModelReport::Switch::State::AlreadySo;
                continue;
            }
            windows.insert(report.model, window);
            settings.setValue(prefix + each.key, Settings::formatContextWindows(windows));
            each.state = ModelReport::Switch::State::Set;
            continue;
        }
        if (each.state == ModelReport::Switch::State::Set)
            settings.setValue(prefix + each.key, each.value);
    }
    return report;
}

} // namespace Sandpiper
