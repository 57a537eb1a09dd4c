#include "settings/settings.h"

#include "llm/modelimage.h"
#include "llm/providerpresets.h"

#include <sandpiper/buildinfo.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// Per-provider keys: providers/<id>/base_url, model, headers ("Name: value" lines),
// text_tool_calls and reasoning_back (true, false, or empty for the preset's choice),
// context_windows ("MODEL=TOKENS" lines; "*" for any model), image_models ("MODEL=yes|no" lines),
// model_reports (the report cards of its models, JSON; see ModelReports).
const QRegularExpression providerKey(QStringLiteral("^providers/([a-z0-9_-]+)/"
                                                    "(base_url|model|headers|api_key_env|text_tool_calls|reasoning_"
                                                    "back|context_windows|image_models|model_reports)$"));

// A per-provider switch: true or false as written, else FALLBACK.
bool switchValue(const QString &text, bool fallback)
{
    const QString lower = text.trimmed().toLower();
    if (lower == QLatin1String("true") || lower == QLatin1String("1") || lower == QLatin1String("on"))
        return true;
    if (lower == QLatin1String("false") || lower == QLatin1String("0") || lower == QLatin1String("off"))
        return false;
    return fallback;
}

// Per MCP tool (SERVER__TOOL): its approval policy, and when the user chose "Always allow" on a card.
const QRegularExpression mcpApprovalKey(QStringLiteral("^approval/([A-Za-z0-9_-]+__[A-Za-z0-9_-]+)$"));
const QRegularExpression mcpAllowedKey(QStringLiteral("^mcp/allowed_always/([A-Za-z0-9_-]+__[A-Za-z0-9_-]+)$"));

// "MODEL=VALUE" lines of a per-model setting, as (model, value) pairs; the last '=' splits, since
// model names may hold one. Lines without a model are skipped.
QList<std::pair<QString, QString>> modelLines(const QString &text)
{
    QList<std::pair<QString, QString>> pairs;
    for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qsizetype equals = line.lastIndexOf(QLatin1Char('='));
        const QString model = line.left(equals).trimmed();
        if (equals > 0 && !model.isEmpty())
            pairs.append({model, line.mid(equals + 1)});
    }
    return pairs;
}

// The inverse, sorted by model.
QString modelLinesText(const QHash<QString, QString> &values)
{
    QStringList models = values.keys();
    models.sort();
    QStringList lines;
    for (const QString &model : std::as_const(models))
        lines << QStringLiteral("%1=%2").arg(model, values.value(model));
    return lines.join(QLatin1Char('\n'));
}

// More figures than this per execution would only bury the conversation.
constexpr int maxFiguresPerRun = 500;

// The layout of the settings file; a file with a higher number comes from a newer Sandpiper.
constexpr int fileVersion = 1;
const QString versionKey = QStringLiteral("meta/version");

} // namespace

Settings::Settings(QString profileDirectory)
    : m_profile(std::move(profileDirectory))
{
    if (m_profile.isEmpty()) {
        m_settings = std::make_unique<QSettings>(QSettings::IniFormat, QSettings::UserScope,
                                                 QStringLiteral("sandpiper"), QStringLiteral("sandpiper"));
    } else {
        QDir().mkpath(m_profile);
        m_settings = std::make_unique<QSettings>(m_profile + QStringLiteral("/sandpiper.conf"), QSettings::IniFormat);
    }
    QFile file(m_settings->fileName());
    if (!file.exists())
        return;
    // QSettings reads almost anything as INI; NUL bytes or a non-empty file without a single
    // key mean it is not ours (a crash mid-write, another program's file).
    const QByteArray bytes = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    const bool corrupt = m_settings->status() != QSettings::NoError || bytes.contains('\0') ||
                         (!bytes.trimmed().isEmpty() && m_settings->allKeys().isEmpty());
    const int version = m_settings->value(versionKey, fileVersion).toInt();
    if (corrupt) {
        m_warning = QCoreApplication::translate("Sandpiper::Settings",
                                                "The settings file %1 could not be read. Sandpiper uses the defaults "
                                                "and leaves the file as it is; changes last until you quit.")
                        .arg(QDir::toNativeSeparators(m_settings->fileName()));
    } else if (version > fileVersion) {
        m_warning = QCoreApplication::translate("Sandpiper::Settings",
                                                "The settings file %1 was written by a newer version of Sandpiper. "
                                                "This version uses the defaults and leaves the file as it is; changes "
                                                "last until you quit.")
                        .arg(QDir::toNativeSeparators(m_settings->fileName()));
    }
    m_fileSetAside = !m_warning.isEmpty();
}

