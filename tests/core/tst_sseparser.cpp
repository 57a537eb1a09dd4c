#include <llm/sseparser.h>

#include <QTest>

using Sandpiper::SseParser;

class TestSseParser : public QObject
{
    Q_OBJECT

    static QList<QByteArray> parseInPieces(const QByteArray &stream, int pieceSize)
    {
        SseParser parser;
        QList<QByteArray> data;
        for (qsizetype at = 0; at < stream.size(); at += pieceSize) {
            for (const auto &event :
                 parser.feed(QByteArrayView(stream).sliced(at, std::min<qsizetype>(pieceSize, stream.size() - at))))
                data << event.data;
        }
        for (const auto &event : parser.finish())
            data << event.data;
        return data;
    }

private Q_SLOTS:
    void parsesWhateverTheSplit_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QList<QByteArray>>("expected");
        const QList<QByteArray> two{"{\"a\":1}", "[DONE]"};
        QTest::newRow("lf") << QByteArray("data: {\"a\":1}\n\ndata: [DONE]\n\n") << two;
        QTest::newRow("crlf") << QByteArray("data: {\"a\":1}\r\n\r\ndata: [DONE]\r\n\r\n") << two;
        QTest::newRow("cr only") << QByteArray("data: {\"a\":1}\r\rdata: [DONE]\r\r") << two;
        QTest::newRow("comments and keep-alives")
            << QByteArray(": OPENROUTER PROCESSING\n\ndata: {\"a\":1}\n\n: ping\n\ndata: [DONE]\n\n") << two;
        QTest::newRow("event lines") << QByteArray("event: message\ndata: {\"a\":1}\n\nevent: done\ndata: [DONE]\n\n")
                                     << two;
        QTest::newRow("no space after colon") << QByteArray("data:{\"a\":1}\n\ndata:[DONE]\n\n") << two;
        QTest::newRow("extra blank lines") << QByteArray("\n\ndata: {\"a\":1}\n\n\n\ndata: [DONE]\n\n\n") << two;
        QTest::newRow("multi-line data") << QByteArray("data: {\"a\":\ndata: 1}\n\n")
                                         << QList<QByteArray>{"{\"a\":\n1}"};
        QTest::newRow("no final blank line") << QByteArray("data: {\"a\":1}\n\ndata: [DONE]") << two;
        QTest::newRow("utf-8") << QByteArray("data: {\"t\":\"π 你好 🐦\"}\n\n")
                               << QList<QByteArray>{"{\"t\":\"π 你好 🐦\"}"};
        QTest::newRow("unknown fields") << QByteArray("id: 7\nretry: 100\ndata: x\n\n") << QList<QByteArray>{"x"};
    }

    void parsesWhateverTheSplit()
    {
        QFETCH(QByteArray, stream);
        QFETCH(QList<QByteArray>, expected);
        for (const int piece : {1, 2, 3, 5, 7, 13, 1000})
            QCOMPARE(parseInPieces(stream, piece), expected);
    }

    void keepsTheEventName()
    {
        SseParser parser;
        const auto events = parser.feed("event: error\ndata: {}\n\n");
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.first().name, QByteArray("error"));
    }
};

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
