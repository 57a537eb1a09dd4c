#pragma once

#include "mcp/mcpconfigfile.h"
#include "mcp/mcpserverstatus.h"

#include <QMutex>
#include <QObject>

#include <QCoroTask>

#include <atomic>
#include <chrono>

class QThread;

namespace Sandpiper {

class McpHub;

// The MCP servers of mcp.json, one process or HTTP session each for the whole program, shared
// by every conversation. They start when first needed (startEnabled(), a request) and run on
// a thread of their own, so neither the GUI nor an agent ever waits on a server's pipe.
//
// Every public function may be called from any thread. Requests are sent with a ticket
// (nextTicket()) and answered by replied(ticket, ...), emitted from the MCP thread: connect to it
// before sending, from an object on the caller's thread (see McpReplyWaiter, call()).
//
// The registry must outlive every agent that uses it: front ends destroy it after
// AgentThread::waitForRetiredThreads().
class McpServerRegistry : public QObject
{
    Q_OBJECT

public:
    struct Options {
        QString configFile;               // mcp.json
        QString logFolder;                // one NAME.log per server
        std::chrono::seconds timeout{60}; // per request, unless the server's entry says otherwise
    };

    explicit McpServerRegistry(Options options, QObject *parent = nullptr);
    // Stops every server (input closed, SIGTERM, SIGKILL; a few seconds at most) and the thread.
    ~McpServerRegistry() override;

    QString configFile() const { return m_options.configFile; }
    std::chrono::seconds defaultTimeout() const;
    QList<McpServerStatus> servers() const;
    // What was wrong with mcp.json when it was last read (the file as a whole, or skipped servers).
    QList<McpConfigFile::Problem> configProblems() const;
    bool configIsBroken() const;

    // Reads mcp.json again: new servers join (stopped), removed ones stop, changed ones restart.
    void reload();
    // Starts every enabled server that is not running: what "first needed" means.
    void startEnabled();
    void restart(const QString &server);
    // The default timeout for servers whose entry names none.
    void setDefaultTimeout(std::chrono::seconds timeout);

    quint64 nextTicket() { return ++m_tickets; }
    // Sends METHOD with PARAMS to SERVER once it runs; answered by replied(TICKET, ...). With
    // PROGRESS, progress notifications come as progressed(TICKET, ...).
    void request(quint64 ticket, const QString &server, const QString &method, const QJsonObject &params,
                 bool progress = false);
    // Tells the server to stop working on TICKET; replied() says Cancelled at once.
    void cancel(quint64 ticket, const QString &reason);
    // Connects a server that may not be saved yet, lists its tools and lets it go; answered by
    // tested(TICKET, ...).
    void test(quint64 ticket, const McpServerConfig &config);

    // Sends and waits, on the calling thread (which needs an event loop).
    QCoro::Task<McpReply> call(QString server, QString method, QJsonObject params);
    QCoro::Task<McpServerStatus> testServer(McpServerConfig config);
    // How long call() waits for SERVER's answer at most before it gives up on the MCP thread.
    std::chrono::milliseconds backstop(const QString &server) const;

Q_SIGNALS:
    // A server's state, tools or prompts changed (or mcp.json was read again).
    void serversChanged();
    void replied(quint64 ticket, const Sandpiper::McpReply &reply);
    void progressed(quint64 ticket, double progress, double total, const QString &message);
    void tested(quint64 ticket, const Sandpiper::McpServerStatus &status);

private:
    friend class McpHub;
    // Called by the hub on the MCP thread.
    void publish(QList<McpServerStatus> servers, QList<McpConfigFile::Problem> problems, bool broken);

    Options m_options;
    QThread *m_thread;
    McpHub *m_hub = nullptr; // lives on m_thread
    std::atomic<quint64> m_tickets{0};
    mutable QMutex m_mutex;
    QList<McpServerStatus> m_servers;
    QList<McpConfigFile::Problem> m_problems;
    bool m_broken = false;
};

} // namespace Sandpiper
