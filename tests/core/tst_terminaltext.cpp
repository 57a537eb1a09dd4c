// Output as a terminal shows it: carriage returns redraw their line (progress bars).
#include <sandbox/terminaltext.h>

#include <QTest>

using namespace Sandpiper;

class TestTerminalText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void appendsAsATerminalShows_data()
    {
        QTest::addColumn<QStringList>("chunks");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << QStringList{QStringLiteral("a\nb"), QStringLiteral("c\n")}
                               << QStringLiteral("a\nbc\n");
        QTest::newRow("redraw") << QStringList{QStringLiteral("10%\r20%\r30%")} << QStringLiteral("30%");
        QTest::newRow("redraw keeps earlier lines")
            << QStringList{QStringLiteral("start\n10%\r"), QStringLiteral("20%\r"), QStringLiteral("done\n")}
            << QStringLiteral("start\ndone\n");
        QTest::newRow("crlf is a line break")
            << QStringList{QStringLiteral("a\r"), QStringLiteral("\nb\r\n")} << QStringLiteral("a\nb\n");
        QTest::newRow("a trailing carriage return waits")
            << QStringList{QStringLiteral("50%\r")} << QStringLiteral("50%\r");
        QTest::newRow("empty chunks") << QStringList{QString(), QStringLiteral("x"), QString()} << QStringLiteral("x");
    }

    void appendsAsATerminalShows()
    {
        QFETCH(QStringList, chunks);
        QFETCH(QString, expected);
        QString text;
        for (const QString &chunk : chunks)
            TerminalText::append(text, chunk);
        QCOMPARE(text, expected);
    }

    void aHundredThousandUpdatesAreOneLine()
    {
        QString text;
        for (int i = 0; i < 100000; ++i)
            TerminalText::append(text, QStringLiteral("\rprogress %1/100000").arg(i + 1));
        TerminalText::append(text, QStringLiteral("\n"));
        QCOMPARE(text, QStringLiteral("progress 100000/100000\n"));
    }

    void keepsTheTailFromALineStart()
    {
        QString text = QStringLiteral("first line\nsecond line\nthird\n");
        TerminalText::keepTail(text, 15);
        QCOMPARE(text, QStringLiteral("third\n"));
        QString short_ = QStringLiteral("short");
        TerminalText::keepTail(short_, 15);
        QCOMPARE(short_, QStringLiteral("short"));
    }
};

QTEST_GUILESS_MAIN(TestTerminalText)
#include "tst_terminaltext.moc"
