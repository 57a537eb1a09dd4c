// The report card against Debian's real llama.cpp server and the tiny model: the server's own
// parser turns the model's <tool_call> into native tool_calls, so the card must say "native";
// the window is the server's -c as /props reports it, and a prompt near it is taken whole. The
// model's tokenizer is byte-level: one token a byte.
#include "llamaserver.h"

#include <llm/modelprobe.h>

#include <QTest>

#include <QCoroTask>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using Outcome = ModelReport::Step::Outcome;

class TestLlamaProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theCardOfTheTinyModel()
    {
        SANDPIPER_REQUIRE_LLAMA();
        LlamaServer server;
        QVERIFY2(server.start({QStringLiteral("-c"), QStringLiteral("2048")}), qPrintable(server.error()));
        ProviderConfig config;
        config.id = QStringLiteral("llamacpp");
        config.baseUrl = server.baseUrl().toString();
        config.model = QStringLiteral("tiny");
        ModelProbe probe(config);
        const ModelReport report = QCoro::waitFor(probe.run());
        const QString card = report.card() + QStringLiteral("\n--- server log ---\n") + server.logTail();
        qInfo().noquote() << report.card();

        QVERIFY2(report.answered(), qPrintable(card));
        QCOMPARE(report.calls, ModelReport::Calls::Native);
        QVERIFY(report.dialect.isEmpty());
        QCOMPARE(report.step(QStringLiteral("tool_call"))->outcome, Outcome::Passed);
        QVERIFY2(report.parallelCalls.has_value(), qPrintable(card));
        QCOMPARE(report.answersAfterToolResult, std::optional<bool>(true));
        QCOMPARE(report.window, qint64(2048));
        QCOMPARE(report.windowSource, QStringLiteral("/props"));
        // Counted by the server (/apply-template, /tokenize): near the window, within it.
        QCOMPARE(report.step(QStringLiteral("long_prompt"))->outcome, Outcome::Passed);
        QVERIFY2(report.windowTestedTokens > 2048 * 3 / 4 && report.windowTestedTokens < 2048, qPrintable(card));
        // No --mmproj: the server says so, and no image is sent.
        QCOMPARE(report.vision, std::optional<bool>(false));
        QCOMPARE(report.step(QStringLiteral("image"))->outcome, Outcome::Skipped);
        QVERIFY(report.tokensPerSecond > 0);
        QVERIFY(report.firstTokenMilliseconds >= 0);
        QVERIFY(!report.tokensEstimated);
        QVERIFY(report.tokensSent > report.windowTestedTokens);
        QVERIFY2(report.verdict().startsWith(QLatin1String("native calls")), qPrintable(report.verdict()));
    }
};

QTEST_GUILESS_MAIN(TestLlamaProbe)
#include "tst_llamaprobe.moc"