Settings::~Settings() = default;

const QList<Settings::Spec> &Settings::specs()
{
    static const WebConfig web; // the defaults
    const auto seconds = [](std::chrono::milliseconds duration) {
        return int(std::chrono::duration_cast<std::chrono::seconds>(duration).count());
    };
    static const QList<Spec> specs = {
        {QStringLiteral("provider"), Type::String, QStringLiteral("openai")},
        {QStringLiteral("appearance/theme"), Type::String, QStringLiteral("system")},
        {QStringLiteral("appearance/chat_font_size"), Type::Integer, 0},
        {QStringLiteral("appearance/language"), Type::String, QStringLiteral("system")}, // system, en, zh_CN
        {QStringLiteral("agent/max_tool_rounds"), Type::Integer, 20},
        {QStringLiteral("agent/model_titles"), Type::Boolean, false},
        {QStringLiteral("agent/system_prompt"), Type::String, QString()},
        {QStringLiteral("agent/output_chars"), Type::Integer, 8000},
        // The whole of a tool's result for the model, in characters; 0: from the model's window.
        {QStringLiteral("agent/result_chars"), Type::Integer, 0},
        // More folders with GGUF models, beside Sandpiper's own and other applications' (':' between).
        {QStringLiteral("local/model_folders"), Type::String, QString()},
        // The llama-server that runs them; empty: the one on PATH.
        {QStringLiteral("local/server"), Type::String, QString()},
        // The image "Get llama-server for Docker" pulls (a mirror's); empty: llama.cpp's published
        // server image (RunnerImage::defaultReference).
        {QStringLiteral("local/runner_image"), Type::String, QString()},
        // Minutes without an answer after which the local model's server stops; 0: never.
        {QStringLiteral("local/idle_minutes"), Type::Integer, 15},
        // Conversations the local model answers at once (llama-server's slots, each its own context).
        {QStringLiteral("local/parallel"), Type::Integer, 2},
        // Hosts besides the hub's own that a download may be redirected to: a mirror's (HF_ENDPOINT)
        // file servers, ',' between; "*.example.org" takes every host under it.
        {QStringLiteral("local/hub_hosts"), Type::String, QString()},
        // A model's report card the first time it answers: ask, always (without asking), never.
        {QStringLiteral("models/test_first_use"), Type::String, QStringLiteral("ask")},
        // Images go to the model with their longest side scaled down to this (pixels).
        {QStringLiteral("images/max_side"), Type::Integer, ModelImage::DefaultMaxSide},
        {QStringLiteral("approval/execute_python_code"), Type::String, QStringLiteral("ask")},
        {QStringLiteral("sandbox/enabled"), Type::Boolean, true},
        {QStringLiteral("sandbox/image"), Type::String, QLatin1String(BuildInfo::defaultSandboxImage)},
        {QStringLiteral("sandbox/memory"), Type::String, QStringLiteral("2g")},
        {QStringLiteral("sandbox/cpus"), Type::Number, 2.0},
        {QStringLiteral("sandbox/pids_limit"), Type::Integer, 256},
        {QStringLiteral("sandbox/timeout_seconds"), Type::Integer, 60},
        {QStringLiteral("sandbox/network"), Type::Boolean, false},
        {QStringLiteral("sandbox/idle_stop_minutes"), Type::Integer, 15},
        {QStringLiteral("sandbox/prewarm"), Type::Boolean, true},
        // A new kernel gets the conversation's variables back by itself (cells that write files
        // are left out); otherwise "Restore variables" is offered.
        {QStringLiteral("sandbox/restore_variables"), Type::Boolean, false},
        // What a conversation's files may take (MiB, 0: no limit), and figures kept per run.
        {QStringLiteral("sandbox/disk_limit_mb"), Type::Integer, 1024},
        {QStringLiteral("sandbox/max_figures"), Type::Integer, 20},
        // A remote engine's new files larger than this (MiB) stay in its container until
        // opened (0: all come back at once).
        {QStringLiteral("sandbox/remote_fetch_limit_mb"), Type::Integer, 8},
        // The Docker engine: a context's name or a DOCKER_HOST URL (ssh://…, tcp://…); empty:
        // whichever the docker command is set up for.
        {QStringLiteral("sandbox/engine"), Type::String, QString()},
        // A desktop notification when a long answer ends while the window is in the background.
        {QStringLiteral("notifications/enabled"), Type::Boolean, true},
        {QStringLiteral("network/connect_timeout_seconds"), Type::Integer, 30},
        {QStringLiteral("network/idle_timeout_seconds"), Type::Integer, 180},
        {QStringLiteral("network/max_retries"), Type::Integer, 3},
        {QStringLiteral("charts/enabled"), Type::Boolean, true},
        {QStringLiteral("charts/max_series"), Type::Integer, 12},
        {QStringLiteral("charts/max_points"), Type::Integer, 5000},
        {QStringLiteral("web/enabled"), Type::Boolean, true},
        {QStringLiteral("approval/search_web"), Type::String, QStringLiteral("auto")},
        {QStringLiteral("approval/fetch_url"), Type::String, QStringLiteral("auto")},
        {QStringLiteral("approval/create_chart"), Type::String, QStringLiteral("auto")},
        {QStringLiteral("search/backend"), Type::String, web.searchBackend}, // duckduckgo, searxng, brave, tavily
        {QStringLiteral("search/max_results"), Type::Integer, web.maxResults},
        {QStringLiteral("search/timeout_seconds"), Type::Integer, seconds(web.searchTimeout)},
        {QStringLiteral("search/searxng_url"), Type::String, web.searxngUrl},
        {QStringLiteral("search/duckduckgo_url"), Type::String, web.duckDuckGoUrl},
        {QStringLiteral("search/brave_url"), Type::String, web.braveUrl},
        {QStringLiteral("search/tavily_url"), Type::String, web.tavilyUrl},
        {QStringLiteral("fetch/max_bytes"), Type::Integer, int(web.maxBytes)},
        {QStringLiteral("fetch/max_chars"), Type::Integer, web.maxChars},
        {QStringLiteral("fetch/timeout_seconds"), Type::Integer, seconds(web.fetchTimeout)},
        {QStringLiteral("fetch/connect_timeout_seconds"), Type::Integer, seconds(web.connectTimeout)},
        {QStringLiteral("network/allow_local"), Type::Boolean, web.allowLocal},
        {QStringLiteral("mcp/timeout_seconds"), Type::Integer, 60},
        // The main window's size and place, and its splitter and dock layout (Qt's own encoding, in base64).
        {QStringLiteral("window/geometry"), Type::String, QString()},
        {QStringLiteral("window/state"), Type::String, QString()},
        {QStringLiteral("window/splitter"), Type::String, QString()},
    };
    return specs;
}

