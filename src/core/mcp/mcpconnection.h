#pragma once

#include "mcp/mcpcatalog.h"
#include "mcp/mcpserverlog.h"
#include "mcp/mcpserverstatus.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <functional>
#include <map>

class QNetworkAccessManager;

namespace Sandpiper {

class McpTransport;

// One configured MCP server, for the whole app: its process or HTTP session, the lifecycle
// (initialize with version negotiation, initialized, then its McpCatalog lists the tools and
// prompts), the requests in flight with their timeouts, progress and cancellation, and a restart
// with back-off after a crash. Lives on the MCP thread.
//
// Requests carry a TICKET of the caller; their answers come back as replied(ticket, ...).
class McpConnection : public QObject
{
    Q_OBJECT

public:
    McpConnection(McpServerConfig config, QNetworkAccessManager *network, QString logFolder,
                  std::chrono::seconds defaultTimeout, QObject *parent = nullptr);
    ~McpConnection() override;

    const McpServerStatus &status() const { return m_status; }
    const McpServerConfig &config() const { return m_status.config; }
    std::chrono::milliseconds timeout() const;
    void setDefaultTimeout(std::chrono::seconds timeout) { m_defaultTimeout = timeout; }

    // Starts the server unless it runs or starts; a failed one only once its pause is over
    // (or at once when FORCE).
    void start(bool force = false);
    // Ends the server on purpose (disabled, removed, the app quits): requests end as unavailable.
    void stop(const QString &reason);
    void restart();
    // Sends METHOD once the server runs (starting it when needed). With PROGRESS the request
    // asks for progress notifications, reported as progressed(TICKET, ...).
    void request(quint64 ticket, const QString &method, const QJsonObject &params, bool progress);
    void cancel(quint64 ticket, const QString &reason);

    // The MCP versions Sandpiper speaks, newest first; the first is asked for.
    static const QStringList &supportedVersions();

Q_SIGNALS:
    void changed();
    void replied(quint64 ticket, const Sandpiper::McpReply &reply);
    void progressed(quint64 ticket, double progress, double total, const QString &message);

private:
    struct Pending {
        quint64 ticket = 0;
        QString method;
        QString progressToken;
        QDeadlineTimer deadline;                        // no answer nor progress by then: a timeout
        QDeadlineTimer hardLimit;                       // progress does not extend a request beyond this
        std::function<void(const McpReply &)> internal; // the lifecycle's own requests
    };
    struct Queued {
        quint64 ticket;
        QString method;
        QJsonObject params;
        bool progress;
    };

    void launch(const McpServerConfig &config);
    void openTransport(McpTransport *transport);
    void initialize();
    void initialized(const McpReply &reply);
    void becomeRunning();
    void send(quint64 ticket, const QString &method, QJsonObject params, bool progress,
              std::function<void(const McpReply &)> internal = {});
    void notify(const QString &method, const QJsonObject &params = {});
    void receive(const QJsonObject &message);
    void handleResponse(const QJsonObject &message);
    void handleNotification(const QString &method, const QJsonObject &params);
    void answerServerRequest(const QJsonObject &message);
    void transportFailed(const QString &reason);
    void fail(const QString &reason, bool crashed);
    void closeTransport();
    void checkDeadlines();
    void finish(qint64 id, const McpReply &reply);
    void finishAll(McpReply::Kind kind, const QString &message, bool keepQueued);
    void addProblem(const QString &problem);
    void setState(McpServerStatus::State state);
    QString unavailableText() const;

    McpServerStatus m_status;
    QNetworkAccessManager *m_network;
    std::chrono::seconds m_defaultTimeout;
    McpServerLog m_log;
    McpCatalog m_catalog; // a child, so that it follows the connection to the MCP thread
    QPointer<McpTransport> m_transport;
    std::map<qint64, Pending> m_pending;
    QList<Queued> m_queue;
    qint64 m_nextId = 1;
    int m_generation = 0;    // a new one with every start; late answers of older ones are dropped
    bool m_fellBack = false; // an HTTP server that turned out to speak only HTTP+SSE
    QString m_garbage;       // the first line of stdout that was not JSON-RPC
    QSet<QString> m_unknownNotifications;
    int m_crashes = 0; // in a row: reset once the server has run for a while
    int m_startFailures = 0;
    QElapsedTimer m_runningSince;
    QTimer m_deadlines;
    QTimer m_restartTimer;
};

} // namespace Sandpiper
