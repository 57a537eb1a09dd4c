#pragma once

#include "mcp/mcpserverstatus.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSet>

#include <functional>

namespace Sandpiper {

// What one MCP server offers: its tools and prompts, listed page by page (tools/list,
// prompts/list) once it is initialized and again whenever it says they changed. A tool is
// offered to the model only with a name of its own and an input schema of type "object"; what
// the server got wrong is told as a problem.
//
// Sends nothing itself: the connection hands it a way to send a request and get its reply.
class McpCatalog : public QObject
{
    Q_OBJECT

public:
    using Reply = std::function<void(const McpReply &)>;
    using Send = std::function<void(const QString &method, const QJsonObject &params, Reply reply)>;

    // The catalog of server SERVER (the name in mcp.json), whose requests go through SEND.
    McpCatalog(QString server, Send send, QObject *parent = nullptr);

    const QList<McpToolInfo> &tools() const { return m_tools; }
    const QList<McpPromptInfo> &prompts() const { return m_prompts; }

    // Forgets everything: the server starts again.
    void clear();
    // Lists what CAPABILITIES (initialize's) say the server has: then listed(), or failed() when
    // its tools cannot be listed.
    void list(const QJsonObject &capabilities);
    // The server says its tools changed: they are listed again, at once once it RUNS, after the
    // listing under way if there is one.
    void toolsChanged(bool running);
    // The server says its prompts changed: they are listed again once it RUNS.
    void promptsChanged(bool running);
    // Lists the tools again if they changed while they were listed.
    void refreshIfChanged();

    // The tools of TOOLS (one page of tools/list) that can be offered, for server SERVER; the names
    // in SEEN are taken already, and take the new ones. PROBLEMS gets a sentence per tool left out.
    static QList<McpToolInfo> readTools(const QString &server, const QJsonArray &tools, QSet<QString> *seen,
                                        QStringList *problems);
    // The prompts of PROMPTS (one page of prompts/list) with a name, for server SERVER.
    static QList<McpPromptInfo> readPrompts(const QString &server, const QJsonArray &prompts);

Q_SIGNALS:
    // The first listing after list() is complete.
    void listed();
    // The tools could not be listed after list(): the server cannot serve. REASON is for the user.
    void failed(const QString &reason);
    // A later listing changed the tools or prompts.
    void changed();
    // Something the server got wrong, a sentence.
    void problem(const QString &problem);

private:
    void listTools(QString cursor, QList<McpToolInfo> tools, int page, bool first);
    void listPrompts(QString cursor, QList<McpPromptInfo> prompts, int page, bool first);

    QString m_server;
    Send m_send;
    QList<McpToolInfo> m_tools;
    QList<McpPromptInfo> m_prompts;
    bool m_hasPrompts = false;
    bool m_listingTools = false;
    bool m_toolsChangedMeanwhile = false;
};

} // namespace Sandpiper
