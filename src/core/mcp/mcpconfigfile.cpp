#include "mcp/mcpconfigfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace Sandpiper {

namespace {

const QString serversKey = QStringLiteral("mcpServers");

// Where "NAME": stands in the file, for a problem of that server: QJsonDocument keeps no
// positions, so the key is looked for in the text after "mcpServers".
qsizetype offsetOfServer(const QByteArray &text, const QString &name)
{
    const qsizetype servers = text.indexOf("\"mcpServers\"");
    const QByteArray key = QJsonDocument(QJsonArray{name}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    const qsizetype at = text.indexOf(key, std::max<qsizetype>(0, servers));
    return at >= 0 ? at : servers;
}

} // namespace

QString McpConfigFile::Problem::describe(const QString &fileName) const
{
    const QString place = line > 0 ? QCoreApplication::translate("Sandpiper::McpConfigFile", "%1, line %2, column %3")
                                         .arg(fileName)
                                         .arg(line)
                                         .arg(column)
                                   : fileName;
    if (server.isEmpty())
        return QStringLiteral("%1: %2").arg(place, message);
    return QCoreApplication::translate("Sandpiper::McpConfigFile", "%1: the server \"%2\" is skipped: %3")
        .arg(place, server, message);
}

std::pair<int, int> McpConfigFile::lineAndColumn(const QByteArray &text, qsizetype offset)
{
    offset = std::clamp<qsizetype>(offset, 0, text.size());
    int line = 1;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < offset; ++i) {
        if (text.at(i) == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    // Columns count characters, not bytes.
    return {line, int(QString::fromUtf8(text.mid(lineStart, offset - lineStart)).size()) + 1};
}

McpConfigFile McpConfigFile::read(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly)) {
        McpConfigFile broken;
        broken.m_exists = true;
        broken.m_broken = true;
        broken.m_problems << Problem{0, 0, {}, file.errorString()};
        return broken;
    }
    McpConfigFile config = parse(file.readAll());
    config.m_exists = true;
    return config;
}

McpConfigFile McpConfigFile::parse(const QByteArray &text)
{
    McpConfigFile config;
    config.m_exists = true;
    auto fail = [&config, &text](qsizetype offset, const QString &message) {
        const auto [line, column] = lineAndColumn(text, offset);
        config.m_broken = true;
        config.m_problems << Problem{line, column, {}, message};
        return config;
    };
    if (text.trimmed().isEmpty())
        return config;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        return fail(error.offset, error.errorString());
    if (!document.isObject())
        return fail(0, QStringLiteral("the file must hold a JSON object with \"mcpServers\""));
    config.m_document = document.object();
    const QJsonValue servers = config.m_document.value(serversKey);
    if (servers.isUndefined())
        return config;
    if (!servers.isObject())
        return fail(std::max<qsizetype>(0, text.indexOf("\"mcpServers\"")),
                    QStringLiteral("\"mcpServers\" must be an object of servers by name"));
    const QJsonObject entries = servers.toObject();
    for (auto it = entries.begin(); it != entries.end(); ++it) {
        QString why;
        if (it.key().trimmed().isEmpty())
            why = QStringLiteral("a server needs a name");
        else if (!it->isObject())
            why = QStringLiteral("a server must be an object such as {\"command\": \"...\"}");
        std::optional<McpServerConfig> server;
        if (why.isEmpty())
            server = McpServerConfig::fromJson(it.key(), it->toObject(), &why);
        if (server) {
            config.m_servers << *server;
            continue;
        }
        const auto [line, column] = lineAndColumn(text, offsetOfServer(text, it.key()));
        config.m_problems << Problem{line, column, it.key(), why};
    }
    return config;
}

QString McpConfigFile::write(const QString &path, const QList<McpServerConfig> &servers) const
{
    if (m_broken)
        return QCoreApplication::translate("Sandpiper::McpConfigFile",
                                           "%1 cannot be read, so it is left as it is: correct it first.")
            .arg(QDir::toNativeSeparators(path));
    QJsonObject document = m_document;
    const QJsonObject old = document.value(serversKey).toObject();
    QJsonObject entries;
    for (const McpServerConfig &server : servers)
        entries.insert(server.name, server.toJson(old.value(server.name).toObject()));
    document.insert(serversKey, entries);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    file.write(QJsonDocument(document).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return file.errorString();
    return {};
}

QStringList McpConfigFile::importCandidates()
{
    const QString home = QDir::homePath();
    QStringList candidates = {
        home + QStringLiteral("/.config/Claude/claude_desktop_config.json"),
        home + QStringLiteral("/Library/Application Support/Claude/claude_desktop_config.json"),
        qEnvironmentVariable("APPDATA") + QStringLiteral("/Claude/claude_desktop_config.json"),
        home + QStringLiteral("/.cursor/mcp.json"),
    };
    candidates.removeIf([](const QString &path) {
        const McpConfigFile file = read(path);
        return !file.exists() || file.isBroken() || file.servers().isEmpty();
    });
    return candidates;
}

} // namespace Sandpiper
