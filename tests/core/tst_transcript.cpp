// The Transcript alone: what the chat and the inspector are given of a turn's events, with the
// models it writes and nothing else (no agent, no store).
#include <session/executionmodel.h>
#include <session/messagemodel.h>
#include <session/transcript.h>
#include <storage/storedexecution.h>
#include <tools/pythontool.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Sandpiper;

namespace {

struct Models {
    MessageModel messages;
    ExecutionModel executions;
    Transcript transcript{&messages, &executions};
    QAbstractItemModelTester messagesTester{&messages, QAbstractItemModelTester::FailureReportingMode::QtTest};
};

AgentEvent toolEvent(AgentEvent::Kind kind, const CallKey &key)
{
    AgentEvent event;
    event.kind = kind;
    event.key = key;
    event.call = {QStringLiteral("call-1"), PythonTool::toolName(), QStringLiteral("{\"code\":\"print(1)\"}")};
    event.preview = QStringLiteral("print(1)");
    return event;
}

QList<TurnItem::Kind> kindsOf(const MessageModel &model)
{
    QList<TurnItem::Kind> kinds;
    for (int row = 0; row < model.rowCount(); ++row)
        kinds << model.item(row).kind;
    return kinds;
}

} // namespace

class TestTranscript : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // What streamed is said once per frame as what came, and the model holds all of it.
    void aFrameReportsTheTextItAppended()
    {
        Models models;
        QSignalSpy appended(&models.messages, &MessageModel::streamAppended);
        models.transcript.collectText(QStringLiteral("Hello"));
        models.transcript.collectReasoning(QStringLiteral("hmm"));
        models.transcript.collectText(QStringLiteral(", world"));
        QCOMPARE(appended.count(), 0); // nothing before the frame
        QTRY_COMPARE(appended.count(), 1);
        QCOMPARE(appended.at(0).at(1).toString(), QStringLiteral("Hello, world"));
        QCOMPARE(appended.at(0).at(2).toString(), QStringLiteral("hmm"));
        const int row = models.messages.streamingRow();
        QCOMPARE(appended.at(0).at(0).toInt(), row);
        models.transcript.collectText(QStringLiteral("!"));
        models.transcript.flushFrame(); // an event that is no text applies it at once
        QCOMPARE(appended.count(), 2);
        QCOMPARE(appended.at(1).at(1).toString(), QStringLiteral("!"));
        QCOMPARE(appended.at(1).at(2).toString(), QString());
        QCOMPARE(models.messages.item(row).message.content, QStringLiteral("Hello, world!"));
        QCOMPARE(models.messages.item(row).message.reasoning, QStringLiteral("hmm"));
        // An empty frame says nothing.
        models.transcript.flushFrame();
        QCOMPARE(appended.count(), 2);
    }

    // The user's message shows at once; the stored copy takes its place, or it goes.
    void theSentMessageIsReplacedByItsStoredCopy()
    {
        Models models;
        ChatMessage sent;
        sent.role = ChatMessage::Role::User;
        sent.content = QStringLiteral("What is 2+2?");
        models.transcript.showSent(sent);
        QCOMPARE(models.messages.rowCount(), 1);
        ChatMessage stored = sent;
        stored.id = 7;
        models.transcript.applyMessage(stored);
        QCOMPARE(models.messages.rowCount(), 1);
        QCOMPARE(models.messages.item(0).message.id, qint64(7));
        // A message the agent did not keep goes at the end of the turn.
        models.transcript.showSent(sent);
        QCOMPARE(models.messages.rowCount(), 2);
        models.transcript.finishTurn(AgentEvent::End::Cancelled);
        QCOMPARE(models.messages.rowCount(), 1);
    }

    // "Trying again" goes when the retried request answers; a turn that fails keeps it.
    void retryNoticesGoWithTheAnswerNotWithAFailure()
    {
        Models models;
        models.transcript.addRetryNotice(QStringLiteral("Rate limit reached. Trying again in 2 s."));
        models.transcript.collectText(QStringLiteral("Here"));
        models.transcript.flushFrame();
        QCOMPARE(kindsOf(models.messages), QList<TurnItem::Kind>{TurnItem::Kind::Message});
        models.transcript.finishTurn(AgentEvent::End::Completed);

        models.transcript.addRetryNotice(QStringLiteral("The server did not answer. Trying again in 4 s."));
        models.transcript.finishTurn(AgentEvent::End::Failed);
        QCOMPARE(kindsOf(models.messages), (QList{TurnItem::Kind::Message, TurnItem::Kind::Notice}));
        // The next turn's answer leaves the failed turn's notice where it is.
        models.transcript.collectText(QStringLiteral("Again"));
        models.transcript.flushFrame();
        QCOMPARE(models.messages.rowCount(), 3);
        QCOMPARE(models.messages.item(1).level, TurnItem::NoticeLevel::Retrying);
    }

    // A call goes from proposed to running (in the inspector too) to finished, its output in
    // between collected per frame.
    void aCallRunsThroughItsStates()
    {
        Models models;
        const CallKey key{3, 0};
        AgentEvent proposed = toolEvent(AgentEvent::Kind::ToolCallProposed, key);
        models.transcript.proposeCall(key, proposed.call);
        models.transcript.proposeCall(key, proposed.call); // a repeat adds nothing
        QCOMPARE(models.messages.rowCount(), 1);
        models.transcript.askApproval(key, QStringLiteral("print(1)"));
        QCOMPARE(models.messages.item(0).toolState, TurnItem::ToolState::AwaitingApproval);
        models.transcript.startRun(toolEvent(AgentEvent::Kind::ToolStarted, key));
        QCOMPARE(models.messages.item(0).toolState, TurnItem::ToolState::Running);
        QCOMPARE(models.executions.rowCount(), 1);
        models.transcript.collectOutput(key, QStringLiteral("stdout"), QStringLiteral("1"));
        models.transcript.collectOutput(key, QStringLiteral("stdout"), QStringLiteral("\n"));
        models.transcript.flushFrame();
        QCOMPARE(models.messages.item(0).liveOutput, QStringLiteral("1\n"));
        QCOMPARE(models.executions.item(0).liveStdout, QStringLiteral("1\n"));
        AgentEvent finished = toolEvent(AgentEvent::Kind::ToolFinished, key);
        finished.ran = true;
        finished.success = true;
        ExecutionResult result;
        result.status = ExecutionResult::Status::Ok;
        result.standardOutput = QStringLiteral("1\n");
        finished.result = result;
        finished.text = QStringLiteral("1");
        models.transcript.finishRun(finished);
        QCOMPARE(models.messages.item(0).toolState, TurnItem::ToolState::Finished);
        QVERIFY(models.messages.item(0).liveOutput.isEmpty());
        QVERIFY(models.executions.item(0).result.has_value());
    }

    // The user's own run shows as a call of its own, and the message about it joins its card.
    void aRunOfTheUsersShowsAsItsOwnCall()
    {
        Models models;
        const CallKey key{11, 0};
        AgentEvent started = toolEvent(AgentEvent::Kind::ToolStarted, key);
        started.origin = RunOrigin::User;
        models.transcript.startRun(started);
        QCOMPARE(kindsOf(models.messages), QList<TurnItem::Kind>{TurnItem::Kind::ToolCall});
        ChatMessage told;
        told.id = 11;
        told.role = ChatMessage::Role::User;
        told.content = QStringLiteral("I ran print(1).");
        models.transcript.applyMessage(told);
        QCOMPARE(models.messages.rowCount(), 1);
        QCOMPARE(models.messages.item(0).message.content, told.content);
    }

    // A turn that ends leaves nothing running and no empty answer.
    void theEndOfATurnInterruptsWhatNeverFinished()
    {
        Models models;
        const CallKey key{5, 0};
        models.transcript.proposeCall(key, toolEvent(AgentEvent::Kind::ToolCallProposed, key).call);
        models.transcript.collectReasoning(QString()); // a frame that says nothing makes no answer
        models.transcript.flushFrame();
        models.transcript.showError(QStringLiteral("The connection was lost."));
        models.transcript.finishTurn(AgentEvent::End::Failed);
        QCOMPARE(kindsOf(models.messages), (QList{TurnItem::Kind::ToolCall, TurnItem::Kind::Notice}));
        QCOMPARE(models.messages.item(0).toolState, TurnItem::ToolState::Interrupted);
        QCOMPARE(models.messages.streamingRow(), -1);
    }

    // An answer stopped part way keeps what it said, as stopped.
    void aStoppedAnswerKeepsItsText()
    {
        Models models;
        models.transcript.collectText(QStringLiteral("Half an ans"));
        models.transcript.flushFrame();
        models.transcript.showError(QStringLiteral("Stopped."));
        QCOMPARE(models.messages.rowCount(), 1); // the error went onto the answer
        models.transcript.finishTurn(AgentEvent::End::Cancelled);
        QCOMPARE(models.messages.item(0).message.status, ChatMessage::Status::Cancelled);
        QCOMPARE(models.messages.item(0).message.content, QStringLiteral("Half an ans"));
        QCOMPARE(models.messages.item(0).message.error, QStringLiteral("Stopped."));
    }
};

QTEST_GUILESS_MAIN(TestTranscript)
#include "tst_transcript.moc"
