// sandpiper-cli as a user runs it: a separate process against the fake model server.
#include "agentrecorder.h"
#include "dockertest.h"
#include "fakehub.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "llamaserver.h"
#include "mcptestservers.h"
#include "sandboxfiles.h"

#include <llm/modelreport.h>
#include <settings/modelreports.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    std::unique_ptr<QTemporaryDir> m_profile;

    QStringList baseArguments(bool python = false) const
    {
        QStringList arguments{QStringLiteral("--profile"),    m_profile->path(),         QStringLiteral("--base-url"),
                              m_server->baseUrl().toString(), QStringLiteral("--model"), QStringLiteral("fake-model")};
        if (python) {
            arguments << QStringLiteral("--set") << QStringLiteral("sandbox/image=") + Sandpiper::Test::sandboxImage()
                      << QStringLiteral("--approve") << QStringLiteral("auto");
        } else {
            arguments << QStringLiteral("--set") << QStringLiteral("sandbox/enabled=false");
        }
        return arguments;
    }

    void startCli(QProcess &process, const QStringList &arguments)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("SANDPIPER_API_KEY"), QStringLiteral("sk-test"));
        process.setProcessEnvironment(environment);
        process.setStandardInputFile(QProcess::nullDevice());
        process.start(QStringLiteral(SANDPIPER_CLI_EXECUTABLE), arguments);
    }

    // The fake server lives in this thread, so the wait must keep the event loop running.
    Run run(const QStringList &arguments)
    {
        QProcess process;
        QSignalSpy finished(&process, &QProcess::finished);
        startCli(process, arguments);
        Run result;
        if (!finished.wait(60000)) {
            process.kill();
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        m_profile = std::make_unique<QTemporaryDir>();
    }

    void printsItsVersion()
    {
        const Run r = run({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith(QLatin1String("sandpiper-cli ")));
    }

    void streamsTheAnswer()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello from the model 🐦"), 5));
        const Run r = run(baseArguments() << QStringLiteral("say hello"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QStringLiteral("Hello from the model 🐦\n"));
        QCOMPARE(m_server->chatRequests().constFirst().headers.value("authorization"), QByteArray("Bearer sk-test"));
    }

    void printsJsonEvents()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("json please"), 3));
        const Run r = run(baseArguments() << QStringLiteral("--json") << QStringLiteral("hi"));
        QCOMPARE(r.exitCode, 0);
        QStringList kinds;
        for (const QString &line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(line.toUtf8(), &error);
            QVERIFY2(document.isObject(), qPrintable(line));
            kinds << document[QLatin1String("event")].toString();
        }
        QCOMPARE(kinds.constFirst(), QStringLiteral("turn_started"));
        QVERIFY(kinds.contains(QStringLiteral("text_delta")));
        QCOMPARE(kinds.constLast(), QStringLiteral("turn_finished"));
    }

    void printsTheContextWindowInJson()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("ok"), 1));
        const Run r = run(baseArguments() << QStringLiteral("--set")
                                          << QStringLiteral("providers/custom/context_windows=fake-model=4096")
                                          << QStringLiteral("--json") << QStringLiteral("hi"));
        QCOMPARE(r.exitCode, 0);
        QJsonObject context;
        for (const QString &line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
            if (event[QLatin1String("event")].toString() == QLatin1String("context"))
                context = event[QLatin1String("context")].toObject();
        }
        QCOMPARE(context[QLatin1String("window")].toInteger(), 4096);
        QCOMPARE(context[QLatin1String("window_source")].toString(), QStringLiteral("settings"));
        QVERIFY(context[QLatin1String("tokens")].toInteger() > 0);
        QCOMPARE(context[QLatin1String("left_out")].toString(), QString());
    }

    void refusesBadArgumentsWithOneLine_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown provider")
            << QStringList{QStringLiteral("--provider"), QStringLiteral("nope"), QStringLiteral("hi")}
            << QStringLiteral("unknown provider \"nope\"");
        QTest::newRow("bad approval") << QStringList{QStringLiteral("--approve"), QStringLiteral("maybe"),
                                                     QStringLiteral("hi")}
                                      << QStringLiteral("--approve takes ask, auto or never");
        QTest::newRow("unknown setting") << QStringList{QStringLiteral("--set"), QStringLiteral("no/such=1"),
                                                        QStringLiteral("hi")}
                                         << QStringLiteral("unknown setting \"no/such\"");
        QTest::newRow("bad setting value")
            << QStringList{QStringLiteral("--set"), QStringLiteral("sandbox/network=maybe"), QStringLiteral("hi")}
            << QStringLiteral("needs a true or false");
        QTest::newRow("bad url") << QStringList{QStringLiteral("--base-url"), QStringLiteral("ftp://example.org"),
                                                QStringLiteral("hi")}
                                 << QStringLiteral("not a valid http or https URL");
        QTest::newRow("missing key variable")
            << QStringList{QStringLiteral("--api-key-env"), QStringLiteral("SANDPIPER_NO_SUCH_VARIABLE"),
                           QStringLiteral("hi")}
            << QStringLiteral("SANDPIPER_NO_SUCH_VARIABLE is not set");
        QTest::newRow("empty prompt") << QStringList{} << QStringLiteral("the prompt is empty");
        QTest::newRow("unknown conversation")
            << QStringList{QStringLiteral("--conversation"), QStringLiteral("999"), QStringLiteral("hi")}
            << QStringLiteral("there is no conversation 999");
        QTest::newRow("notebook without conversation")
            << QStringList{QStringLiteral("--export-notebook"), QStringLiteral("chat.ipynb")}
            << QStringLiteral("--export-notebook needs --conversation ID");
        QTest::newRow("notebook of no conversation")
            << QStringList{QStringLiteral("--conversation"), QStringLiteral("999"), QStringLiteral("--export-notebook"),
                           QStringLiteral("chat.ipynb")}
            << QStringLiteral("there is no conversation 999");
        QTest::newRow("notebook and an image")
            << QStringList{QStringLiteral("--conversation"),    QStringLiteral("1"),
                           QStringLiteral("--export-notebook"), QStringLiteral("chat.ipynb"),
                           QStringLiteral("--image"),           QStringLiteral("a.png")}
            << QStringLiteral("--export-notebook writes a file and sends no message");
        QTest::newRow("branches without conversation")
            << QStringList{QStringLiteral("--branches")} << QStringLiteral("--branches needs --conversation ID");
        QTest::newRow("branches and a prompt")
            << QStringList{QStringLiteral("--conversation"), QStringLiteral("1"), QStringLiteral("--branches"),
                           QStringLiteral("hi")}
            << QStringLiteral("--branches prints the conversation and sends no message");
        QTest::newRow("on without conversation")
            << QStringList{QStringLiteral("--on"), QStringLiteral("3"), QStringLiteral("hi")}
            << QStringLiteral("--on needs --conversation ID");
        QTest::newRow("on no number") << QStringList{QStringLiteral("--on"), QStringLiteral("x"), QStringLiteral("hi")}
                                      << QStringLiteral("--on takes the id of a message");
        QTest::newRow("notebook and a prompt")
            << QStringList{QStringLiteral("--conversation"), QStringLiteral("1"), QStringLiteral("--export-notebook"),
                           QStringLiteral("chat.ipynb"), QStringLiteral("hi")}
            << QStringLiteral("--export-notebook writes a file and sends no message");
    }

    void refusesBadArgumentsWithOneLine()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run r = run(baseArguments() + arguments);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(m_server->requests().isEmpty());
    }

    void aProviderErrorFailsWithItsMessage()
    {
        m_server->setRequiredApiKey(QStringLiteral("sk-other"));
        const Run r = run(baseArguments() << QStringLiteral("hi"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("error: The provider refused the request (HTTP 401): Incorrect API key")),
                 qPrintable(r.err));
    }

    void continuesAConversation()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("First answer.")));
        QCOMPARE(run(baseArguments() << QStringLiteral("first question")).exitCode, 0);
        m_server->enqueue(FS::openAiText(QStringLiteral("Second answer.")));
        QCOMPARE(run(baseArguments() << QStringLiteral("--conversation") << QStringLiteral("1")
                                     << QStringLiteral("second question"))
                     .exitCode,
                 0);
        const QJsonArray messages = m_server->chatRequests().at(1).json()[QLatin1String("messages")].toArray();
        QStringList contents;
        for (const QJsonValue &message : messages)
            contents << message[QLatin1String("content")].toString();
        QCOMPARE(contents.mid(1), (QStringList{QStringLiteral("first question"), QStringLiteral("First answer."),
                                               QStringLiteral("second question")}));
    }

    // --branches lists the tree; --on continues from any message, and the branch shown follows.
    void listsAndContinuesTheBranches()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("First answer.")));
        QCOMPARE(run(baseArguments() << QStringLiteral("first question")).exitCode, 0);
        const QStringList inConversation = baseArguments() << QStringLiteral("--conversation") << QStringLiteral("1");
        m_server->enqueue(FS::openAiText(QStringLiteral("Second answer.")));
        QCOMPARE(run(QStringList(inConversation) << QStringLiteral("second question")).exitCode, 0);
        auto tree = [&] {
            QList<QJsonObject> lines;
            const Run listed =
                run(QStringList(inConversation) << QStringLiteral("--branches") << QStringLiteral("--json"));
            for (const QString &line : listed.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                lines << QJsonDocument::fromJson(line.toUtf8()).object();
            return lines;
        };
        QList<QJsonObject> messages = tree();
        QCOMPARE(messages.size(), 4);
        const QString firstAnswer = QString::number(messages.at(1)[QLatin1String("id")].toInteger());
        QCOMPARE(messages.at(1)[QLatin1String("text")].toString(), QStringLiteral("First answer."));

        m_server->enqueue(FS::openAiText(QStringLiteral("Other answer.")));
        const Run on = run(QStringList(inConversation)
                           << QStringLiteral("--on") << firstAnswer << QStringLiteral("another question"));
        QCOMPARE(on.exitCode, 0);
        auto contentsOf = [](const RecordedRequest &request) {
            QStringList contents;
            for (const QJsonValue &message : request.json()[QLatin1String("messages")].toArray())
                contents << message[QLatin1String("content")].toString();
            return contents.mid(1);
        };
        QCOMPARE(contentsOf(m_server->chatRequests().at(2)),
                 (QStringList{QStringLiteral("first question"), QStringLiteral("First answer."),
                              QStringLiteral("another question")}));
        messages = tree();
        QCOMPARE(messages.size(), 6);
        QStringList shown;
        QStringList hidden;
        for (const QJsonObject &message : messages)
            (message[QLatin1String("shown")].toBool() ? shown : hidden) << message[QLatin1String("text")].toString();
        QCOMPARE(shown, (QStringList{QStringLiteral("first question"), QStringLiteral("First answer."),
                                     QStringLiteral("another question"), QStringLiteral("Other answer.")}));
        QCOMPARE(hidden, (QStringList{QStringLiteral("second question"), QStringLiteral("Second answer.")}));
        const Run text = run(QStringList(inConversation) << QStringLiteral("--branches"));
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QLatin1String("*   ") +
                                   QString::number(messages.at(4)[QLatin1String("id")].toInteger()) +
                                   QLatin1String(" user [2/2]: another question")),
                 qPrintable(text.out));

        // The conversation goes on on the branch shown.
        m_server->enqueue(FS::openAiText(QStringLiteral("Fine.")));
        QCOMPARE(run(QStringList(inConversation) << QStringLiteral("thanks")).exitCode, 0);
        QCOMPARE(contentsOf(m_server->chatRequests().at(3)).mid(2, 2),
                 (QStringList{QStringLiteral("another question"), QStringLiteral("Other answer.")}));

        const Run nowhere =
            run(QStringList(inConversation) << QStringLiteral("--on") << QStringLiteral("999") << QStringLiteral("hi"));
        QCOMPARE(nowhere.exitCode, 2);
        QVERIFY2(nowhere.err.contains(QLatin1String("conversation 1 has no message 999")), qPrintable(nowhere.err));
        QCOMPARE(m_server->chatRequests().size(), 4);
    }

    // A conversation goes on with its own provider and model, whatever the default became,
    // unless the command line names another model (which the conversation then keeps).
    void continuesAConversationWithItsOwnModel()
    {
        FakeLlmServer other;
        QVERIFY(other.listen());
        const QStringList profile{
            QStringLiteral("--profile"), m_profile->path(),
            QStringLiteral("--set"),     QStringLiteral("sandbox/enabled=false"),
            QStringLiteral("--set"),     QStringLiteral("providers/custom/base_url=") + m_server->baseUrl().toString()};
        m_server->enqueue(FS::openAiText(QStringLiteral("First answer.")));
        QCOMPARE(
            run(profile + QStringList{QStringLiteral("--provider"), QStringLiteral("custom"), QStringLiteral("--model"),
                                      QStringLiteral("first-model"), QStringLiteral("first question")})
                .exitCode,
            0);
        // The default is now llama.cpp on another server.
        const QStringList movedOn =
            profile +
            QStringList{
                QStringLiteral("--set"), QStringLiteral("provider=llamacpp"),
                QStringLiteral("--set"), QStringLiteral("providers/llamacpp/base_url=") + other.baseUrl().toString(),
                QStringLiteral("--set"), QStringLiteral("providers/llamacpp/model=other-model")};
        m_server->enqueue(FS::openAiText(QStringLiteral("Second answer.")));
        const Run second = run(movedOn + QStringList{QStringLiteral("--conversation"), QStringLiteral("1"),
                                                     QStringLiteral("second question")});
        QVERIFY2(second.exitCode == 0, qPrintable(second.err));
        QCOMPARE(m_server->chatRequests().size(), 2);
        QCOMPARE(m_server->chatRequests().constLast().json().value(QLatin1String("model")).toString(),
                 QStringLiteral("first-model"));
        QVERIFY(other.chatRequests().isEmpty());

        m_server->enqueue(FS::openAiText(QStringLiteral("Third answer.")));
        QCOMPARE(
            run(movedOn + QStringList{QStringLiteral("--conversation"), QStringLiteral("1"), QStringLiteral("--model"),
                                      QStringLiteral("better-model"), QStringLiteral("third question")})
                .exitCode,
            0);
        QCOMPARE(m_server->chatRequests().constLast().json().value(QLatin1String("model")).toString(),
                 QStringLiteral("better-model"));
        ConversationStore store(m_profile->path() + QStringLiteral("/data"));
        QVERIFY(store.open());
        QCOMPARE(store.conversation(1)->provider, QStringLiteral("custom"));
        QCOMPARE(store.conversation(1)->model, QStringLiteral("better-model"));
        QVERIFY(other.chatRequests().isEmpty());
    }

    void runsCodeEndToEnd()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_server->enqueue(FS::openAiToolCalls({{QStringLiteral("call_1"), QStringLiteral("execute_python_code"),
                                                QStringLiteral("{\"code\": \"2 + 2\"}")}},
                                              4));
        m_server->enqueue(FS::openAiText(QStringLiteral("It is 4.")));
        const Run r = run(baseArguments(true) << QStringLiteral("2+2?"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("▶ execute_python_code\n2 + 2")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("\n4\n◀ ok")));
        QVERIFY(r.out.endsWith(QLatin1String("It is 4.\n")));
    }

    // A conversation that ran code, exported from the terminal as a notebook naming the image
    // and its Python version; without the model, the key or a prompt.
    void exportsAConversationAsANotebook()
    {
        SANDPIPER_REQUIRE_DOCKER();
        m_server->enqueue(FS::openAiToolCalls({{QStringLiteral("call_1"), QStringLiteral("execute_python_code"),
                                                QStringLiteral("{\"code\": \"print('hi')\\n2 + 2\"}")}},
                                              4));
        m_server->enqueue(FS::openAiText(QStringLiteral("It is 4.")));
        QCOMPARE(run(baseArguments(true) << QStringLiteral("2+2?")).exitCode, 0);

        const QString path = m_profile->filePath(QStringLiteral("chat.ipynb"));
        const Run r =
            run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--set"),
                 QStringLiteral("sandbox/image=") + Sandpiper::Test::sandboxImage(), QStringLiteral("--conversation"),
                 QStringLiteral("1"), QStringLiteral("--export-notebook"), path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(QLatin1String("wrote ") + path + QLatin1String(": 1 code cells, 0 figures")),
                 qPrintable(r.err));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject notebook = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(notebook[QLatin1String("nbformat")].toInt(), 4);
        const QJsonObject metadata = notebook[QLatin1String("metadata")].toObject();
        QVERIFY(!metadata[QLatin1String("language_info")][QLatin1String("version")].toString().isEmpty());
        QCOMPARE(metadata[QLatin1String("sandpiper")][QLatin1String("sandbox_image")].toString(),
                 Sandpiper::Test::sandboxImage());
        QJsonObject code;
        QStringList markdown;
        for (const QJsonValue &cell : notebook[QLatin1String("cells")].toArray()) {
            QString source;
            for (const QJsonValue &line : cell[QLatin1String("source")].toArray())
                source += line.toString();
            if (cell[QLatin1String("cell_type")].toString() == QLatin1String("code"))
                code = cell.toObject();
            else
                markdown << source;
        }
        QVERIFY(markdown.contains(QStringLiteral("**You**\n\n2+2?\n")));
        QVERIFY(markdown.contains(QStringLiteral("**Assistant**\n\nIt is 4.\n")));
        QCOMPARE(code[QLatin1String("execution_count")].toInt(), 1);
        const QJsonArray outputs = code[QLatin1String("outputs")].toArray();
        QCOMPARE(outputs.size(), 2);
        QCOMPARE(outputs[0][QLatin1String("text")].toArray(), QJsonArray{QStringLiteral("hi\n")});
        QCOMPARE(outputs[1][QLatin1String("output_type")].toString(), QStringLiteral("execute_result"));

        // A file that cannot be written is said so, and nothing is left behind.
        const QString nowhere = m_profile->filePath(QStringLiteral("no-such-folder/chat.ipynb"));
        const Run failed = run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--conversation"),
                                QStringLiteral("1"), QStringLiteral("--export-notebook"), nowhere});
        QCOMPARE(failed.exitCode, 1);
        QVERIFY2(failed.err.contains(QLatin1String("Could not export the notebook to ") + nowhere),
                 qPrintable(failed.err));
        QVERIFY(!QFileInfo::exists(nowhere));
    }

    // The model's words reach the terminal without its control sequences, even split across
    // deltas; --json keeps them exactly.
    void modelTextLosesItsControlSequencesButNotInJson()
    {
        const QString answer =
            QStringLiteral("Hello \x1b]0;owned\x07world\x1b[2J\x1b[1;31m!\x1b[0m\u009b2J\x1b]52;c;cm0=\x1b\\\tend\n");
        m_server->enqueue(FS::openAiText(answer, 9));
        const Run text = run(baseArguments() << QStringLiteral("hi"));
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.out, QStringLiteral("Hello world!\tend\n"));

        m_server->enqueue(FS::openAiText(answer, 9));
        const Run json = run(baseArguments() << QStringLiteral("--json") << QStringLiteral("hi"));
        QCOMPARE(json.exitCode, 0);
        QString streamed;
        for (const QString &line : json.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
            if (event[QLatin1String("event")].toString() == QLatin1String("text_delta"))
                streamed += event[QLatin1String("text")].toString();
        }
        QCOMPARE(streamed, answer);
    }

    void sandboxOutputLosesItsControlSequences()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const QString code =
            QStringLiteral("import sys\nprint('\\x1b]0;pwned\\x07\\x1b[2Jvisible\\x1b[31m', flush=True)\n"
                           "print('\\x1b[1Aerr\\x1b]52;c;eA==\\x07', file=sys.stderr)\n"
                           "class Sly:\n    def __repr__(self):\n        return '\\x1b[?1049hvalue'\nSly()");
        const QJsonObject arguments{{QStringLiteral("code"), code}};
        auto call = [&] {
            m_server->enqueue(
                FS::openAiToolCalls({{QStringLiteral("call_1"), QStringLiteral("execute_python_code"),
                                      QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact))}},
                                    3));
            m_server->enqueue(FS::openAiText(QStringLiteral("Printed.")));
        };
        call();
        const Run text = run(baseArguments(true) << QStringLiteral("print something"));
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QLatin1String("visible\n")), qPrintable(text.out));
        QVERIFY(text.out.contains(QLatin1String("\nvalue\n")));
        QVERIFY(text.err.contains(QLatin1String("err\n")));
        QVERIFY2(!text.out.contains(QChar(0x1b)) && !text.err.contains(QChar(0x1b)) && !text.out.contains(QChar(0x07)),
                 qPrintable(text.out + text.err));

        call();
        const Run json = run(baseArguments(true) << QStringLiteral("--json") << QStringLiteral("print something"));
        QVERIFY(json.out.contains(QLatin1String("\\u001b]0;pwned\\u0007\\u001b[2Jvisible")));
    }

    // A right-to-left override in a name reorders how it reads ("invoice<U+202E>fdp.exe" shows as
    // "invoiceexe.pdf"): the terminal shows it escaped, in what the code prints and in the refusal.
    void controlsOfTextDirectionAreShownEscaped()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const QString code = QStringLiteral("name = 'invoice\\u202efdp.exe'\nopen(name, 'w').write('x')\nprint(name)");
        const QJsonObject arguments{{QStringLiteral("code"), code}};
        m_server->enqueue(FS::openAiToolCalls({{QStringLiteral("call_1"), QStringLiteral("execute_python_code"),
                                                QString::fromUtf8(QJsonDocument(arguments).toJson())}},
                                              3));
        m_server->enqueue(FS::openAiText(QStringLiteral("Written.")));
        const Run r = run(baseArguments(true) << QStringLiteral("write a file"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.out.contains(QChar(0x202e)) && !r.err.contains(QChar(0x202e)), qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QLatin1String("invoice<U+202E>fdp.exe\n")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("refused: “invoice\\u202efdp.exe”")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("control character of text direction")), qPrintable(r.err));
        QVERIFY(!r.out.contains(QLatin1String("File: ")));
    }

    // The agent's report of figures and refusals, as the terminal shows it.
    void figuresBeyondTheLimitAndRefusalsAreReportedOnce()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const QString code =
            QStringLiteral("import os\nimport matplotlib.pyplot as plt\nos.symlink('/etc/hostname', 'leak.txt')\n"
                           "for i in range(25):\n    plt.figure(figsize=(1, 1))\n    plt.plot([0, i])");
        const QJsonObject arguments{{QStringLiteral("code"), code}};
        m_server->enqueue(FS::openAiToolCalls({{QStringLiteral("call_1"), QStringLiteral("execute_python_code"),
                                                QString::fromUtf8(QJsonDocument(arguments).toJson())}},
                                              3));
        m_server->enqueue(FS::openAiText(QStringLiteral("Plotted.")));
        const Run r = run(baseArguments(true) << QStringLiteral("--set") << QStringLiteral("sandbox/max_figures=3")
                                              << QStringLiteral("plot"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.count(QLatin1String("\nFigure: ")), 3);
        QVERIFY2(r.out.contains(QLatin1String("Figures not kept (too many for one run): 22")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("refused: “leak.txt” is or goes through a symbolic link")),
                 qPrintable(r.err));
        QVERIFY(!r.out.contains(QLatin1String("File: ")));
        const QString toolText = toolMessageIn(m_server->chatRequests().at(1), QStringLiteral("call_1"));
        QVERIFY2(toolText.contains(QLatin1String("Figures shown to the user: figures/")) &&
                     toolText.contains(QLatin1String("and 22 more figures that were not kept")),
                 qPrintable(toolText));
    }

    // --attach hands the model a file: it lands in /mnt/data, the model is told what it is (from the
    // sandbox: columns and first rows), and the DataFrame the code shows comes out as "tables".
    void attachesAFileAndPrintsTables()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const QString csv = m_profile->filePath(QStringLiteral("cities.csv"));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("city,people\nOslo,700000\nRome,2800000\nLima,10000000\n");
        file.close();
        m_server->enqueue(FS::openAiToolCalls(
            {{QStringLiteral("call_1"), QStringLiteral("execute_python_code"),
              QStringLiteral("{\"code\": \"import pandas as pd\\npd.read_csv('/mnt/data/cities.csv')\"}")}}));
        m_server->enqueue(FS::openAiText(QStringLiteral("Three cities.")));
        const Run r = run(baseArguments(true) << QStringLiteral("--json") << QStringLiteral("--attach") << csv
                                              << QStringLiteral("what is in it?"));
        QCOMPARE(r.exitCode, 0);
        const QJsonArray messages = m_server->chatRequests().constFirst().json()[QLatin1String("messages")].toArray();
        const QString question = messages.last()[QLatin1String("content")].toString();
        QVERIFY2(question.contains(QLatin1String("/mnt/data/cities.csv: CSV table")), qPrintable(question));
        QVERIFY2(question.contains(QLatin1String("3 rows x 2 columns: city (object), people (int64)")),
                 qPrintable(question));
        QVERIFY(question.endsWith(QLatin1String("what is in it?")));
        QJsonObject finished;
        for (const QString &line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
            if (event[QLatin1String("event")].toString() == QLatin1String("tool_finished"))
                finished = event;
        }
        const QJsonArray tables = finished[QLatin1String("execution")][QLatin1String("tables")].toArray();
        QCOMPARE(tables.size(), 1);
        const QJsonObject table = tables.first().toObject();
        QCOMPARE(table.keys(), (QStringList{QStringLiteral("columns"), QStringLiteral("rows"),
                                            QStringLiteral("total_columns"), QStringLiteral("total_rows")}));
        QCOMPARE(table[QLatin1String("columns")].toArray(),
                 (QJsonArray{QStringLiteral("city"), QStringLiteral("people")}));
        QCOMPARE(table[QLatin1String("rows")].toArray().at(2).toArray(),
                 (QJsonArray{QStringLiteral("Lima"), 10000000}));
        QCOMPARE(table[QLatin1String("total_rows")].toInt(), 3);
        QCOMPARE(table[QLatin1String("total_columns")].toInt(), 2);
    }

    // Without the sandbox the host says what it can: name, size, type and the first lines.
    void attachesAFileWithoutTheSandbox()
    {
        const QString notes = m_profile->filePath(QStringLiteral("notes.txt"));
        QFile file(notes);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("first line\nsecond line\n");
        file.close();
        m_server->enqueue(FS::openAiText(QStringLiteral("Noted.")));
        const Run r = run(baseArguments() << QStringLiteral("--attach") << notes << QStringLiteral("read it"));
        QCOMPARE(r.exitCode, 0);
        const QString question = m_server->chatRequests()
                                     .constFirst()
                                     .json()[QLatin1String("messages")]
                                     .toArray()
                                     .last()[QLatin1String("content")]
                                     .toString();
        QVERIFY2(question.startsWith(QLatin1String("Attached files (in /mnt/data):\n- /mnt/data/notes.txt: ")),
                 qPrintable(question));
        QVERIFY2(question.contains(QLatin1String("first line")), qPrintable(question));
    }

    void refusesAttachmentsItCannotTake_data()
    {
        QTest::addColumn<bool>("huge");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing") << false << QStringLiteral("is not a file");
        QTest::newRow("5 GB, past the disk limit")
            << true << QStringLiteral("would take the conversation's files past their");
    }

    void refusesAttachmentsItCannotTake()
    {
        QFETCH(bool, huge);
        QFETCH(QString, message);
        QString path = m_profile->filePath(QStringLiteral("no-such.csv"));
        if (huge) {
            path = m_profile->filePath(QStringLiteral("huge.csv"));
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QVERIFY(file.resize(qint64(5) << 30)); // sparse: it takes no disk
        }
        const Run r = run(baseArguments() << QStringLiteral("--attach") << path << QStringLiteral("hi"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("cannot attach")) && r.err.contains(message), qPrintable(r.err));
        QVERIFY(m_server->requests().isEmpty());
    }

    // How many conversations the profile's store holds; -1 when it cannot be opened.
    int storedConversations() const
    {
        ConversationStore store(m_profile->path() + QStringLiteral("/data"));
        if (!store.open())
            return -1;
        const auto conversations = store.conversations();
        return conversations ? int(conversations->size()) : -1;
    }

    // The images of the user's last message in the first chat request, decoded, with their types.
    QList<std::pair<QString, QImage>> sentImages()
    {
        QList<std::pair<QString, QImage>> images;
        const QJsonArray messages = m_server->chatRequests().constFirst().json()[QLatin1String("messages")].toArray();
        for (const QJsonValue &part : messages.last()[QLatin1String("content")].toArray()) {
            const QString url = part[QLatin1String("image_url")][QLatin1String("url")].toString();
            const qsizetype comma = url.indexOf(QLatin1Char(','));
            if (part[QLatin1String("type")].toString() == QLatin1String("image_url") && comma > 0)
                images.append(
                    {url.left(comma), QImage::fromData(QByteArray::fromBase64(url.mid(comma + 1).toLatin1()))});
        }
        return images;
    }

    // --image goes the GUI's way: into /mnt/data, scaled to images/max_side, sent as image parts.
    void sendsImagesWithThePrompt()
    {
        const QString png = m_profile->filePath(QStringLiteral("chart.png"));
        const QString jpeg = m_profile->filePath(QStringLiteral("photo.jpg"));
        QVERIFY(Test::picture(400, 200).save(png, "PNG"));
        QVERIFY(Test::picture(60, 80).save(jpeg, "JPEG"));
        m_server->enqueue(FS::openAiText(QStringLiteral("A gradient and a photo.")));
        const Run r = run(baseArguments() << QStringLiteral("--set") << QStringLiteral("images/max_side=100")
                                          << QStringLiteral("--image") << png << QStringLiteral("--image") << jpeg
                                          << QStringLiteral("what is in them?"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QStringLiteral("A gradient and a photo.\n"));
        const auto images = sentImages();
        QCOMPARE(images.size(), 2);
        QCOMPARE(images[0].first, QStringLiteral("data:image/png;base64"));
        QCOMPARE(images[0].second.size(), QSize(100, 50));
        QCOMPARE(images[1].first, QStringLiteral("data:image/jpeg;base64"));
        QCOMPARE(images[1].second.size(), QSize(60, 80)); // small enough already
        const QJsonArray parts = m_server->chatRequests()
                                     .constFirst()
                                     .json()[QLatin1String("messages")]
                                     .toArray()
                                     .last()[QLatin1String("content")]
                                     .toArray();
        const QString text = parts[0][QLatin1String("text")].toString();
        QVERIFY2(text.contains(QLatin1String("/mnt/data/chart.png")) &&
                     text.endsWith(QLatin1String("what is in them?")),
                 qPrintable(text));
        // Stored with the message, as the GUI stores it, and in the folder for the code.
        ConversationStore store(m_profile->path() + QStringLiteral("/data"));
        QVERIFY(store.open());
        QCOMPARE(store.messages(1)->constFirst().images,
                 (QStringList{QStringLiteral("chart.png"), QStringLiteral("photo.jpg")}));
        QVERIFY(QFileInfo::exists(store.conversationFolder(1) + QStringLiteral("/chart.png")));
    }

    // llama.cpp's /props says the model has no projector: the agent's message, nothing sent,
    // nothing stored, exit code 1 as for any failed turn.
    void aModelWithoutVisionGetsNoImages()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768, false));
        const QString png = m_profile->filePath(QStringLiteral("chart.png"));
        QVERIFY(Test::picture(40, 20).save(png, "PNG"));
        const Run r = run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--provider"),
                           QStringLiteral("llamacpp"), QStringLiteral("--base-url"), m_server->baseUrl().toString(),
                           QStringLiteral("--model"), QStringLiteral("text-only"), QStringLiteral("--set"),
                           QStringLiteral("sandbox/enabled=false"), QStringLiteral("--image"), png,
                           QStringLiteral("what is this?")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("error: The model “text-only” does not take images, so the message was "
                                               "not sent.")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("--set providers/llamacpp/image_models=text-only=yes")),
                 qPrintable(r.err));
        QVERIFY(m_server->chatRequests().isEmpty());
        QCOMPARE(storedConversations(), 0);
    }

    void refusesImagesItCannotSend_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing") << QStringLiteral("missing") << QStringLiteral("could not be read");
        QTest::newRow("not an image") << QStringLiteral("text") << QStringLiteral("is not an image Sandpiper can read");
        QTest::newRow("corrupt") << QStringLiteral("corrupt") << QStringLiteral("could not be read as an image");
        QTest::newRow("100 MB") << QStringLiteral("huge") << QStringLiteral("images up to 64 MiB");
    }

    void refusesImagesItCannotSend()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        const QString path = m_profile->filePath(QStringLiteral("image.png"));
        if (kind == QLatin1String("text"))
            QVERIFY(Test::writeFile(path, "name,value\n"));
        else if (kind == QLatin1String("corrupt"))
            QVERIFY(Test::writeFile(path, Test::pngHeader(300, 300) + "no pixels here"));
        if (kind == QLatin1String("huge")) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QVERIFY(file.resize(100LL * 1024 * 1024)); // sparse: it takes no disk
        }
        const Run r = run(baseArguments() << QStringLiteral("--image") << path << QStringLiteral("hi"));
        QCOMPARE(r.exitCode, 2);
        // libpng may say its piece first, on its own; the CLI's line is the last one.
        const QString last = r.err.trimmed().section(QLatin1Char('\n'), -1);
        QVERIFY2(last.startsWith(QLatin1String("sandpiper-cli: cannot send the image ") + path) &&
                     last.contains(message),
                 qPrintable(r.err));
        QVERIFY(m_server->requests().isEmpty());
        QCOMPARE(storedConversations(), 0); // refused before a conversation was made
    }

    // kill -9 in the middle of an answer loses at most the last moment of it.
    void aKilledCliLeavesTheInterruptedAnswerInTheDatabase()
    {
        m_server->enqueue(
            FS::slowText(QStringLiteral("one two three four five six seven eight nine ten eleven twelve"), 12, 250ms));
        QProcess process;
        QSignalSpy finished(&process, &QProcess::finished);
        QSignalSpy requests(m_server.get(), &FakeLlmServer::requestReceived);
        startCli(process, baseArguments() << QStringLiteral("count slowly"));
        QVERIFY(requests.wait(20000));
        QTest::qWait(1500); // several pieces streamed and saved
        ::kill(pid_t(process.processId()), SIGKILL);
        QVERIFY(finished.wait(10000));
        QCOMPARE(process.exitStatus(), QProcess::CrashExit);

        ConversationStore store(m_profile->path() + QStringLiteral("/data"));
        QVERIFY(store.open());
        const auto messages = store.messages(1);
        QVERIFY(messages.ok());
        QCOMPARE(messages->size(), 2);
        const ChatMessage &answer = messages->at(1);
        QCOMPARE(answer.role, ChatMessage::Role::Assistant);
        QCOMPARE(answer.status, ChatMessage::Status::Interrupted);
        QVERIFY2(answer.content.startsWith(QLatin1String("one two")), qPrintable(answer.content));
        QVERIFY(answer.content.size() <
                QStringLiteral("one two three four five six seven eight nine ten eleven twelve").size());
    }

    void listsTheToolsOfTheMcpServers()
    {
        SANDPIPER_REQUIRE_MCP_SERVERS();
        const QString config = McpTestServers::writeConfig(m_profile->path(), {McpTestServers::everything()});
        const Run r = run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--mcp-config"), config,
                           QStringLiteral("--list-tools")});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.contains(QStringLiteral("everything__echo\tEchoes back the input string")));
        for (const QString &line : lines)
            QVERIFY2(line.startsWith(QLatin1String("everything__")) && line.count(QLatin1Char('\t')) == 1,
                     qPrintable(line));

        McpServerConfig missing;
        missing.name = QStringLiteral("absent");
        missing.command = QStringLiteral("sandpiper-no-such-mcp-server");
        const QString broken = McpTestServers::writeConfig(m_profile->path(), {McpTestServers::everything(), missing});
        const Run failed = run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--mcp-config"), broken,
                                QStringLiteral("--list-tools")});
        QCOMPARE(failed.exitCode, 1);
        QVERIFY(failed.out.contains(QLatin1String("everything__echo\t")));
        QVERIFY2(failed.err.contains(QLatin1String("the MCP server \"absent\" did not answer")),
                 qPrintable(failed.err));
    }

    void reportsAMalformedMcpConfig()
    {
        const QString path = m_profile->path() + QStringLiteral("/bad.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n  }\n}\n");
        file.close();
        const Run r = run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--mcp-config"), path,
                           QStringLiteral("--list-tools")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("bad.json, line 3, column")), qPrintable(r.err));
        const Run none = run({QStringLiteral("--mcp-config"), m_profile->path() + QStringLiteral("/none.json"),
                              QStringLiteral("--list-tools")});
        QCOMPARE(none.exitCode, 2);
    }

    void theModelUsesAnMcpToolFromTheTerminal()
    {
        SANDPIPER_REQUIRE_MCP_SERVERS();
        const QString config = McpTestServers::writeConfig(m_profile->path(), {McpTestServers::everything()});
        m_server->enqueue(FS::openAiToolCalls({{QStringLiteral("call_1"), QStringLiteral("everything__echo"),
                                                QStringLiteral("{\"message\": \"from the cli\"}")}}));
        m_server->enqueue(FS::openAiText(QStringLiteral("It said: Echo: from the cli")));
        const Run r =
            run(baseArguments() << QStringLiteral("--mcp-config") << config << QStringLiteral("--set")
                                << QStringLiteral("approval/everything__echo=auto") << QStringLiteral("echo it"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QLatin1String("It said: Echo: from the cli")), qPrintable(r.out + r.err));
        QCOMPARE(toolMessageIn(m_server->chatRequests().at(1), QStringLiteral("call_1")),
                 QStringLiteral("Echo: from the cli"));
    }

    // The GGUF models on this computer (issue 26): Sandpiper's own, LM Studio's, the Hugging Face
    // cache's (a link to a blob), an added folder's, and a download cut short, listed with why.
    void listsTheModelsOnThisComputer()
    {
        SANDPIPER_REQUIRE_LLAMA();
        const QTemporaryDir home;
        const QString model = LlamaServer::modelPath();
        const auto place = [&](const QString &path) {
            QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
            QVERIFY(QFile::copy(model, path));
        };
        place(m_profile->path() + QStringLiteral("/data/models/tiny.gguf"));
        place(home.path() + QStringLiteral("/.lmstudio/models/test/tiny-GGUF/tiny-f32.gguf"));
        const QString hub = home.path() + QStringLiteral("/.cache/huggingface/hub/models--test--tiny");
        place(hub + QStringLiteral("/blobs/5f2a9c"));
        QVERIFY(QDir().mkpath(hub + QStringLiteral("/snapshots/0123abcd")));
        QVERIFY(
            QFile::link(QStringLiteral("../../blobs/5f2a9c"), hub + QStringLiteral("/snapshots/0123abcd/tiny.gguf")));
        place(home.path() + QStringLiteral("/added/tiny.gguf"));
        QFile cut(home.path() + QStringLiteral("/.cache/llama.cpp/cut.gguf"));
        QVERIFY(QDir().mkpath(QFileInfo(cut).absolutePath()));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        QFile whole(model);
        QVERIFY(whole.open(QIODevice::ReadOnly));
        cut.write(whole.read(5000));
        cut.close();

        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", home.path().toUtf8());
        for (const char *variable : {"XDG_CACHE_HOME", "HF_HOME", "HF_HUB_CACHE", "LLAMA_CACHE"})
            qunsetenv(variable);
        const auto restore = qScopeGuard([&] { qputenv("HOME", oldHome); });
        const QStringList arguments{QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--set"),
                                    QStringLiteral("local/model_folders=") + home.path() + QStringLiteral("/added"),
                                    QStringLiteral("--models")};
        const Run r = run(arguments);
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        const QString facts = QStringLiteral("tiny-random-qwen2-toolcall\tF32\t117K\t32768\ttools\t475.4 kB\t");
        QCOMPARE(lines.at(0),
                 facts + QStringLiteral("Sandpiper\t") + m_profile->path() + QStringLiteral("/data/models/tiny.gguf"));
        QCOMPARE(lines.at(1), facts + QStringLiteral("LM Studio\t") + home.path() +
                                  QStringLiteral("/.lmstudio/models/test/tiny-GGUF/tiny-f32.gguf"));
        QCOMPARE(lines.at(2), QStringLiteral("cut\t?\t?\t?\t?\t5.0 kB\tllama.cpp\t") + home.path() +
                                  QStringLiteral("/.cache/llama.cpp/cut.gguf"));
        QCOMPARE(lines.at(3),
                 facts + QStringLiteral("Hugging Face\t") + hub + QStringLiteral("/snapshots/0123abcd/tiny.gguf"));
        QCOMPARE(lines.at(4),
                 facts + QStringLiteral("added folder\t") + home.path() + QStringLiteral("/added/tiny.gguf"));
        QVERIFY2(r.err.contains(QLatin1String("cut.gguf: The GGUF header is cut short or damaged: ")),
                 qPrintable(r.err));

        const Run json = run(arguments + QStringList{QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QStringList objects = json.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(objects.size(), 5);
        const QJsonObject first = QJsonDocument::fromJson(objects.first().toUtf8()).object();
        QCOMPARE(first.value(QLatin1String("trained_context")).toInteger(), 32768);
        QCOMPARE(first.value(QLatin1String("parameters")).toInteger(), 116672);
        QCOMPARE(first.value(QLatin1String("template_takes_tools")).toBool(), true);
        QCOMPARE(first.value(QLatin1String("runnable")).toBool(), true);
        const QJsonObject broken = QJsonDocument::fromJson(objects.at(2).toUtf8()).object();
        QCOMPARE(broken.value(QLatin1String("runnable")).toBool(), false);
        QVERIFY(broken.value(QLatin1String("problem")).toString().contains(QLatin1String("cut short")));
    }

    // --pull (issue 26): a model from a fake hub (HF_ENDPOINT) whose files come from a second
    // host, with a progress line, or one JSON object; Ctrl-C leaves a .part that the same command
    // goes on from; the hub's refusals and a redirect elsewhere are said in one line.
    void pullsAModelFromTheHub()
    {
        SANDPIPER_REQUIRE_LLAMA();
        FakeHub hub;
        QVERIFY(hub.listen());
        const QString repository = QStringLiteral("test/tiny-GGUF");
        hub.addRepository(repository);
        FakeHubFile q4{QStringLiteral("tiny-Q4_K_M.gguf"), LlamaServer::modelPath()};
        q4.drops = 1;
        q4.dropAfter = 100000;
        hub.addFile(repository, q4);
        hub.addFile(repository, {QStringLiteral("tiny-Q8_0.gguf"), LlamaServer::modelPath()});
        hub.addRepository(QStringLiteral("test/safetensors"));
        const QByteArray oldEndpoint = qgetenv("HF_ENDPOINT");
        const QByteArray oldToken = qgetenv("HF_TOKEN");
        qputenv("HF_ENDPOINT", hub.endpoint().toEncoded());
        qputenv("HF_TOKEN", ""); // no keychain is asked
        const auto restore = qScopeGuard([&] {
            qputenv("HF_ENDPOINT", oldEndpoint);
            qputenv("HF_TOKEN", oldToken);
        });
        const QStringList base{QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--set"),
                               QStringLiteral("local/hub_hosts=") + hub.fileHost()};
        const QString folder = m_profile->path() + QStringLiteral("/data/models/test/tiny-GGUF");

        // The first answer drops; while the CLI waits to try again, Ctrl-C.
        QProcess interrupted;
        startCli(interrupted, base + QStringList{QStringLiteral("--pull"), repository});
        QByteArray said;
        QTRY_VERIFY_WITH_TIMEOUT((said += interrupted.readAllStandardError()).contains("The connection dropped"),
                                 20000);
        ::kill(pid_t(interrupted.processId()), SIGINT);
        QVERIFY(interrupted.waitForFinished(20000));
        said += interrupted.readAllStandardError();
        QCOMPARE(interrupted.exitCode(), 130);
        const QByteArray pulling = "pulling, as no quantization was named, tiny-Q4_K_M (Q4_K_M, 475.4 kB) from "
                                   "test/tiny-GGUF into " +
                                   folder.toUtf8();
        QVERIFY2(said.contains(pulling), said.constData());
        QVERIFY2(said.contains("sandpiper-cli: stopped at 100.0 kB of 475.4 kB; the same command goes on from there"),
                 said.constData());
        QCOMPARE(QFileInfo(folder + QStringLiteral("/tiny-Q4_K_M.gguf.part")).size(), 100000);

        const Run pulled = run(base + QStringList{QStringLiteral("--pull"), repository});
        QCOMPARE(pulled.exitCode, 0);
        QCOMPARE(pulled.out, folder + QStringLiteral("/tiny-Q4_K_M.gguf\n"));
        QVERIFY2(pulled.err.contains(QLatin1String("\r100.0%  475.4 kB of 475.4 kB")), qPrintable(pulled.err));
        QVERIFY2(pulled.err.contains(QLatin1String("tiny-Q4_K_M is downloaded (475.4 kB), its SHA-256 checked.")),
                 qPrintable(pulled.err));
        QCOMPARE(hub.files().requests().last().headers.value("range"), QByteArray("bytes=100000-"));
        const Run listed = run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--models")});
        QVERIFY2(listed.out.contains(folder + QStringLiteral("/tiny-Q4_K_M.gguf")), qPrintable(listed.out));

        const Run json = run(base + QStringList{QStringLiteral("--pull"), repository + QStringLiteral(":q8_0"),
                                                QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(json.err, QString());
        const QJsonObject result = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(result.value(QLatin1String("ok")).toBool(), true);
        QCOMPARE(result.value(QLatin1String("quantization")).toString(), QStringLiteral("Q8_0"));
        QCOMPARE(result.value(QLatin1String("path")).toString(), folder + QStringLiteral("/tiny-Q8_0.gguf"));
        QCOMPARE(result.value(QLatin1String("bytes")).toInteger(), QFileInfo(LlamaServer::modelPath()).size());

        // Without the file host allowed, the redirect to it is refused.
        const QTemporaryDir otherProfile;
        const Run elsewhere = run({QStringLiteral("--profile"), otherProfile.path(), QStringLiteral("--pull"),
                                   repository + QStringLiteral(":Q8_0"), QStringLiteral("--json")});
        QCOMPARE(elsewhere.exitCode, 1);
        QCOMPARE(QJsonDocument::fromJson(elsewhere.out.toUtf8()).object().value(QLatin1String("error")).toString(),
                 QStringLiteral("The hub sent the download of tiny-Q8_0.gguf to 127.0.0.2, which is neither the hub "
                                "nor one of its file hosts; Sandpiper did not follow it."));

        const Run again = run(base + QStringList{QStringLiteral("--pull"), repository + QStringLiteral(":Q8_0")});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.err.contains(QLatin1String("tiny-Q8_0 is already here.")), qPrintable(again.err));
        QCOMPARE(again.out, folder + QStringLiteral("/tiny-Q8_0.gguf\n"));

        const Run missing = run(base + QStringList{QStringLiteral("--pull"), QStringLiteral("test/missing")});
        QCOMPARE(missing.exitCode, 1);
        QCOMPARE(missing.err, QStringLiteral("sandpiper-cli: The hub has no repository test/missing. It said: "
                                             "Repository not found\n"));
        const Run noGguf = run(base + QStringList{QStringLiteral("--pull"), QStringLiteral("test/safetensors")});
        QCOMPARE(noGguf.err, QStringLiteral("sandpiper-cli: The repository test/safetensors has no GGUF file.\n"));
        const Run noQuant = run(base + QStringList{QStringLiteral("--pull"), repository + QStringLiteral(":IQ1_S")});
        QCOMPARE(noQuant.err, QStringLiteral("sandpiper-cli: test/tiny-GGUF: it has no model quantized as IQ1_S (it "
                                             "has Q4_K_M, Q8_0)\n"));
        const Run badName = run(base + QStringList{QStringLiteral("--pull"), QStringLiteral("tiny")});
        QCOMPARE(badName.exitCode, 1);
        QVERIFY(badName.err.contains(QLatin1String("--pull takes a repository of the hub as owner/name[:QUANT]")));
    }

    // --provider local: the model on this computer, run by llama-server for the command's
    // duration (issue 26), through the app's own LocalModelHost (its settings, such as
    // local/parallel, hold here too). The tiny model calls execute_python_code, which runs in the
    // real sandbox; when the command ends, no server is left running.
    void runsAModelOnThisComputer()
    {
        SANDPIPER_REQUIRE_LLAMA();
        SANDPIPER_REQUIRE_DOCKER();
        // local/server names one program: a script that starts the sid root's server as the tests do.
        const QString launcher = m_profile->path() + QStringLiteral("/llama-server");
        const QString notWritten = LlamaServer::writeLauncher(launcher);
        QVERIFY2(notWritten.isEmpty(), qPrintable(notWritten));
        const QString models = m_profile->path() + QStringLiteral("/data/models");
        QVERIFY(QDir().mkpath(models));
        QVERIFY(QFile::copy(LlamaServer::modelPath(), models + QStringLiteral("/tiny.gguf")));

        const Run r =
            run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--set"),
                 QStringLiteral("local/server=") + launcher, QStringLiteral("--set"),
                 QStringLiteral("sandbox/image=") + sandboxImage(),
                 // Python alone: the tiny model calls whichever tool it is offered.
                 QStringLiteral("--set"), QStringLiteral("charts/enabled=false"), QStringLiteral("--set"),
                 QStringLiteral("web/enabled=false"), QStringLiteral("--set"), QStringLiteral("local/parallel=3"),
                 QStringLiteral("--approve"), QStringLiteral("auto"), QStringLiteral("--provider"),
                 QStringLiteral("local"), QStringLiteral("--model"), QStringLiteral("tiny"), QStringLiteral("--json"),
                 QStringLiteral("What is 2+2? Use Python.")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.err.contains(QLatin1String("sandpiper-cli: running tiny.gguf with llama-server (context 32768, ")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("tiny.gguf is ready (loaded in ")), qPrintable(r.err));
        bool ran = false;
        for (const QString &line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
            // The tiny model's code is 0 to 30 random characters: run when there is any, else refused.
            const QJsonObject call = event[QLatin1String("call")].toObject();
            const bool empty = QJsonDocument::fromJson(call[QLatin1String("arguments")].toString().toUtf8())
                                   .object()[QLatin1String("code")]
                                   .toString()
                                   .isEmpty();
            ran = ran || (event[QLatin1String("event")].toString() == QLatin1String("tool_finished") &&
                          call[QLatin1String("name")].toString() == QLatin1String("execute_python_code") &&
                          (empty || event[QLatin1String("execution")].isObject()));
        }
        QVERIFY2(ran, qPrintable(r.out + r.err));
        QFile log(m_profile->path() + QStringLiteral("/data/logs/llama-server.log"));
        QVERIFY2(log.open(QIODevice::ReadOnly), "the server's log is kept with the data");
        const QByteArray logged = log.readAll();
        QVERIFY(logged.contains("--jinja"));
        QVERIFY2(logged.contains(" -np 3"), logged.constData());
        // Gone with the command: no process still serves the profile's model.
        QCOMPARE(LlamaServer::processesNaming(models), QList<qint64>());
    }

    // The model's server dies with the program that started it, however that ends: sandpiper-cli
    // killed with SIGKILL (no handler runs) while its model on this computer is loaded leaves no
    // llama-server behind.
    void theServerDiesWithItsParent()
    {
        SANDPIPER_REQUIRE_LLAMA();
        QTemporaryDir profile;
        const QString launcher = profile.filePath(QStringLiteral("llama-server"));
        const QString notWritten = LlamaServer::writeLauncher(launcher);
        QVERIFY2(notWritten.isEmpty(), qPrintable(notWritten));
        const QString models = profile.filePath(QStringLiteral("data/models"));
        QVERIFY(QDir().mkpath(models));
        QVERIFY(QFile::copy(LlamaServer::modelPath(), models + QStringLiteral("/tiny.gguf")));

        QProcess cli;
        startCli(cli, {QStringLiteral("--profile"), profile.path(), QStringLiteral("--set"),
                       QStringLiteral("local/server=") + launcher, QStringLiteral("--set"),
                       QStringLiteral("sandbox/enabled=false"), QStringLiteral("--provider"), QStringLiteral("local"),
                       QStringLiteral("--model"), QStringLiteral("tiny"), QStringLiteral("Hello")});
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += cli.readAllStandardError()).contains(" is ready (loaded in "), 60000);
        // The server: the process whose command line names the profile's model.
        const QList<qint64> servers = LlamaServer::processesNaming(models);
        QVERIFY2(servers.size() == 1, err.constData());
        const qint64 server = servers.constFirst();
        // A server that outlived its parent does not outlive the test (checked to be it still).
        const auto orphan = qScopeGuard([server, models] {
            if (LlamaServer::processesNaming(models).contains(server))
                ::kill(pid_t(server), SIGKILL);
        });
        ::kill(pid_t(cli.processId()), SIGKILL);
        QVERIFY(cli.waitForFinished(10000));
        // Gone (or a zombie that its new parent has not reaped yet) within a few seconds.
        const auto alive = [server] {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(server));
            if (!stat.open(QIODevice::ReadOnly))
                return false;
            const QByteArray text = stat.readAll();
            return !text.mid(text.lastIndexOf(')') + 2).startsWith('Z');
        };
        QTRY_VERIFY_WITH_TIMEOUT(!alive(), 5000);
    }

    // The engine's chores from the terminal, as the settings' Sandbox tab has them.
    void checksTheEngine()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const QStringList profile{QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--set"),
                                  QStringLiteral("sandbox/image=") + sandboxImage()};
        const Run r = run(profile + QStringList{QStringLiteral("--check-engine")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QLatin1String("; a trivial execution in a fresh sandbox takes ")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QLatin1String("sandpiper-cli: Checking ")), qPrintable(r.err));

        const Run listed = run(profile + QStringList{QStringLiteral("--list-engines")});
        QCOMPARE(listed.exitCode, 0);
        QVERIFY2(listed.out.startsWith(QLatin1String("default\t")) || listed.out.contains(QLatin1String("\ndefault\t")),
                 qPrintable(listed.out));
    }

    void anEngineThatDoesNotAnswerFailsTheCheck()
    {
        const Run r =
            run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--set"),
                 QStringLiteral("sandbox/engine=") + silentEngineAddress(), QStringLiteral("--check-engine")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QLatin1String(": does not answer (")), qPrintable(r.out));
    }

    // A remote engine is sent the image when this machine has it; otherwise it builds it, here
    // in vain: nothing listens there.
    void buildsTheImageOnTheEngine()
    {
        const Run r = run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--set"),
                           QStringLiteral("sandbox/engine=") + silentEngineAddress(), QStringLiteral("--set"),
                           QStringLiteral("sandbox/image=sandpiper-test-cli:absent"), QStringLiteral("--build-image")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("sandpiper-cli: Sending sandpiper-test-cli:absent from this machine")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("\nNot sent: ")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("sandpiper-cli: The build failed: ")), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void removesTheContainersLeftBehind()
    {
        SANDPIPER_REQUIRE_DOCKER();
        const QString left = startOwnedContainer(deadPid);
        QVERIFY(!left.isEmpty());
        const Run r = run({QStringLiteral("--profile"), m_profile->path(), QStringLiteral("--remove-leftovers")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QLatin1String("leftover sandbox containers removed: ")), qPrintable(r.out));
        QVERIFY(!containerExists(left));
    }

    // --probe prints the report card of the chosen model, as text or JSON, and keeps it; the
    // switch it calls for (calls written as text) is set for the provider.
    void probesTheModel_data()
    {
        QTest::addColumn<bool>("json");
        QTest::newRow("card") << false;
        QTest::newRow("json") << true;
    }
    void probesTheModel()
    {
        QFETCH(bool, json);
        const QString call =
            QStringLiteral("<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>");
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello there!")));
        m_server->enqueue(FS::openAiText(call));
        m_server->enqueue(FS::openAiText(call));
        m_server->enqueue(FS::openAiText(QStringLiteral("It is 14:05.")));
        QStringList arguments = baseArguments()
                                << QStringLiteral("--set") << QStringLiteral("providers/custom/text_tool_calls=false")
                                << QStringLiteral("--probe");
        if (json)
            arguments << QStringLiteral("--json");
        const Run r = run(arguments);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QCOMPARE(m_server->chatRequests().size(), 4);
        QVERIFY(r.err.contains(QLatin1String("probe 2/6: One tool call")));
        if (json) {
            const auto report = ModelReport::fromJson(QJsonDocument::fromJson(r.out.toUtf8()).object());
            QVERIFY2(report, qPrintable(r.out));
            QCOMPARE(report->calls, ModelReport::Calls::Text);
            QCOMPARE(report->dialect, QStringLiteral("Hermes"));
            QCOMPARE(report->model, QStringLiteral("fake-model"));
            QVERIFY(report->tokensSent > 0);
        } else {
            QVERIFY2(r.out.contains(QLatin1String("Tool calls:           written as text in the Hermes dialect")),
                     qPrintable(r.out));
            QVERIFY2(r.out.contains(QLatin1String("Probe cost:")), qPrintable(r.out));
            // --set lasts for the run: the switch is written to the file, said as set.
            QVERIFY2(r.out.contains(QLatin1String("text_tool_calls = true (set)")), qPrintable(r.out));
        }
        Settings settings(m_profile->path());
        const auto kept = ModelReports::find(settings, QStringLiteral("custom"), m_server->baseUrl().toString(),
                                             QStringLiteral("fake-model"));
        QVERIFY(kept);
        QCOMPARE(kept->calls, ModelReport::Calls::Text);
        QCOMPARE(settings.string(QStringLiteral("providers/custom/text_tool_calls")), QStringLiteral("true"));
    }

    void aProbeWithoutAnAnswerFails()
    {
        m_server->enqueue(FS::httpError(401, QStringLiteral("Incorrect API key provided.")));
        const Run r = run(baseArguments() << QStringLiteral("--probe"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QLatin1String("Incorrect API key")), qPrintable(r.out));
        QCOMPARE(m_server->chatRequests().size(), 1);
        QVERIFY(run(baseArguments() << QStringLiteral("--probe") << QStringLiteral("hi"))
                    .err.contains(QLatin1String("--probe sends its own requests")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
