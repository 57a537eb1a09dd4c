#pragma once

#include "mcp/mcpserverconfig.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace Sandpiper {

// A tool of an MCP server as tools/list described it, with the name the model sees.
struct McpToolInfo {
    QString server;
    QString name;        // the server's own name, used in tools/call
    QString exposedName; // SERVER__TOOL (see McpToolName)
    QString title;
    QString description;
    QJsonObject inputSchema;

    friend bool operator==(const McpToolInfo &, const McpToolInfo &) = default;
};

struct McpPromptArgument {
    QString name;
    QString description;
    bool required = false;

    friend bool operator==(const McpPromptArgument &, const McpPromptArgument &) = default;
};

// A prompt template of an MCP server (prompts/list).
struct McpPromptInfo {
    QString server;
    QString name;
    QString title;
    QString description;
    QList<McpPromptArgument> arguments;

    friend bool operator==(const McpPromptInfo &, const McpPromptInfo &) = default;
};

// What the registry knows of one configured server, as a value that crosses threads.
struct McpServerStatus {
    enum class State {
        Stopped,  // not started yet (servers start when first needed), disabled, or stopped
        Starting, // its process or session is being set up
        Running,  // initialized; tools and prompts are listed
        Failed,   // see error and stderrTail; retried after a pause
    };

    McpServerConfig config;
    State state = State::Stopped;
    QString error;          // why it failed, for the user
    QStringList stderrTail; // the last lines it wrote to stderr
    QStringList problems;   // what it did wrong without failing (unknown notifications, bad tools, ...)
    QList<McpToolInfo> tools;
    QList<McpPromptInfo> prompts;
    QString protocolVersion; // negotiated
    QString serverInfo;      // "name version" from its initialize answer
    qint64 processId = 0;
    int restarts = 0;  // after crashes, since it was configured
    QDateTime retryAt; // a failed server is started again when needed after this
    QString logFile;
};

// The answer to one request sent to a server: its result, or why there is none.
struct McpReply {
    enum class Kind {
        Result,     // see result
        Error,      // the server answered with a JSON-RPC error: see code and message
        Timeout,    // no answer within the server's timeout
        Cancelled,  // the caller cancelled it
        Unavailable // the server is not running and could not be started, or it stopped meanwhile
    };
    Kind kind = Kind::Unavailable;
    QJsonObject result;
    int code = 0;
    QString message; // for the user and the model

    bool ok() const { return kind == Kind::Result; }
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::McpServerStatus)
Q_DECLARE_METATYPE(Sandpiper::McpReply)
