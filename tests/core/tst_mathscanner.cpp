// Which text of an answer is TeX math (issue 17): the four delimiters, code left alone, prices
// left as text, no formula across a paragraph.
#include <math/mathscanner.h>

#include <QTest>

using namespace Sandpiper;

namespace {

// "tex" for inline formulas, "[tex]" for display ones, joined by " | ".
QString found(const QString &markdown)
{
    QStringList formulas;
    for (const MathScanner::Formula &formula : MathScanner::find(markdown))
        formulas << (formula.display ? QLatin1Char('[') + formula.tex + QLatin1Char(']') : formula.tex);
    return formulas.join(QLatin1String(" | "));
}

} // namespace

class TestMathScanner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void findsFormulas_data()
    {
        QTest::addColumn<QString>("markdown");
        QTest::addColumn<QString>("formulas");
        QTest::newRow("inline") << QStringLiteral("so $\\sigma = \\sqrt{\\frac{1}{N}}$ is it")
                                << QStringLiteral("\\sigma = \\sqrt{\\frac{1}{N}}");
        QTest::newRow("display") << QStringLiteral("see\n\n$$\n\\int_0^1 x\\,dx\n$$\n\ndone")
                                 << QStringLiteral("[\\int_0^1 x\\,dx]");
        QTest::newRow("brackets") << QStringLiteral("\\(a+b\\) and \\[c^2\\]") << QStringLiteral("a+b | [c^2]");
        QTest::newRow("two inline") << QStringLiteral("$a$ and $b$") << QStringLiteral("a | b");
        QTest::newRow("two display") << QStringLiteral("$$a$$ then $$b$$") << QStringLiteral("[a] | [b]");
        QTest::newRow("in a list") << QStringLiteral("- first $x_1$\n- second $x_2$") << QStringLiteral("x_1 | x_2");
        QTest::newRow("in a table") << QStringLiteral("| a | b |\n|---|---|\n| $x$ | $y^2$ |")
                                    << QStringLiteral("x | y^2");
        QTest::newRow("over two lines") << QStringLiteral("$a +\nb$") << QStringLiteral("a +\nb");
        QTest::newRow("escaped dollar inside") << QStringLiteral("$\\$x$") << QStringLiteral("\\$x");
    }

    void findsFormulas()
    {
        QFETCH(QString, markdown);
        QFETCH(QString, formulas);
        QCOMPARE(found(markdown), formulas);
    }

    void leavesTextAlone_data()
    {
        QTest::addColumn<QString>("markdown");
        QTest::newRow("two prices") << QStringLiteral("It costs $5 and $10.");
        QTest::newRow("prices with a comma") << QStringLiteral("between $5, or $10");
        QTest::newRow("a range") << QStringLiteral("from $5-$10");
        QTest::newRow("decimals") << QStringLiteral("price: $3.50 - $4.00 each");
        QTest::newRow("currency prefix") << QStringLiteral("US$5 and US$10");
        QTest::newRow("escaped") << QStringLiteral("\\$5 and \\$6$");
        QTest::newRow("space after the opening") << QStringLiteral("$ x $");
        QTest::newRow("digit after the closing") << QStringLiteral("$x$5");
        QTest::newRow("across a blank line") << QStringLiteral("$x\n\ny$");
        QTest::newRow("empty display") << QStringLiteral("$$ $$");
        QTest::newRow("code span") << QStringLiteral("`$x$` and ``a $b$ c``");
        QTest::newRow("fenced code") << QStringLiteral("```python\nprint(f\"${x}$\")\n```");
        QTest::newRow("tilde fence") << QStringLiteral("~~~\n$x$\n~~~");
        QTest::newRow("unclosed fence") << QStringLiteral("```\n$x$ still streaming");
        QTest::newRow("escaped backslashes") << QStringLiteral("\\\\(x\\\\) and \\\\[y\\\\]");
        QTest::newRow("unclosed") << QStringLiteral("the formula $x^2 is still arriving");
        QTest::newRow("shell variables") << QStringLiteral("run `echo $HOME` or echo $PATH");
    }

    void leavesTextAlone()
    {
        QFETCH(QString, markdown);
        QCOMPARE(found(markdown), QString());
    }

    void pricesBesideAFormula()
    {
        // The opening dollar of a price finds no closing one and gives up; the formula is found.
        QCOMPARE(found(QStringLiteral("from $5 to $10 per $x$")), QStringLiteral("x"));
        QCOMPARE(found(QStringLiteral("$x$ costs $5 and $10")), QStringLiteral("x"));
    }

    void codeAndMathTogether()
    {
        const QString markdown = QStringLiteral("```\n$a$\n```\nthen $b$ and `$c$`\n\n~~~~\n$d$\n~~~~\n$$e$$");
        QCOMPARE(found(markdown), QStringLiteral("b | [e]"));
    }

    void spansCoverTheDelimiters()
    {
        const QString markdown = QStringLiteral("ab $x$ cd \\[y\\]");
        const QList<MathScanner::Formula> formulas = MathScanner::find(markdown);
        QCOMPARE(formulas.size(), 2);
        QCOMPARE(markdown.mid(formulas[0].start, formulas[0].length), QStringLiteral("$x$"));
        QCOMPARE(markdown.mid(formulas[1].start, formulas[1].length), QStringLiteral("\\[y\\]"));
    }

    void aLongAnswerIsScannedOnce()
    {
        // Many dollars without a closing one: each opening gives up at the next dollar, so the
        // scan stays linear.
        QString markdown;
        for (int i = 0; i < 20000; ++i)
            markdown += QStringLiteral("$%1 and ").arg(i);
        QCOMPARE(found(markdown), QString());
    }

    void theWorstInputsOfAMegabyteAreScannedOnce()
    {
        // Openers that nothing closes, and backtick runs that no run of their length closes: each
        // used to search the rest of its paragraph (10 s for 200 kB). scripts/bench scanners
        // times them; here they must end, and find nothing.
        const auto megabyteOf = [](const QString &piece) {
            QString text;
            while (text.size() < (1 << 20))
                text += piece;
            return text;
        };
        QCOMPARE(found(megabyteOf(QStringLiteral("\\( a "))), QString());
        QCOMPARE(found(megabyteOf(QStringLiteral("\\[ a "))), QString());
        QString backticks;
        for (int length = 1; backticks.size() < (1 << 20); ++length)
            backticks += QString(length, QLatin1Char('`')) + QLatin1Char('a');
        QCOMPARE(found(backticks + QStringLiteral(" $x$")), QStringLiteral("x"));
        // A closer after all of them still closes the last opener.
        QVERIFY(!found(megabyteOf(QStringLiteral("\\( a ")) + QStringLiteral("b \\)")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestMathScanner)
#include "tst_mathscanner.moc"
