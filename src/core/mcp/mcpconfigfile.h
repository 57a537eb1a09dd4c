#pragma once

#include "mcp/mcpserverconfig.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace Sandpiper {

// mcp.json: {"mcpServers": {"NAME": {...}, ...}} (see McpServerConfig). A file that cannot be
// used is reported with the line and column of the problem and left as it is; a server entry
// that is wrong is reported and skipped, the others are used.
class McpConfigFile
{
public:
    struct Problem {
        int line = 0; // 1-based; 0 when the problem has no place in the file
        int column = 0;
        QString server; // empty for the file as a whole
        QString message;
        // "mcp.json, line 3, column 7: ..." for the user.
        QString describe(const QString &fileName) const;
    };

    // Reads PATH; a missing file is an empty configuration.
    static McpConfigFile read(const QString &path);
    // Parses TEXT as the file's content.
    static McpConfigFile parse(const QByteArray &text);

    bool exists() const { return m_exists; }
    // The file could not be read as a whole (not JSON, not the expected shape).
    bool isBroken() const { return m_broken; }
    const QList<McpServerConfig> &servers() const { return m_servers; }
    const QList<Problem> &problems() const { return m_problems; }

    // Writes SERVERS to PATH, keeping what the file held besides (other top-level keys, fields
    // Sandpiper does not know); atomically, so a crash leaves the old file or the new one.
    // Refuses to overwrite a broken file. Returns why it failed, empty on success.
    QString write(const QString &path, const QList<McpServerConfig> &servers) const;

    // The configuration files of other apps with the same shape that exist on this machine
    // (Claude Desktop's, Cursor's), for an import on first use.
    static QStringList importCandidates();
    // Line and column (1-based) of OFFSET in TEXT.
    static std::pair<int, int> lineAndColumn(const QByteArray &text, qsizetype offset);

private:
    QJsonObject m_document;
    QList<McpServerConfig> m_servers;
    QList<Problem> m_problems;
    bool m_exists = false;
    bool m_broken = false;
};

} // namespace Sandpiper
