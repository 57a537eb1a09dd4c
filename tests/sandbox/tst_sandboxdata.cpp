// Data work through the real sandbox: tables as data, progress output, saving a whole frame,
// what attached files are, and packages installed on demand (with and without the network).
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "settingsoverrides.h"

#include <agent/agentthread.h>
#include <sandbox/sandboxsession.h>
#include <session/agentsettings.h>
#include <session/conversationsession.h>
#include <session/messagemodel.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QCoroTask>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper;

namespace {

// A wheel built inside the sandbox and a package index for it on the container's own loopback:
// pip's network path, with no traffic leaving the container.
const QString localIndexCode = QStringLiteral(R"(
import base64, hashlib, http.server, os, tempfile, threading, zipfile
root = tempfile.mkdtemp()
project = os.path.join(root, 'simple', 'sandpiper-demo')
os.makedirs(project)
files = {'sandpiper_demo/__init__.py': 'VALUE = 42\n',
         'sandpiper_demo-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: sandpiper-demo\nVersion: 1.0\n',
         'sandpiper_demo-1.0.dist-info/WHEEL': 'Wheel-Version: 1.0\nGenerator: t\nRoot-Is-Purelib: true\nTag: py3-none-any\n'}
record = ['%s,sha256=%s,%d' % (p, base64.urlsafe_b64encode(hashlib.sha256(t.encode()).digest()).rstrip(b'=').decode(),
          len(t)) for p, t in files.items()] + ['sandpiper_demo-1.0.dist-info/RECORD,,']
wheel = os.path.join(project, 'sandpiper_demo-1.0-py3-none-any.whl')
with zipfile.ZipFile(wheel, 'w') as z:
    for p, t in files.items():
        z.writestr(p, t)
    z.writestr('sandpiper_demo-1.0.dist-info/RECORD', '\n'.join(record) + '\n')
open(os.path.join(project, 'index.html'), 'w').write('<a href="%s">w</a>' % os.path.basename(wheel))
handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=root, **k)
server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
index = 'http://127.0.0.1:%d/simple/' % server.server_address[1]
)");

} // namespace

class TestSandboxData : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<SandboxSession> m_session;

    SandboxConfig config(const QString &name, bool network = false) const
    {
        SandboxConfig config;
        config.image = Test::sandboxImage();
        config.conversationId = name;
        config.dataDirectory = m_dir.filePath(name);
        config.executionTimeout = 60s;
        config.network = network;
        return config;
    }

    SandboxSession &session()
    {
        if (!m_session)
            m_session = std::make_unique<SandboxSession>(config(QStringLiteral("data")));
        return *m_session;
    }

    static ExecutionResult ok(QCoro::Task<ExecutionResult> task)
    {
        ExecutionResult result = QCoro::waitFor(std::move(task));
        if (result.status != ExecutionResult::Status::Ok)
            qWarning().noquote() << ExecutionResult::statusName(result.status) << result.errorMessage
                                 << result.traceback << result.standardError.left(2000);
        return result;
    }

