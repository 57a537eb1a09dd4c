// What is left out of a request that would not fit the context window, and in which order.
#include "agentrecorder.h"

#include <llm/contextshortener.h>

#include <QTest>

using namespace Sandpiper;
using Role = ChatMessage::Role;
using Sandpiper::Test::chatMessage;

namespace {

ChatMessage callMessage(const QString &id)
{
    ChatMessage m = chatMessage(Role::Assistant, QStringLiteral("Let me run that."));
    m.toolCalls = {{id, QStringLiteral("execute_python_code"), QStringLiteral("{\"code\": \"print(1)\"}")}};
    return m;
}

ChatMessage toolMessage(const QString &id, const QString &content)
{
    ChatMessage m = chatMessage(Role::Tool, content);
    m.toolCallId = id;
    m.toolName = QStringLiteral("execute_python_code");
    return m;
}

// Long output, different at the start and the end so that both can be checked.
QString output(char tag)
{
    return QStringLiteral("START-%1 ").arg(QLatin1Char(tag)) + QString(20000, QLatin1Char(tag)) +
           QStringLiteral(" END-%1").arg(QLatin1Char(tag));
}

// Three turns; the last one is still running its tool round.
QList<ChatMessage> history()
{
    return {
        chatMessage(Role::System, QStringLiteral("You are a data analyst.")),
        chatMessage(Role::User, QStringLiteral("first question")),
        callMessage(QStringLiteral("c1")),
        toolMessage(QStringLiteral("c1"), output('a')),
        chatMessage(Role::Assistant, QStringLiteral("first answer")),
        chatMessage(Role::User, QStringLiteral("second question")),
        callMessage(QStringLiteral("c2")),
        toolMessage(QStringLiteral("c2"), output('b')),
        chatMessage(Role::Assistant, QStringLiteral("second answer")),
        chatMessage(Role::User, QStringLiteral("third question")),
        callMessage(QStringLiteral("c3")),
        toolMessage(QStringLiteral("c3"), output('c')),
    };
}

QList<ChatMessage> shortenedAt(QList<ChatMessage> messages, qsizetype index, qsizetype head, qsizetype tail)
{
    messages[index].content = ContextShortener::shortened(messages[index].content, head, tail);
    return messages;
}

QList<ChatMessage> without(QList<ChatMessage> messages, const QList<qsizetype> &indexes)
{
    for (qsizetype i = indexes.size() - 1; i >= 0; --i)
        messages.removeAt(indexes.at(i));
    return messages;
}

QStringList describe(const QList<ChatMessage> &messages)
{
    QStringList out;
    for (const ChatMessage &m : messages)
        out << ChatMessage::roleName(m.role) + QLatin1Char(':') + m.content.left(40) +
                   QStringLiteral("…(%1)").arg(m.content.size());
    return out;
}

constexpr qint64 fixedUnits = 300; // the tool declarations and the request's frame

} // namespace

