#include "sandbox/executionresult.h"

#include <QJsonArray>

#include <limits>
#include <utility>

namespace Sandpiper {

namespace {

using ValueDisplays = ExecutionResult::ValueDisplays;

// How each list of ValueDisplays is named in the stored JSON.
const std::pair<QLatin1StringView, QList<int> ValueDisplays::*> valueDisplayLists[] = {
    {QLatin1StringView("tables"), &ValueDisplays::tables},
    {QLatin1StringView("markdown"), &ValueDisplays::markdown},
    {QLatin1StringView("svg"), &ValueDisplays::svg},
    {QLatin1StringView("figures"), &ValueDisplays::figures},
};

} // namespace

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
    QJsonObject values;
    for (const auto &[key, list] : valueDisplayLists) {
        QJsonArray indices;
        for (const int index : valueDisplays.*list)
            indices.append(index);
        if (!indices.isEmpty())
            values.insert(key, indices);
    }
    if (!values.isEmpty())
        object.insert(QStringLiteral("value_displays"), values);
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
    valueDisplays = {};
    const QJsonObject values = object.value(QLatin1String("value_displays")).toObject();
    for (const auto &[key, list] : valueDisplayLists) {
        for (const QJsonValue &index : values.value(key).toArray()) {
            // Indices come from the store or an imported file; the notebook ignores those past the end.
            if (index.isDouble() && index.toInteger(-1) >= 0)
                (valueDisplays.*list) << int(std::min<qint64>(index.toInteger(), std::numeric_limits<int>::max()));
        }
    }
    onEngine.clear();
    const QJsonObject sizes = object.value(QLatin1String("on_engine")).toObject();
    for (auto file = sizes.constBegin(); file != sizes.constEnd(); ++file)
        if (const qint64 size = file.value().toInteger(-1); size >= 0)
            onEngine.insert(file.key(), size);
}

} // namespace Sandpiper
