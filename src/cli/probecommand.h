#pragma once

#include "llm/providerconfig.h"

namespace Sandpiper {

class Settings;

// --probe: the report card of CONFIG's model (ModelProbe), printed as text or, with JSON, as one
// JSON object; the card is kept in SETTINGS for the provider and the switches it calls for are set
// there (the card says which). What happens meanwhile goes to stderr. 0 when the model answered,
// 1 when not even the plain answer came.
namespace ProbeCommand {

int run(Settings &settings, const ProviderConfig &config, bool json);

} // namespace ProbeCommand

} // namespace Sandpiper
