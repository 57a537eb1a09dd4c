#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace Sandpiper {

// A resource an MCP tool returned: a link (uri only), or embedded content saved as a file.
struct McpResultFile {
    QString name;
    QString uri;
    QString mimeType;
    QString description;
    QString path; // relative to the conversation's folder when saved there; empty for a link
    qint64 size = -1;
};

// What an MCP tool returned, for the GUI: its text, the images and files saved into the
// conversation's folder (paths relative to it), structuredContent, and whether it was an error.
struct McpResult {
    QString server;
    QString tool;
    QString text;
    QStringList images;
    QList<McpResultFile> files;
    QJsonObject structured;
    bool isError = false;
};

} // namespace Sandpiper
