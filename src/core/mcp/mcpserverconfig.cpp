#include "mcp/mcpserverconfig.h"

#include <QJsonArray>

namespace Sandpiper {

namespace {

// A JSON object of strings as a map; false when a value is not a string.
bool readStringMap(const QJsonValue &value, QMap<QString, QString> *map)
{
    if (value.isUndefined() || value.isNull())
        return true;
    if (!value.isObject())
        return false;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        // Numbers and booleans in "env" are common and mean their text.
        if (it->isString())
            map->insert(it.key(), it->toString());
        else if (it->isDouble())
            map->insert(it.key(), QString::number(it->toDouble()));
        else if (it->isBool())
            map->insert(it.key(), it->toBool() ? QStringLiteral("true") : QStringLiteral("false"));
        else
            return false;
    }
    return true;
}

QJsonObject toJsonObject(const QMap<QString, QString> &map)
{
    QJsonObject object;
    for (auto it = map.begin(); it != map.end(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

} // namespace

QString McpServerConfig::summary() const
{
    if (isRemote())
        return url;
    return QStringList(QStringList{command} + args).join(QLatin1Char(' '));
}

std::optional<McpServerConfig> McpServerConfig::fromJson(const QString &name, const QJsonObject &object, QString *error)
{
    McpServerConfig config;
    config.name = name;
    const QString type = object.value(QLatin1String("type")).toString().toLower();
    const bool hasCommand = object.contains(QLatin1String("command"));
    const bool hasUrl = object.contains(QLatin1String("url"));
    if (hasCommand == hasUrl) {
        *error = hasCommand ? QStringLiteral("it has both \"command\" and \"url\"; give one of them")
                            : QStringLiteral("it needs \"command\" (a program) or \"url\" (a remote server)");
        return std::nullopt;
    }
    if (hasCommand) {
        const QJsonValue command = object.value(QLatin1String("command"));
        if (!command.isString() || command.toString().trimmed().isEmpty()) {
            *error = QStringLiteral("\"command\" must be the name or path of a program");
            return std::nullopt;
        }
        config.command = command.toString().trimmed();
        const QJsonValue args = object.value(QLatin1String("args"));
        if (!args.isUndefined() && !args.isNull()) {
            if (!args.isArray()) {
                *error = QStringLiteral("\"args\" must be a list of strings");
                return std::nullopt;
            }
            for (const QJsonValue &arg : args.toArray()) {
                if (!arg.isString() && !arg.isDouble()) {
                    *error = QStringLiteral("\"args\" must be a list of strings");
                    return std::nullopt;
                }
                config.args << (arg.isString() ? arg.toString() : QString::number(arg.toDouble()));
            }
        }
        if (!readStringMap(object.value(QLatin1String("env")), &config.env)) {
            *error = QStringLiteral("\"env\" must map names to strings");
            return std::nullopt;
        }
        const QJsonValue cwd = object.value(QLatin1String("cwd"));
        if (!cwd.isUndefined() && !cwd.isNull() && !cwd.isString()) {
            *error = QStringLiteral("\"cwd\" must be a folder");
            return std::nullopt;
        }
        config.cwd = cwd.toString();
    } else {
        const QJsonValue url = object.value(QLatin1String("url"));
        if (!url.isString() || url.toString().trimmed().isEmpty()) {
            *error = QStringLiteral("\"url\" must be an http:// or https:// address");
            return std::nullopt;
        }
        config.url = url.toString().trimmed();
        if (!config.url.startsWith(QLatin1String("http://")) && !config.url.startsWith(QLatin1String("https://")) &&
            !config.url.contains(QLatin1String("${"))) {
            *error = QStringLiteral("\"url\" must be an http:// or https:// address");
            return std::nullopt;
        }
        if (!readStringMap(object.value(QLatin1String("headers")), &config.headers)) {
            *error = QStringLiteral("\"headers\" must map header names to strings");
            return std::nullopt;
        }
        config.transport = type == QLatin1String("sse") ? Transport::LegacySse : Transport::Http;
    }
    if (!type.isEmpty() && type != QLatin1String("stdio") && type != QLatin1String("http") &&
        type != QLatin1String("streamable-http") && type != QLatin1String("streamablehttp") &&
        type != QLatin1String("sse")) {
        *error = QStringLiteral("\"type\" must be \"stdio\", \"http\" or \"sse\", not \"%1\"").arg(type);
        return std::nullopt;
    }
    if (hasCommand && !type.isEmpty() && type != QLatin1String("stdio")) {
        *error = QStringLiteral("\"type\" is \"%1\" but the server has a \"command\"").arg(type);
        return std::nullopt;
    }
    const QJsonValue disabled = object.value(QLatin1String("disabled"));
    if (!disabled.isUndefined() && !disabled.isBool()) {
        *error = QStringLiteral("\"disabled\" must be true or false");
        return std::nullopt;
    }
    config.enabled = !disabled.toBool(false);
    const QJsonValue timeout = object.value(QLatin1String("timeout"));
    if (!timeout.isUndefined() && (!timeout.isDouble() || timeout.toDouble() <= 0)) {
        *error = QStringLiteral("\"timeout\" must be a number of seconds");
        return std::nullopt;
    }
    config.timeout = std::chrono::seconds(qint64(timeout.toDouble(0)));
    return config;
}

QJsonObject McpServerConfig::toJson(QJsonObject object) const
{
    for (const char *field : {"command", "args", "env", "cwd", "url", "headers", "type"})
        object.remove(QLatin1String(field));
    if (isRemote()) {
        object.insert(QStringLiteral("url"), url);
        if (!headers.isEmpty())
            object.insert(QStringLiteral("headers"), toJsonObject(headers));
        if (transport == Transport::LegacySse)
            object.insert(QStringLiteral("type"), QStringLiteral("sse"));
    } else {
        object.insert(QStringLiteral("command"), command);
        object.insert(QStringLiteral("args"), QJsonArray::fromStringList(args));
        if (!env.isEmpty())
            object.insert(QStringLiteral("env"), toJsonObject(env));
        if (!cwd.isEmpty())
            object.insert(QStringLiteral("cwd"), cwd);
    }
    if (enabled)
        object.remove(QStringLiteral("disabled"));
    else
        object.insert(QStringLiteral("disabled"), true);
    if (timeout.count() > 0)
        object.insert(QStringLiteral("timeout"), double(timeout.count()));
    else
        object.remove(QStringLiteral("timeout"));
    return object;
}

} // namespace Sandpiper
