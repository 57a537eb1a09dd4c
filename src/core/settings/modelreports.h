#pragma once

#include "llm/modelreport.h"

#include <QString>

#include <optional>

namespace Sandpiper {

class Settings;

// The report cards of a provider's models, kept in its settings (providers/<id>/model_reports,
// JSON, one card per server and model: the same model on another server may behave otherwise),
// and the switches a card calls for, written into the provider's settings.
class ModelReports
{
public:
    // The card of MODEL at BASEURL, when it was probed.
    static std::optional<ModelReport> find(const Settings &settings, const QString &providerId, const QString &baseUrl,
                                           const QString &model);
    // Keeps REPORT for its server and model, replacing the one before.
    static void keep(Settings &settings, const QString &providerId, const ModelReport &report);
    // Writes each of REPORT's switches into the settings of PROVIDERID, unless it is so already,
    // and marks it Set or AlreadySo; returns REPORT so marked.
    static ModelReport apply(Settings &settings, const QString &providerId, ModelReport report);
};

} // namespace Sandpiper
