// The session of a conversation and the session manager: one owner of a conversation's state,
// driven by a real agent against the fake model server (no sandbox: Python is off here).
#include "fakellmserver.h"
#include "fakestreams.h"
#include "testprofile.h"

#include <agent/agentthread.h>
#include <session/agentsettings.h>
#include <session/conversationsession.h>
#include <session/executionmodel.h>
#include <session/messagemodel.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

// The answers of a message model, in order.
QStringList answersIn(const MessageModel *model)
{
    QStringList answers;
    for (int row = 0; row < model->rowCount(); ++row) {
        const TurnItem &item = model->item(row);
        if (item.kind == TurnItem::Kind::Message && item.message.role == ChatMessage::Role::Assistant)
            answers << item.message.content;
    }
    return answers;
}

} // namespace

class TestConversationSession : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    TestProfile m_profile;

    void set(const QStringList &assignments)
    {
        const QString refused = m_profile.set(assignments);
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
    }

    std::unique_ptr<ConversationSession> newSession()
    {
        const auto conversation =
            m_profile.store()->createConversation(QStringLiteral("custom"), QStringLiteral("fake-model"));
        AgentConfig config = AgentSettings::read(*m_profile.settings());
        // As the session manager gives it: the folder is the one the files are attached to.
        config.sandbox = m_profile.settings()->sandbox(QString::number(conversation->id),
                                                       m_profile.store()->conversationFolder(conversation->id));
        auto session = std::make_unique<ConversationSession>(conversation->id, m_profile.store(), config);
        if (!session->load())
            return nullptr;
        return session;
    }

    static bool waitIdle(ConversationSession *session, int timeoutMs = 20000)
    {
        QSignalSpy finished(session, &ConversationSession::turnFinished);
        return finished.wait(timeoutMs);
    }

