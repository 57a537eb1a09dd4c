// The agent against Debian's real llama.cpp server and a tiny model that answers with real
// tool calls: the call parsed by the server, run in the real sandbox, its result sent back and
// answered; the window read from /props; a real exceed_context_size_error answered by
// shortening and one successful retry; images refused for a model without vision. The model's
// tokenizer is byte-level: one token a byte.
#include "agentrecorder.h"
#include "dockertest.h"
#include "llamaserver.h"

#include <agent/agentloop.h>
#include <llm/contextbudget.h>

#include <optional>

#include <QDir>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using Kind = AgentEvent::Kind;
using Role = ChatMessage::Role;
using Recorder = Sandpiper::Test::AgentRecorder;

class TestLlamaServer : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    AgentConfig config(const LlamaServer &server, bool python)
    {
        AgentConfig c =
            agentConfig(server.baseUrl(), ApprovalPolicy::Auto,
                        m_dir.filePath(QStringLiteral("conversation-%1").arg(QTest::currentTestFunction())));
        c.provider.id = QStringLiteral("llamacpp");
        c.provider.model = QStringLiteral("tiny");
        c.provider.sendReasoningBack = true; // the llama.cpp preset's choice
        c.systemPrompt = QStringLiteral("You are a helpful assistant.");
        c.pythonEnabled = python;
        return c;
    }

