// The Python that models write as tool calls, read as JSON without evaluating anything.
#include <llm/pythonliteral.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Sandpiper;

namespace {

QString json(const QJsonValue &value)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).chopped(1).sliced(1);
}

} // namespace

class TestPythonLiteral : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void values_data()
    {
        QTest::addColumn<QString>("python");
        QTest::addColumn<QString>("expected"); // JSON; empty: not a literal
        QTest::newRow("double quotes") << QStringLiteral("\"a b\"") << QStringLiteral("\"a b\"");
        QTest::newRow("single quotes") << QStringLiteral("'it\\'s'") << QStringLiteral("\"it's\"");
        QTest::newRow("escapes") << QStringLiteral("'a\\tb\\n\\x41\\u00e9\\\\'")
                                 << QStringLiteral("\"a\\tb\\nAé\\\\\"");
        QTest::newRow("triple quotes over lines")
            << QStringLiteral("'''x = \"1\"\nprint(x)'''") << QStringLiteral("\"x = \\\"1\\\"\\nprint(x)\"");
        QTest::newRow("raw string") << QStringLiteral("r'C:\\new'") << QStringLiteral("\"C:\\\\new\"");
        QTest::newRow("integer") << QStringLiteral("-42") << QStringLiteral("-42");
        QTest::newRow("underscores") << QStringLiteral("1_000") << QStringLiteral("1000");
        QTest::newRow("float") << QStringLiteral("2.5e3") << QStringLiteral("2500");
        QTest::newRow("constants") << QStringLiteral("[True, False, None, true, null]")
                                   << QStringLiteral("[true,false,null,true,null]");
        QTest::newRow("tuple and nesting")
            << QStringLiteral("(1, [2, {'k': (3,)}],)") << QStringLiteral("[1,[2,{\"k\":[3]}]]");
        QTest::newRow("a name is not a literal") << QStringLiteral("os") << QString();
        QTest::newRow("a call is not a literal") << QStringLiteral("[print(1)]") << QString();
        QTest::newRow("an open string") << QStringLiteral("'abc") << QString();
        QTest::newRow("a line break in a short string") << QStringLiteral("'a\nb'") << QString();
        QTest::newRow("a dict with a list key") << QStringLiteral("{[1]: 2}") << QString();
    }

    void values()
    {
        QFETCH(QString, python);
        QFETCH(QString, expected);
        qsizetype pos = 0;
        const std::optional<QJsonValue> value = PythonLiteral::readValue(python, pos);
        if (expected.isEmpty()) {
            QVERIFY2(!value || pos != python.size(), qPrintable(value ? json(*value) : QString()));
            return;
        }
        QVERIFY(value);
        QCOMPARE(json(*value), expected);
        QCOMPARE(pos, python.size());
    }

    void callLists()
    {
        const auto calls = PythonLiteral::readCallList(
            QStringLiteral(" [search_web(query=\"qt, 6.8)\", max_results=3), tools.run(code='[1]'),] "));
        QVERIFY(calls);
        QCOMPARE(calls->size(), 2);
        QCOMPARE(calls->at(0).name, QStringLiteral("search_web"));
        QCOMPARE(json(calls->at(0).arguments), QStringLiteral("{\"max_results\":3,\"query\":\"qt, 6.8)\"}"));
        QCOMPARE(calls->at(1).name, QStringLiteral("tools.run"));
        QCOMPARE(json(calls->at(1).arguments), QStringLiteral("{\"code\":\"[1]\"}"));
        QVERIFY(PythonLiteral::readCallList(QStringLiteral("[f()]"))->first().arguments.isEmpty());

        for (const char *notACallList : {"f(x=1)", "[f(1)]", "[f(x=y)]", "[f(x=1)] and more", "[f(x=1)",
                                         "[x for x in y]", "[f(x=__import__('os'))]"})
            QVERIFY2(!PythonLiteral::readCallList(QString::fromLatin1(notACallList)), notACallList);
    }

    void bracketEnds()
    {
        QCOMPARE(PythonLiteral::bracketEnd(QStringLiteral("[f(x=')]')] tail"), 0), 11);
        QCOMPARE(PythonLiteral::bracketEnd(QStringLiteral("[f(x='''\n]''')]"), 0), 15);
        QCOMPARE(PythonLiteral::bracketEnd(QStringLiteral("[f(x='"), 0), -1);
        QCOMPARE(PythonLiteral::bracketEnd(QStringLiteral("[f(x=1)"), 0), -1);
    }
};

QTEST_GUILESS_MAIN(TestPythonLiteral)
#include "tst_pythonliteral.moc"
