#pragma once

#include "llm/modelreport.h"

#include <QString>

#include <optional>

namespace Sandpiper {

class Settings;

// The report cards of a provider's models, kept in its settings (providers/<id>/model_reports,
// JSON, one card per server and model: the same model on another server may behave otherwise),
// and the switches a card calls for, written into the provider's settings. The server is its
// base URL, or for a model on this computer, whose runner listens on another port at each start,
// the model's file (SessionManager::reportServer).
class ModelReports
{
public:
    // The card of MODEL at SERVER, when it was probed.
    static std::optional<ModelReport> find(const Settings &settings, const QString &providerId, const QString &server,
                                           const QString &model);
    // Keeps REPORT for its model at SERVER (empty: the base URL it was probed at), replacing the
    // one before.
    static void keep(Settings &settings, const QString &providerId, const ModelReport &report,
                     const QString &server = {});
    // Writes each of REPORT's switches into the settings of PROVIDERID, unless it is so already,
    // and marks it Set or AlreadySo; returns REPORT so marked.
    static ModelReport apply(Settings &settings, const QString &providerId, ModelReport report);
};

} // namespace Sandpiper
