#pragma once

#include <QStringList>

namespace Sandpiper {

// --models: the GGUF models on this computer (ModelShelf) from OWNFOLDER, the other applications'
// folders and ADDED, one a line (NAME, quantization, parameters, trained context, whether its
// template takes tools, size, where it came from, path), or one JSON object each with JSON.
// Always 0: a model that cannot be run is listed with why.
int listModels(const QString &ownFolder, const QStringList &added, bool json);

} // namespace Sandpiper
