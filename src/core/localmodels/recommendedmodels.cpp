#include "localmodels/recommendedmodels.h"

namespace Sandpiper {

namespace {

constexpr qint64 megabytes = 1000 * 1000;

} // namespace

QList<RecommendedModel> RecommendedModels::all()
{
    // Sizes of the Q4_K_M files as the hub lists them; memory: the weights and an 8k context.
    return {
        {QStringLiteral("Qwen/Qwen2.5-0.5B-Instruct-GGUF"), QStringLiteral("Q4_K_M"), 491 * megabytes, 1000 * megabytes,
         tr("The smallest that calls tools: quick on any computer, for simple sums and plots.")},
        {QStringLiteral("Qwen/Qwen2.5-3B-Instruct-GGUF"), QStringLiteral("Q4_K_M"), 2100 * megabytes, 3200 * megabytes,
         tr("Small and steady with Python: a good start on a laptop.")},
        {QStringLiteral("Qwen/Qwen2.5-Coder-7B-Instruct-GGUF"), QStringLiteral("Q4_K_M"), 4680 * megabytes,
         6200 * megabytes, tr("Writes and fixes code well; calls tools reliably.")},
        {QStringLiteral("ggml-org/Qwen3-8B-GGUF"), QStringLiteral("Q4_K_M"), 5030 * megabytes, 6800 * megabytes,
         tr("Thinks before it answers; strong at tool calls and analysis.")},
        {QStringLiteral("ggml-org/gpt-oss-20b-GGUF"), QStringLiteral("MXFP4"), 12100 * megabytes, 14000 * megabytes,
         tr("OpenAI's open model: the best tool use here, for 16 GB of memory or more.")},
    };
}

QList<RecommendedModel> RecommendedModels::fitting(qint64 memoryBytes)
{
    QList<RecommendedModel> models = all();
    if (memoryBytes > 0)
        models.removeIf([memoryBytes](const RecommendedModel &model) { return model.memoryBytes > memoryBytes; });
    return models;
}

RecommendedModel RecommendedModels::best(qint64 memoryBytes)
{
    // Half the memory: room for the system, the app and the sandbox beside the model, and a first
    // download that does not take an evening.
    const QList<RecommendedModel> fit = fitting(memoryBytes / 2);
    return fit.isEmpty() ? all().constFirst() : fit.constLast();
}

} // namespace Sandpiper