private Q_SLOTS:
    void aToolCallGoesRoundTheWholeLoop()
    {
        SANDPIPER_REQUIRE_LLAMA();
        SANDPIPER_REQUIRE_DOCKER();
        LlamaServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        AgentLoop loop(config(server, true));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("What is 2+2? Use Python."));
        QVERIFY(recorder.waitForTurn(1, 180000));
        QVERIFY2(recorder.end() == AgentEvent::End::Completed, qPrintable(server.logTail()));

        // The server parsed the model's <tool_call> into a structured call; the sandbox ran it.
        const auto finished = recorder.ofKind(Kind::ToolFinished);
        QVERIFY(!finished.isEmpty());
        QCOMPARE(finished.first().call.name, QStringLiteral("execute_python_code"));
        QVERIFY(finished.first().execution());
        QVERIFY(finished.first().execution()->status != ExecutionResult::Status::Unavailable);
        const QList<ChatMessage> &history = loop.history();
        QCOMPARE(history.at(1).role, Role::Assistant);
        QCOMPARE(history.at(1).toolCalls.size(), 1);
        QCOMPARE(history.at(2).role, Role::Tool);
        QCOMPARE(history.at(2).toolCallId, history.at(1).toolCalls.first().id);
        QVERIFY(!history.at(2).content.isEmpty());
        // After the result the model answers in text, and the turn ends.
        QCOMPARE(history.constLast().role, Role::Assistant);
        QVERIFY(history.constLast().toolCalls.isEmpty());
        QCOMPARE(history.constLast().status, ChatMessage::Status::Complete);
        QVERIFY(history.constLast().usage.promptTokens > 0);
    }

    void theWindowIsReadFromProps()
    {
        SANDPIPER_REQUIRE_LLAMA();
        LlamaServer server;
        QVERIFY2(server.start({QStringLiteral("-c"), QStringLiteral("8192")}), qPrintable(server.error()));
        AgentConfig c = config(server, false);
        // Long enough (about 6 000 tokens of this model) for the window to matter.
        c.systemPrompt = QString(6000, QLatin1Char('s'));
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hello"));
        QVERIFY(recorder.waitForTurn(1, 120000));
        QVERIFY2(recorder.end() == AgentEvent::End::Completed, qPrintable(server.logTail()));
        // The window is asked for beside the first request (which is measured against an assumed
        // one): it is known once the server has answered.
        const auto fromProps = [&recorder] {
            for (const AgentEvent &event : recorder.ofKind(Kind::Context)) {
                if (event.context.windowSource == QLatin1String("/props"))
                    return std::optional<ContextUse>(event.context);
            }
            return std::optional<ContextUse>();
        };
        QTRY_VERIFY_WITH_TIMEOUT(fromProps().has_value(), 20000);
        const ContextUse use = *fromProps();
        QCOMPARE(use.window, 8192);
        QCOMPARE(use.windowSource, QStringLiteral("/props"));

        // The next request is near the limit, so the server counts its tokens exactly.
        loop.send(QStringLiteral("and again"));
        QVERIFY(recorder.waitForTurn(2, 120000));
        const ContextUse next = recorder.ofKind(Kind::Context).constLast().context;
        QVERIFY(next.exact);
        const qint64 prompt = loop.history().constLast().usage.promptTokens;
        QVERIFY2(qAbs(next.tokens - prompt) <= 16, qPrintable(QStringLiteral("%1 vs %2").arg(next.tokens).arg(prompt)));
    }

    void aRealContextErrorIsAnsweredByShortening()
    {
        SANDPIPER_REQUIRE_LLAMA();
        LlamaServer server;
        QVERIFY2(server.start({QStringLiteral("-c"), QStringLiteral("2048")}), qPrintable(server.error()));
        AgentLoop loop(config(server, false));
        // About 3 400 tokens of this model, which the estimate (knowing nothing of a byte-level
        // tokenizer yet) takes for less than a thousand: the request goes out whole.
        QList<ChatMessage> history;
        for (int turn = 0; turn < 4; ++turn) {
            history << chatMessage(Role::User,
                                   QStringLiteral("Question %1: ").arg(turn) + QString(400, QLatin1Char('q')))
                    << chatMessage(Role::Assistant,
                                   QStringLiteral("Answer %1: ").arg(turn) + QString(400, QLatin1Char('a')));
        }
        loop.setHistory(history);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("What now?"));
        QVERIFY(recorder.waitForTurn(1, 120000));
        QVERIFY2(recorder.end() == AgentEvent::End::Completed, qPrintable(server.logTail()));
        QCOMPARE(recorder.ofKind(Kind::Error).size(), 0);

        // A second report comes only with the retry after a context error.
        const auto context = recorder.ofKind(Kind::Context);
        QCOMPARE(context.size(), 2);
        QVERIFY(context.first().context.leftOut.isEmpty());
        // The server's error told the window (2048) and the request's size in its tokens.
        QCOMPARE(context.last().context.window, 2048);
        QVERIFY2(context.last().context.leftOut.contains(QLatin1String("oldest turn")),
                 qPrintable(context.last().context.leftOut));
        QVERIFY(context.last().context.tokens <= 2048 - ContextBudget::answerReserve(2048));
        // The conversation itself is whole.
        QCOMPARE(loop.history().size(), history.size() + 2);
        QCOMPARE(loop.history().constLast().status, ChatMessage::Status::Complete);
        QVERIFY(loop.history().constLast().usage.promptTokens <= 2048 - ContextBudget::answerReserve(2048));
    }

    void imagesToAModelWithoutVisionAreRefusedClearly()
    {
        SANDPIPER_REQUIRE_LLAMA();
        LlamaServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        AgentConfig c = config(server, false);
        QDir().mkpath(c.sandbox.dataDirectory);
        QImage image(64, 48, QImage::Format_RGB32);
        image.fill(Qt::darkGreen);
        QVERIFY(image.save(c.sandbox.dataDirectory + QStringLiteral("/photo.png")));
        const QStringList images{QStringLiteral("photo.png")};

        // /props says "vision": false (no --mmproj): nothing is sent, the message comes back.
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.sendWithAttachments(QStringLiteral("What is in this picture?"), {}, images);
        QVERIFY(recorder.waitForTurn(1, 60000));
        QCOMPARE(recorder.end(), AgentEvent::End::Failed);
        const auto refused = recorder.ofKind(Kind::SendRefused);
        QCOMPARE(refused.size(), 1);
        QVERIFY2(refused.first().text.contains(QLatin1String("does not take images")),
                 qPrintable(refused.first().text));
        QCOMPARE(refused.first().message.images, images);
        QVERIFY(loop.history().isEmpty());

        // Told otherwise by the user, the request goes out and the real server refuses the image
        // (a 500 that is not tried again); the conversation then goes on without it.
        c.provider.imageModels.insert(QStringLiteral("tiny"), true);
        loop.setProvider(c.provider);
        loop.sendWithAttachments(QStringLiteral("What is in this picture?"), {}, images);
        QVERIFY(recorder.waitForTurn(2, 60000));
        QCOMPARE(recorder.end(), AgentEvent::End::Failed);
        const auto errors = recorder.ofKind(Kind::Error);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().text.contains(QLatin1String("did not take the images")),
                 qPrintable(errors.first().text + QLatin1Char('\n') + server.logTail()));
        QVERIFY(recorder.ofKind(Kind::Retrying).isEmpty());
        loop.send(QStringLiteral("Then just say hello."));
        QVERIFY(recorder.waitForTurn(3, 120000));
        QVERIFY2(recorder.end() == AgentEvent::End::Completed, qPrintable(server.logTail()));
    }
};

QTEST_GUILESS_MAIN(TestLlamaServer)
#include "tst_llamaserver.moc"
