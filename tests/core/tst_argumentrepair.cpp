#include <llm/argumentrepair.h>

#include <QTest>

using Sandpiper::repairStringArgument;

class TestArgumentRepair : public QObject
{
    Q_OBJECT

    static const QStringList &aliases()
    {
        static const QStringList names{QStringLiteral("source"), QStringLiteral("python"), QStringLiteral("script")};
        return names;
    }

private Q_SLOTS:
    void recoversTheCode_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("repaired");
        QTest::newRow("well formed") << QStringLiteral("{\"code\": \"print(1)\"}") << QStringLiteral("print(1)")
                                     << false;
        QTest::newRow("bare code") << QStringLiteral("print(1)") << QStringLiteral("print(1)") << true;
        QTest::newRow("bare multi-line code")
            << QStringLiteral("x = 1\nx + 1") << QStringLiteral("x = 1\nx + 1") << true;
        QTest::newRow("bare fenced code")
            << QStringLiteral("```python\nprint(1)\n```") << QStringLiteral("print(1)") << true;
        QTest::newRow("fence inside json")
            << QStringLiteral("{\"code\": \"```python\\nprint(1)\\n```\"}") << QStringLiteral("print(1)") << true;
        QTest::newRow("fence without language")
            << QStringLiteral("{\"code\": \"```\\n2 + 2\\n```\"}") << QStringLiteral("2 + 2") << true;
        QTest::newRow("double-encoded") << QStringLiteral("\"{\\\"code\\\": \\\"print(1)\\\"}\"")
                                        << QStringLiteral("print(1)") << true;
        QTest::newRow("trailing garbage")
            << QStringLiteral("{\"code\": \"print(1)\"}}</tool_call>") << QStringLiteral("print(1)") << true;
        QTest::newRow("trailing second object")
            << QStringLiteral("{\"code\": \"a = '}'\"} {\"code\": \"b\"}") << QStringLiteral("a = '}'") << true;
        QTest::newRow("alias source") << QStringLiteral("{\"source\": \"print(1)\"}") << QStringLiteral("print(1)")
                                      << true;
        QTest::newRow("alias python") << QStringLiteral("{\"python\": \"print(1)\"}") << QStringLiteral("print(1)")
                                      << true;
        QTest::newRow("alias script") << QStringLiteral("{\"script\": \"print(1)\"}") << QStringLiteral("print(1)")
                                      << true;
        QTest::newRow("json string of code") << QStringLiteral("\"print(1)\"") << QStringLiteral("print(1)") << true;
        QTest::newRow("braces and quotes in code") << QStringLiteral("{\"code\": \"d = {\\\"a\\\": \\\"}\\\"}\\nd\"}")
                                                   << QStringLiteral("d = {\"a\": \"}\"}\nd") << false;
        QTest::newRow("whitespace around")
            << QStringLiteral("  \n{\"code\": \"1\"}\n ") << QStringLiteral("1") << false;
    }

    void recoversTheCode()
    {
        QFETCH(QString, raw);
        QFETCH(QString, code);
        QFETCH(bool, repaired);
        const auto result = repairStringArgument(raw, QStringLiteral("code"), aliases());
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.value, code);
        QCOMPARE(result.repaired, repaired);
    }

    void explainsWhatCannotBeRepaired_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("broken json") << QStringLiteral("{\"code\": \"print(1)") << QStringLiteral("not valid JSON");
        QTest::newRow("wrong key") << QStringLiteral("{\"query\": \"x\"}")
                                   << QStringLiteral("no \"code\" field (got: query)");
        QTest::newRow("empty object") << QStringLiteral("{}") << QStringLiteral("empty");
        QTest::newRow("empty string") << QString() << QStringLiteral("empty");
        QTest::newRow("number") << QStringLiteral("{\"code\": 42}") << QStringLiteral("must be a string");
        QTest::newRow("blank code") << QStringLiteral("{\"code\": \"  \"}") << QStringLiteral("empty");
    }

    void explainsWhatCannotBeRepaired()
    {
        QFETCH(QString, raw);
        QFETCH(QString, mentions);
        const auto result = repairStringArgument(raw, QStringLiteral("code"), aliases());
        QVERIFY(!result.ok());
        QVERIFY2(result.error.contains(mentions), qPrintable(result.error));
        QVERIFY2(result.error.contains(QLatin1String("{\"code\": \"...\"}")), qPrintable(result.error));
    }
};

QTEST_GUILESS_MAIN(TestArgumentRepair)
#include "tst_argumentrepair.moc"
