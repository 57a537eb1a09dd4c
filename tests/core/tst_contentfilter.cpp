// Tool calls and <think> blocks written into the content, taken apart while the answer streams.
#include <llm/contentfilter.h>

#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace Sandpiper;

namespace {

QJsonArray declarations()
{
    const auto tool = [](const QString &name, const QJsonObject &properties) {
        return QJsonObject{
            {QStringLiteral("type"), QStringLiteral("function")},
            {QStringLiteral("function"),
             QJsonObject{{QStringLiteral("name"), name},
                         {QStringLiteral("description"), QStringLiteral("a test tool")},
                         {QStringLiteral("parameters"), QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                                                    {QStringLiteral("properties"), properties}}}}}};
    };
    const auto typed = [](const char *type) {
        return QJsonObject{{QStringLiteral("type"), QLatin1String(type)}};
    };
    return {tool(QStringLiteral("execute_python_code"), {{QStringLiteral("code"), typed("string")}}),
            tool(QStringLiteral("search_web"),
                 {{QStringLiteral("query"), typed("string")}, {QStringLiteral("max_results"), typed("integer")}})};
}

// Arguments compared as JSON where they are JSON, so that key order and spacing do not matter.
QString normalised(const QString &arguments)
{
    const QJsonDocument document = QJsonDocument::fromJson(arguments.toUtf8());
    return document.isObject() ? QString::fromUtf8(document.toJson(QJsonDocument::Compact)) : arguments;
}

QStringList describe(const QList<ToolCall> &calls)
{
    QStringList out;
    for (const ToolCall &call : calls)
        out << call.name + QLatin1Char(' ') + normalised(call.arguments);
    return out;
}

struct Run {
    QString text;      // every released delta, joined
    QString reasoning; // likewise
    ContentFilter::Result result;
};

// Feeds STREAM cut at CUTS (ascending offsets), then ends it.
Run run(const QString &stream, const QList<qsizetype> &cuts, bool recover = true, bool keepCalls = true)
{
    ContentFilter filter(declarations(), recover);
    Run r;
    qsizetype start = 0;
    QList<qsizetype> ends = cuts;
    ends << stream.size();
    for (const qsizetype end : std::as_const(ends)) {
        const ContentFilter::Output out = filter.feed(QStringView(stream).sliced(start, end - start));
        r.text += out.text;
        r.reasoning += out.reasoning;
        start = end;
    }
    r.result = filter.finish(keepCalls);
    r.text += r.result.released.text;
    r.reasoning += r.result.released.reasoning;
    return r;
}

QString python(const QString &code)
{
    return QStringLiteral("execute_python_code ") +
           QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("code"), code}}).toJson(QJsonDocument::Compact));
}

const QString hermes =
    QStringLiteral("<tool_call>\n{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"print(6 * 7)\"}}\n"
                   "</tool_call>");

} // namespace

class TestContentFilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everySplit_data()
    {
        QTest::addColumn<QString>("stream");
        QTest::addColumn<QString>("visible");
        QTest::addColumn<QString>("reasoning");
        QTest::addColumn<QStringList>("calls");
        QTest::addColumn<bool>("problem");

        const QStringList none;
        const QStringList sixTimesSeven = {python(QStringLiteral("print(6 * 7)"))};

        // Hermes and Qwen2.5.
        QTest::newRow("hermes") << hermes << QString() << QString() << sixTimesSeven << false;
        QTest::newRow("hermes after prose")
            << QStringLiteral("Let me compute that.\n\n") + hermes << QStringLiteral("Let me compute that.")
            << QString() << sixTimesSeven << false;
        QTest::newRow("hermes, two calls")
            << QStringLiteral("<tool_call>\n{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"1\"}}\n"
                              "</tool_call>\n<tool_call>\n{\"name\": \"search_web\", \"arguments\": {\"query\": "
                              "\"sandpipers\"}}\n</tool_call>")
            << QString() << QString()
            << QStringList{python(QStringLiteral("1")), QStringLiteral("search_web {\"query\":\"sandpipers\"}")}
            << false;
        QTest::newRow("hermes without closing tag")
            << QStringLiteral("<tool_call>\n{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"1\"}}")
            << QString() << QString() << QStringList{python(QStringLiteral("1"))} << false;
        QTest::newRow("hermes, arguments as a string")
            << QStringLiteral("<tool_call>{\"name\": \"execute_python_code\", \"arguments\": \"{\\\"code\\\": "
                              "\\\"1+1\\\"}\"}</tool_call>")
            << QString() << QString() << QStringList{python(QStringLiteral("1+1"))} << false;
        QTest::newRow("hermes, raw line breaks in the code")
            << QStringLiteral("<tool_call>\n{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"x = "
                              "1\nprint(x)\"}}\n</tool_call>")
            << QString() << QString() << QStringList{python(QStringLiteral("x = 1\nprint(x)"))} << false;
        QTest::newRow("hermes, text around it and unicode")
            << QStringLiteral("Größe: 3 µm — 😀 ") + hermes + QStringLiteral("\nDone.")
            << QStringLiteral("Größe: 3 µm — 😀\nDone.") << QString() << sixTimesSeven << false;

        // Qwen3-Coder.
        QTest::newRow("qwen3-coder xml")
            << QStringLiteral("<tool_call>\n<function=execute_python_code>\n<parameter=code>\nprint(\"hi\")\nfor i in "
                              "range(2):\n    print(i)\n</parameter>\n</function>\n</tool_call>")
            << QString() << QString()
            << QStringList{python(QStringLiteral("print(\"hi\")\nfor i in range(2):\n    print(i)"))} << false;
        QTest::newRow("qwen3-coder xml, typed parameters")
            << QStringLiteral("I'll search.\n<tool_call>\n<function=search_web>\n<parameter=query>\nqt 6.8\n"
                              "</parameter>\n<parameter=max_results>\n3\n</parameter>\n</function>\n</tool_call>")
            << QStringLiteral("I'll search.") << QString()
            << QStringList{QStringLiteral("search_web {\"max_results\":3,\"query\":\"qt 6.8\"}")} << false;
        QTest::newRow("qwen3-coder xml without tool_call")
            << QStringLiteral("<function=execute_python_code>\n<parameter=code>\n1\n</parameter>\n</function>")
            << QString() << QString() << QStringList{python(QStringLiteral("1"))} << false;

        // Mistral.
        QTest::newRow("mistral array")
            << QStringLiteral("[TOOL_CALLS][{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"2**10\"}}]")
            << QString() << QString() << QStringList{python(QStringLiteral("2**10"))} << false;
        QTest::newRow("mistral array, two calls")
            << QStringLiteral("[TOOL_CALLS] [{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"1\"}}, "
                              "{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"2\"}}]")
            << QString() << QString() << QStringList{python(QStringLiteral("1")), python(QStringLiteral("2"))} << false;
        QTest::newRow("mistral name and args")
            << QStringLiteral("[TOOL_CALLS]execute_python_code[ARGS]{\"code\": \"2**10\"}") << QString() << QString()
            << QStringList{python(QStringLiteral("2**10"))} << false;
        QTest::newRow("mistral name and args, two calls")
            << QStringLiteral("[TOOL_CALLS]execute_python_code[ARGS]{\"code\": \"1\"}[TOOL_CALLS]search_web[ARGS]"
                              "{\"query\": \"q\"}")
            << QString() << QString()
            << QStringList{python(QStringLiteral("1")), QStringLiteral("search_web {\"query\":\"q\"}")} << false;
        QTest::newRow("mistral with call id")
            << QStringLiteral("Sure.[TOOL_CALLS]execute_python_code[CALL_ID]abc123XYZ[ARGS]{\"code\": \"1\"}")
            << QStringLiteral("Sure.") << QString() << QStringList{python(QStringLiteral("1"))} << false;

        // Llama 3.x.
        QTest::newRow("llama json")
            << QStringLiteral("{\"name\": \"execute_python_code\", \"parameters\": {\"code\": \"sum(range(10))\"}}")
            << QString() << QString() << QStringList{python(QStringLiteral("sum(range(10))"))} << false;
        QTest::newRow("llama json with type")
            << QStringLiteral(
                   "\n{\"type\": \"function\", \"name\": \"execute_python_code\", \"parameters\": {\"code\": "
                   "\"1\"}}\n")
            << QString() << QString() << QStringList{python(QStringLiteral("1"))} << false;
        QTest::newRow("llama json, two calls")
            << QStringLiteral("{\"name\": \"execute_python_code\", \"parameters\": {\"code\": \"1\"}}; {\"name\": "
                              "\"search_web\", \"parameters\": {\"query\": \"q\"}}")
            << QString() << QString()
            << QStringList{python(QStringLiteral("1")), QStringLiteral("search_web {\"query\":\"q\"}")} << false;
        QTest::newRow("llama python tag")
            << QStringLiteral("<|python_tag|>{\"name\": \"execute_python_code\", \"parameters\": {\"code\": \"1\"}}")
            << QString() << QString() << QStringList{python(QStringLiteral("1"))} << false;

        // gpt-oss (Harmony): the analysis channel is reasoning, a message to a function a call.
        QTest::newRow("gpt-oss call after analysis")
            << QStringLiteral("<|channel|>analysis<|message|>The user wants 6*7. Use Python.<|end|><|start|>assistant"
                              "<|channel|>commentary to=functions.execute_python_code <|constrain|>json<|message|>"
                              "{\"code\":\"print(6 * 7)\"}<|call|>")
            << QString() << QStringLiteral("The user wants 6*7. Use Python.") << sixTimesSeven << false;
        QTest::newRow("gpt-oss recipient in the start header")
            << QStringLiteral("<|start|>assistant to=functions.execute_python_code<|channel|>commentary json"
                              "<|message|>{\"code\": \"print(6 * 7)\"}<|call|>")
            << QString() << QString() << sixTimesSeven << false;
        QTest::newRow("gpt-oss call, the server stopped at <|call|>")
            << QStringLiteral("<|channel|>commentary to=functions.execute_python_code <|constrain|>json<|message|>"
                              "{\"code\":\"print(6 * 7)\"}")
            << QString() << QString() << sixTimesSeven << false;
        QTest::newRow("gpt-oss final answer")
            << QStringLiteral("<|channel|>analysis<|message|>Simple.<|end|><|start|>assistant<|channel|>final"
                              "<|message|>It is 42.<|return|>")
            << QStringLiteral("It is 42.") << QStringLiteral("Simple.") << none << false;

        // DeepSeek V3 and R1 (name after the type, arguments in a fence), V3.1 (name, then JSON).
        const QString deepSeekV3 =
            QStringLiteral("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>execute_python_code\n"
                           "```json\n{\"code\": \"print(6 * 7)\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>");
        QTest::newRow("deepseek v3") << deepSeekV3 << QString() << QString() << sixTimesSeven << false;
        QTest::newRow("deepseek r1, thinking first")
            << QStringLiteral("<think>Compute it.</think>\n\n") + deepSeekV3 << QString()
            << QStringLiteral("Compute it.") << sixTimesSeven << false;
        QTest::newRow("deepseek v3.1, two calls")
            << QStringLiteral(
                   "Both at once.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>execute_python_code<｜tool▁sep｜>"
                   "{\"code\": \"1\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>search_web<｜tool▁sep｜>"
                   "{\"query\": \"q\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>")
            << QStringLiteral("Both at once.") << QString()
            << QStringList{python(QStringLiteral("1")), QStringLiteral("search_web {\"query\":\"q\"}")} << false;
        QTest::newRow("deepseek v3.1, the server stopped before the end token")
            << QStringLiteral("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>execute_python_code<｜tool▁sep｜>"
                              "{\"code\": \"print(6 * 7)\"}<｜tool▁call▁end｜>")
            << QString() << QString() << sixTimesSeven << false;

        // GLM-4.5 and 4.6: the name, then key and value pairs typed by the tool's schema.
        QTest::newRow("glm") << QStringLiteral(
                                    "<tool_call>execute_python_code\n<arg_key>code</arg_key>\n<arg_value>print(6 * 7)"
                                    "</arg_value>\n</tool_call>")
                             << QString() << QString() << sixTimesSeven << false;
        QTest::newRow("glm, typed values after prose")
            << QStringLiteral("Searching.\n<tool_call>search_web<arg_key>query</arg_key><arg_value>qt 6.8</arg_value>"
                              "<arg_key>max_results</arg_key><arg_value>3</arg_value></tool_call>")
            << QStringLiteral("Searching.") << QString()
            << QStringList{QStringLiteral("search_web {\"max_results\":3,\"query\":\"qt 6.8\"}")} << false;
        QTest::newRow("glm, code over lines")
            << QStringLiteral("<tool_call>execute_python_code\n<arg_key>code</arg_key>\n<arg_value>x = 1\nprint(x)"
                              "</arg_value>\n</tool_call>")
            << QString() << QString() << QStringList{python(QStringLiteral("x = 1\nprint(x)"))} << false;

        // Kimi-K2.
        QTest::newRow("kimi") << QStringLiteral(
                                     "<|tool_calls_section_begin|><|tool_call_begin|>functions.execute_python_code:0"
                                     "<|tool_call_argument_begin|>{\"code\": \"print(6 * 7)\"}<|tool_call_end|>"
                                     "<|tool_calls_section_end|>")
                              << QString() << QString() << sixTimesSeven << false;
        QTest::newRow("kimi, two calls")
            << QStringLiteral("<|tool_calls_section_begin|>\n<|tool_call_begin|>functions.execute_python_code:0"
                              "<|tool_call_argument_begin|>{\"code\": \"1\"}<|tool_call_end|>\n<|tool_call_begin|>"
                              "functions.search_web:1<|tool_call_argument_begin|>{\"query\": \"q\"}<|tool_call_end|>\n"
                              "<|tool_calls_section_end|>")
            << QString() << QString()
            << QStringList{python(QStringLiteral("1")), QStringLiteral("search_web {\"query\":\"q\"}")} << false;

        // Llama 3.2: a Python list of calls as the whole answer.
        QTest::newRow("pythonic") << QStringLiteral("[execute_python_code(code=\"print(6 * 7)\")]") << QString()
                                  << QString() << sixTimesSeven << false;
        QTest::newRow("pythonic, two calls and single quotes")
            << QStringLiteral("[search_web(query='qt 6.8', max_results=3), execute_python_code(code=\"1\",)]")
            << QString() << QString()
            << QStringList{QStringLiteral("search_web {\"max_results\":3,\"query\":\"qt 6.8\"}"),
                           python(QStringLiteral("1"))}
            << false;
        QTest::newRow("pythonic, triple quotes and escapes")
            << QStringLiteral("[execute_python_code(code=\"\"\"x = 'a\\tb'\nprint(x)\"\"\")]") << QString() << QString()
            << QStringList{python(QStringLiteral("x = 'a\tb'\nprint(x)"))} << false;

        // Phi-4-mini and IBM Granite: JSON after a marker of their own.
        QTest::newRow("phi-4-mini")
            << QStringLiteral("functools[{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"print(6 * "
                              "7)\"}}]")
            << QString() << QString() << sixTimesSeven << false;
        QTest::newRow("granite")
            << QStringLiteral("<|tool_call|>[{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \"print(6 "
                              "* 7)\"}}]")
            << QString() << QString() << sixTimesSeven << false;

        // Thinking inside the content.
        QTest::newRow("think") << QStringLiteral("<think>\nThe user wants 2+2.\n</think>\n\n2 + 2 = 4.")
                               << QStringLiteral("2 + 2 = 4.") << QStringLiteral("The user wants 2+2.") << none
                               << false;
        QTest::newRow("thinking") << QStringLiteral("<thinking>hmm</thinking>Answer") << QStringLiteral("Answer")
                                  << QStringLiteral("hmm") << none << false;
        QTest::newRow("unclosed think at a cut end")
            << QStringLiteral("<think>still thinking about < and </thi") << QString()
            << QStringLiteral("still thinking about < and </thi") << none << false;
        QTest::newRow("think, then a call")
            << QStringLiteral("<think>I should use Python.</think>\n") + hermes << QString()
            << QStringLiteral("I should use Python.") << sixTimesSeven << false;
        QTest::newRow("think, then llama json")
            << QStringLiteral("<think>x</think>{\"name\": \"execute_python_code\", \"parameters\": {\"code\": \"1\"}}")
            << QString() << QStringLiteral("x") << QStringList{python(QStringLiteral("1"))} << false;
        QTest::newRow("think later is text") << QStringLiteral("Answer <think>x</think>")
                                             << QStringLiteral("Answer <think>x</think>") << QString() << none << false;

        // Prose that only looks like markup stays as it is.
        const auto prose = [&none](const char *name, const QString &text) {
            QTest::newRow(name) << text << text << QString() << none << false;
        };
        prose("plain prose", QStringLiteral("Hello, world! 2 < 3 and [1] is a list.\n"));
        prose("prose mentioning the tag", QStringLiteral("Models wrap calls in a <tool_call> tag, like HTML."));
        prose("prose ending with the tag", QStringLiteral("The tag is <tool_call>"));
        prose("inline code", QStringLiteral("Use `<tool_call>{\"name\": \"execute_python_code\", \"arguments\": "
                                            "{}}</tool_call>` to call it."));
        prose("code fence",
              QStringLiteral("The format:\n```xml\n") + hermes + QStringLiteral("\n```\nThat is how it looks."));
        prose("tilde fence", QStringLiteral("~~~\n[TOOL_CALLS]execute_python_code[ARGS]{\"code\": \"1\"}\n~~~\n"));
        prose("fenced llama json", QStringLiteral("```json\n{\"name\": \"execute_python_code\", \"parameters\": "
                                                  "{\"code\": \"1\"}}\n```"));
        prose("undeclared name as the whole answer",
              QStringLiteral("{\"name\": \"Alice\", \"parameters\": {\"age\": 3}}"));
        prose("json that is no call", QStringLiteral("{\"title\": \"Report\", \"rows\": 3}"));
        prose("json call followed by prose",
              QStringLiteral("{\"name\": \"execute_python_code\", \"parameters\": {}} is "
                             "what a call looks like."));
        prose("mistral marker in prose", QStringLiteral("The [TOOL_CALLS] token starts a call."));
        prose("markdown links", QStringLiteral("See [the docs](https://example.com) and [TOOL] or [TOOL_CALL]."));
        prose("a lone less-than at the end", QStringLiteral("a <"));
        prose("an unknown bare function tag", QStringLiteral("<function=foo>bar</function>"));
        prose("html", QStringLiteral("<b>bold</b> <|endoftext|> <functional>"));
        prose("harmony explained in inline code",
              QStringLiteral("gpt-oss writes `<|channel|>commentary to=functions.execute_python_code<|message|>{}` "
                             "for a call."));
        prose("harmony token in prose", QStringLiteral("The <|channel|> token names a channel; <|start|> opens one."));
        prose("deepseek in a fence",
              QStringLiteral("```\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>execute_python_code<｜tool▁sep｜>{}"
                             "<｜tool▁call▁end｜><｜tool▁calls▁end｜>\n```"));
        prose("kimi marker in prose", QStringLiteral("Kimi opens calls with <|tool_calls_section_begin|>, then more."));
        prose("glm in inline code",
              QStringLiteral("GLM writes `<tool_call>execute_python_code<arg_key>code</arg_key>` and so on."));
        prose("a tool's name after the tag in prose",
              QStringLiteral("<tool_call>execute_python_code is the tool that runs code."));
        prose("a comprehension", QStringLiteral("[print(x) for x in range(3)]"));
        prose("a pythonic call followed by prose",
              QStringLiteral("[execute_python_code(code=\"1\")] is how Llama 3.2 writes a call."));
        prose("pythonic in a fence", QStringLiteral("```python\n[execute_python_code(code=\"1\")]\n```"));
        prose("functools in prose", QStringLiteral("Use functools.partial, functools[0] or myfunctools[1]; if so, "
                                                   "fine."));
        prose("phi-4 explained in inline code",
              QStringLiteral("Phi writes `functools[{\"name\": \"execute_python_code\", \"arguments\": {}}]`."));
        prose("granite marker in prose", QStringLiteral("Granite's <|tool_call|> token is special."));

        // Markup that cannot be used is shown as it was, and the user is told.
        const auto unusable = [&none](const char *name, const QString &text) {
            QTest::newRow(name) << text << text << QString() << none << true;
        };
        unusable("half-written", QStringLiteral("<tool_call>{\"name\": \"execute_py"));
        unusable("half-written after prose",
                 QStringLiteral("Running it:\n<tool_call>\n{\"name\": "
                                "\"execute_python_code\", \"arguments\": {\"code\": \"pri"));
        unusable("invalid json in the tags", QStringLiteral("<tool_call>{\"name\": \"execute_python_code\", "
                                                            "\"arguments\": {code: 1}}</tool_call>"));
        unusable("unknown tool",
                 QStringLiteral("<tool_call>{\"name\": \"get_weather\", \"arguments\": {}}</tool_call>"));
        unusable("unknown tool in xml", QStringLiteral("<tool_call>\n<function=get_weather>\n<parameter=city>\nBern\n"
                                                       "</parameter>\n</function>\n</tool_call>"));
        unusable("unknown mistral tool", QStringLiteral("[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Bern\"}"));
        unusable("half-written mistral", QStringLiteral("[TOOL_CALLS]execute_python_code[ARGS]{\"code\": \"1"));
        unusable("python tag with code", QStringLiteral("<|python_tag|>print(1)"));
        unusable("unknown tool for gpt-oss",
                 QStringLiteral("<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
                                "{\"city\": \"Bern\"}<|call|>"));
        unusable("half-written kimi", QStringLiteral("<|tool_calls_section_begin|><|tool_call_begin|>functions."
                                                     "execute_python_code:0<|tool_call_argument_begin|>{\"code\":"));
        unusable("unknown tool in deepseek", QStringLiteral("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather"
                                                            "<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"));
        unusable("unreadable pythonic", QStringLiteral("[execute_python_code(code=print(1))]"));
        unusable("half-written llama json",
                 QStringLiteral("{\"name\": \"execute_python_code\", \"parameters\": {\"code\": \"pri"));
    }

    void everySplit()
    {
        QFETCH(QString, stream);
        QFETCH(QString, visible);
        QFETCH(QString, reasoning);
        QFETCH(QStringList, calls);
        QFETCH(bool, problem);

        QList<QList<qsizetype>> splits = {{}};
        for (qsizetype at = 1; at < stream.size(); ++at)
            splits.append(QList<qsizetype>{at});
        QList<qsizetype> everyCharacter;
        for (qsizetype at = 1; at < stream.size(); ++at)
            everyCharacter << at;
        splits.append(everyCharacter);

        for (const QList<qsizetype> &cuts : std::as_const(splits)) {
            const QString where = cuts.size() == 1 ? QStringLiteral("cut at %1").arg(cuts.first())
                                  : cuts.isEmpty() ? QStringLiteral("in one piece")
                                                   : QStringLiteral("one character at a time");
            const Run r = run(stream, cuts);
            // Deltas only ever add, so equal totals mean no delta ever showed markup.
            QVERIFY2(r.text == visible, qPrintable(where + QStringLiteral(": shown \"%1\"").arg(r.text)));
            QCOMPARE(r.result.content, visible);
            QVERIFY2(r.reasoning == reasoning,
                     qPrintable(where + QStringLiteral(": reasoning \"%1\"").arg(r.reasoning)));
            QCOMPARE(r.result.reasoning, reasoning);
            QVERIFY2(
                describe(r.result.calls) == calls,
                qPrintable(where + QStringLiteral(": calls ") + describe(r.result.calls).join(QStringLiteral("; "))));
            QVERIFY2(r.result.problems.isEmpty() != problem,
                     qPrintable(where + QStringLiteral(": problems ") + r.result.problems.join(QStringLiteral("; "))));
        }
    }

    void namesTheDialect_data()
    {
        QTest::addColumn<QString>("stream");
        QTest::addColumn<QString>("dialect");
        const auto call = [](const char *dialect, const QString &stream) {
            QTest::newRow(dialect) << stream << QString::fromLatin1(dialect);
        };
        call("Hermes", hermes);
        call("Qwen3-Coder", QStringLiteral("<function=execute_python_code><parameter=code>1</parameter></function>"));
        call("GLM-4.5", QStringLiteral("<tool_call>execute_python_code<arg_key>code</arg_key><arg_value>1</arg_value>"
                                       "</tool_call>"));
        call("Mistral", QStringLiteral("[TOOL_CALLS]execute_python_code[ARGS]{\"code\": \"1\"}"));
        call("Llama 3.1", QStringLiteral("{\"name\": \"execute_python_code\", \"parameters\": {\"code\": \"1\"}}"));
        call("Llama 3.2", QStringLiteral("[execute_python_code(code='1')]"));
        call("Granite", QStringLiteral("<|tool_call|>[{\"name\": \"execute_python_code\", \"arguments\": {}}]"));
        call("Phi-4-mini", QStringLiteral("functools[{\"name\": \"execute_python_code\", \"arguments\": {}}]"));
        call("DeepSeek", QStringLiteral("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>execute_python_code<｜tool▁sep｜>{}"
                                        "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"));
        call("Kimi-K2", QStringLiteral("<|tool_calls_section_begin|><|tool_call_begin|>functions.execute_python_code:0"
                                       "<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>"));
        call("gpt-oss", QStringLiteral("<|channel|>commentary to=functions.execute_python_code<|message|>{}"));
    }

    void namesTheDialect()
    {
        QFETCH(QString, stream);
        QFETCH(QString, dialect);
        const Run r = run(stream, {});
        QCOMPARE(r.result.calls.size(), 1);
        QCOMPARE(r.result.dialect, dialect);
        QCOMPARE(run(QStringLiteral("Just prose."), {}).result.dialect, QString());
    }

    void theWorstInputsOfAMegabyteTakeOnePass()
    {
        // Markup that opens and never closes used to be scanned again in full on every delta
        // (89 s for 200 000 characters). scripts/bench scanners times these; here they must end
        // with the right result, fed four characters at a time as a stream would.
        const auto megabyteOf = [](const QString &head, const QString &piece) {
            QString text = head;
            while (text.size() < (1 << 20))
                text += piece;
            return text;
        };
        const QList<qsizetype> cuts = [] {
            QList<qsizetype> at;
            for (qsizetype i = 4; i < (1 << 20); i += 4)
                at << i;
            return at;
        }();
        const auto inPieces = [&cuts](const QString &text) {
            QList<qsizetype> within = cuts;
            while (!within.isEmpty() && within.constLast() >= text.size())
                within.removeLast();
            return run(text, within);
        };
        for (const QString &opener :
             {QStringLiteral("<tool_call>{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \""),
              QStringLiteral("[TOOL_CALLS][{\"name\": \"execute_python_code\", \"arguments\": {\"code\": \""),
              QStringLiteral("{\"name\": \"execute_python_code\", \"parameters\": {\"code\": \""),
              QStringLiteral("[execute_python_code(code=\""),
              QStringLiteral("<|tool_calls_section_begin|><|tool_call_begin|>functions.execute_python_code:0"
                             "<|tool_call_argument_begin|>{\"code\": \"")}) {
            const QString text = megabyteOf(opener, QStringLiteral("x = 1\\n"));
            const Run r = inPieces(text);
            QVERIFY2(r.result.content == text, qPrintable(opener));
            QVERIFY(r.result.calls.isEmpty());
            QCOMPARE(r.result.problems.size(), 1);
        }
        const QString lessThans(1 << 20, QLatin1Char('<'));
        QCOMPARE(inPieces(lessThans).result.content, lessThans);
        const QString spaces = QString(1 << 20, QLatin1Char(' ')) + QStringLiteral("Hi");
        QCOMPARE(inPieces(spaces).result.content, spaces);
        const QString thought = megabyteOf(QString(), QStringLiteral("a long thought "));
        const Run thinking = inPieces(QStringLiteral("<think>") + thought);
        QCOMPARE(thinking.result.reasoning, thought.trimmed());
    }

    void callsGetIdsEveryServerAccepts()
    {
        const Run r = run(QStringLiteral("<tool_call>{\"name\": \"execute_python_code\", \"arguments\": {\"code\": "
                                         "\"1\"}}</tool_call><tool_call>{\"name\": \"execute_python_code\", "
                                         "\"arguments\": {\"code\": \"2\"}}</tool_call>"),
                          {});
        QCOMPARE(r.result.calls.size(), 2);
        static const QRegularExpression mistralId(QStringLiteral("^[A-Za-z0-9]{9}$"));
        for (const ToolCall &call : r.result.calls)
            QVERIFY2(mistralId.match(call.id).hasMatch(), qPrintable(call.id));
        QVERIFY(r.result.calls.first().id != r.result.calls.last().id);

        const Run withId =
            run(QStringLiteral("[TOOL_CALLS]execute_python_code[CALL_ID]abc123XYZ[ARGS]{\"code\": \"1\"}"), {});
        QCOMPARE(withId.result.calls.first().id, QStringLiteral("abc123XYZ"));
    }

    void recoveryCanBeTurnedOff()
    {
        const QString text = QStringLiteral("<think>a</think>Sure: ") + hermes;
        const Run r = run(text, {5, 20}, false);
        QCOMPARE(r.text, QStringLiteral("Sure: ") + hermes);
        QCOMPARE(r.reasoning, QStringLiteral("a")); // thinking is still taken apart
        QVERIFY(r.result.calls.isEmpty());
        QVERIFY(r.result.problems.isEmpty());
    }

    void withoutDeclaredToolsNothingIsHeldBack()
    {
        ContentFilter filter({}, true);
        QCOMPARE(filter.feed(QStringLiteral("<tool_ca")).text, QStringLiteral("<tool_ca"));
        QCOMPARE(filter.feed(QStringLiteral("ll>{")).text, QStringLiteral("ll>{"));
        QVERIFY(filter.finish().calls.isEmpty());
    }

    void proseIsReleasedAsSoonAsItIsDecided()
    {
        ContentFilter filter(declarations(), true);
        QCOMPARE(filter.feed(QStringLiteral("Hello ")).text, QStringLiteral("Hello"));
        QCOMPARE(filter.feed(QStringLiteral("<")).text, QString());
        QCOMPARE(filter.feed(QStringLiteral("b>")).text, QStringLiteral(" <b>"));
        QCOMPARE(filter.feed(QStringLiteral("[TOOL")).text, QString());
        QCOMPARE(filter.feed(QStringLiteral("S]")).text, QStringLiteral("[TOOLS]"));
        QCOMPARE(filter.feed(QStringLiteral("<tool_call> is")).text, QStringLiteral("<tool_call> is"));
    }

    void nativeCallsTakePrecedence()
    {
        const QString text = QStringLiteral("Text ") + hermes;
        const Run r = run(text, {3}, true, false);
        QCOMPARE(r.text, text);
        QCOMPARE(r.result.content, text);
        QVERIFY(r.result.calls.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestContentFilter)
#include "tst_contentfilter.moc"
