#pragma once

#include "localmodels/modelshelf.h"

namespace Sandpiper {

class Settings;

// --models: those models, one a line (NAME, quantization, parameters, trained context, whether its
// template takes tools, size, where it came from, path), or one JSON object each with JSON.
// Always 0: a model that cannot be run is listed with why.
int listModels(const Settings &settings, bool json);

} // namespace Sandpiper
