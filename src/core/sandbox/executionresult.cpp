#include "sandbox/executionresult.h"

#include <QJsonArray>

namespace Sandpiper {

QString ExecutionResult::statusName(Status status)
{
    switch (status) {
    case Status::Ok:
        return QStringLiteral("ok");
    case Status::Error:
        return QStringLiteral("error");
    case Status::Interrupted:
        return QStringLiteral("interrupted");
    case Status::Crashed:
        return QStringLiteral("crashed");
    case Status::Unavailable:
        return QStringLiteral("unavailable");
    }
    return {};
}

QJsonObject ExecutionResult::richOutputJson() const
{
    QJsonObject object;
    if (!tables.isEmpty()) {
        QJsonArray tableArray;
        for (const DataTable &table : tables)
            tableArray.append(table.toJson());
        object.insert(QStringLiteral("tables"), tableArray);
    }
    if (!markdown.isEmpty())
        object.insert(QStringLiteral("markdown"), QJsonArray::fromStringList(markdown));
    if (!svg.isEmpty())
        object.insert(QStringLiteral("svg"), QJsonArray::fromStringList(svg));
    if (!notes.isEmpty())
        object.insert(QStringLiteral("notes"), QJsonArray::fromStringList(notes));
    if (!onEngine.isEmpty()) {
        QJsonObject sizes;
        for (auto file = onEngine.cbegin(); file != onEngine.cend(); ++file)
            sizes.insert(file.key(), double(file.value()));
        object.insert(QStringLiteral("on_engine"), sizes);
    }
    return object;
}

void ExecutionResult::setRichOutput(const QJsonObject &object)
{
    auto strings = [&object](QLatin1StringView key) {
        QStringList list;
        for (const QJsonValue &value : object.value(key).toArray())
            list << value.toString();
        return list;
    };
    tables.clear();
    for (const QJsonValue &value : object.value(QLatin1String("tables")).toArray()) {
        if (auto table = DataTable::fromJson(value.toObject()))
            tables << *table;
    }
    markdown = strings(QLatin1StringView("markdown"));
    svg = strings(QLatin1StringView("svg"));
    notes = strings(QLatin1StringView("notes"));
    onEngine.clear();
    const QJsonObject sizes = object.value(QLatin1String("on_engine")).toObject();
    for (auto file = sizes.constBegin(); file != sizes.constEnd(); ++file)
        if (const qint64 size = file.value().toInteger(-1); size >= 0)
            onEngine.insert(file.key(), size);
}

} // namespace Sandpiper