std::optional<Settings::Spec> Settings::specFor(const QString &key) const
{
    for (const Spec &spec : specs()) {
        if (spec.key == key)
            return spec;
    }
    if (providerKey.match(key).hasMatch() || mcpAllowedKey.match(key).hasMatch())
        return Spec{key, Type::String, QString()};
    if (mcpApprovalKey.match(key).hasMatch())
        return Spec{key, Type::String, QStringLiteral("ask")};
    return std::nullopt;
}

QVariant Settings::value(const QString &key) const
{
    if (const auto override = m_overrides.find(key); override != m_overrides.end())
        return *override;
    const auto spec = specFor(key);
    const QVariant fallback = spec ? spec->defaultValue : QVariant();
    if (m_fileSetAside)
        return m_unsaved.value(key, fallback);
    return m_settings->value(key, fallback);
}

bool Settings::isSet(const QString &key) const
{
    if (m_overrides.contains(key))
        return true;
    return m_fileSetAside ? m_unsaved.contains(key) : m_settings->contains(key);
}

void Settings::setValue(const QString &key, const QVariant &value)
{
    if (m_fileSetAside) {
        m_unsaved.insert(key, value);
        return;
    }
    m_settings->setValue(versionKey, fileVersion);
    m_settings->setValue(key, value);
}

