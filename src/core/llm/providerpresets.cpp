#include "llm/providerpresets.h"

#include <QCoreApplication>
#include <QUrl>

namespace Sandpiper {

const QList<ProviderPreset> &providerPresets()
{
    static const QList<ProviderPreset> presets = {
        // Sandpiper's own llama-server (LocalModelHost): its address is known once it runs.
        {QStringLiteral("local"), QCoreApplication::translate("Sandpiper", "This computer"), QString(), QString(),
         QString(), false, true},
        {QStringLiteral("openai"), QStringLiteral("OpenAI"), QStringLiteral("https://api.openai.com/v1"),
         QStringLiteral("OPENAI_API_KEY"), QStringLiteral("gpt-4o-mini"), true, false, 128000},
        {QStringLiteral("ollama"), QStringLiteral("Ollama"), QStringLiteral("http://localhost:11434/v1"),
         QStringLiteral("OLLAMA_API_KEY"), QStringLiteral("qwen2.5:7b"), false},
        {QStringLiteral("lmstudio"), QStringLiteral("LM Studio"), QStringLiteral("http://localhost:1234/v1"),
         QStringLiteral("LMSTUDIO_API_KEY"), QString(), false},
        {QStringLiteral("llamacpp"), QStringLiteral("llama.cpp server"), QStringLiteral("http://localhost:8080/v1"),
         QStringLiteral("LLAMACPP_API_KEY"), QString(), false, true},
        {QStringLiteral("vllm"), QStringLiteral("vLLM"), QStringLiteral("http://localhost:8000/v1"),
         QStringLiteral("VLLM_API_KEY"), QString(), false, true},
        {QStringLiteral("openrouter"), QStringLiteral("OpenRouter"), QStringLiteral("https://openrouter.ai/api/v1"),
         QStringLiteral("OPENROUTER_API_KEY"), QStringLiteral("openai/gpt-4o-mini"), true},
        {QStringLiteral("deepseek"), QStringLiteral("DeepSeek"), QStringLiteral("https://api.deepseek.com/v1"),
         QStringLiteral("DEEPSEEK_API_KEY"), QStringLiteral("deepseek-chat"), true, false, 65536},
        {QStringLiteral("groq"), QStringLiteral("Groq"), QStringLiteral("https://api.groq.com/openai/v1"),
         QStringLiteral("GROQ_API_KEY"), QStringLiteral("llama-3.3-70b-versatile"), true},
        {QStringLiteral("mistral"), QStringLiteral("Mistral"), QStringLiteral("https://api.mistral.ai/v1"),
         QStringLiteral("MISTRAL_API_KEY"), QStringLiteral("mistral-large-latest"), true},
        {QStringLiteral("anthropic"), QStringLiteral("Anthropic (OpenAI-compatible)"),
         QStringLiteral("https://api.anthropic.com/v1"), QStringLiteral("ANTHROPIC_API_KEY"),
         QStringLiteral("claude-sonnet-4-5"), true, false, 200000},
        {QStringLiteral("custom"), QStringLiteral("Custom"), QString(), QStringLiteral("SANDPIPER_API_KEY"), QString(),
         false},
    };
    return presets;
}

std::optional<ProviderPreset> findProviderPreset(const QString &id)
{
    for (const ProviderPreset &preset : providerPresets()) {
        if (preset.id == id)
            return preset;
    }
    return std::nullopt;
}

BaseUrl normalizeBaseUrl(const QString &input)
{
    QString text = input.trimmed();
    if (text.isEmpty())
        return {{}, QCoreApplication::translate("Sandpiper", "The base URL is empty.")};
    if (!text.contains(QLatin1String("://"))) {
        // Local servers speak plain HTTP; anything else is assumed to be HTTPS.
        const QString host = text.section(QLatin1Char('/'), 0, 0).section(QLatin1Char(':'), 0, 0);
        const bool local = host == QLatin1String("localhost") || host.startsWith(QLatin1String("127.")) ||
                           host == QLatin1String("[::1]");
        text.prepend(local ? QStringLiteral("http://") : QStringLiteral("https://"));
    }
    for (const char *suffix : {"/chat/completions", "/completions", "/models"}) {
        while (text.endsWith(QLatin1Char('/')))
            text.chop(1);
        if (text.endsWith(QLatin1String(suffix)))
            text.chop(qsizetype(qstrlen(suffix)));
    }
    while (text.endsWith(QLatin1Char('/')))
        text.chop(1);
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return {
            {},
            QCoreApplication::translate("Sandpiper", "\"%1\" is not a valid http or https URL.").arg(input.trimmed())};
    return {text, {}};
}

} // namespace Sandpiper
