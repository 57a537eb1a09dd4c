#pragma once

#include "localmodels/localrunner.h"

#include <memory>

namespace Sandpiper {

class Settings;

// --provider local: the GGUF model NAME found on this computer (by its name, its file's name or
// its path; the only one when NAME is empty) run by llama-server for the command's duration,
// with what happens on stderr. The runner answers at BASEURL; null with ERROR when it cannot.
std::unique_ptr<LocalRunner> startLocalModel(const Settings &settings, const QString &name, QUrl *baseUrl,
                                             QString *error);

} // namespace Sandpiper