QString Settings::addOverride(const QString &assignment)
{
    const qsizetype equals = assignment.indexOf(QLatin1Char('='));
    const QString key = assignment.left(equals).trimmed();
    const auto spec = equals > 0 ? specFor(key) : std::nullopt;
    if (!spec) {
        return equals <= 0 ? QStringLiteral("--set expects KEY=VALUE, got \"%1\"").arg(assignment)
                           : QStringLiteral("unknown setting \"%1\"").arg(key);
    }
    const QString text = assignment.mid(equals + 1);
    bool ok = true;
    QVariant parsed;
    switch (spec->type) {
    case Type::String:
        parsed = text;
        break;
    case Type::Integer:
        parsed = text.toInt(&ok);
        break;
    case Type::Number:
        parsed = text.toDouble(&ok);
        break;
    case Type::Boolean: {
        const QString lower = text.toLower();
        ok = QStringList{QStringLiteral("true"), QStringLiteral("false"), QStringLiteral("1"),
                         QStringLiteral("0"),    QStringLiteral("on"),    QStringLiteral("off")}
                 .contains(lower);
        parsed = lower == QLatin1String("true") || lower == QLatin1String("1") || lower == QLatin1String("on");
        break;
    }
    }
    if (!ok)
        return QStringLiteral("the setting \"%1\" needs a %2, got \"%3\"")
            .arg(key, spec->type == Type::Boolean ? QStringLiteral("true or false") : QStringLiteral("number"), text);
    m_overrides.insert(key, parsed);
    return {};
}

QString Settings::configFile() const
{
    return m_settings->fileName();
}

QString Settings::mcpConfigFile() const
{
    return QFileInfo(m_settings->fileName()).absolutePath() + QStringLiteral("/mcp.json");
}

QString Settings::mcpLogFolder() const
{
    return dataDirectory() + QStringLiteral("/mcp-logs");
}

QString Settings::localModelsFolder() const
{
    return dataDirectory() + QStringLiteral("/models");
}

QString Settings::cacheDirectory() const
{
    if (!m_profile.isEmpty())
        return m_profile + QStringLiteral("/cache");
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
}

QStringList Settings::mcpToolsWithPolicy() const
{
    QStringList keys = m_fileSetAside ? m_unsaved.keys() : m_settings->allKeys();
    keys << m_overrides.keys();
    QStringList tools;
    for (const QString &key : std::as_const(keys)) {
        if (const auto match = mcpApprovalKey.match(key); match.hasMatch() && !tools.contains(match.captured(1)))
            tools << match.captured(1);
    }
    return tools;
}

QString Settings::dataDirectory() const
{
    if (!m_profile.isEmpty())
        return m_profile + QStringLiteral("/data");
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/sandpiper");
}

QString Settings::apiKeyVariable() const
{
    return apiKeyVariable(string(QStringLiteral("provider")));
}

QString Settings::apiKeyVariable(const QString &id) const
{
    const QString configured = string(QStringLiteral("providers/%1/api_key_env").arg(id));
    if (!configured.isEmpty())
        return configured;
    const auto preset = findProviderPreset(id);
    return preset ? preset->apiKeyVariable : QStringLiteral("SANDPIPER_API_KEY");
}

ProviderConfig Settings::provider() const
{
    return provider(string(QStringLiteral("provider")));
}

ProviderConfig Settings::provider(const QString &id) const
{
    ProviderConfig config;
    config.id = id;
    const auto preset = findProviderPreset(config.id);
    const QString prefix = QStringLiteral("providers/%1/").arg(config.id);
    config.baseUrl = string(prefix + QStringLiteral("base_url"));
    if (config.baseUrl.isEmpty() && preset)
        config.baseUrl = preset->baseUrl;
    config.baseUrl = normalizeBaseUrl(config.baseUrl).url;
    config.model = string(prefix + QStringLiteral("model"));
    if (config.model.isEmpty() && preset)
        config.model = preset->defaultModel;
    const QStringList headerLines =
        string(prefix + QStringLiteral("headers")).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : headerLines) {
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon > 0)
            config.extraHeaders.append({line.left(colon).trimmed().toUtf8(), line.mid(colon + 1).trimmed().toUtf8()});
    }
    config.recoverTextToolCalls = switchValue(string(prefix + QStringLiteral("text_tool_calls")), true);
    config.sendReasoningBack =
        switchValue(string(prefix + QStringLiteral("reasoning_back")), preset && preset->sendReasoningBack);
    config.contextWindows = parseContextWindows(string(prefix + QStringLiteral("context_windows")));
    config.imageModels = parseImageModels(string(prefix + QStringLiteral("image_models")));
    config.defaultContextWindow = preset ? preset->contextWindow : 0;
    config.connectTimeout = std::chrono::seconds(integer(QStringLiteral("network/connect_timeout_seconds")));
    config.idleTimeout = std::chrono::seconds(integer(QStringLiteral("network/idle_timeout_seconds")));
    config.maxRetries = integer(QStringLiteral("network/max_retries"));
    return config;
}

