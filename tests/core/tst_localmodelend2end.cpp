// The model on this computer from end to end (issue 26), with real parts only: the tiny model
// downloaded from the fake hub into the models folder, Debian's llama-server started for the
// provider "This computer", the code the model calls run in the real sandbox and its result sent
// back; the server killed mid-answer, two conversations answered at once by one server, and the
// idle stop, each through conversations as the window drives them.
#include "dockertest.h"
#include "fakehub.h"
#include "llamaserver.h"
#include "sessionnotices.h"
#include "testprofile.h"

#include <localmodels/modeldownload.h>
#include <session/conversationsession.h>
#include <session/localmodelhost.h>
#include <session/messagemodel.h>
#include <session/modeldownloads.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QCoroTask>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

#include <csignal>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using namespace std::chrono_literals;

namespace {

// When each text delta of a conversation's answers arrived, and what it said.
struct Stream {
    QList<qint64> times;
    QString text;
};

} // namespace

class TestLocalModelEnd2End : public QObject
{
    Q_OBJECT

    TestProfile m_profile;
    QElapsedTimer m_clock;

    // A profile whose provider is "This computer" with the model MODEL, its llama-server the sid
    // root's through a launcher that adds SERVERFLAGS to the runner's own (later flags win).
    void openProfile(const QStringList &assignments, const QString &model = QStringLiteral("tiny"),
                     const QString &serverFlags = {})
    {
        QCOMPARE(m_profile.open(QStringList{QStringLiteral("web/enabled=false"), QStringLiteral("charts/enabled=false"),
                                            QStringLiteral("provider=local"),
                                            QStringLiteral("providers/local/model=") + model,
                                            QStringLiteral("models/test_first_use=never"),
                                            QStringLiteral("network/max_retries=0")} +
                                assignments),
                 QString());
        const QString launcher = m_profile.filePath(QStringLiteral("llama-server"));
        const QString notWritten = LlamaServer::writeLauncher(launcher);
        QVERIFY2(notWritten.isEmpty(), qPrintable(notWritten));
        if (!serverFlags.isEmpty()) {
            QFile script(launcher);
            QVERIFY(script.open(QIODevice::ReadOnly));
            QByteArray text = script.readAll();
            script.close();
            QVERIFY(text.contains("\"$@\""));
            const QByteArray withFlags = "\"$@\" " + serverFlags.toUtf8();
            text.replace("\"$@\"", withFlags);
            QVERIFY(script.open(QIODevice::WriteOnly | QIODevice::Truncate));
            script.write(text);
        }
        QCOMPARE(m_profile.set({QStringLiteral("local/server=") + launcher}), QString());
    }

    // The tiny model on the shelf, as tiny.gguf.
    void shelveTinyModel()
    {
        QVERIFY(QDir().mkpath(modelsFolder()));
        QVERIFY(QFile::copy(LlamaServer::modelPath(), modelsFolder() + QStringLiteral("/tiny.gguf")));
    }

    QString modelsFolder() const { return m_profile.settings()->localModelsFolder(); }

    ConversationSession *newSession()
    {
        const auto created = m_profile.sessions()->create();
        return created ? *created : nullptr;
    }

    // Records the text deltas of SESSION into STREAM, with the time each came.
    void record(ConversationSession *session, Stream *stream)
    {
        connect(session, &ConversationSession::agentEvent, this, [this, stream](const AgentEvent &event) {
            if (event.kind != AgentEvent::Kind::TextDelta)
                return;
            stream->times << m_clock.elapsed();
            stream->text += event.text;
        });
    }

    // How many times llama-server was started (the runner writes a line into its log for each).
    int serverStarts()
    {
        QFile log(m_profile.sessions()->localModels()->logFile());
        if (!log.open(QIODevice::ReadOnly))
            return 0;
        return int(log.readAll().count("\n--- "));
    }

    // The llama-server processes running a model of the profile.
    QList<qint64> servers() const { return LlamaServer::processesNaming(modelsFolder()); }

    QList<ChatMessage> stored(ConversationSession *session)
    {
        const auto messages = m_profile.store()->messages(session->id());
        return messages ? *messages : QList<ChatMessage>();
    }

    static QString roles(const QList<ChatMessage> &messages)
    {
        QStringList names;
        for (const ChatMessage &message : messages)
            names << ChatMessage::roleName(message.role);
        return names.join(QLatin1Char(' '));
    }

