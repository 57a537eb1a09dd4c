#pragma once

#include <QString>

namespace Sandpiper {

class Settings;

// --pull REPO[:QUANT]: the GGUF model of that quantization (without one: Q4_K_M, else the
// smallest) downloaded from the Hugging Face hub (HF_ENDPOINT for a mirror; a token from HF_TOKEN
// or the keychain's "huggingface" entry) into Sandpiper's models folder, checked against the
// hub's SHA-256. A progress line on stderr, or, with JSON, one JSON object on stdout at the end.
// Ctrl-C stops it with the .part kept: the same command goes on from there. The exit code: 0 when
// the model is here, 1 when not, 130 after Ctrl-C.
int pullModel(const Settings &settings, const QString &what, bool json);

} // namespace Sandpiper
