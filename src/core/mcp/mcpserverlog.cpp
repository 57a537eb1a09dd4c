#include "mcp/mcpserverlog.h"

#include "mcp/mcptoolname.h"

#include <QDateTime>
#include <QDir>

namespace Sandpiper {

McpServerLog::McpServerLog(const QString &folder, const QString &serverName)
{
    if (folder.isEmpty())
        return;
    QDir().mkpath(folder);
    m_file.setFileName(folder + QLatin1Char('/') + McpToolName::serverPart(serverName) + QStringLiteral(".log"));
}

void McpServerLog::stderrLine(const QString &line)
{
    if (line.isEmpty())
        return;
    m_tail << line.left(500);
    if (m_tail.size() > tailLines)
        m_tail.removeFirst();
    write(QStringLiteral("stderr"), line);
}

void McpServerLog::event(const QString &text)
{
    write(QStringLiteral("sandpiper"), text);
}

void McpServerLog::write(const QString &kind, const QString &text)
{
    if (m_file.fileName().isEmpty())
        return;
    if (!m_file.isOpen() && !m_file.open(QIODevice::Append | QIODevice::Text))
        return;
    if (m_file.size() > maxFileBytes) {
        m_file.close();
        QFile::remove(m_file.fileName() + QStringLiteral(".1"));
        QFile::rename(m_file.fileName(), m_file.fileName() + QStringLiteral(".1"));
        if (!m_file.open(QIODevice::Append | QIODevice::Text))
            return;
    }
    m_file.write(QStringLiteral("%1 %2: %3\n")
                     .arg(QDateTime::currentDateTime().toString(Qt::ISODateWithMs), kind, text)
                     .toUtf8());
    m_file.flush();
}

} // namespace Sandpiper
