#pragma once

#include "llm/chatmessage.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <optional>

namespace Sandpiper {

// Turns the tool-call markup that local models write into their answers into ordinary
// ToolCalls. Each function takes the text of one piece of markup, as ContentFilter cut it out of
// the answer, and either recognises every call in it or says why it cannot be used. Only the
// names of declared tools count; arguments are passed on as the JSON text the model meant, so
// that they go through the same repair as a native call's.
class TextCallParser
{
    Q_DECLARE_TR_FUNCTIONS(TextCallParser)

public:
    struct Result {
        QList<ToolCall> calls;
        QString problem; // for the user: why the markup cannot be used; empty when it can
        bool ok() const { return problem.isEmpty() && !calls.isEmpty(); }
    };

    // DECLARATIONS: the "tools" array of the request.
    explicit TextCallParser(const QJsonArray &declarations = {});

    bool isEmpty() const { return m_schemas.isEmpty(); }
    bool declares(const QString &name) const { return m_schemas.contains(name); }
    // Whether a declared tool's name starts with PREFIX (a name still being written).
    bool couldName(QStringView prefix) const;

    // Hermes and Qwen2.5: the JSON object (or array of them) between <tool_call> and </tool_call>.
    Result parseJsonCall(QStringView json) const;
    // Qwen3-Coder: <function=NAME><parameter=P>VALUE</parameter>…</function>, one or several.
    Result parseFunctionXml(QStringView xml) const;
    // Mistral: what follows [TOOL_CALLS], either a JSON array of calls (or one object) or
    // NAME[ARGS]{…} and NAME[CALL_ID]ID[ARGS]{…}, one after another.
    Result parseMistral(QStringView text) const;
    // Llama 3.x: JSON objects separated by ';' or white space, after <|python_tag|> or as the
    // whole answer.
    Result parseJsonObjects(QStringView text) const;
    // One call whose name the markup gave apart from its arguments (gpt-oss, DeepSeek, Kimi):
    // the arguments are a JSON object, possibly in a Markdown fence.
    Result parseNamedCall(const QString &name, QStringView arguments) const;
    // GLM-4.5: NAME, then <arg_key>KEY</arg_key><arg_value>VALUE</arg_value> pairs.
    Result parseArgPairs(QStringView text) const;
    // Llama 3.2: a Python list of calls, [NAME(key=value, …), …].
    Result parsePythonic(QStringView text) const;

    // The index just past the JSON object or array that opens at FROM, -1 while it is not closed
    // yet. Aware of strings and escapes.
    static qsizetype jsonEnd(QStringView text, qsizetype from);
    // Strict JSON, or else JSON whose strings hold raw line breaks and tabs (models write code
    // that way).
    static std::optional<QJsonValue> parseJson(QStringView text);
    // A call id that every server accepts, Mistral's nine letters and digits included.
    static QString newCallId();

private:
    Result fromJson(const QJsonValue &value) const;
    std::optional<ToolCall> callFromObject(const QJsonObject &object, QString *problem) const;
    QString unknownTool(const QString &name) const;
    QJsonValue typedParameter(const QString &tool, const QString &parameter, const QString &value) const;

    QHash<QString, QJsonObject> m_schemas; // tool name -> its "parameters" JSON Schema
};

} // namespace Sandpiper
