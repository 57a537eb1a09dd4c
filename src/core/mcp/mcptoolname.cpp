#include "mcp/mcptoolname.h"

#include <QCryptographicHash>
#include <QRegularExpression>

namespace Sandpiper::McpToolName {

namespace {

const QString separator = QStringLiteral("__");

QString safe(const QString &text)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_-]"));
    QString result = text;
    result.replace(unsafe, QStringLiteral("_"));
    return result;
}

} // namespace

QString serverPart(const QString &server)
{
    static const QRegularExpression underscores(QStringLiteral("_+"));
    QString part = safe(server.trimmed());
    part.replace(underscores, QStringLiteral("_"));
    // A part that starts or ends with "_" would blur the "__" between server and tool.
    while (part.startsWith(QLatin1Char('_')))
        part.remove(0, 1);
    while (part.endsWith(QLatin1Char('_')))
        part.chop(1);
    return part.isEmpty() ? QStringLiteral("server") : part;
}

QString forTool(const QString &server, const QString &tool)
{
    const QString name = serverPart(server) + separator + safe(tool);
    if (name.size() <= maxLength)
        return name;
    const QString hash =
        QString::fromLatin1(QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha1).toHex().left(8));
    return name.left(maxLength - hash.size() - 1) + QLatin1Char('_') + hash;
}

bool isMcp(const QString &name)
{
    return name.indexOf(separator) > 0;
}

QString serverOf(const QString &name)
{
    const qsizetype at = name.indexOf(separator);
    return at > 0 ? name.left(at) : QString();
}

QString toolOf(const QString &name)
{
    const qsizetype at = name.indexOf(separator);
    return at > 0 ? name.mid(at + separator.size()) : QString();
}

} // namespace Sandpiper::McpToolName
