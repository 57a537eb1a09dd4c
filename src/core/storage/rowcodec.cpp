#include "storage/rowcodec.h"

#include <QJsonDocument>
#include <QTimeZone>

namespace Sandpiper::RowCodec {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QDateTime fromMs(const QVariant &value)
{
    return QDateTime::fromMSecsSinceEpoch(value.toLongLong(), QTimeZone::UTC);
}

qint64 toMs(const QDateTime &time, qint64 fallback)
{
    return time.isValid() ? time.toMSecsSinceEpoch() : fallback;
}

QString compactJson(const QJsonArray &array)
{
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QVariant toolCallsToJson(const QList<ToolCall> &calls)
{
    if (calls.isEmpty())
        return QVariant(QMetaType::fromType<QString>());
    QJsonArray array;
    for (const ToolCall &call : calls) {
        array.append(QJsonObject{{QStringLiteral("id"), call.id},
                                 {QStringLiteral("name"), call.name},
                                 {QStringLiteral("arguments"), call.arguments}});
    }
    return compactJson(array);
}

QList<ToolCall> toolCallsFromJson(const QString &json)
{
    QList<ToolCall> calls;
    if (json.isEmpty())
        return calls;
    const QJsonArray array = QJsonDocument::fromJson(json.toUtf8()).array();
    calls.reserve(array.size());
    for (const QJsonValue &value : array) {
        calls.append({value[QLatin1String("id")].toString(), value[QLatin1String("name")].toString(),
                      value[QLatin1String("arguments")].toString()});
    }
    return calls;
}

QString stringListToJson(const QStringList &list)
{
    return compactJson(QJsonArray::fromStringList(list));
}

QStringList stringListFromJson(const QString &json)
{
    QStringList list;
    if (json.size() <= 2) // "[]"
        return list;
    for (const QJsonValue &value : QJsonDocument::fromJson(json.toUtf8()).array())
        list.append(value.toString());
    return list;
}

QString attachedFilesToJson(const QList<AttachedFile> &files)
{
    QJsonArray array;
    for (const AttachedFile &file : files)
        array.append(QJsonObject{{QStringLiteral("name"), file.name}, {QStringLiteral("size"), file.size}});
    return compactJson(array);
}

QList<AttachedFile> attachedFilesFromJson(const QString &json)
{
    QList<AttachedFile> files;
    if (json.size() <= 2) // "[]"
        return files;
    for (const QJsonValue &value : QJsonDocument::fromJson(json.toUtf8()).array()) {
        const QString name = value[QLatin1String("name")].toString();
        if (!name.isEmpty())
            files.append({name, value[QLatin1String("size")].toInteger()});
    }
    return files;
}

} // namespace Sandpiper::RowCodec
