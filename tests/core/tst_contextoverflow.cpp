// Each server's way of saying that a request does not fit the model's context window.
#include "fakestreams.h"

#include <llm/contextoverflow.h>

#include <QTest>

using namespace Sandpiper;
namespace FS = Sandpiper::Test::FakeStreams;
using Shape = FS::ContextErrorShape;

class TestContextOverflow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyServersWords_data()
    {
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<qint64>("window");
        QTest::addColumn<qint64>("prompt");
        // What each says: some name both figures, some one, Ollama none.
        QTest::newRow("openai") << Shape::OpenAi << qint64(128000) << qint64(130567);
        QTest::newRow("llama.cpp") << Shape::LlamaCpp << qint64(256) << qint64(697);
        QTest::newRow("vllm") << Shape::Vllm << qint64(4096) << qint64(4006);
        QTest::newRow("lm studio") << Shape::LmStudio << qint64(4096) << qint64(5120);
        QTest::newRow("ollama") << Shape::Ollama << qint64(0) << qint64(0);
        QTest::newRow("mistral") << Shape::Mistral << qint64(32768) << qint64(40000);
        QTest::newRow("anthropic") << Shape::Anthropic << qint64(200000) << qint64(210000);
        QTest::newRow("openrouter") << Shape::OpenRouter << qint64(8192) << qint64(9000);
    }

    void everyServersWords()
    {
        QFETCH(Shape, shape);
        QFETCH(qint64, window);
        QFETCH(qint64, prompt);
        // The builder always gets figures; the servers that do not name them drop them.
        const Test::FakeResponse response = FS::contextError(shape, prompt ? prompt : 5000, window ? window : 4096);
        QCOMPARE(response.status, 400);
        const std::optional<ContextOverflow> overflow = ContextOverflow::fromBody(response.body());
        QVERIFY2(overflow.has_value(), response.body().constData());
        QCOMPARE(overflow->window, window);
        QCOMPARE(overflow->promptTokens, prompt);
    }

    void messagesInsideAStream_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("overflow");
        QTest::newRow("older llama.cpp") << QStringLiteral("the request exceeds the available context size. try "
                                                           "increasing the context size or enable context shift")
                                         << true;
        QTest::newRow("context shift") << QStringLiteral("Context size has been exceeded.") << true;
        QTest::newRow("lm studio, keep tokens")
            << QStringLiteral(
                   "The number of tokens to keep from the initial prompt is greater than the context length.")
            << true;
        QTest::newRow("rate limit") << QStringLiteral("Rate limit reached for gpt-4o in organization org-x on tokens "
                                                      "per min (TPM): Limit 30000, Used 29000, Requested 5000.")
                                    << false;
        QTest::newRow("wrong key") << QStringLiteral("Incorrect API key provided: sk-ab***cd.") << false;
        QTest::newRow("unknown model") << QStringLiteral("The model `gpt-5x` does not exist") << false;
        QTest::newRow("no streaming") << QStringLiteral("Streaming is not supported with tools") << false;
        QTest::newRow("generic") << QStringLiteral("Internal server error") << false;
    }

    void messagesInsideAStream()
    {
        QFETCH(QString, message);
        QFETCH(bool, overflow);
        QCOMPARE(ContextOverflow::fromMessage(message).has_value(), overflow);
    }

    void otherErrorsAreNotOverflows()
    {
        QVERIFY(!ContextOverflow::fromBody(FS::httpError(401, QStringLiteral("Incorrect API key provided")).body()));
        QVERIFY(!ContextOverflow::fromBody(FS::httpError(429, QStringLiteral("Rate limit reached")).body()));
        QVERIFY(!ContextOverflow::fromBody("<html><body>502 Bad Gateway</body></html>"));
        QVERIFY(!ContextOverflow::fromBody(QByteArray()));
    }
};

QTEST_GUILESS_MAIN(TestContextOverflow)
#include "tst_contextoverflow.moc"
