#include "mcp/mcptransport.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Sandpiper {

bool McpTransport::deliver(QByteArrayView json)
{
    const QJsonDocument document = QJsonDocument::fromJson(json.toByteArray());
    if (document.isObject()) {
        Q_EMIT received(document.object());
        return true;
    }
    if (!document.isArray()) // a batch, as servers of 2025-03-26 may send
        return false;
    for (const QJsonValue &value : document.array()) {
        if (value.isObject())
            Q_EMIT received(value.toObject());
    }
    return true;
}

void McpTransport::answerWithError(const QJsonValue &id, const QString &message)
{
    Q_EMIT received(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                {QStringLiteral("id"), id},
                                {QStringLiteral("error"),
                                 QJsonObject{{QStringLiteral("code"), -32000}, {QStringLiteral("message"), message}}}});
}

} // namespace Sandpiper