private Q_SLOTS:
    void init() { SANDPIPER_REQUIRE_DOCKER(); }
    void cleanupTestCase() { m_session.reset(); }

    void aDataFrameTravelsAsATable()
    {
        const auto r =
            ok(session().execute(QStringLiteral("import pandas as pd\n"
                                                "frame = pd.DataFrame({'n': range(500), 'name': ['x'] * 500})\n"
                                                "frame")));
        QCOMPARE(r.status, ExecutionResult::Status::Ok);
        QCOMPARE(r.tables.size(), 1);
        const DataTable &table = r.tables.constFirst();
        QCOMPARE(table.columns, (QStringList{QStringLiteral("n"), QStringLiteral("name")}));
        QCOMPARE(table.dtypes, (QStringList{QStringLiteral("int64"), QStringLiteral("object")}));
        QCOMPARE(table.rows.size(), 200);
        QCOMPARE(table.totalRows, 500);
        QCOMPARE(table.totalColumns, 2);
        QCOMPARE(table.cellText(199, 0), QStringLiteral("199"));
        QVERIFY(table.exportable);
        QVERIFY2(r.value.contains(QLatin1String("[500 rows x 2 columns]")), qPrintable(r.value)); // the model's text
    }

    void aWholeFrameIsSavedAsCsvAndExcel()
    {
        const auto shown = ok(session().execute(QStringLiteral("import pandas as pd\n"
                                                               "pd.DataFrame({'x': range(3000)})")));
        QCOMPARE(shown.tables.size(), 1);
        const QString tableId = shown.tables.constFirst().tableId;
        const auto csv = ok(session().exportTable(tableId, QStringLiteral("csv"), QStringLiteral("all.csv")));
        QCOMPARE(csv.files, QStringList{QStringLiteral("all.csv")});
        QFile file(QDir(session().config().dataDirectory).filePath(QStringLiteral("all.csv")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count('\n'), 3001); // the header and every row, not the 200 shown
        const auto excel = ok(session().exportTable(tableId, QStringLiteral("xlsx"), QStringLiteral("all.xlsx")));
        QCOMPARE(excel.files, QStringList{QStringLiteral("all.xlsx")});
        const auto gone = QCoro::waitFor(
            session().exportTable(QStringLiteral("t-gone-1"), QStringLiteral("csv"), QStringLiteral("gone.csv")));
        QCOMPARE(gone.status, ExecutionResult::Status::Error);
        QVERIFY2(gone.errorMessage.contains(QLatin1String("no longer in the kernel")), qPrintable(gone.errorMessage));
    }

    // 100 000 carriage-return updates are one line, and the run does not slow down for them.
    void progressOutputUpdatesItsLineInPlace()
    {
        const auto r = ok(session().execute(QStringLiteral("import sys\n"
                                                           "for i in range(100000):\n"
                                                           "    sys.stderr.write('\\r%d' % i)\n"
                                                           "sys.stderr.write('\\ndone\\n')")));
        QCOMPARE(r.standardError, QStringLiteral("99999\ndone\n"));
        const auto bar = ok(session().execute(
            QStringLiteral("from tqdm import tqdm\nfor _ in tqdm(range(3000), mininterval=0, ascii=True): pass")));
        QVERIFY2(!bar.standardError.contains(QLatin1Char('\r')), qPrintable(bar.standardError.left(300)));
        QVERIFY2(bar.standardError.contains(QLatin1String("3000/3000")), qPrintable(bar.standardError.left(300)));
        QCOMPARE(bar.standardError.count(QLatin1Char('\n')), 1);
    }

    void displayShowsMarkdownAndTablesInOrder()
    {
        const auto r = ok(session().execute(QStringLiteral("from IPython.display import display, Markdown\n"
                                                           "import pandas as pd\n"
                                                           "display(Markdown('**Summary**'))\n"
                                                           "display(pd.Series([1, 2], name='n'))\n"
                                                           "print('done')")));
        QCOMPARE(r.markdown, QStringList{QStringLiteral("**Summary**")});
        QCOMPARE(r.tables.size(), 1);
        QCOMPARE(r.tables.constFirst().kind, QStringLiteral("Series"));
        QCOMPARE(r.standardOutput, QStringLiteral("done\n"));
    }

    void attachedFilesAreDescribed()
    {
        QDir().mkpath(session().config().dataDirectory);
        QFile csv(QDir(session().config().dataDirectory).filePath(QStringLiteral("sales.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("month,revenue\nJan,10.5\nFeb,12.25\n");
        csv.close();
        QFile broken(QDir(session().config().dataDirectory).filePath(QStringLiteral("broken.xlsx")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("not a workbook");
        broken.close();
        const auto r = ok(session().describeFiles({QStringLiteral("sales.csv"), QStringLiteral("broken.xlsx")}));
        QVERIFY2(r.value.contains(QLatin1String("/mnt/data/sales.csv: CSV table")), qPrintable(r.value));
        QVERIFY2(r.value.contains(QLatin1String("2 rows x 2 columns: month (object), revenue (float64)")),
                 qPrintable(r.value));
        QVERIFY2(r.value.contains(QLatin1String("broken.xlsx: Excel workbook")) &&
                     r.value.contains(QLatin1String("could not be read")),
                 qPrintable(r.value));
    }

    // From the chat: the model shows a frame, the user saves it, the sandbox writes all of it, and the
    // table is stored with its execution for when the conversation is opened again.
    void aTableShownInAConversationIsSavedWhole()
    {
        qputenv("SANDPIPER_API_KEY", "sk-test");
        Test::FakeLlmServer server;
        QVERIFY(server.listen());
        server.enqueue(Test::FakeStreams::openAiToolCalls(
            {{QStringLiteral("call_frame"), QStringLiteral("execute_python_code"),
              QStringLiteral("{\"code\": \"import pandas as pd\\npd.DataFrame({'x': range(1000)})\"}")}}));
        server.enqueue(Test::FakeStreams::openAiText(QStringLiteral("A thousand rows.")));
        Settings settings(m_dir.filePath(QStringLiteral("profile")));
        const QString refused =
            Test::applySettings(settings, server.providerSettings(QStringLiteral("fake"))
                                              << QStringLiteral("approval/execute_python_code=auto")
                                              << QStringLiteral("sandbox/image=") + Test::sandboxImage()
                                              << QStringLiteral("web/enabled=false"));
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
        ConversationStore store(settings.dataDirectory());
        QVERIFY(store.open());
        const auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("fake"));
        AgentConfig agent = AgentSettings::read(settings);
        agent.sandbox = settings.sandbox(QStringLiteral("chat"), store.conversationFolder(conversation->id));
        {
            ConversationSession session(conversation->id, &store, agent);
            QVERIFY(session.load());
            QSignalSpy finished(&session, &ConversationSession::turnFinished);
            session.send(QStringLiteral("show me the frame"));
            QVERIFY(finished.wait(120000));
            QSignalSpy exported(&session, &ConversationSession::tableExported);
            CallKey frame;
            for (int row = 0; row < session.messages()->rowCount(); ++row) {
                if (session.messages()->item(row).call.id == QLatin1String("call_frame"))
                    frame = session.messages()->item(row).callKey;
            }
            QVERIFY(frame.isValid());
            session.exportTable(frame, 0, QStringLiteral("csv"));
            QVERIFY(exported.wait(60000));
            QCOMPARE(exported.first().at(3).toString(), QString());
            const QString fileName = exported.first().at(2).toString();
            QCOMPARE(fileName, QStringLiteral("table-1.csv"));
            QFile file(QDir(session.folder()).filePath(fileName));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll().count('\n'), 1001);
            // Saved again, it keeps the first file and takes the next name.
            session.exportTable(frame, 0, QStringLiteral("csv"));
            QVERIFY(exported.wait(60000));
            QCOMPARE(exported.last().at(2).toString(), QStringLiteral("table-1 (2).csv"));
            QVERIFY(QFileInfo::exists(QDir(session.folder()).filePath(QStringLiteral("table-1 (2).csv"))));
            session.exportTable(frame, 5, QStringLiteral("csv"));
            QCOMPARE(exported.size(), 3); // at once: there is no such table to ask the sandbox for
            QVERIFY(!exported.last().at(3).toString().isEmpty());
        }
        QVERIFY(AgentThread::waitForRetiredThreads(20s));
        const auto executions = store.executions(conversation->id);
        QVERIFY(executions.ok());
        QCOMPARE(executions->constFirst().result.tables.size(), 1);
        QCOMPARE(executions->constFirst().result.tables.constFirst().totalRows, 1000);
    }

    // Without the network, every way of calling pip says how to allow it, and says it quickly.
    void pipWithoutTheNetworkSaysHowToAllowIt()
    {
        const auto magic = ok(session().execute(QStringLiteral("%pip install requests-toolbelt")));
        QVERIFY2(magic.standardError.contains(QLatin1String("Network in sandbox")), qPrintable(magic.standardError));
        QVERIFY(magic.durationMs < 3000);
        const auto child = ok(session().execute(QStringLiteral(
            "import subprocess, sys\n"
            "subprocess.run([sys.executable, '-m', 'pip', 'install', 'requests-toolbelt']).returncode")));
        QCOMPARE(child.value, QStringLiteral("1"));
        QCOMPARE(child.notes.size(), 1);
        QVERIFY2(child.notes.constFirst().contains(QLatin1String("Network in sandbox")),
                 qPrintable(child.notes.join(QLatin1Char(' '))));
        QVERIFY2(child.durationMs < 20000, qPrintable(QString::number(child.durationMs)));
    }

    // With the network on, %pip installs into the conversation's own folder, the running kernel
    // imports it at once, and a new kernel (after an idle stop) still has it.
    void pipInstallsIntoTheConversationAndSurvivesAStop()
    {
        SandboxSession online(config(QStringLiteral("online"), true));
        QCOMPARE(ok(online.execute(localIndexCode)).status, ExecutionResult::Status::Ok);
        // Variables expand in %pip lines as in IPython.
        const auto installed = ok(online.execute(QStringLiteral("%pip install --index-url {index} sandpiper-demo\n"
                                                                "import sandpiper_demo\n"
                                                                "sandpiper_demo.VALUE")));
        QCOMPARE(installed.value, QStringLiteral("42"));
        QVERIFY2(installed.standardOutput.contains(QLatin1String("Successfully installed sandpiper-demo-1.0")),
                 qPrintable(installed.standardOutput));
        QVERIFY(installed.files.isEmpty()); // packages are not the user's files
        QVERIFY(QDir(online.config().dataDirectory + QStringLiteral("/.sandpiper/python")).exists());
        online.stop();
        QTRY_COMPARE_WITH_TIMEOUT(online.state(), SandboxSession::State::Stopped, 10000);
        const auto again = ok(online.execute(QStringLiteral("import sandpiper_demo\nsandpiper_demo.VALUE")));
        QCOMPARE(again.value, QStringLiteral("42"));
        const auto missing = ok(online.execute(QStringLiteral("%pip install no-such-package-xyz")));
        QVERIFY2(QString(missing.standardOutput + missing.standardError)
                     .contains(QLatin1String("No matching distribution found for no-such-package-xyz")),
                 qPrintable(missing.standardError));
        QVERIFY(missing.notes.isEmpty()); // the network is on: pip's own words say it all
    }
};

QTEST_GUILESS_MAIN(TestSandboxData)
#include "tst_sandboxdata.moc"
