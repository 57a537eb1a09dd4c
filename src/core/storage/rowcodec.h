#pragma once

#include "llm/chatmessage.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QVariant>

// How values are kept in the store's columns: times as milliseconds since the epoch (UTC), lists
// and objects as compact JSON text.
namespace Sandpiper::RowCodec {

qint64 nowMs();
// UTC: converting tens of thousands of stamps to local time would cost more than the query.
QDateTime fromMs(const QVariant &value);
qint64 toMs(const QDateTime &time, qint64 fallback);
QString compactJson(const QJsonArray &array);
QString compactJson(const QJsonObject &object);
// NULL (a typed null QVariant) for no calls.
QVariant toolCallsToJson(const QList<ToolCall> &calls);
QList<ToolCall> toolCallsFromJson(const QString &json);
QString stringListToJson(const QStringList &list);
QStringList stringListFromJson(const QString &json);
// [{"name": ..., "size": ...}, ...]
QString attachedFilesToJson(const QList<AttachedFile> &files);
QList<AttachedFile> attachedFilesFromJson(const QString &json);

} // namespace Sandpiper::RowCodec
