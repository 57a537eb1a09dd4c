// Notebooks of real executions (issue 17): code run in the real sandbox, stored in a real store,
// exported, and checked inside the sandbox image by nbformat's own validator, with every embedded
// figure opened by Pillow.
#include "dockertest.h"
#include "sandboxfiles.h"

#include <sandbox/dockercli.h>
#include <sandbox/imagemanager.h>
#include <sandbox/sandboxsession.h>
#include <storage/conversationstore.h>
#include <storage/notebookexport.h>

#include <QCoroTask>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Sandpiper;

namespace {

// Reads /nb/NAME with nbformat, validates it and opens each PNG; prints what it found as JSON.
const char *const validator = R"(
import base64, io, json, sys
import nbformat
from PIL import Image
nb = nbformat.read('/nb/' + sys.argv[1], as_version=4)
nbformat.validate(nb)
pngs = 0
attachments = 0
outputs = []
for cell in nb.cells:
    for output in cell.get('outputs', []):
        png = output.get('data', {}).get('image/png')
        if png:
            Image.open(io.BytesIO(base64.b64decode(png))).verify()
            pngs += 1
    for name, bundle in cell.get('attachments', {}).items():
        assert 'attachment:' + name in ''.join(cell.source), name
        for data in bundle.values():
            Image.open(io.BytesIO(base64.b64decode(data))).verify()
            attachments += 1
    if cell.cell_type == 'code':
        outputs.append([o.output_type + ':' + '+'.join(sorted(o.get('data', {}))) for o in cell.outputs])
print(json.dumps({'cells': len(nb.cells), 'pngs': pngs, 'attachments': attachments, 'outputs': outputs,
                  'python': nb.metadata.language_info.get('version', ''), 'running': '%d.%d.%d' % sys.version_info[:3]}))
)";

} // namespace

class TestNotebookValidation : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // Runs the validator on NAME in m_dir's "out" folder inside the image, as the sandbox runs code.
    DockerCli::Result validate(const QString &name)
    {
        return QCoro::waitFor(DockerCli::run(
            {QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--network"), QStringLiteral("none"),
             QStringLiteral("--read-only"), QStringLiteral("--cap-drop"), QStringLiteral("ALL"),
             QStringLiteral("--user"), QStringLiteral("65534:65534"), QStringLiteral("-v"),
             QDir(m_dir.filePath(QStringLiteral("out"))).absolutePath() + QStringLiteral(":/nb:ro"),
             Test::sandboxImage(), QStringLiteral("python3"), QStringLiteral("-c"), QString::fromUtf8(validator), name},
            {}, 60s));
    }