QHash<QString, qint64> Settings::parseContextWindows(const QString &text)
{
    // "qwen2.5:7b=32768", "llama3.1 = 8k".
    static const QRegularExpression tokens(QStringLiteral("^\\s*(\\d+)\\s*([kK]?)\\s*$"));
    QHash<QString, qint64> windows;
    for (const auto &[model, value] : modelLines(text)) {
        const QRegularExpressionMatch match = tokens.match(value);
        const qint64 tokenCount =
            match.hasMatch() ? match.captured(1).toLongLong() * (match.captured(2).isEmpty() ? 1 : 1024) : 0;
        if (tokenCount > 0)
            windows.insert(model, tokenCount);
    }
    return windows;
}

QString Settings::formatContextWindows(const QHash<QString, qint64> &windows)
{
    QHash<QString, QString> lines;
    for (auto it = windows.begin(); it != windows.end(); ++it)
        lines.insert(it.key(), QString::number(it.value()));
    return modelLinesText(lines);
}

QHash<QString, bool> Settings::parseImageModels(const QString &text)
{
    QHash<QString, bool> models;
    for (const auto &[model, value] : modelLines(text)) {
        const QString answer = value.trimmed().toLower();
        if (answer == QLatin1String("yes") || answer == QLatin1String("true"))
            models.insert(model, true);
        else if (answer == QLatin1String("no") || answer == QLatin1String("false"))
            models.insert(model, false);
    }
    return models;
}

QString Settings::formatImageModels(const QHash<QString, bool> &models)
{
    QHash<QString, QString> lines;
    for (auto it = models.begin(); it != models.end(); ++it)
        lines.insert(it.key(), it.value() ? QStringLiteral("yes") : QStringLiteral("no"));
    return modelLinesText(lines);
}

DockerCli::Engine Settings::engine() const
{
    return DockerCli::Engine::fromSetting(string(QStringLiteral("sandbox/engine")));
}

SandboxConfig Settings::sandbox(const QString &conversationId, const QString &conversationFolder) const
{
    SandboxConfig config;
    config.image = string(QStringLiteral("sandbox/image"));
    config.conversationId = conversationId;
    config.dataDirectory = conversationFolder;
    config.memory = string(QStringLiteral("sandbox/memory"));
    config.cpus = value(QStringLiteral("sandbox/cpus")).toDouble();
    config.pidsLimit = integer(QStringLiteral("sandbox/pids_limit"));
    config.network = boolean(QStringLiteral("sandbox/network"));
    config.executionTimeout = std::chrono::seconds(std::max(1, integer(QStringLiteral("sandbox/timeout_seconds"))));
    config.idleStop = std::chrono::minutes(std::max(1, integer(QStringLiteral("sandbox/idle_stop_minutes"))));
    config.diskLimitBytes = qint64(std::max(0, integer(QStringLiteral("sandbox/disk_limit_mb")))) << 20;
    config.remoteFetchLimitBytes = qint64(std::max(0, integer(QStringLiteral("sandbox/remote_fetch_limit_mb")))) << 20;
    config.maxFigures = std::clamp(integer(QStringLiteral("sandbox/max_figures")), 0, maxFiguresPerRun);
    return config;
}

QString Settings::defaultSystemPrompt() const
{
    QFile file(QStringLiteral(":/resources/system-prompt.md"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).trimmed() : QString();
}

WebConfig Settings::web() const
{
    WebConfig config;
    config.searchBackend = string(QStringLiteral("search/backend")).trimmed().toLower();
    config.maxResults = std::max(1, integer(QStringLiteral("search/max_results")));
    config.searchTimeout = std::chrono::seconds(std::max(1, integer(QStringLiteral("search/timeout_seconds"))));
    config.searxngUrl = string(QStringLiteral("search/searxng_url")).trimmed();
    config.duckDuckGoUrl = string(QStringLiteral("search/duckduckgo_url")).trimmed();
    config.braveUrl = string(QStringLiteral("search/brave_url")).trimmed();
    config.tavilyUrl = string(QStringLiteral("search/tavily_url")).trimmed();
    config.allowLocal = boolean(QStringLiteral("network/allow_local"));
    config.maxBytes = std::max<qint64>(1024, value(QStringLiteral("fetch/max_bytes")).toLongLong());
    config.maxChars = std::max(500, integer(QStringLiteral("fetch/max_chars")));
    config.fetchTimeout = std::chrono::seconds(std::max(1, integer(QStringLiteral("fetch/timeout_seconds"))));
    config.connectTimeout = std::chrono::seconds(std::max(1, integer(QStringLiteral("fetch/connect_timeout_seconds"))));
    return config;
}

} // namespace Sandpiper