    // Sends TEXT in SESSION and waits for the turn's end, which it returns.
    static AgentEvent::End answer(ConversationSession *session, const QString &text)
    {
        QSignalSpy finished(session, &ConversationSession::turnFinished);
        session->send(text);
        if (!finished.wait(120000))
            return AgentEvent::End::Cancelled;
        return finished.constFirst().constFirst().value<AgentEvent::End>();
    }

private Q_SLOTS:
    void init()
    {
        SANDPIPER_REQUIRE_LLAMA();
        m_clock.start();
    }

    void cleanup() { QVERIFY(m_profile.close()); }

    // From nothing: no model here; the tiny model is downloaded from the hub (its 302 to the file
    // host followed, its checksum checked) into the models folder, and the first message, sent
    // at once, starts it; it calls execute_python_code, which runs in the real sandbox, the
    // result goes back and its answer follows. The store holds the four messages and the run.
    void downloadsThenAnswersWithPython()
    {
        SANDPIPER_REQUIRE_DOCKER();
        FakeHub hub;
        QVERIFY(hub.listen());
        const QString repository = QStringLiteral("test/tiny-GGUF");
        hub.addRepository(repository);
        hub.addFile(repository, {QStringLiteral("tiny-Q4_K_M.gguf"), LlamaServer::modelPath()});
        const QByteArray oldEndpoint = qgetenv("HF_ENDPOINT");
        qputenv("HF_ENDPOINT", hub.endpoint().toEncoded());
        const auto restore = qScopeGuard([&] { qputenv("HF_ENDPOINT", oldEndpoint); });
        openProfile({QStringLiteral("sandbox/image=") + sandboxImage(),
                     QStringLiteral("approval/execute_python_code=auto"),
                     QStringLiteral("local/hub_hosts=") + hub.fileHost()},
                    QStringLiteral("tiny-Q4_K_M"));

        // The window asks whether the provider can run before anything is here.
        QVERIFY2(
            m_profile.sessions()->providerProblem(QStringLiteral("local")).contains(QLatin1String("no GGUF model")),
            qPrintable(m_profile.sessions()->providerProblem(QStringLiteral("local"))));
        const Result<ModelDownload *> started =
            QCoro::waitFor(m_profile.sessions()->modelDownloads()->download(repository, QString(), QString()));
        QVERIFY2(started.ok(), qPrintable(started.error()));
        ModelDownload *download = *started;
        QTRY_VERIFY_WITH_TIMEOUT(download->state() != ModelDownload::State::Downloading &&
                                     download->state() != ModelDownload::State::Checking &&
                                     download->state() != ModelDownload::State::Idle,
                                 30000);
        QVERIFY2(download->state() == ModelDownload::State::Finished, qPrintable(download->message()));
        const QString path = modelsFolder() + QStringLiteral("/test/tiny-GGUF/tiny-Q4_K_M.gguf");
        QCOMPARE(download->modelPath(), path);
        QCOMPARE(FakeHub::sha256Of(path), FakeHub::sha256Of(LlamaServer::modelPath()));
        QVERIFY(!hub.hub().requests().isEmpty());
        QVERIFY(!hub.files().requests().isEmpty());

        // At once, as the welcome page's chat does. The tiny model's code is up to 30 random
        // characters (it samples with a random seed), none at times, and empty code is refused
        // before it runs; its text after the result may be empty too (its first token the end): a
        // new conversation until it wrote both.
        QCOMPARE(m_profile.sessions()->providerProblem(QStringLiteral("local")), QString());
        ConversationSession *session = nullptr;
        QList<AgentEvent> tools;
        QList<ChatMessage> messages;
        QString code;
        const auto spokeAfterTheResult = [&messages] {
            return messages.size() == 4 && !messages.at(3).content.isEmpty();
        };
        for (int attempt = 0; attempt < 16 && (code.trimmed().isEmpty() || !spokeAfterTheResult()); ++attempt) {
            session = newSession();
            QVERIFY(session);
            tools.clear();
            connect(session, &ConversationSession::agentEvent, this, [&tools](const AgentEvent &event) {
                if (event.kind == AgentEvent::Kind::ToolFinished)
                    tools << event;
            });
            const AgentEvent::End end = answer(session, QStringLiteral("What is 2**100 % 97? Use Python."));
            QVERIFY2(end == AgentEvent::End::Completed, qPrintable(noticesOf(session)));
            QCOMPARE(m_profile.sessions()->localModels()->plan().modelPath, path);
            messages = stored(session);
            QCOMPARE(roles(messages), QStringLiteral("user assistant tool assistant"));
            QCOMPARE(messages.at(1).toolCalls.size(), 1);
            QCOMPARE(messages.at(1).toolCalls.constFirst().name, QStringLiteral("execute_python_code"));
            code = QJsonDocument::fromJson(messages.at(1).toolCalls.constFirst().arguments.toUtf8())
                       .object()
                       .value(QLatin1String("code"))
                       .toString();
        }
        const ChatMessage &call = messages.at(1);
        QVERIFY2(!code.trimmed().isEmpty(), qPrintable(call.toolCalls.constFirst().arguments));
        const ChatMessage &result = messages.at(2);
        QCOMPARE(result.toolCallId, call.toolCalls.constFirst().id);
        QVERIFY(!result.content.isEmpty());
        QCOMPARE(messages.at(3).status, ChatMessage::Status::Complete);
        QVERIFY(messages.at(3).toolCalls.isEmpty());
        QVERIFY2(!messages.at(3).content.isEmpty(), "the model's text after the result");

        // The run, in the sandbox: stored with the call it answers, with what Python said.
        QCOMPARE(tools.size(), 1);
        QVERIFY(tools.constFirst().ran);
        QVERIFY(tools.constFirst().execution());
        const auto executions = m_profile.store()->executions(session->id());
        QVERIFY(executions);
        QCOMPARE(executions->size(), 1);
        const StoredExecution &run = executions->constFirst();
        QCOMPARE(run.call, (CallKey{call.id, 0}));
        QCOMPARE(run.code, code);
        QVERIFY(run.result.status == ExecutionResult::Status::Ok ||
                run.result.status == ExecutionResult::Status::Error);
        QVERIFY(!run.result.errorType.isEmpty() || !run.result.value.isEmpty() ||
                !run.result.standardOutput.isEmpty() || run.result.status == ExecutionResult::Status::Ok);
        // What Python said is what the model was told.
        if (!run.result.errorType.isEmpty())
            QVERIFY2(result.content.contains(run.result.errorType), qPrintable(result.content));
    }

