#pragma once

#include "mcp/mcptransport.h"

#include <QMap>
#include <QPointer>
#include <QStringList>

class QProcess;

namespace Sandpiper {

// A server run as a child process that reads and writes newline-delimited JSON-RPC on its
// stdin and stdout; what it writes to stderr goes to logLine(). Lines on stdout that are not
// JSON are reported as problems (the protocol forbids them) and skipped.
class McpStdioTransport : public McpTransport
{
    Q_OBJECT

public:
    McpStdioTransport(QString command, QStringList args, QMap<QString, QString> env, QString cwd,
                      QObject *parent = nullptr);
    ~McpStdioTransport() override;

    void open() override;
    void send(const QJsonObject &message) override;
    void close() override;
    qint64 processId() const override;

    // A message larger than this ends the connection instead of filling the memory.
    static constexpr qsizetype maxMessageBytes = 128 * 1024 * 1024;
    // Blocks until every server process closed on this thread has ended: each gets two seconds
    // after its input closed, then SIGTERM and two seconds more, then SIGKILL. For the end of
    // the program; at other times close() lets them end in the background.
    static void finishClosing();

private:
    void readOutput();
    void readErrors();
    void handleLine(QByteArrayView line);
    void ended(const QString &reason);
    static QList<QPointer<QProcess>> &closingProcesses();

    QString m_command;
    QStringList m_args;
    QMap<QString, QString> m_env;
    QString m_cwd;
    QPointer<QProcess> m_process;
    QByteArray m_stdout;
    qsizetype m_scanned = 0; // how much of m_stdout is known to hold no newline
    QByteArray m_stderr;
    bool m_closing = false;
    int m_garbageLines = 0;
};

} // namespace Sandpiper
