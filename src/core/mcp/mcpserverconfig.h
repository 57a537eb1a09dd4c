#pragma once

#include <QJsonObject>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace Sandpiper {

// One server of mcp.json, in the shape Claude Desktop and Cursor use:
//   {"command": "npx", "args": [...], "env": {...}, "cwd": "..."}   a program spoken to on stdio
//   {"url": "https://...", "headers": {...}}                        Streamable HTTP (or old HTTP+SSE)
// plus what other clients added and Sandpiper reads too: "disabled": true, "timeout" (seconds),
// "type" ("stdio", "http", "streamable-http" or "sse" for the old transport only).
// Values may hold ${keychain:NAME} and ${env:NAME}; they are expanded when the server starts.
struct McpServerConfig {
    enum class Transport { Stdio, Http, LegacySse };

    QString name;
    Transport transport = Transport::Stdio;
    QString command;
    QStringList args;
    QMap<QString, QString> env;
    QString cwd;
    QString url;
    QMap<QString, QString> headers;
    bool enabled = true;
    std::chrono::seconds timeout{0}; // 0: the default of the settings

    bool isRemote() const { return transport != Transport::Stdio; }
    // "npx -y pkg" or the URL, for a list.
    QString summary() const;

    // The server NAME of a config file, or ERROR saying which field is wrong.
    static std::optional<McpServerConfig> fromJson(const QString &name, const QJsonObject &object, QString *error);
    // OBJECT (the entry as the file had it) with this server's fields: fields Sandpiper does not
    // know stay as they were.
    QJsonObject toJson(QJsonObject object = {}) const;

    friend bool operator==(const McpServerConfig &, const McpServerConfig &) = default;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::McpServerConfig)