    // kill -9 of the server in the middle of an answer: the chat says the model stopped and that
    // it starts again, what came of the answer stays (marked incomplete), and the next message is
    // answered by a new server.
    void aKilledServerKeepsThePartialAnswer()
    {
        // An answer that goes on long enough to be cut.
        openProfile({QStringLiteral("sandbox/enabled=false")}, QStringLiteral("tiny"),
                    QStringLiteral("--ignore-eos -n 1500"));
        shelveTinyModel();
        ConversationSession *session = newSession();
        QVERIFY(session);
        Stream stream;
        record(session, &stream);
        qint64 killed = 0;
        QString before;
        connect(session, &ConversationSession::agentEvent, this, [&](const AgentEvent &event) {
            if (event.kind != AgentEvent::Kind::TextDelta || killed != 0)
                return;
            const QList<qint64> running = servers();
            QCOMPARE(running.size(), 1);
            killed = running.constFirst();
            before = stream.text;
            QCOMPARE(::kill(pid_t(killed), SIGKILL), 0);
        });
        const AgentEvent::End end = answer(session, QStringLiteral("Tell me a long story."));
        QVERIFY(killed != 0);
        QCOMPARE(end, AgentEvent::End::Failed);
        QTRY_VERIFY2_WITH_TIMEOUT(
            noticesOf(session).contains(
                QLatin1String("The local model's server stopped (it was killed or crashed); starting it again.")),
            qPrintable(noticesOf(session)), 10000);

        const QList<ChatMessage> messages = stored(session);
        QCOMPARE(roles(messages), QStringLiteral("user assistant"));
        const ChatMessage &partial = messages.at(1);
        QCOMPARE(partial.status, ChatMessage::Status::Error);
        QVERIFY2(partial.content.startsWith(before) && !partial.content.isEmpty(), qPrintable(partial.content));
        QVERIFY2(partial.error.startsWith(QLatin1String("The answer above is incomplete.")), qPrintable(partial.error));

        // The next message: a new server answers it.
        QCOMPARE(answer(session, QStringLiteral("Go on.")), AgentEvent::End::Completed);
        const QList<qint64> running = servers();
        QCOMPARE(running.size(), 1);
        QVERIFY(running.constFirst() != killed);
        const QList<ChatMessage> after = stored(session);
        QCOMPARE(roles(after), QStringLiteral("user assistant user assistant"));
        QCOMPARE(after.at(3).status, ChatMessage::Status::Complete);
        QVERIFY(!after.at(3).content.isEmpty());
        QCOMPARE(serverStarts(), 2);
    }