private Q_SLOTS:
    void init()
    {
        qputenv("SANDPIPER_API_KEY", "sk-test");
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        QCOMPARE(m_profile.open(m_server->providerSettings(QStringLiteral("fake-model"))
                                << QStringLiteral("sandbox/enabled=false") << QStringLiteral("web/enabled=false")
                                << QStringLiteral("network/max_retries=0")),
                 QString());
    }

    void cleanup()
    {
        QVERIFY(m_profile.close());
        m_server.reset();
    }

    void aTurnFillsTheModelsAndTheState()
    {
        const QString spec = QStringLiteral("{\"type\": \"bar\", \"title\": \"Visitors\", \"categories\": [\"Mon\", "
                                            "\"Tue\"], \"series\": [{\"name\": \"Web\", \"data\": [1, 2]}]}");
        m_server->enqueue(FS::openAiToolCalls({{QStringLiteral("call_chart"), QStringLiteral("create_chart"), spec}}, 3,
                                              {}, FS::CallOrder::OneAfterAnother, QStringLiteral("Drawing it.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Here are the visitors."), 8));
        auto session = newSession();
        QVERIFY(session);
        QAbstractItemModelTester messages(session->messages(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester executions(session->executions(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        QList<SessionState::Phase> phases;
        connect(session.get(), &ConversationSession::stateChanged, this, [&] {
            if (phases.isEmpty() || phases.constLast() != session->state().phase)
                phases << session->state().phase;
        });

        session->send(QStringLiteral("chart the visitors"));
        QVERIFY(session->isBusy()); // at once: the composer offers Stop before anything comes back
        QVERIFY(waitIdle(session.get()));

        const MessageModel *model = session->messages();
        QCOMPARE(model->rowCount(), 4); // question, "Drawing it.", the chart call, the answer
        QCOMPARE(model->item(0).message.content, QStringLiteral("chart the visitors"));
        QCOMPARE(answersIn(model),
                 (QStringList{QStringLiteral("Drawing it."), QStringLiteral("Here are the visitors.")}));
        const TurnItem &call = model->item(2);
        QCOMPARE(call.kind, TurnItem::Kind::ToolCall);
        QCOMPARE(call.toolState, TurnItem::ToolState::Finished);
        QVERIFY(call.success);
        QVERIFY(std::holds_alternative<ChartResult>(call.result));
        QVERIFY(call.message.id != 0); // the tool message it was answered with
        QCOMPARE(model->streamingRow(), -1);
        QVERIFY(phases.contains(SessionState::Phase::Writing));
        QVERIFY(phases.contains(SessionState::Phase::RunningTool));
        QCOMPARE(phases.constLast(), SessionState::Phase::Idle);
        QCOMPARE(session->state().title, QStringLiteral("chart the visitors"));
        QCOMPARE(session->lastAnswer(), QStringLiteral("Here are the visitors."));

        // What the store holds gives the same items when the conversation is opened again.
        ConversationSession reopened(session->id(), m_profile.store(), AgentSettings::read(*m_profile.settings()));
        QVERIFY(reopened.load());
        QCOMPARE(reopened.messages()->rowCount(), 4);
        QCOMPARE(answersIn(reopened.messages()), answersIn(model));
        QCOMPARE(reopened.messages()->item(2).toolState, TurnItem::ToolState::Finished);
        QVERIFY(std::holds_alternative<ChartResult>(reopened.messages()->item(2).result));
    }

    // Regenerate sends the last question again, word for word, though resending reloads the
    // model that held it (a long question, so that a freed copy would not go unnoticed).
    void regenerateSendsTheSameQuestionAgain()
    {
        const QString question = QStringLiteral("What does this mean for the quarter? ").repeated(40);
        m_server->enqueue(FS::httpError(400, QStringLiteral("The request was refused.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("It means growth.")));
        auto session = newSession();
        QVERIFY(session);
        session->send(question);
        QVERIFY(waitIdle(session.get()));
        QVERIFY(session->regenerate());
        QVERIFY(waitIdle(session.get()));
        QList<RecordedRequest> chats;
        for (const RecordedRequest &request : m_server->requests()) {
            if (request.path.endsWith("/chat/completions"))
                chats << request;
        }
        QCOMPARE(chats.size(), 2);
        const QJsonArray sent = chats.constLast().json().value(QLatin1String("messages")).toArray();
        QCOMPARE(sent.last().toObject().value(QLatin1String("content")).toString(), question);
        QCOMPARE(session->lastAnswer(), QStringLiteral("It means growth."));
        QCOMPARE(session->messages()->item(0).message.content, question);
    }

    // A rate limit tried again shows a notice while it waits; the answer takes it away. Its
    // text reads as two sentences whatever the server's reason ends with.
    void aRetryNoticeGoesWhenTheRetryAnswers()
    {
        set({QStringLiteral("network/max_retries=2")});
        m_server->enqueue(FS::httpError(429, QStringLiteral("Rate limit reached"), 0));
        m_server->enqueue(FS::openAiText(QStringLiteral("Here it is.")));
        auto session = newSession();
        QVERIFY(session);
        QStringList retryNotices;
        connect(session->messages(), &QAbstractItemModel::rowsInserted, this,
                [&](const QModelIndex &, int first, int last) {
                    for (int row = first; row <= last; ++row) {
                        const TurnItem &item = session->messages()->item(row);
                        if (item.kind == TurnItem::Kind::Notice && item.level == TurnItem::NoticeLevel::Retrying)
                            retryNotices << item.text;
                    }
                });
        session->send(QStringLiteral("hello"));
        QVERIFY(waitIdle(session.get()));
        QCOMPARE(retryNotices.size(), 1);
        QVERIFY2(retryNotices.constFirst().contains(QLatin1String("Rate limit reached. Trying again in")),
                 qPrintable(retryNotices.constFirst()));
        QCOMPARE(session->lastAnswer(), QStringLiteral("Here it is."));
        for (int row = 0; row < session->messages()->rowCount(); ++row)
            QVERIFY(session->messages()->item(row).kind != TurnItem::Kind::Notice);
    }

    void textIsAppliedOncePerFrame()
    {
        auto session = newSession();
        QVERIFY(session);
        QSignalSpy changed(session->messages(), &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(session->messages(), &QAbstractItemModel::rowsInserted);
        AgentEvent delta;
        delta.kind = AgentEvent::Kind::TextDelta;
        for (int i = 0; i < 500; ++i) {
            delta.text = QStringLiteral("word%1 ").arg(i);
            session->handle(delta);
        }
        QCOMPARE(inserted.count(), 0); // nothing until the frame
        QTRY_COMPARE(inserted.count(), 1);
        QCOMPARE(changed.count(), 1);
        const int row = session->messages()->streamingRow();
        QVERIFY(row >= 0);
        QVERIFY(session->messages()->item(row).message.content.startsWith(QLatin1String("word0 word1 ")));
        QVERIFY(session->messages()->item(row).message.content.endsWith(QLatin1String("word499 ")));
    }

    // A progress bar's redraws replace its line in the card and in the inspector alike, and the
    // card knows when the run started.
    void progressOutputUpdatesInPlace()
    {
        auto session = newSession();
        QVERIFY(session);
        AgentEvent event;
        event.key = {7, 0};
        event.call = {QStringLiteral("call_bar"), QStringLiteral("execute_python_code"), QStringLiteral("{}")};
        event.kind = AgentEvent::Kind::ToolCallProposed;
        session->handle(event);
        event.kind = AgentEvent::Kind::ToolStarted;
        event.preview = QStringLiteral("for i in tqdm(range(3)): pass");
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        session->handle(event);
        event.kind = AgentEvent::Kind::ToolOutput;
        event.stream = QStringLiteral("stderr");
        for (const QString &text : {QStringLiteral("loading\n  0%|"), QStringLiteral("\r 50%|#"),
                                    QStringLiteral("\r100%|##"), QStringLiteral("\n")}) {
            event.text = text;
            session->handle(event);
        }
        const int row = session->messages()->rowOfCall(event.key);
        QTRY_COMPARE(session->messages()->item(row).liveOutput, QStringLiteral("loading\n100%|##\n"));
        QVERIFY(session->messages()->item(row).startedMs >= before);
        const ExecutionModel *executions = session->executions();
        QCOMPARE(executions->item(executions->rowOf(event.key)).liveStderr, QStringLiteral("loading\n100%|##\n"));
    }

    void aStoppedAnswerThatSaidNothingLeavesNoBubble()
    {
        auto session = newSession();
        QVERIFY(session);
        AgentEvent reasoning;
        reasoning.kind = AgentEvent::Kind::TurnStarted;
        session->handle(reasoning);
        AgentEvent finished;
        finished.kind = AgentEvent::Kind::TurnFinished;
        finished.end = AgentEvent::End::Cancelled;
        session->handle(finished);
        QCOMPARE(session->messages()->rowCount(), 0);
        QVERIFY(!session->isBusy());
    }

    void twoConversationsAnswerAtOnce()
    {
        // Both streams are out at the same time; each answer lands in its own conversation.
        m_server->enqueue(FS::slowText(QStringLiteral("Answer about cats."), 10, 30ms));
        m_server->enqueue(FS::slowText(QStringLiteral("Answer about dogs."), 10, 30ms));
        auto cats = newSession();
        auto dogs = newSession();
        QVERIFY(cats && dogs);
        cats->send(QStringLiteral("cats?"));
        QTRY_COMPARE(m_server->chatRequests().size(), 1);
        dogs->send(QStringLiteral("dogs?"));
        QTRY_COMPARE(m_server->chatRequests().size(), 2);
        QVERIFY(cats->isBusy() && dogs->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!cats->isBusy() && !dogs->isBusy(), 20000);
        QCOMPARE(answersIn(cats->messages()), QStringList{QStringLiteral("Answer about cats.")});
        QCOMPARE(answersIn(dogs->messages()), QStringList{QStringLiteral("Answer about dogs.")});
    }

    void aKeyFixedInTheSettingsWorksAtTheNextSend()
    {
        m_server->setRequiredApiKey(QStringLiteral("sk-right"));
        qputenv("SANDPIPER_API_KEY", "sk-wrong");
        SessionManager sessions(m_profile.settings(), m_profile.store());
        QCoro::waitFor(sessions.loadApiKey());
        const auto session = sessions.create();
        QVERIFY(session);
        (*session)->send(QStringLiteral("hello"));
        QVERIFY(waitIdle(*session));
        const MessageModel *model = (*session)->messages();
        QVERIFY(model->item(model->rowCount() - 1).message.error.contains(QLatin1String("HTTP 401")));

        // The user types the right key in Settings; the open conversation uses it next time, also
        // once the keychain (none here) has been read again, as the window does after the dialog.
        sessions.useApiKey(QStringLiteral("custom"), QStringLiteral("sk-right"));
        QCOMPARE(QCoro::waitFor(sessions.loadApiKey()), QStringLiteral("sk-right"));
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello!")));
        (*session)->send(QStringLiteral("hello again"));
        QVERIFY(waitIdle(*session));
        QCOMPARE(answersIn(model).constLast(), QStringLiteral("Hello!"));
        QCOMPARE(m_server->chatRequests().constLast().headers.value("authorization"), QByteArray("Bearer sk-right"));
    }

    void aNewModelOrServerInTheSettingsReachesOpenConversations()
    {
        FakeLlmServer other;
        QVERIFY(other.listen());
        other.enqueue(FS::openAiText(QStringLiteral("From the other server.")));
        SessionManager sessions(m_profile.settings(), m_profile.store());
        const auto session = sessions.create();
        QVERIFY(session);
        set(other.providerSettings(QStringLiteral("other-model")));
        sessions.applySettings();
        QCOMPARE((*session)->state().model, QStringLiteral("other-model"));
        (*session)->send(QStringLiteral("where are you?"));
        QVERIFY(waitIdle(*session));
        QCOMPARE(answersIn((*session)->messages()), QStringList{QStringLiteral("From the other server.")});
        QCOMPARE(other.chatRequests().size(), 1);
        QCOMPARE(other.chatRequests().constFirst().json().value(QLatin1String("model")).toString(),
                 QStringLiteral("other-model"));
        QCOMPARE(m_server->chatRequests().size(), 0);
    }

    void aConversationKeepsItsProviderAndModelWhenTheDefaultChanges()
    {
        FakeLlmServer other;
        QVERIFY(other.listen());
        SessionManager sessions(m_profile.settings(), m_profile.store());
        m_server->enqueue(FS::openAiText(QStringLiteral("First.")));
        const auto first = sessions.create();
        QVERIFY(first);
        (*first)->send(QStringLiteral("hello"));
        QVERIFY(waitIdle(*first));

        // Another provider becomes the default: the conversation that has spoken keeps its own.
        set({QStringLiteral("provider=llamacpp"),
             QStringLiteral("providers/llamacpp/base_url=") + other.baseUrl().toString(),
             QStringLiteral("providers/llamacpp/model=other-model")});
        sessions.applySettings();
        QCOMPARE((*first)->state().providerId, QStringLiteral("custom"));
        QCOMPARE((*first)->state().model, QStringLiteral("fake-model"));
        m_server->enqueue(FS::openAiText(QStringLiteral("Second.")));
        (*first)->send(QStringLiteral("still there?"));
        QVERIFY(waitIdle(*first));
        QCOMPARE(m_server->chatRequests().size(), 2);
        QCOMPARE(m_server->chatRequests().constLast().json().value(QLatin1String("model")).toString(),
                 QStringLiteral("fake-model"));
        QCOMPARE(other.chatRequests().size(), 0);

        // A new conversation takes the new default.
        other.enqueue(FS::openAiText(QStringLiteral("From the other one.")));
        const auto second = sessions.create();
        QVERIFY(second);
        QCOMPARE((*second)->state().providerId, QStringLiteral("llamacpp"));
        (*second)->send(QStringLiteral("who are you?"));
        QVERIFY(waitIdle(*second));
        QCOMPARE(other.chatRequests().size(), 1);
        QCOMPARE(other.chatRequests().constFirst().json().value(QLatin1String("model")).toString(),
                 QStringLiteral("other-model"));

        // A provider's own settings (its address here) reach its conversations; the model stays theirs.
        set({QStringLiteral("providers/custom/base_url=") + other.baseUrl().toString()});
        sessions.applySettings();
        QCOMPARE((*first)->provider().baseUrl, other.baseUrl().toString());
        QCOMPARE((*first)->state().model, QStringLiteral("fake-model"));

        // Read again from the store, as after a restart.
        SessionManager restarted(m_profile.settings(), m_profile.store());
        const auto reopened = restarted.open((*first)->id());
        QVERIFY(reopened);
        QCOMPARE((*reopened)->state().providerId, QStringLiteral("custom"));
        QCOMPARE((*reopened)->state().model, QStringLiteral("fake-model"));
        QCOMPARE(m_profile.store()->conversation((*second)->id())->provider, QStringLiteral("llamacpp"));
    }

    void aProviderThatCannotAnswerIsNamedAndNotReplaced()
    {
        qunsetenv("OPENAI_API_KEY");
        SessionManager sessions(m_profile.settings(), m_profile.store());
        const auto gone = m_profile.store()->createConversation(QStringLiteral("gone"), QStringLiteral("old-model"));
        const auto openai =
            m_profile.store()->createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o-mini"));
        QVERIFY(gone && openai);
        const auto goneSession = sessions.open(gone->id);
        QVERIFY(goneSession);
        QVERIFY(sessions.open(openai->id));
        QTRY_VERIFY_WITH_TIMEOUT(
            sessions.providerProblem(QStringLiteral("openai")).contains(QLatin1String("No API key for OpenAI")), 10000);
        QVERIFY2(sessions.providerProblem(QStringLiteral("gone")).contains(QLatin1String("\"gone\"")),
                 qPrintable(sessions.providerProblem(QStringLiteral("gone"))));
        QCOMPARE(sessions.providerProblem(QStringLiteral("custom")), QString());
        set({QStringLiteral("providers/custom/base_url=")});
        QVERIFY(sessions.providerProblem(QStringLiteral("custom")).contains(QLatin1String("no server address")));

        // Never quietly another one: the conversation stays with its own until the user says.
        sessions.applySettings();
        QCOMPARE((*goneSession)->state().providerId, QStringLiteral("gone"));
        QCOMPARE((*goneSession)->state().model, QStringLiteral("old-model"));
        QVERIFY(sessions.useProvider(gone->id, QStringLiteral("custom"), QStringLiteral("fake-model")));
        QCOMPARE((*goneSession)->state().providerId, QStringLiteral("custom"));
        QCOMPARE(m_profile.store()->conversation(gone->id)->provider, QStringLiteral("custom"));
    }

    void aTitleTheModelWritesIsAnnounced()
    {
        set({QStringLiteral("agent/model_titles=true")});
        m_server->enqueue(FS::openAiText(QStringLiteral("A sine wave goes up and down.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Sine waves explained")));
        SessionManager sessions(m_profile.settings(), m_profile.store());
        const auto session = sessions.create();
        QVERIFY(session);
        QSignalSpy changed(&sessions, &SessionManager::conversationChanged);
        (*session)->send(QStringLiteral("what does a sine wave do, in a few words please?"));
        QTRY_COMPARE_WITH_TIMEOUT((*session)->state().title, QStringLiteral("Sine waves explained"), 20000);
        QVERIFY(!changed.isEmpty());
        QCOMPARE(m_profile.store()->conversation((*session)->id())->title, QStringLiteral("Sine waves explained"));
    }

    void idleSessionsAreReleasedBusyOnesStay()
    {
        m_server->enqueue(FS::slowText(QStringLiteral("Still going."), 40, 50ms));
        SessionManager sessions(m_profile.settings(), m_profile.store());
        QList<qint64> ids;
        for (int i = 0; i < 6; ++i)
            ids << (*sessions.create())->id();
        sessions.show(ids[0]);
        sessions.find(ids[0])->send(QStringLiteral("a long one"));
        for (const qint64 id : std::as_const(ids))
            sessions.show(id);
        // On screen: the last; kept: the three shown before it and the busy first one.
        QCOMPARE(sessions.openCount(), 5);
        QVERIFY(sessions.find(ids[0]));
        QVERIFY(sessions.isRunning(ids[0]));
        QVERIFY(!sessions.find(ids[1]));
        // The busy one ends in the background: its answer is unread, and it stays open while so.
        QSignalSpy activity(&sessions, &SessionManager::activityChanged);
        QTRY_VERIFY_WITH_TIMEOUT(!sessions.isRunning(ids[0]), 20000);
        QVERIFY(sessions.hasUnread(ids[0]));
        QVERIFY(activity.count() >= 1);
        // Idle and out of the last few shown, it was let go; opening it again reads the store.
        QTRY_VERIFY(!sessions.find(ids[0]));
        const auto reopened = sessions.open(ids[0]);
        QVERIFY(reopened);
        sessions.show(ids[0]);
        QVERIFY(!sessions.hasUnread(ids[0]));
        QCOMPARE(answersIn((*reopened)->messages()), QStringList{QStringLiteral("Still going.")});
    }

    // Files that go with a message (issue 23): the bubble holds the user's words and the files, the
    // model reads what the files are before the words, the title comes from the words.
    void attachedFilesGoToTheModelNotIntoTheWords()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("Revenue grew.")));
        auto session = newSession();
        QVERIFY(session);
        QAbstractItemModelTester tester(session->messages(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString sales = m_profile.filePath(QStringLiteral("sales.csv"));
        QFile file(sales);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("month,revenue\nJan,10\nFeb,12\n");
        file.close();
        QVERIFY(session->attach(sales));
        QCOMPARE(session->state().pendingAttachments, QStringList{QStringLiteral("sales.csv")});

        session->send(QStringLiteral("Plot the revenue"));
        // At once, before the agent has done anything: the message as the user sent it.
        const MessageModel *model = session->messages();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->item(0).message.content, QStringLiteral("Plot the revenue"));
        QCOMPARE(model->item(0).message.attachments, (QList<AttachedFile>{{QStringLiteral("sales.csv"), file.size()}}));
        QVERIFY(session->state().pendingAttachments.isEmpty());
        QVERIFY(waitIdle(session.get()));

        const QJsonArray sent = m_server->chatRequests().first().json()[QLatin1String("messages")].toArray();
        const QString question = sent.last()[QLatin1String("content")].toString();
        QVERIFY2(question.startsWith(QLatin1String("Attached files (in /mnt/data):\n- /mnt/data/sales.csv: ")),
                 qPrintable(question));
        QVERIFY2(question.contains(QLatin1String("Jan,10")), qPrintable(question));
        QVERIFY2(question.endsWith(QLatin1String("\n\nPlot the revenue")), qPrintable(question));

        QCOMPARE(model->rowCount(), 2); // the stored message took the place of the one shown at once
        const ChatMessage shown = model->item(0).message;
        QVERIFY(shown.id != 0);
        QCOMPARE(shown.content, QStringLiteral("Plot the revenue"));
        QCOMPARE(shown.attachments, (QList<AttachedFile>{{QStringLiteral("sales.csv"), file.size()}}));
        QCOMPARE(session->state().title, QStringLiteral("Plot the revenue"));

        ConversationSession reopened(session->id(), m_profile.store(), AgentSettings::read(*m_profile.settings()));
        QVERIFY(reopened.load());
        QCOMPARE(reopened.messages()->item(0).message.content, QStringLiteral("Plot the revenue"));
        QCOMPARE(reopened.messages()->item(0).message.attachments, shown.attachments);
        QCOMPARE(reopened.state().title, QStringLiteral("Plot the revenue"));

        // Edited, the message takes its files along again.
        m_server->enqueue(FS::openAiText(QStringLiteral("Revenue grew a lot.")));
        QVERIFY(session->resendFrom(shown.id, QStringLiteral("Plot the revenue by month")));
        QVERIFY(waitIdle(session.get()));
        QCOMPARE(model->item(0).message.content, QStringLiteral("Plot the revenue by month"));
        QCOMPARE(model->item(0).message.attachments, shown.attachments);
    }

    // Asking again keeps the old answer as a version; the model reads only the branch shown.
    void regenerateAddsAVersionAndTheModelReadsTheBranchShown()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("First answer.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Second answer.")));
        auto session = newSession();
        QVERIFY(session);
        session->send(QStringLiteral("Question"));
        QVERIFY(waitIdle(session.get()));
        QVERIFY(session->regenerate());
        QVERIFY(waitIdle(session.get()));
        QCOMPARE(answersIn(session->messages()), QStringList{QStringLiteral("Second answer.")});
        const auto path = m_profile.store()->messages(session->id());
        QCOMPARE(path->size(), 2);
        QCOMPARE(path->last().version, 2);
        QCOMPARE(path->last().versionCount, 2);
        const auto versions = m_profile.store()->messageVersions(path->last().id);
        QCOMPARE(versions->size(), 2);
        QCOMPARE(m_profile.store()->allMessages(session->id())->size(), 3);
        QTRY_COMPARE(m_server->chatRequests().size(), 2);
        QVERIFY(!m_server->chatRequests().last().body.contains("First answer."));

        // Back to the first answer: the model goes on from it.
        QVERIFY(session->showVersion(versions->first()));
        QCOMPARE(answersIn(session->messages()), QStringList{QStringLiteral("First answer.")});
        m_server->enqueue(FS::openAiText(QStringLiteral("Third answer.")));
        session->send(QStringLiteral("Go on"));
        QVERIFY(waitIdle(session.get()));
        QTRY_COMPARE(m_server->chatRequests().size(), 3);
        QVERIFY(m_server->chatRequests().last().body.contains("First answer."));
        QVERIFY(!m_server->chatRequests().last().body.contains("Second answer."));
        QCOMPARE(m_profile.store()->messages(session->id())->size(), 4);
        QCOMPARE(m_profile.store()->allMessages(session->id())->size(), 5);
    }

    // An edit is a new version of the question: the old one and its answer stay.
    void anEditAddsAVersionOfTheQuestion()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("About cats.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("About dogs.")));
        auto session = newSession();
        QVERIFY(session);
        session->send(QStringLiteral("Tell me about cats"));
        QVERIFY(waitIdle(session.get()));
        const qint64 question = session->messages()->item(0).message.id;
        QVERIFY(session->resendFrom(question, QStringLiteral("Tell me about dogs")));
        QVERIFY(waitIdle(session.get()));
        QCOMPARE(answersIn(session->messages()), QStringList{QStringLiteral("About dogs.")});
        QTRY_COMPARE(m_server->chatRequests().size(), 2);
        QVERIFY(!m_server->chatRequests().last().body.contains("cats"));
        const auto path = m_profile.store()->messages(session->id());
        QCOMPARE(path->first().content, QStringLiteral("Tell me about dogs"));
        QCOMPARE(path->first().versionCount, 2);
        QCOMPARE(m_profile.store()->allMessages(session->id())->size(), 4);
        QVERIFY(session->showVersion(question));
        QCOMPARE(session->messages()->item(0).message.content, QStringLiteral("Tell me about cats"));
        QCOMPARE(answersIn(session->messages()), QStringList{QStringLiteral("About cats.")});
        // Deleting the version shown takes its answer and shows the other one.
        QVERIFY(session->deleteVersion(question));
        QCOMPARE(answersIn(session->messages()), QStringList{QStringLiteral("About dogs.")});
        QCOMPARE(m_profile.store()->allMessages(session->id())->size(), 2);
    }

    // A conversation just opened has no agent yet: the one made for the edit reads the branch
    // before the edited message, not the one the store shows below it.
    void anEditInAReopenedConversationSendsOnlyWhatCameBefore()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("Answer one.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Answer two.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Answer three.")));
        auto session = newSession();
        QVERIFY(session);
        session->send(QStringLiteral("Question one"));
        QVERIFY(waitIdle(session.get()));
        session->send(QStringLiteral("Question two"));
        QVERIFY(waitIdle(session.get()));
        ConversationSession reopened(session->id(), m_profile.store(), AgentSettings::read(*m_profile.settings()));
        QVERIFY(reopened.load());
        QVERIFY(reopened.resendFrom(reopened.messages()->item(2).message.id, QStringLiteral("Question 2b")));
        QVERIFY(waitIdle(&reopened));
        QTRY_COMPARE(m_server->chatRequests().size(), 3);
        const QByteArray sent = m_server->chatRequests().last().body;
        QVERIFY(sent.contains("Answer one."));
        QVERIFY(sent.contains("Question 2b"));
        QVERIFY(!sent.contains("Question two"));
        QVERIFY(!sent.contains("Answer two."));
    }

    void aMessageOfOnlyFilesIsNamedAfterThem()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("Two tables.")));
        auto session = newSession();
        QVERIFY(session);
        for (const QString &name : {QStringLiteral("north.csv"), QStringLiteral("south.csv")}) {
            QFile file(m_profile.filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("a,b\n1,2\n");
            file.close();
            QVERIFY(session->attach(file.fileName()));
        }
        session->send(QString());
        QVERIFY(waitIdle(session.get()));
        QCOMPARE(session->state().title, QStringLiteral("north.csv, south.csv"));
        QVERIFY(session->messages()->item(0).message.content.isEmpty());
    }

    void aFileTakenOffTheMessageLeavesTheFolder()
    {
        auto session = newSession();
        QVERIFY(session);
        const QString notes = m_profile.filePath(QStringLiteral("notes.txt"));
        QFile file(notes);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("remember\n");
        file.close();
        QVERIFY(session->attach(notes));
        QVERIFY(session->attach(notes)); // attached twice: "notes (2).txt"
        QCOMPARE(session->state().pendingAttachments,
                 (QStringList{QStringLiteral("notes.txt"), QStringLiteral("notes (2).txt")}));
        QVERIFY(session->removePendingAttachment(QStringLiteral("notes.txt")));
        QCOMPARE(session->state().pendingAttachments, QStringList{QStringLiteral("notes (2).txt")});
        QVERIFY(!QFileInfo::exists(session->folder() + QStringLiteral("/notes.txt")));
        QVERIFY(QFileInfo::exists(session->folder() + QStringLiteral("/notes (2).txt")));
        QCOMPARE(m_profile.store()->attachments(session->id())->size(), 1);
    }

    void storedHistoryBecomesItems_data()
    {
        QTest::addColumn<QString>("toolMessage");
        QTest::addColumn<int>("state");
        QTest::newRow("ran") << QStringLiteral("Chart shown to the user: a bar chart.")
                             << int(TurnItem::ToolState::Finished);
        QTest::newRow("denied") << QStringLiteral("Not run: the user declined to run this.")
                                << int(TurnItem::ToolState::NotRun);
        QTest::newRow("no answer") << QString() << int(TurnItem::ToolState::Interrupted);
    }

    void storedHistoryBecomesItems()
    {
        QFETCH(QString, toolMessage);
        QFETCH(int, state);
        ChatMessage question;
        question.role = ChatMessage::Role::User;
        question.content = QStringLiteral("draw");
        ChatMessage calls;
        calls.id = 2;
        calls.role = ChatMessage::Role::Assistant;
        calls.toolCalls = {{QStringLiteral("c1"), QStringLiteral("execute_python_code"), QStringLiteral("{}")},
                           {QStringLiteral("c2"), QStringLiteral("create_chart"), QStringLiteral("{}")}};
        ChatMessage ran;
        ran.role = ChatMessage::Role::Tool;
        ran.toolCallId = QStringLiteral("c1");
        ran.content = QStringLiteral("Status: ok");
        QList<ChatMessage> history{question, calls, ran};
        if (!toolMessage.isNull()) {
            ChatMessage answer;
            answer.role = ChatMessage::Role::Tool;
            answer.toolCallId = QStringLiteral("c2");
            answer.content = toolMessage;
            history << answer;
        }
        StoredExecution execution;
        execution.call = {calls.id, 0};
        execution.toolCallId = QStringLiteral("c1");
        execution.code = QStringLiteral("print(1)");
        execution.result.status = ExecutionResult::Status::Ok;
        execution.result.standardOutput = QStringLiteral("1\n");
        const QList<TurnItem> items = MessageModel::itemsFromHistory(history, {execution});
        QCOMPARE(items.size(), 3); // an answer that only called tools shows as its calls
        QCOMPARE(items[1].toolState, TurnItem::ToolState::Finished);
        QCOMPARE(items[1].preview, QStringLiteral("print(1)"));
        QCOMPARE(std::get<ExecutionResult>(items[1].result).standardOutput, QStringLiteral("1\n"));
        QCOMPARE(int(items[2].toolState), state);
        QCOMPARE(items[2].modelText, toolMessage);
    }
};

QTEST_MAIN(TestConversationSession)
#include "tst_conversationsession.moc"
