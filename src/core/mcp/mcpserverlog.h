#pragma once

#include <QFile>
#include <QStringList>

namespace Sandpiper {

// One server's log: what it wrote to stderr and what happened to it (started, answered wrongly,
// ended), with the time, in FOLDER/NAME.log. The file is started afresh past a megabyte (the
// old one stays as NAME.log.1); the last lines of stderr are kept in memory for the settings.
class McpServerLog
{
public:
    McpServerLog(const QString &folder, const QString &serverName);

    QString path() const { return m_file.fileName(); }
    void stderrLine(const QString &line);
    void event(const QString &text);
    const QStringList &stderrTail() const { return m_tail; }
    void clearTail() { m_tail.clear(); }

    static constexpr int tailLines = 30;
    static constexpr qint64 maxFileBytes = 1024 * 1024;

private:
    void write(const QString &kind, const QString &text);

    QFile m_file;
    QStringList m_tail;
};

} // namespace Sandpiper
