#pragma once

#include "result.h"

#include <QCoreApplication>
#include <QString>

class QIODevice;

namespace Sandpiper {

// What a GGUF model file says about itself, read from its header alone (the weights are never
// loaded): enough to list it, to tell whether it fits and whether its chat template takes tools.
struct GgufInfo {
    quint32 version = 0;
    QString architecture;      // general.architecture, such as "qwen2" or "llama"
    QString name;              // general.name, empty when not given
    QString sizeLabel;         // general.size_label ("7B", "8x7B"), empty when not given
    QString quantization;      // from general.file_type ("Q4_K_M", "F16"), empty when not given
    qint64 parameterCount = 0; // the tensors' elements, summed
    qint64 trainedContext = 0; // <architecture>.context_length, 0 when not given
    // What one token of context costs in the KV cache (16-bit keys and values, every layer), from
    // <architecture>.block_count, .embedding_length, .attention.head_count(_kv); 0 when not given.
    qint64 kvBytesPerToken = 0;
    QString chatTemplate; // tokenizer.chat_template
    // The template reads the tools it is given (so llama-server's --jinja can pass them).
    bool templateTakesTools = false;
    // A model split into several files (model-00001-of-00003.gguf): this file's place.
    int splitCount = 1;
    int splitIndex = 0;
    qint64 headerBytes = 0; // where the weights begin
    qint64 weightBytes = 0; // what the tensors need, as their types pack them

    // COUNT parameters as people write them: 116672 -> "117K", 7615616512 -> "7.6B"; "?" for 0.
    static QString parameterLabel(qint64 count);
};

// Reads GGUF headers (versions 2 and 3) with every count and length checked against the bytes
// the file has, so that a file cut short, a header with absurd sizes or something that is not
// GGUF at all gets a sentence saying so, never a crash or a huge allocation.
class GgufHeader
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::GgufHeader)

public:
    static Result<GgufInfo> read(const QString &path);
    // DEVICE is read from its current position; its size() is the file's.
    static Result<GgufInfo> read(QIODevice &device);
};

} // namespace Sandpiper