    // Two conversations sent at the same moment with two slots: one server answers both, and the
    // answers stream at the same time.
    void twoConversationsAreAnsweredAtOnce()
    {
        openProfile({QStringLiteral("sandbox/enabled=false"), QStringLiteral("local/parallel=2")},
                    QStringLiteral("tiny"), QStringLiteral("--ignore-eos -n 400"));
        shelveTinyModel();
        ConversationSession *first = newSession();
        ConversationSession *second = newSession();
        QVERIFY(first && second);
        Stream one;
        Stream two;
        record(first, &one);
        record(second, &two);
        QSignalSpy firstDone(first, &ConversationSession::turnFinished);
        QSignalSpy secondDone(second, &ConversationSession::turnFinished);
        QList<qint64> running;
        connect(first, &ConversationSession::agentEvent, this, [&](const AgentEvent &event) {
            if (event.kind == AgentEvent::Kind::TextDelta && running.isEmpty())
                running = servers();
        });
        first->send(QStringLiteral("One."));
        second->send(QStringLiteral("Two."));
        QTRY_VERIFY_WITH_TIMEOUT(!firstDone.isEmpty() && !secondDone.isEmpty(), 120000);
        QCOMPARE(firstDone.constFirst().constFirst().value<AgentEvent::End>(), AgentEvent::End::Completed);
        QCOMPARE(secondDone.constFirst().constFirst().value<AgentEvent::End>(), AgentEvent::End::Completed);
        QCOMPARE(running.size(), 1);
        QCOMPARE(servers(), running);
        QCOMPARE(serverStarts(), 1);
        QVERIFY(!one.times.isEmpty() && !two.times.isEmpty());
        qInfo("first answer streamed %lld to %lld ms (%lld deltas), second %lld to %lld ms (%lld deltas)",
              one.times.constFirst(), one.times.constLast(), qint64(one.times.size()), two.times.constFirst(),
              two.times.constLast(), qint64(two.times.size()));
        // Each began before the other ended.
        QVERIFY(one.times.constFirst() < two.times.constLast());
        QVERIFY(two.times.constFirst() < one.times.constLast());
        // Two slots: the server was told so.
        QVERIFY(
            m_profile.sessions()->localModels()->arguments().join(QLatin1Char(' ')).contains(QLatin1String("-np 2")));
    }

    // Without use for the idle time the server stops; the next message starts it again.
    void theIdleServerStopsAndStartsAgain()
    {
        openProfile({QStringLiteral("sandbox/enabled=false"), QStringLiteral("local/idle_minutes=1")});
        shelveTinyModel();
        m_profile.sessions()->localModels()->setIdleMinute(1500ms);
        ConversationSession *session = newSession();
        QVERIFY(session);
        QCOMPARE(answer(session, QStringLiteral("Hello.")), AgentEvent::End::Completed);
        QCOMPARE(servers().size(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(m_profile.sessions()->localModels()->state(), LocalRunner::State::Stopped, 10000);
        QVERIFY2(m_profile.sessions()->localModels()->message().contains(QLatin1String("without use")),
                 qPrintable(m_profile.sessions()->localModels()->message()));
        QTRY_COMPARE(servers(), QList<qint64>());

        QCOMPARE(answer(session, QStringLiteral("Hello again.")), AgentEvent::End::Completed);
        QCOMPARE(roles(stored(session)), QStringLiteral("user assistant user assistant"));
        QCOMPARE(serverStarts(), 2);
        QCOMPARE(servers().size(), 1);
    }
};

QTEST_MAIN(TestLocalModelEnd2End)
#include "tst_localmodelend2end.moc"
