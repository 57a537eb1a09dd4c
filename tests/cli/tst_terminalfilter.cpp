// What sandpiper-cli lets through to a terminal: text, newlines and tabs, never a control
// sequence of the model or the sandbox, even when it arrives in pieces.
#include <terminalfilter.h>

#include <QTest>

using Sandpiper::TerminalFilter;

class TestTerminalFilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void removesControlSequences_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("shown");
        QTest::newRow("plain text") << QStringLiteral("π ≈ 3.14, 你好 🐦") << QStringLiteral("π ≈ 3.14, 你好 🐦");
        QTest::newRow("newline and tab") << QStringLiteral("a\tb\nc\n") << QStringLiteral("a\tb\nc\n");
        QTest::newRow("colour") << QStringLiteral("\x1b[1;31mred\x1b[0m") << QStringLiteral("red");
        QTest::newRow("clear screen and home")
            << QStringLiteral("\x1b[2J\x1b[Hfake prompt") << QStringLiteral("fake prompt");
        QTest::newRow("cursor up over earlier lines")
            << QStringLiteral("ok\x1b[3A\x1b[Klie") << QStringLiteral("oklie");
        QTest::newRow("private mode") << QStringLiteral("\x1b[?1049hhidden?") << QStringLiteral("hidden?");
        QTest::newRow("window title, BEL") << QStringLiteral("\x1b]0;owned\x07"
                                                             "after")
                                           << QStringLiteral("after");
        QTest::newRow("window title, ST") << QStringLiteral("\x1b]2;owned\x1b\\after") << QStringLiteral("after");
        QTest::newRow("clipboard OSC 52") << QStringLiteral("\x1b]52;c;cm0gLXJmIH4=\x07x") << QStringLiteral("x");
        QTest::newRow("hyperlink OSC 8") << QStringLiteral("\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\")
                                         << QStringLiteral("click");
        QTest::newRow("DCS") << QStringLiteral("\x1bPq#0;2;0;0;0\x1b\\done") << QStringLiteral("done");
        QTest::newRow("APC and PM") << QStringLiteral("\x1b_hidden\x1b\\a\x1b^hidden\x1b\\b") << QStringLiteral("ab");
        QTest::newRow("two-character escapes") << QStringLiteral("\x1b"
                                                                 "c\x1b"
                                                                 "7x\x1b"
                                                                 "8")
                                               << QStringLiteral("x");
        QTest::newRow("charset designation") << QStringLiteral("\x1b(0lqk\x1b(B") << QStringLiteral("lqk");
        QTest::newRow("8-bit CSI") << QStringLiteral("\u009b31mred") << QStringLiteral("red");
        QTest::newRow("8-bit OSC") << QStringLiteral("\u009d0;owned\u009cafter") << QStringLiteral("after");
        QTest::newRow("other C1") << QStringLiteral("a\u0085b\u008dc") << QStringLiteral("abc");
        QTest::newRow("other C0") << QStringLiteral("a\rb\bc\x07"
                                                    "d\x00"
                                                    "e\x7f"
                                                    "f")
                                  << QStringLiteral("abcdef");
        // Text direction: shown, so that a name reads as it is.
        QTest::newRow("right-to-left override")
            << QStringLiteral("invoice\u202Efdp.exe") << QStringLiteral("invoice<U+202E>fdp.exe");
        QTest::newRow("embeddings, isolates and marks")
            << QStringLiteral("\u202A\u202B\u202C\u202Da\u2066\u2067\u2068\u2069b\u200E\u200F\u061Cc")
            << QStringLiteral("<U+202A><U+202B><U+202C><U+202D>a<U+2066><U+2067><U+2068><U+2069>b<U+200E><U+200F>"
                              "<U+061C>c");
        QTest::newRow("Hebrew and Arabic letters stay") << QStringLiteral("שלום مرحبا") << QStringLiteral("שלום مرحبا");
        QTest::newRow("ESC ESC") << QStringLiteral("\x1b\x1b[31mx") << QStringLiteral("x");
        QTest::newRow("ESC before a letter outside ASCII") << QStringLiteral("\x1bé") << QStringLiteral("é");
        QTest::newRow("OSC abandoned at a newline")
            << QStringLiteral("\x1b]0;title\nnext line") << QStringLiteral("\nnext line");
        QTest::newRow("OSC without an end")
            << QStringLiteral("\x1b]0;") + QString(5000, QLatin1Char('x')) + QStringLiteral("!")
            << QString(905, QLatin1Char('x')) + QStringLiteral("!"); // 4096 hidden
    }

    void removesControlSequences()
    {
        QFETCH(QString, input);
        QFETCH(QString, shown);
        QCOMPARE(TerminalFilter::clean(input), shown);
    }

    // Output reaches the CLI in chunks, cut anywhere.
    void removesSequencesSplitAcrossChunks()
    {
        const QString input = QStringLiteral("a\x1b[1;3") + QStringLiteral("1mb\x1b]0;ti") + QStringLiteral("tle\x1b") +
                              QStringLiteral("\\c\x1b") + QStringLiteral("[2Jd");
        for (qsizetype cut = 1; cut < input.size(); ++cut) {
            TerminalFilter filter;
            QString shown = filter.filter(QStringView(input).left(cut)); // first, then the rest
            shown += filter.filter(QStringView(input).sliced(cut));
            QVERIFY2(shown == QStringLiteral("abcd"), qPrintable(QStringLiteral("cut at %1: %2").arg(cut).arg(shown)));
        }
    }

    void resetForgetsAnOpenSequence()
    {
        TerminalFilter filter;
        QCOMPARE(filter.filter(u"out\x1b]0;never ended"), QStringLiteral("out"));
        filter.reset();
        QCOMPARE(filter.filter(u"next output"), QStringLiteral("next output"));
    }
};

QTEST_GUILESS_MAIN(TestTerminalFilter)
#include "tst_terminalfilter.moc"