class TestContextShortener : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void leavesOutInOrder_data()
    {
        QTest::addColumn<QList<ChatMessage>>("expected");
        QTest::addColumn<int>("results");
        QTest::addColumn<int>("rounds");
        QTest::addColumn<int>("turns");

        using S = ContextShortener;
        const QList<ChatMessage> all = history();
        const QList<ChatMessage> oneResult = shortenedAt(all, 3, S::oldHead, S::oldTail);
        const QList<ChatMessage> twoResults = shortenedAt(oneResult, 7, S::oldHead, S::oldTail);
        const QList<ChatMessage> oneRound = without(twoResults, {2, 3});
        const QList<ChatMessage> twoRounds = without(twoResults, {2, 3, 6, 7});
        const QList<ChatMessage> oneTurn = without(twoResults, {1, 2, 3, 4, 6, 7});
        const QList<ChatMessage> twoTurns = without(twoResults, {1, 2, 3, 4, 5, 6, 7, 8});
        const QList<ChatMessage> latestToo = shortenedAt(twoTurns, 3, S::latestHead, S::latestTail);

        // The counts say what is missing from the request: a shortened result that then went
        // with its round, or a round that went with its turn, is not counted twice.
        QTest::newRow("everything fits") << all << 0 << 0 << 0;
        QTest::newRow("the oldest tool result is shortened") << oneResult << 1 << 0 << 0;
        QTest::newRow("then the next old one") << twoResults << 2 << 0 << 0;
        QTest::newRow("then the oldest tool round goes") << oneRound << 1 << 1 << 0;
        QTest::newRow("then the next round") << twoRounds << 0 << 2 << 0;
        QTest::newRow("then the oldest turn") << oneTurn << 0 << 1 << 1;
        QTest::newRow("then the next turn") << twoTurns << 0 << 0 << 2;
        QTest::newRow("last, the latest tool result") << latestToo << 1 << 0 << 2;
    }

    void leavesOutInOrder()
    {
        QFETCH(QList<ChatMessage>, expected);
        QFETCH(int, results);
        QFETCH(int, rounds);
        QFETCH(int, turns);
        const QList<ChatMessage> messages = history();
        const QStringList before = describe(messages);
        const qint64 budget = fixedUnits + ContextShortener::units(expected, false);

        const ContextShortener::Outcome outcome = ContextShortener::shorten(messages, budget, fixedUnits, false);
        QCOMPARE(describe(outcome.messages), describe(expected));
        QCOMPARE(outcome.shortenedResults, results);
        QCOMPARE(outcome.droppedRounds, rounds);
        QCOMPARE(outcome.droppedTurns, turns);
        QVERIFY(outcome.fits);
        QCOMPARE(outcome.units, budget);
        QCOMPARE(outcome.summary(8192).isEmpty(), !outcome.changed());
        QCOMPARE(describe(messages), before); // only the copy that is sent changes
    }

    void neverTheSystemPromptNorTheLastUserMessage()
    {
        const ContextShortener::Outcome outcome = ContextShortener::shorten(history(), 10, fixedUnits, false);
        QVERIFY(!outcome.fits);
        QCOMPARE(outcome.messages.size(), 4);
        QCOMPARE(outcome.messages.at(0).content, QStringLiteral("You are a data analyst."));
        QCOMPARE(outcome.messages.at(1).content, QStringLiteral("third question"));
        QCOMPARE(outcome.messages.at(2).toolCalls.size(), 1);
        QCOMPARE(outcome.messages.at(3).toolCallId, QStringLiteral("c3"));
        QVERIFY(outcome.summary(2048).contains(QLatin1String("may refuse")));
    }

    void everyCallKeepsItsAnswer_data()
    {
        QTest::addColumn<qint64>("budget");
        for (qint64 budget = 0; budget <= 20000; budget += 500)
            QTest::addRow("%lld units", budget) << budget;
    }

    void everyCallKeepsItsAnswer()
    {
        QFETCH(qint64, budget);
        const ContextShortener::Outcome outcome = ContextShortener::shorten(history(), budget, fixedUnits, false);
        const QList<ChatMessage> &sent = outcome.messages;
        for (qsizetype i = 0; i < sent.size(); ++i) {
            if (sent.at(i).role == Role::Tool) {
                QVERIFY2(i > 0 && (sent.at(i - 1).role == Role::Tool || !sent.at(i - 1).toolCalls.isEmpty()),
                         qPrintable(QStringLiteral("tool message %1 answers no call").arg(i)));
            }
            for (const ToolCall &call : sent.at(i).toolCalls)
                QVERIFY(i + 1 < sent.size() && sent.at(i + 1).toolCallId == call.id);
        }
        QCOMPARE(sent.constFirst().role, Role::System);
    }

    void shortenedTextKeepsHeadAndTail()
    {
        const QString text = output('x');
        const QString shorter = ContextShortener::shortened(text, 100, 50);
        QVERIFY(shorter.startsWith(QLatin1String("START-x xxx")));
        QVERIFY(shorter.endsWith(QLatin1String("xxx END-x")));
        QVERIFY(shorter.contains(
            QStringLiteral("[… %1 characters left out here to fit the context window …]").arg(text.size() - 150)));
        // Never half a character.
        const QString emoji = QString(200, QLatin1Char('a')) + QStringLiteral("😀😀😀") + QString(200, QLatin1Char('b'));
        const QString cut = ContextShortener::shortened(emoji, 201, 201);
        QVERIFY(!cut.at(cut.indexOf(QLatin1Char('\n')) - 1).isHighSurrogate());
        QCOMPARE(ContextShortener::shortened(QStringLiteral("short"), 100, 50), QStringLiteral("short"));
    }

    void unitsFollowTheText()
    {
        QCOMPARE(ContextShortener::units(QStringView(u"abcdefgh")), 2);
        QCOMPARE(ContextShortener::units(QStringView(u"你好世界")), 4);
        ChatMessage withReasoning = chatMessage(Role::Assistant, QStringLiteral("abcd"));
        withReasoning.reasoning = QString(400, QLatin1Char('r'));
        QCOMPARE(ContextShortener::units(withReasoning, true) - ContextShortener::units(withReasoning, false), 100);
    }

    void reasoningCountsOnlyInTheCurrentTurn()
    {
        QList<ChatMessage> messages = history();
        messages[4].reasoning = QString(4000, QLatin1Char('r'));  // an earlier turn: never sent
        messages[10].reasoning = QString(4000, QLatin1Char('r')); // this turn: sent when asked to
        QCOMPARE(ContextShortener::units(messages, true) - ContextShortener::units(messages, false), 1000);
    }
};

QTEST_GUILESS_MAIN(TestContextShortener)
#include "tst_contextshortener.moc"
