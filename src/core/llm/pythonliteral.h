#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringView>

#include <optional>

namespace Sandpiper {

// The small part of Python that models use when they write tool calls as code, as Llama 3.2
// does: [NAME(key=value, …), …] with literal values. Values become JSON: strings (quoted with '
// or ", triple-quoted, with escapes, raw with r), numbers, True, False, None, lists, tuples and
// dicts. Nothing is evaluated.
namespace PythonLiteral {

struct Call {
    QString name;
    QJsonObject arguments;
};

// The index just past the bracketed expression ([…], (…) or {…}) that opens at FROM, aware of
// Python's strings; -1 while it is not closed yet.
qsizetype bracketEnd(QStringView text, qsizetype from);

// The literal that starts at POS (after white space), or nothing; POS ends past it.
std::optional<QJsonValue> readValue(QStringView text, qsizetype &pos);

// A list of calls, the whole of TEXT; nothing when it is not one.
std::optional<QList<Call>> readCallList(QStringView text);

} // namespace PythonLiteral

} // namespace Sandpiper
