// The tool-calling loop against the fake model server and, for code, the real sandbox.
#include "agentrecorder.h"
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"

#include <agent/agentloop.h>
#include <agent/agentthread.h>
#include <sandbox/sandboxsession.h>
#include <storage/conversationstore.h>

#include <QCoroSignal>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;
using Kind = AgentEvent::Kind;
using Recorder = Sandpiper::Test::AgentRecorder;

namespace {

FS::ScriptedCall python(const QString &arguments, const QString &id = QStringLiteral("call_py"))
{
    return {id, QStringLiteral("execute_python_code"), arguments};
}

// Every assistant tool call in the request is answered by a tool message: what strict
// servers insist on.
bool historyIsValid(const RecordedRequest &request, QString *why)
{
    const QJsonArray messages = request.json().value(QLatin1String("messages")).toArray();
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonArray calls = messages[i][QLatin1String("tool_calls")].toArray();
        for (qsizetype c = 0; c < calls.size(); ++c) {
            const QJsonValue answer = messages.at(i + 1 + c);
            if (answer[QLatin1String("role")].toString() != QLatin1String("tool") ||
                answer[QLatin1String("tool_call_id")] != calls[c][QLatin1String("id")]) {
                *why = QStringLiteral("call %1 of message %2 has no tool message after it").arg(c).arg(i);
                return false;
            }
        }
    }
    return true;
}

} // namespace