private Q_SLOTS:
    void initTestCase() { SANDPIPER_REQUIRE_DOCKER(); }

    void aNotebookOfRealExecutionsPassesNbformatsValidator()
    {
        ConversationStore store(m_dir.filePath(QStringLiteral("data")));
        QVERIFY(store.open().ok());
        auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("fake-model"));
        QVERIFY(conversation.ok());
        const qint64 id = conversation->id;

        SandboxConfig config;
        config.image = Test::sandboxImage();
        config.conversationId = QStringLiteral("notebook");
        config.dataDirectory = store.conversationFolder(id);
        config.executionTimeout = 60s;
        QVERIFY(QDir().mkpath(config.dataDirectory));
        SandboxSession sandbox(config);
        const QStringList cells{
            QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1, 4, 9])\nplt.title('squares')\nplt.show()"),
            QStringLiteral("import pandas as pd\ndf = pd.DataFrame({'city': ['Bern', 'Zürich'], 'people': [134, "
                           "421]}).set_index('city')\ndf"),
            QStringLiteral("import sys\nprint('hello')\nprint('careful', file=sys.stderr)\n41 + 1"),
            QStringLiteral("from IPython.display import Markdown, display\ndisplay(Markdown('**done** $x^2$'))"),
            QStringLiteral("plt.plot([3, 2, 1])\nplt.show()"),
            QStringLiteral("1 / 0"),
        };
        QStringList figures;
        ChatMessage question;
        question.content = QStringLiteral("Plot the squares, please, like in my sketch.");
        // The user's image, as the composer stores it: a file of the folder.
        QVERIFY(Test::writeFile(config.dataDirectory + QStringLiteral("/my sketch.png"), Test::pngImage(30, 20)));
        question.images = {QStringLiteral("my sketch.png")};
        QVERIFY(store.appendMessage(id, question).ok());
        for (int i = 0; i < cells.size(); ++i) {
            StoredExecution execution;
            execution.conversationId = id;
            execution.toolCallId = QStringLiteral("call_%1").arg(i);
            execution.code = cells[i];
            execution.result = QCoro::waitFor(sandbox.execute(cells[i]));
            QVERIFY2(execution.result.status == (i == 5 ? ExecutionResult::Status::Error : ExecutionResult::Status::Ok),
                     qPrintable(execution.result.errorMessage + execution.result.traceback));
            figures << execution.result.figures;
            ChatMessage call;
            call.role = ChatMessage::Role::Assistant;
            call.content = i == 0 ? QStringLiteral("Here is the plot: $y = x^2$.") : QString();
            call.toolCalls = {
                {execution.toolCallId, QStringLiteral("execute_python_code"),
                 QString::fromUtf8(
                     QJsonDocument(QJsonObject{{QStringLiteral("code"), cells[i]}}).toJson(QJsonDocument::Compact))}};
            const auto asked = store.appendMessage(id, call);
            QVERIFY(asked.ok());
            execution.call = {asked->id, 0};
            ChatMessage answer;
            answer.role = ChatMessage::Role::Tool;
            answer.toolCallId = execution.toolCallId;
            answer.toolName = QStringLiteral("execute_python_code");
            answer.content = QStringLiteral("ok");
            QVERIFY(store.appendMessage(id, answer).ok());
            QVERIFY(store.addExecution(execution).ok());
        }
        sandbox.stop();
        QCOMPARE(figures.size(), 2);
        // The second figure was deleted since: the notebook names it instead.
        QVERIFY(QFile::remove(store.conversationFolder(id) + QLatin1Char('/') + figures[1]));

        const QString version = QCoro::waitFor(ImageManager::pythonVersion(Test::sandboxImage()));
        QVERIFY2(!version.isEmpty(), "the image did not tell its Python version");
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("out"))));
        const auto snapshot = store.loadConversation(id);
        QVERIFY(snapshot.ok());
        const auto written =
            NotebookExport::write(*snapshot, store.conversationFolder(id),
                                  m_dir.filePath(QStringLiteral("out/chat.ipynb")), {Test::sandboxImage(), version});
        QVERIFY(written.ok());
        QCOMPARE(written->codeCells, 6);
        QCOMPARE(written->figures, 1);
        QCOMPARE(written->missingFigures, 1);

        const DockerCli::Result checked = validate(QStringLiteral("chat.ipynb"));
        QVERIFY2(checked.ok(), checked.standardError.constData());
        const QJsonObject found = QJsonDocument::fromJson(checked.standardOutput).object();
        QCOMPARE(found[QLatin1String("pngs")].toInt(), 1);
        QCOMPARE(found[QLatin1String("attachments")].toInt(), 1);
        QCOMPARE(written->images, 1);
        // The DataFrame as the cell's value is one result with its table and its text.
        const QJsonArray outputs = found[QLatin1String("outputs")].toArray();
        QCOMPARE(outputs.size(), 6);
        QCOMPARE(outputs[1].toArray(), QJsonArray{QStringLiteral("execute_result:text/html+text/plain")});
        QCOMPARE(outputs[2].toArray(), (QJsonArray{QStringLiteral("stream:"), QStringLiteral("stream:"),
                                                   QStringLiteral("execute_result:text/plain")}));
        QCOMPARE(found[QLatin1String("cells")].toInt(), 1 + 1 + 1 + 6); // title, question, answer, code
        QCOMPARE(found[QLatin1String("python")].toString(), version);
        QCOMPARE(found[QLatin1String("running")].toString(), version);

        // Tests never write into the source tree: SANDPIPER_SCREENSHOT_DIR=docs/screenshots keeps
        // this notebook and what the validator said of it for the documentation.
        if (const QString shots = qEnvironmentVariable("SANDPIPER_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QVERIFY(QDir().mkpath(shots));
            QFile::remove(shots + QStringLiteral("/notebook-export.ipynb"));
            QVERIFY(QFile::copy(m_dir.filePath(QStringLiteral("out/chat.ipynb")),
                                shots + QStringLiteral("/notebook-export.ipynb")));
            QFile report(shots + QStringLiteral("/notebook-export-validated.txt"));
            QVERIFY(report.open(QIODevice::WriteOnly));
            report.write("nbformat.validate(nbformat.read('notebook-export.ipynb', as_version=4)) in " +
                         Test::sandboxImage().toUtf8() + ": no error; found " + checked.standardOutput);
        }
    }

    // The check can fail: a code cell without its outputs is refused by the same validator.
    void theValidatorRefusesABrokenNotebook()
    {
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("out"))));
        ConversationSnapshot snapshot;
        StoredExecution execution;
        execution.code = QStringLiteral("1");
        // A run of the user's: the export keeps it without a call of the model to hang it on.
        execution.origin = StoredExecution::Origin::User;
        execution.result.status = ExecutionResult::Status::Ok;
        snapshot.executions = {execution};
        QJsonObject notebook = NotebookExport::toJson(snapshot, m_dir.path(), {});
        QJsonArray cells = notebook[QLatin1String("cells")].toArray();
        QJsonObject code = cells.last().toObject();
        code.remove(QLatin1String("outputs"));
        cells.replace(cells.size() - 1, code);
        notebook[QLatin1String("cells")] = cells;
        QFile file(m_dir.filePath(QStringLiteral("out/broken.ipynb")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(notebook).toJson());
        file.close();
        const DockerCli::Result checked = validate(QStringLiteral("broken.ipynb"));
        QVERIFY(checked.started);
        QVERIFY(checked.exitCode != 0);
        QVERIFY2(checked.standardError.contains("ValidationError"), checked.standardError.constData());
    }
};

QTEST_GUILESS_MAIN(TestNotebookValidation)
#include "tst_notebookvalidation.moc"