class TestAgentLoop : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    QTemporaryDir m_dir;

    AgentConfig config(ApprovalPolicy policy = ApprovalPolicy::Auto, bool python = true)
    {
        AgentConfig c;
        c.provider.id = QStringLiteral("custom");
        c.provider.baseUrl = m_server->baseUrl().toString();
        c.provider.model = QStringLiteral("test-model");
        c.systemPrompt = QStringLiteral("You are a test.");
        c.approval.insert(QStringLiteral("execute_python_code"), policy);
        c.pythonEnabled = python;
        c.chartsEnabled = false; // these tests count the tools offered; tst_chartagent covers charts
        c.webEnabled = false;    // likewise; tst_webagent covers search_web and fetch_url
        c.sandbox.image = Sandpiper::Test::sandboxImage();
        c.sandbox.conversationId = QStringLiteral("agent-test");
        c.sandbox.dataDirectory = m_dir.filePath(QStringLiteral("conversation-%1").arg(QTest::currentTestFunction()));
        return c;
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
    }
    void cleanup() { m_server.reset(); }

    void answersWithoutTools()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello there!"), 4));
        AgentLoop loop(config(ApprovalPolicy::Auto, false));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hi"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        QString text;
        for (const auto &e : recorder.ofKind(Kind::TextDelta))
            text += e.text;
        QCOMPARE(text, QStringLiteral("Hello there!"));
        const QJsonObject body = m_server->requests().constFirst().json();
        QCOMPARE(body[QLatin1String("messages")][0][QLatin1String("role")].toString(), QStringLiteral("system"));
        QVERIFY(!body.contains(QLatin1String("tools"))); // no sandbox, no tools offered
        QCOMPARE(loop.history().size(), 2);
    }

    void runsCodeAndFeedsTheValueBack()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_server->enqueue(FS::openAiToolCalls({python(jsonCode(QStringLiteral("2 + 2")))}, 10));
        m_server->enqueue(FS::openAiText(QStringLiteral("2 + 2 is 4.")));
        AgentLoop loop(config());
        Recorder recorder(&loop);
        loop.send(QStringLiteral("what is 2+2?"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        QCOMPARE(m_server->requests().size(), 2);
        const QString toolText = toolMessageIn(m_server->requests().at(1), QStringLiteral("call_py"));
        QVERIFY2(toolText.contains(QLatin1String("Value of the last expression:\n4")), qPrintable(toolText));
        const auto finished = recorder.ofKind(Kind::ToolFinished);
        QCOMPARE(finished.size(), 1);
        QVERIFY(finished.first().execution());
        QCOMPARE(finished.first().execution()->value, QStringLiteral("4"));
        QCOMPARE(recorder.ofKind(Kind::ApprovalNeeded).size(), 0);
    }

    void aFigureIsMentionedAndSavedInTheConversationFolder()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_server->enqueue(FS::openAiToolCalls(
            {python(
                jsonCode(QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.title('test')")))},
            6));
        m_server->enqueue(FS::openAiText(QStringLiteral("Here is the plot.")));
        const AgentConfig c = config();
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("plot something"));
        QVERIFY(recorder.waitForTurn());
        const QString toolText = toolMessageIn(m_server->requests().at(1), QStringLiteral("call_py"));
        QVERIFY2(toolText.contains(QLatin1String("Figure shown to the user: figures/")), qPrintable(toolText));
        QVERIFY(!toolText.contains(QLatin1String("base64")));
        const ExecutionResult execution = *recorder.ofKind(Kind::ToolFinished).first().execution();
        QCOMPARE(execution.figures.size(), 1);
        QFile png(c.sandbox.dataDirectory + QLatin1Char('/') + execution.figures.first());
        QVERIFY2(png.open(QIODevice::ReadOnly), qPrintable(png.fileName()));
        QCOMPARE(png.read(4), QByteArray("\x89PNG"));
    }

    // What the model reads after code that tries the host: one line for 400 figures, one for
    // everything the host refused, and nothing of the host's files.
    void theModelIsToldOnceWhatTheHostRefused()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const QString code =
            QStringLiteral("import gc, os\nimport matplotlib.pyplot as plt\n"
                           "os.symlink('/etc/hostname', '/mnt/data/leak.txt')\nos.symlink('/', '/mnt/data/root')\n"
                           "kernel = next(o for o in gc.get_objects() if type(o).__name__ == 'Kernel')\n"
                           "kernel.emit({'id': kernel.current_id, 'event': 'display', 'mime': 'image/png', "
                           "'path': '../../../../etc/hostname'})\n"
                           "for i in range(400):\n    plt.figure(figsize=(1, 1))\n    plt.plot([0, i])");
        m_server->enqueue(FS::openAiToolCalls({python(jsonCode(code))}, 6));
        m_server->enqueue(FS::openAiText(QStringLiteral("Done.")));
        const AgentConfig c = config();
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("plot 400 lines"));
        QVERIFY(recorder.waitForTurn(1, 120000));
        const QString toolText = toolMessageIn(m_server->requests().at(1), QStringLiteral("call_py"));
        QVERIFY2(toolText.size() < 2500, qPrintable(QString::number(toolText.size())));
        QCOMPARE(toolText.count(QLatin1String("Figures shown to the user: 20 (figures/")), 1);
        QVERIFY(toolText.contains(QLatin1String("and 380 more figures that were not kept")));
        QCOMPARE(toolText.count(QLatin1String("Refused by Sandpiper")), 1);
        QVERIFY(toolText.contains(QStringLiteral("“leak.txt” is or goes through a symbolic link")));
        QVERIFY(!toolText.contains(QLatin1String("New or changed files")));
        const auto finished = recorder.ofKind(Kind::ToolFinished);
        const ExecutionResult *execution = finished.first().execution();
        QVERIFY(execution);
        QCOMPARE(execution->figures.size(), 20);
        QCOMPARE(execution->figuresNotKept, 380);
        QCOMPARE(execution->refused.size(), 3);
        QVERIFY(execution->files.isEmpty());
    }

    // Output that adds up: many small displays, or many files with names of 4 000 bytes (a
    // path of sixteen folders). The model's tool result keeps to one budget and counts the rest.
    void aToolResultKeepsToItsBudget_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QStringList>("said");
        QTest::newRow("1500 Markdown displays")
            << QStringLiteral("from IPython.display import display, Markdown\n"
                              "for i in range(1500):\n    display(Markdown(f'**item {i}** ' + 'text ' * 20))")
            << QStringList{QStringLiteral("1490 more display items shown to the user (Markdown 1490)")};
        QTest::newRow("30 files with names of 4000 bytes")
            << QStringLiteral("import os\n"
                              "folder = '/mnt/data/' + '/'.join(c * 230 for c in 'abcdefghijklmnop')\n"
                              "os.makedirs(folder)\n"
                              "for i in range(30):\n"
                              "    open(f'{folder}/{i:02d}' + 'x' * 200 + '.csv', 'w').write('1')")
            << QStringList{QStringLiteral("…") + QString(36, QLatin1Char('x')) + QStringLiteral(".csv, "),
                           QStringLiteral("(and 10 more)")};
    }

    void aToolResultKeepsToItsBudget()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QFETCH(QString, code);
        QFETCH(QStringList, said);
        m_server->enqueue(FS::openAiToolCalls({python(jsonCode(code))}, 6));
        m_server->enqueue(FS::openAiText(QStringLiteral("Done.")));
        AgentLoop loop(config());
        Recorder recorder(&loop);
        loop.send(QStringLiteral("show a lot"));
        QVERIFY(recorder.waitForTurn(1, 120000));
        // The result as the tool made it, and as the next request carried it: whole, not cut by
        // the context's shortener, which would otherwise make room by cutting it blindly.
        const QString result = recorder.ofKind(Kind::ToolFinished).value(0).text;
        const QString toolText = toolMessageIn(m_server->requests().at(1), QStringLiteral("call_py"));
        qInfo() << "the tool result has" << result.size() << "characters, the request carried" << toolText.size();
        // The fake server does not say its window, so the budget is that of the window assumed.
        const int budget = 8192;
        QVERIFY2(result.size() <= budget, qPrintable(QString::number(result.size())));
        QCOMPARE(toolText, result);
        QVERIFY2(toolText.startsWith(QLatin1String("Status: ok")), qPrintable(toolText.left(200)));
        for (const QString &text : std::as_const(said))
            QVERIFY2(toolText.contains(text), qPrintable(text + QStringLiteral("\n---\n") + toolText.right(2000)));
    }

    void filesPastTheDiskLimitStopTheCodeAndTheModelIsTold()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_server->enqueue(FS::openAiToolCalls(
            {python(jsonCode(QStringLiteral("import time\nwith open('/mnt/data/big.bin', 'wb') as f:\n"
                                            "    for _ in range(500):\n        f.write(b'0' * (1 << 20))\n"
                                            "        f.flush()\n        time.sleep(0.01)")))},
            4));
        m_server->enqueue(FS::openAiText(QStringLiteral("The disk limit stopped it.")));
        AgentConfig c = config();
        c.sandbox.diskLimitBytes = 24 << 20;
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("write half a gigabyte"));
        QVERIFY(recorder.waitForTurn(1, 120000));
        const QString toolText = toolMessageIn(m_server->requests().at(1), QStringLiteral("call_py"));
        QVERIFY2(toolText.startsWith(QLatin1String("Status: stopped by Sandpiper")) &&
                     toolText.contains(QLatin1String("the conversation's files reached the 24 MiB limit; the "
                                                     "execution was stopped"),
                                       Qt::CaseInsensitive),
                 qPrintable(toolText));
        QVERIFY(QFileInfo(c.sandbox.dataDirectory + QStringLiteral("/big.bin")).size() > c.sandbox.diskLimitBytes);
    }

    void sloppyArgumentsAreRepaired_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::newRow("bare code") << QStringLiteral("6 * 7");
        QTest::newRow("markdown fence") << QStringLiteral("```python\n6 * 7\n```");
        QTest::newRow("fence in json") << jsonCode(QStringLiteral("```python\n6 * 7\n```"));
        QTest::newRow("double-encoded")
            << QString::fromUtf8(
                   QJsonDocument(QJsonArray{jsonCode(QStringLiteral("6 * 7"))}).toJson(QJsonDocument::Compact))
                   .mid(1)
                   .chopped(1);
        QTest::newRow("trailing garbage") << jsonCode(QStringLiteral("6 * 7")) + QStringLiteral("}]");
        QTest::newRow("source alias") << QStringLiteral("{\"source\": \"6 * 7\"}");
        QTest::newRow("python alias") << QStringLiteral("{\"python\": \"6 * 7\"}");
        QTest::newRow("script alias") << QStringLiteral("{\"script\": \"6 * 7\"}");
    }

    void sloppyArgumentsAreRepaired()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QFETCH(QString, arguments);
        m_server->enqueue(FS::openAiToolCalls({python(arguments)}, 3));
        m_server->enqueue(FS::openAiText(QStringLiteral("42")));
        AgentLoop loop(config());
        Recorder recorder(&loop);
        loop.send(QStringLiteral("6 times 7?"));
        QVERIFY(recorder.waitForTurn());
        const QString toolText = toolMessageIn(m_server->requests().at(1), QStringLiteral("call_py"));
        QVERIFY2(toolText.contains(QLatin1String("Value of the last expression:\n42")), qPrintable(toolText));
    }

    void unrepairableArgumentsGoBackToTheModel()
    {
        m_server->enqueue(FS::openAiToolCalls({python(QStringLiteral("{\"code\": \"print(1)"))}, 3));
        m_server->enqueue(FS::openAiText(QStringLiteral("Sorry.")));
        AgentLoop loop(config(ApprovalPolicy::Auto, true));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("go"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        const QString toolText = toolMessageIn(m_server->requests().at(1), QStringLiteral("call_py"));
        QVERIFY2(toolText.startsWith(QLatin1String("Error: The arguments are not valid JSON")), qPrintable(toolText));
        QVERIFY(toolText.contains(QLatin1String("{\"code\": \"...\"}")));
        QCOMPARE(recorder.ofKind(Kind::ToolStarted).size(), 0);
    }

    void anUnknownToolListsTheAvailableOnes()
    {
        m_server->enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_x"), QStringLiteral("delete_everything"), QStringLiteral("{}")}}, 2));
        m_server->enqueue(FS::openAiText(QStringLiteral("OK.")));
        AgentLoop loop(config());
        Recorder recorder(&loop);
        loop.send(QStringLiteral("go"));
        QVERIFY(recorder.waitForTurn());
        const QString toolText = toolMessageIn(m_server->requests().at(1), QStringLiteral("call_x"));
        QCOMPARE(toolText, QStringLiteral(
                               "Error: there is no tool \"delete_everything\". Available tools: execute_python_code."));
    }

    void askingWaitsForApprovalAndDenialReachesTheModel()
    {
        m_server->enqueue(FS::openAiToolCalls({python(jsonCode(QStringLiteral("import os\nos.listdir('/')")))}, 3));
        m_server->enqueue(FS::openAiText(QStringLiteral("Understood.")));
        AgentLoop loop(config(ApprovalPolicy::Ask));
        Recorder recorder(&loop);
        recorder.onEvent = [&](const AgentEvent &e) {
            if (e.kind == Kind::ApprovalNeeded)
                loop.deny(e.key, QStringLiteral("not on my machine"));
        };
        loop.send(QStringLiteral("look around"));
        QVERIFY(recorder.waitForTurn());
        const auto approval = recorder.ofKind(Kind::ApprovalNeeded);
        QCOMPARE(approval.size(), 1);
        QCOMPARE(approval.first().preview, QStringLiteral("import os\nos.listdir('/')"));
        QCOMPARE(toolMessageIn(m_server->requests().at(1), QStringLiteral("call_py")),
                 QStringLiteral("Not run: the user declined to run this. Their reason: not on my machine"));
        QCOMPARE(recorder.ofKind(Kind::ToolStarted).size(), 0);
    }

    void anEditedCallRunsTheEdit()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_server->enqueue(FS::openAiToolCalls({python(jsonCode(QStringLiteral("1 + 1")))}, 3));
        m_server->enqueue(FS::openAiText(QStringLiteral("Done.")));
        AgentLoop loop(config(ApprovalPolicy::Ask));
        Recorder recorder(&loop);
        recorder.onEvent = [&](const AgentEvent &e) {
            if (e.kind == Kind::ApprovalNeeded)
                loop.approveEdited(e.key, jsonCode(QStringLiteral("10 + 10")));
        };
        loop.send(QStringLiteral("add"));
        QVERIFY(recorder.waitForTurn());
        const QString toolText = toolMessageIn(m_server->requests().at(1), QStringLiteral("call_py"));
        QVERIFY2(toolText.contains(QLatin1String("the user edited the call")), qPrintable(toolText));
        QVERIFY(toolText.contains(QLatin1String("Value of the last expression:\n20")));
    }

    void neverMeansNever()
    {
        m_server->enqueue(FS::openAiToolCalls({python(jsonCode(QStringLiteral("1")))}, 2));
        m_server->enqueue(FS::openAiText(QStringLiteral("Fine.")));
        AgentLoop loop(config(ApprovalPolicy::Never));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("go"));
        QVERIFY(recorder.waitForTurn());
        QVERIFY(toolMessageIn(m_server->requests().at(1), QStringLiteral("call_py"))
                    .startsWith(QLatin1String("Not run: the user does not allow")));
    }

    void theRoundLimitEndsTheTurnClearly()
    {
        SANDPIPER_REQUIRE_DOCKER();
        auto c = config();
        c.maxToolRounds = 2;
        for (int i = 0; i < 3; ++i)
            m_server->enqueue(
                FS::openAiToolCalls({python(jsonCode(QStringLiteral("1")), QStringLiteral("call_%1").arg(i))}, 2));
        m_server->enqueue(FS::openAiText(QStringLiteral("after the limit")));
        AgentLoop loop(c);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("loop forever"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::RoundLimit);
        QCOMPARE(m_server->requests().size(), 3);
        QCOMPARE(recorder.ofKind(Kind::ToolStarted).size(), 2);
        QVERIFY(recorder.ofKind(Kind::Notice).constFirst().text.contains(QLatin1String("limit of 2 tool rounds")));
        // The history stays valid: the next message is accepted by a strict server.
        m_server->enqueue(FS::openAiText(QStringLiteral("continuing")));
        loop.send(QStringLiteral("go on"));
        QVERIFY(recorder.waitForTurn(2));
        QString why;
        QVERIFY2(historyIsValid(m_server->requests().constLast(), &why), qPrintable(why));
        QVERIFY(
            toolMessageIn(m_server->requests().constLast(), QStringLiteral("call_2")).contains(QLatin1String("limit")));
    }

    void cancelDuringTheStreamKeepsThePartialText()
    {
        m_server->enqueue(FS::slowText(QStringLiteral("a b c d e f g h i j"), 10, 200ms));
        AgentLoop loop(config(ApprovalPolicy::Auto, false));
        Recorder recorder(&loop);
        recorder.onEvent = [&](const AgentEvent &e) {
            if (e.kind == Kind::TextDelta && recorder.ofKind(Kind::TextDelta).size() == 2)
                loop.cancel();
        };
        loop.send(QStringLiteral("count"));
        QVERIFY(recorder.waitForTurn(1, 5000));
        QCOMPARE(recorder.end(), AgentEvent::End::Cancelled);
        QCOMPARE(loop.history().constLast().status, ChatMessage::Status::Cancelled);
        QVERIFY(!loop.history().constLast().content.isEmpty());
        QCOMPARE(recorder.ofKind(Kind::Error).size(), 0);
    }

    // Stopped before the first word: no answer is kept, and the next question follows the first
    // (the empty answer's row beside it made that question a second "version" of it).
    void aStopBeforeTheFirstWordKeepsNoAnswer()
    {
        QTemporaryDir data;
        ConversationStore store(data.path());
        QVERIFY(store.open());
        const auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("test-model"));
        m_server->enqueue(FS::slowText(QStringLiteral("never said"), 2, 2000ms));
        m_server->enqueue(FS::openAiText(QStringLiteral("21")));
        AgentLoop loop(config(ApprovalPolicy::Auto, false), &store, conversation->id);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hello"));
        QTRY_COMPARE(m_server->requests().size(), 1);
        loop.cancel();
        QVERIFY(recorder.waitForTurn(1, 5000));
        QCOMPARE(recorder.end(), AgentEvent::End::Cancelled);
        QVERIFY(recorder.ofKind(Kind::TextDelta).isEmpty());
        // The chat shows no answer: it says why once, and how to ask again.
        QCOMPARE(recorder.ofKind(Kind::Notice).size(), 1);
        QVERIFY2(recorder.ofKind(Kind::Notice)
                     .constFirst()
                     .text.startsWith(QLatin1String("Stopped before the model wrote anything.")),
                 qPrintable(recorder.ofKind(Kind::Notice).constFirst().text));
        loop.send(QStringLiteral("what is 3*7"));
        QVERIFY(recorder.waitForTurn(2, 5000));
        const auto stored = store.messages(conversation->id);
        QVERIFY(stored);
        QStringList roles;
        for (const ChatMessage &message : *stored)
            roles << ChatMessage::roleName(message.role);
        QCOMPARE(roles.join(QLatin1Char(' ')), QStringLiteral("user user assistant"));
        QCOMPARE(stored->at(1).parentId, stored->at(0).id);
        QCOMPARE(stored->at(1).versionCount, 1);
    }

    void cancelDuringApprovalAnswersTheCall()
    {
        m_server->enqueue(FS::openAiToolCalls(
            {python(jsonCode(QStringLiteral("1"))), python(jsonCode(QStringLiteral("2")), QStringLiteral("call_2"))},
            2));
        AgentLoop loop(config(ApprovalPolicy::Ask));
        Recorder recorder(&loop);
        recorder.onEvent = [&](const AgentEvent &e) {
            if (e.kind == Kind::ApprovalNeeded)
                QTimer::singleShot(50ms, &loop, &AgentLoop::cancel);
        };
        loop.send(QStringLiteral("go"));
        QVERIFY(recorder.waitForTurn(1, 5000));
        QCOMPARE(recorder.end(), AgentEvent::End::Cancelled);
        // Both calls got a tool message, so the next request is valid.
        m_server->enqueue(FS::openAiText(QStringLiteral("ok")));
        loop.send(QStringLiteral("never mind"));
        QVERIFY(recorder.waitForTurn(2));
        QString why;
        QVERIFY2(historyIsValid(m_server->requests().constLast(), &why), qPrintable(why));
        QVERIFY(toolMessageIn(m_server->requests().constLast(), QStringLiteral("call_2"))
                    .startsWith(QLatin1String("Cancelled")));
    }

    void cancelDuringExecutionInterruptsTheCode()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_server->enqueue(FS::openAiToolCalls(
            {python(jsonCode(QStringLiteral("import time\nprint('working', flush=True)\ntime.sleep(60)")))}, 2));
        AgentLoop loop(config());
        Recorder recorder(&loop);
        recorder.onEvent = [&](const AgentEvent &e) {
            if (e.kind == Kind::ToolOutput)
                loop.cancel();
        };
        loop.send(QStringLiteral("sleep"));
        QVERIFY(recorder.waitForTurn(1, 30000));
        QCOMPARE(recorder.end(), AgentEvent::End::Cancelled);
        const auto finished = recorder.ofKind(Kind::ToolFinished);
        QCOMPARE(finished.size(), 1);
        QVERIFY2(finished.first().text.contains(QLatin1String("interrupted: the user stopped it")),
                 qPrintable(finished.first().text));
        QVERIFY(finished.first().text.contains(QLatin1String("working")));
        QCOMPARE(loop.history().constLast().role, ChatMessage::Role::Tool);
    }

    void providerErrorsAreShownWithTheirMessage()
    {
        m_server->enqueue(FS::httpError(401, QStringLiteral("Incorrect API key provided: sk-wr***ng.")));
        AgentLoop loop(config(ApprovalPolicy::Auto, false));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hi"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Failed);
        QVERIFY(recorder.ofKind(Kind::Error).constFirst().text.contains(QLatin1String("Incorrect API key")));
        QCOMPARE(loop.history().constLast().status, ChatMessage::Status::Error);
    }

    void retriesAreVisible()
    {
        m_server->enqueue(FS::httpError(429, QStringLiteral("Too many requests"), 0));
        m_server->enqueue(FS::openAiText(QStringLiteral("there")));
        AgentLoop loop(config(ApprovalPolicy::Auto, false));
        Recorder recorder(&loop);
        loop.send(QStringLiteral("hi"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        QCOMPARE(recorder.ofKind(Kind::Retrying).size(), 1);
        QVERIFY(recorder.ofKind(Kind::Retrying).constFirst().text.contains(QLatin1String("Too many requests")));
    }

    void theModelCanImproveTheTitle()
    {
        QTemporaryDir data;
        ConversationStore store(data.path());
        QVERIFY(store.open());
        const auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("test-model"));
        m_server->enqueue(FS::openAiText(QStringLiteral("Paris is the capital of France.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("\"Capital of France\"")));
        auto c = config(ApprovalPolicy::Auto, false);
        c.modelTitles = true;
        AgentLoop loop(c, &store, conversation->id);
        Recorder recorder(&loop);
        loop.send(QStringLiteral("what is the capital of france, and why is it that one and not lyon?"));
        QVERIFY(recorder.waitForTurn());
        QTRY_COMPARE(store.conversation(conversation->id)->title, QStringLiteral("Capital of France"));
        QCOMPARE(m_server->requests().size(), 2);
        QVERIFY(m_server->requests().at(1).json().value(QLatin1String("tools")).isUndefined());
    }

    void runsOnItsOwnThread()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("from the worker")));
        AgentThread agent(config(ApprovalPolicy::Auto, false));
        QList<AgentEvent> events;
        QThread *eventThread = nullptr;
        connect(&agent, &AgentThread::event, this, [&](const AgentEvent &e) {
            events << e;
            eventThread = QThread::currentThread();
        });
        agent.post(&AgentLoop::send, QStringLiteral("hi"));
        QTRY_VERIFY_WITH_TIMEOUT(!events.isEmpty() && events.constLast().kind == Kind::TurnFinished, 10000);
        QCOMPARE(eventThread, QThread::currentThread());
    }
};

QTEST_GUILESS_MAIN(TestAgentLoop)
#include "tst_agentloop.moc"
