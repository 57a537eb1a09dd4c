// A conversation as a Jupyter notebook (issue 17): cells, outputs and counts from a real store
// and a real conversation folder. tests/sandbox/tst_notebookvalidation runs nbformat's validator
// on notebooks of real executions.
#include "sandboxfiles.h"

#include <storage/conversationstore.h>
#include <storage/notebookexport.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;

namespace {

QString joined(const QJsonValue &multiline)
{
    if (multiline.isString())
        return multiline.toString();
    QString text;
    for (const QJsonValue &line : multiline.toArray())
        text += line.toString();
    return text;
}

ChatMessage message(ChatMessage::Role role, const QString &content, const QList<ToolCall> &calls = {})
{
    ChatMessage m;
    m.role = role;
    m.content = content;
    m.toolCalls = calls;
    return m;
}

ChatMessage toolAnswer(const QString &callId, const QString &content)
{
    ChatMessage m = message(ChatMessage::Role::Tool, content);
    m.toolCallId = callId;
    m.toolName = QStringLiteral("execute_python_code");
    return m;
}

ToolCall pythonCall(const QString &id, const QString &code)
{
    return {id, QStringLiteral("execute_python_code"),
            QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("code"), code}}).toJson())};
}

StoredExecution execution(qint64 conversationId, const QString &callId, const QString &code)
{
    StoredExecution e;
    e.conversationId = conversationId;
    e.toolCallId = callId;
    e.code = code;
    e.origin = callId.isEmpty() ? RunOrigin::User : RunOrigin::Model;
    e.result.status = ExecutionResult::Status::Ok;
    e.result.durationMs = 7;
    return e;
}

QList<QJsonObject> codeCells(const QJsonObject &notebook)
{
    QList<QJsonObject> cells;
    for (const QJsonValue &cell : notebook[QLatin1String("cells")].toArray()) {
        if (cell[QLatin1String("cell_type")].toString() == QLatin1String("code"))
            cells << cell.toObject();
    }
    return cells;
}

QStringList outputTypes(const QJsonObject &cell)
{
    QStringList types;
    for (const QJsonValue &output : cell[QLatin1String("outputs")].toArray()) {
        QString type = output[QLatin1String("output_type")].toString();
        if (type == QLatin1String("stream"))
            type += QLatin1Char(':') + output[QLatin1String("name")].toString();
        else if (type == QLatin1String("display_data"))
            type += QLatin1Char(':') + output[QLatin1String("data")].toObject().keys().join(QLatin1Char('+'));
        types << type;
    }
    return types;
}

} // namespace

class TestNotebookExport : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ConversationStore> m_store;
    const QByteArray m_png = Test::pngHeader(640, 480) + "pixels";

    qint64 newConversation()
    {
        auto conversation = m_store->createConversation(QStringLiteral("ollama"), QStringLiteral("qwen3"));
        return conversation ? conversation->id : 0;
    }

    QJsonObject exportNotebook(qint64 id, NotebookExport::Summary *summary = nullptr)
    {
        const auto snapshot = m_store->loadConversation(id);
        if (!snapshot)
            return {};
        return NotebookExport::toJson(*snapshot, m_store->conversationFolder(id),
                                      {QStringLiteral("sandpiper-sandbox:abc"), QStringLiteral("3.13.5")}, summary);
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_store = std::make_unique<ConversationStore>(m_dir->path());
        QVERIFY(m_store->open().ok());
    }

    void cleanup()
    {
        m_store.reset();
        m_dir.reset();
    }

    void messagesAreMarkdownAndExecutionsCodeCellsWithTheirOutputs()
    {
        const qint64 id = newConversation();
        QVERIFY(id);
        QVERIFY(m_store->appendMessage(id, message(ChatMessage::Role::User, QStringLiteral("What is 2+2?"))).ok());
        const auto check =
            m_store->appendMessage(id, message(ChatMessage::Role::Assistant, QStringLiteral("Let me check."),
                                               {pythonCall(QStringLiteral("c1"), QStringLiteral("2 + 2"))}));
        QVERIFY(check.ok());
        QVERIFY(m_store->appendMessage(id, toolAnswer(QStringLiteral("c1"), QStringLiteral("4"))).ok());
        const auto divide =
            m_store->appendMessage(id, message(ChatMessage::Role::Assistant, QString(),
                                               {pythonCall(QStringLiteral("c2"), QStringLiteral("1/0"))}));
        QVERIFY(divide.ok());
        QVERIFY(m_store->appendMessage(id, toolAnswer(QStringLiteral("c2"), QStringLiteral("ZeroDivisionError"))).ok());
        QVERIFY(m_store->appendMessage(id, message(ChatMessage::Role::Assistant, QStringLiteral("It is **4**."))).ok());

        const QString folder = m_store->conversationFolder(id);
        QVERIFY(Test::writeFile(folder + QStringLiteral("/figures/plot 1.png"), m_png));
        StoredExecution first = execution(id, QStringLiteral("c1"), QStringLiteral("print('four')\nimport sys\n2 + 2"));
        first.call = {check->id, 0};
        first.result.standardOutput = QStringLiteral("four\n");
        first.result.standardError = QStringLiteral("a warning\n");
        first.result.droppedStdoutBytes = 2048;
        first.result.value = QStringLiteral("4");
        first.result.figures = {QStringLiteral("figures/plot 1.png")};
        DataTable table;
        table.kind = QStringLiteral("DataFrame");
        table.columns = {QStringLiteral(""), QStringLiteral("<city>")};
        table.indexColumns = 1;
        table.rows = {QJsonArray{0, QStringLiteral("Zürich & <Bern>")}};
        table.totalRows = 1000;
        table.totalColumns = 2;
        first.result.tables = {table};
        first.result.markdown = {QStringLiteral("**bold**")};
        QVERIFY(m_store->addExecution(first).ok());
        StoredExecution second = execution(id, QStringLiteral("c2"), QStringLiteral("1/0"));
        second.call = {divide->id, 0};
        second.result.status = ExecutionResult::Status::Error;
        second.result.errorType = QStringLiteral("ZeroDivisionError");
        second.result.errorMessage = QStringLiteral("division by zero");
        second.result.traceback = QStringLiteral("Traceback (most recent call last):\n  File \"<cell>\", line 1\n"
                                                 "ZeroDivisionError: division by zero\n");
        QVERIFY(m_store->addExecution(second).ok());
        StoredExecution mine = execution(id, QString(), QStringLiteral("x = 1"));
        mine.result.stateReset = true;
        mine.result.notes = {QStringLiteral("pip needs the network.")};
        QVERIFY(m_store->addExecution(mine).ok());

        NotebookExport::Summary summary;
        const QJsonObject notebook = exportNotebook(id, &summary);
        QCOMPARE(notebook[QLatin1String("nbformat")].toInt(), 4);
        QCOMPARE(notebook[QLatin1String("nbformat_minor")].toInt(), 5);
        const QJsonObject metadata = notebook[QLatin1String("metadata")].toObject();
        QCOMPARE(metadata[QLatin1String("kernelspec")][QLatin1String("name")].toString(), QStringLiteral("python3"));
        QVERIFY(!metadata[QLatin1String("kernelspec")][QLatin1String("display_name")].toString().isEmpty());
        QCOMPARE(metadata[QLatin1String("language_info")][QLatin1String("name")].toString(), QStringLiteral("python"));
        QCOMPARE(metadata[QLatin1String("language_info")][QLatin1String("version")].toString(),
                 QStringLiteral("3.13.5"));
        QCOMPARE(metadata[QLatin1String("sandpiper")][QLatin1String("sandbox_image")].toString(),
                 QStringLiteral("sandpiper-sandbox:abc"));
        QCOMPARE(metadata[QLatin1String("sandpiper")][QLatin1String("model")].toString(), QStringLiteral("qwen3"));

        // Title, question, the answer's words, its code, the next code, the last answer, the user's run.
        const QJsonArray cells = notebook[QLatin1String("cells")].toArray();
        QStringList kinds;
        QSet<QString> ids;
        static const QRegularExpression idShape(QStringLiteral("^[a-zA-Z0-9-_]{1,64}$"));
        for (const QJsonValue &cell : cells) {
            kinds << cell[QLatin1String("cell_type")].toString();
            const QString cellId = cell[QLatin1String("id")].toString();
            QVERIFY2(idShape.match(cellId).hasMatch(), qPrintable(cellId));
            ids.insert(cellId);
            QVERIFY(cell[QLatin1String("metadata")].isObject());
        }
        QCOMPARE(ids.size(), cells.size());
        QCOMPARE(kinds, (QStringList{QStringLiteral("markdown"), QStringLiteral("markdown"), QStringLiteral("markdown"),
                                     QStringLiteral("code"), QStringLiteral("code"), QStringLiteral("markdown"),
                                     QStringLiteral("code")}));
        QVERIFY(joined(cells[0][QLatin1String("source")]).startsWith(QLatin1String("# What is 2+2?")));
        QCOMPARE(joined(cells[1][QLatin1String("source")]), QStringLiteral("**You**\n\nWhat is 2+2?\n"));
        QCOMPARE(joined(cells[2][QLatin1String("source")]), QStringLiteral("**Assistant**\n\nLet me check.\n"));
        QCOMPARE(joined(cells[5][QLatin1String("source")]), QStringLiteral("**Assistant**\n\nIt is **4**.\n"));
        QCOMPARE(summary.codeCells, 3);
        QCOMPARE(summary.markdownCells, 4);
        QCOMPARE(summary.figures, 1);
        QCOMPARE(summary.missingFigures, 0);

        const QList<QJsonObject> code = codeCells(notebook);
        QCOMPARE(code.size(), 3);
        for (int i = 0; i < code.size(); ++i)
            QCOMPARE(code[i][QLatin1String("execution_count")].toInt(), i + 1);
        // Source keeps its lines, as Jupyter writes them.
        QCOMPARE(
            code[0][QLatin1String("source")].toArray(),
            (QJsonArray{QStringLiteral("print('four')\n"), QStringLiteral("import sys\n"), QStringLiteral("2 + 2")}));
        QCOMPARE(outputTypes(code[0]),
                 (QStringList{QStringLiteral("stream:stdout"), QStringLiteral("stream:stderr"),
                              QStringLiteral("display_data:image/png+text/plain"),
                              QStringLiteral("display_data:text/html+text/plain"),
                              QStringLiteral("display_data:text/markdown"), QStringLiteral("execute_result")}));
        const QJsonArray outputs = code[0][QLatin1String("outputs")].toArray();
        QVERIFY(joined(outputs[0][QLatin1String("text")]).startsWith(QStringLiteral("four\n[… 2 KiB more not kept]")));
        QCOMPARE(
            QByteArray::fromBase64(outputs[2][QLatin1String("data")][QLatin1String("image/png")].toString().toLatin1()),
            m_png);
        const QString html = joined(outputs[3][QLatin1String("data")][QLatin1String("text/html")]);
        QVERIFY2(html.contains(QLatin1String("<th>&lt;city&gt;</th>")), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("<th>0</th><td>Zürich &amp; &lt;Bern&gt;</td>")), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("1000 rows × 2 columns (1 rows exported)")), qPrintable(html));
        QCOMPARE(outputs[5][QLatin1String("execution_count")].toInt(), 1);
        QCOMPARE(joined(outputs[5][QLatin1String("data")][QLatin1String("text/plain")]), QStringLiteral("4"));
        QCOMPARE(
            code[0][QLatin1String("metadata")][QLatin1String("sandpiper")][QLatin1String("tool_call_id")].toString(),
            QStringLiteral("c1"));

        QCOMPARE(outputTypes(code[1]), QStringList{QStringLiteral("error")});
        const QJsonObject error = code[1][QLatin1String("outputs")][0].toObject();
        QCOMPARE(error[QLatin1String("ename")].toString(), QStringLiteral("ZeroDivisionError"));
        QCOMPARE(error[QLatin1String("evalue")].toString(), QStringLiteral("division by zero"));
        QCOMPARE(error[QLatin1String("traceback")].toArray().size(), 3);

        // The user's own run says that its kernel was new and what Sandpiper noted.
        QCOMPARE(outputTypes(code[2]), (QStringList{QStringLiteral("stream:stderr"), QStringLiteral("stream:stderr")}));
        QVERIFY(
            joined(code[2][QLatin1String("outputs")][0][QLatin1String("text")]).contains(QLatin1String("new kernel")));
        QCOMPARE(joined(code[2][QLatin1String("outputs")][1][QLatin1String("text")]),
                 QStringLiteral("[Sandpiper] pip needs the network.\n"));
        QCOMPARE(code[2][QLatin1String("metadata")][QLatin1String("sandpiper")][QLatin1String("origin")].toString(),
                 QStringLiteral("user"));
    }

    // Deleted figures, links and files that are no PNG are named in their place; the export
    // reads nothing outside the folder.
    void missingAndRefusedFiguresAreNamedInTheirPlace()
    {
        const qint64 id = newConversation();
        const QString folder = m_store->conversationFolder(id);
        const QString outside = m_dir->filePath(QStringLiteral("outside.png"));
        QVERIFY(Test::writeFile(outside, Test::pngHeader(10, 10) + "the user's secret"));
        QVERIFY(Test::writeFile(folder + QStringLiteral("/fake.png"), "GIF89a"));
        QVERIFY(QFile::link(outside, folder + QStringLiteral("/link.png")));
        StoredExecution run = execution(id, QString(), QStringLiteral("plt.show()"));
        run.result.figures = {QStringLiteral("gone.png"), QStringLiteral("link.png"), QStringLiteral("fake.png")};
        run.result.figuresNotKept = 2;
        QVERIFY(m_store->addExecution(run).ok());

        NotebookExport::Summary summary;
        const QJsonObject notebook = exportNotebook(id, &summary);
        QCOMPARE(summary.figures, 0);
        QCOMPARE(summary.missingFigures, 3);
        const QJsonObject cell = codeCells(notebook).value(0);
        QCOMPARE(outputTypes(cell), QStringList(4, QStringLiteral("display_data:text/plain")));
        const QJsonArray outputs = cell[QLatin1String("outputs")].toArray();
        for (int i = 0; i < 3; ++i) {
            const QString text = joined(outputs[i][QLatin1String("data")][QLatin1String("text/plain")]);
            QVERIFY2(text.startsWith(QLatin1String("(the figure ") + run.result.figures[i] +
                                     QLatin1String(" could not be included: ")),
                     qPrintable(text));
        }
        QVERIFY(
            joined(outputs[3][QLatin1String("data")][QLatin1String("text/plain")]).contains(QLatin1String("2 more")));
        const QByteArray json = QJsonDocument(notebook).toJson();
        QVERIFY(!json.contains(QByteArray(Test::pngHeader(10, 10) + "the user's secret").toBase64()));
    }

    // A DataFrame as the cell's value is one result, its table and its text, as Jupyter writes it;
    // a figure as the value likewise. What display() showed stays a display of its own.
    void theValuesTableAndFigureAreOneResult()
    {
        const qint64 id = newConversation();
        const QString folder = m_store->conversationFolder(id);
        QVERIFY(Test::writeFile(folder + QStringLiteral("/figures/a.png"), m_png));
        DataTable shown;
        shown.kind = QStringLiteral("DataFrame");
        shown.columns = {QStringLiteral("shown")};
        shown.rows = {QJsonArray{1}};
        shown.totalRows = 1;
        shown.totalColumns = 1;
        DataTable value = shown;
        value.columns = {QStringLiteral("city")};
        value.rows = {QJsonArray{QStringLiteral("Bern")}};
        StoredExecution frame = execution(id, QString(), QStringLiteral("display(shown)\ndf"));
        frame.result.value = QStringLiteral("   city\n0  Bern");
        frame.result.tables = {shown, value};
        frame.result.valueDisplays.tables = {1};
        QVERIFY(m_store->addExecution(frame).ok());
        StoredExecution figure = execution(id, QString(), QStringLiteral("fig"));
        figure.result.value = QStringLiteral("<Figure size 640x480 with 1 Axes>");
        figure.result.figures = {QStringLiteral("figures/a.png")};
        figure.result.valueDisplays.figures = {0};
        QVERIFY(m_store->addExecution(figure).ok());
        // A value figure that was deleted since says so, and the value keeps its text.
        StoredExecution gone = figure;
        gone.result.figures = {QStringLiteral("figures/gone.png")};
        QVERIFY(m_store->addExecution(gone).ok());

        const QList<QJsonObject> code = codeCells(exportNotebook(id));
        QCOMPARE(code.size(), 3);
        QCOMPARE(outputTypes(code[0]),
                 (QStringList{QStringLiteral("display_data:text/html+text/plain"), QStringLiteral("execute_result")}));
        const QJsonObject result = code[0][QLatin1String("outputs")][1].toObject();
        const QJsonObject data = result[QLatin1String("data")].toObject();
        QCOMPARE(data.keys(), (QStringList{QStringLiteral("text/html"), QStringLiteral("text/plain")}));
        QCOMPARE(joined(data[QLatin1String("text/plain")]), QStringLiteral("   city\n0  Bern"));
        QVERIFY(joined(data[QLatin1String("text/html")]).contains(QLatin1String("<td>Bern</td>")));
        QVERIFY(joined(code[0][QLatin1String("outputs")][0][QLatin1String("data")][QLatin1String("text/html")])
                    .contains(QLatin1String("<th>shown</th>")));
        QCOMPARE(result[QLatin1String("execution_count")].toInt(), 1);

        QCOMPARE(outputTypes(code[1]), QStringList{QStringLiteral("execute_result")});
        const QJsonObject figureData = code[1][QLatin1String("outputs")][0][QLatin1String("data")].toObject();
        QCOMPARE(figureData.keys(), (QStringList{QStringLiteral("image/png"), QStringLiteral("text/plain")}));
        QCOMPARE(QByteArray::fromBase64(figureData[QLatin1String("image/png")].toString().toLatin1()), m_png);

        QCOMPARE(outputTypes(code[2]),
                 (QStringList{QStringLiteral("display_data:text/plain"), QStringLiteral("execute_result")}));
        QCOMPARE(code[2][QLatin1String("outputs")][1][QLatin1String("data")].toObject().keys(),
                 QStringList{QStringLiteral("text/plain")});
    }

    // The user's images are attachments of their Markdown cell, as nbformat 4 keeps them, linked
    // from its text; one deleted since is named in its place.
    void theUsersImagesAreAttachmentsOfTheirCell()
    {
        const qint64 id = newConversation();
        const QString folder = m_store->conversationFolder(id);
        const QByteArray photo = Test::pngImage(30, 20);
        QVERIFY(Test::writeFile(folder + QStringLiteral("/photo 1.png"), photo));
        QVERIFY(Test::writeFile(folder + QStringLiteral("/figures/photo 1.png"), Test::pngImage(5, 5)));
        QVERIFY(Test::writeFile(folder + QStringLiteral("/fake.png"), "GIF89a not really"));
        ChatMessage question = message(ChatMessage::Role::User, QStringLiteral("What is this?"));
        question.images = {QStringLiteral("photo 1.png"), QStringLiteral("figures/photo 1.png"),
                           QStringLiteral("gone.png"), QStringLiteral("fake.png")};
        QVERIFY(m_store->appendMessage(id, question).ok());

        NotebookExport::Summary summary;
        const QJsonObject notebook = exportNotebook(id, &summary);
        QCOMPARE(summary.images, 2);
        QCOMPARE(summary.missingImages, 2);
        const QJsonObject cell = notebook[QLatin1String("cells")][1].toObject();
        QCOMPARE(cell[QLatin1String("cell_type")].toString(), QStringLiteral("markdown"));
        const QJsonObject attachments = cell[QLatin1String("attachments")].toObject();
        QCOMPARE(attachments.keys(), (QStringList{QStringLiteral("2-photo-1.png"), QStringLiteral("photo-1.png")}));
        QCOMPARE(attachments[QLatin1String("photo-1.png")].toObject().keys(), QStringList{QStringLiteral("image/png")});
        QCOMPARE(QByteArray::fromBase64(
                     attachments[QLatin1String("photo-1.png")][QLatin1String("image/png")].toString().toLatin1()),
                 photo);
        const QString source = joined(cell[QLatin1String("source")]);
        QVERIFY2(
            source.startsWith(QLatin1String("**You**\n\nWhat is this?\n\n![photo-1.png](attachment:photo-1.png)\n\n"
                                            "![2-photo-1.png](attachment:2-photo-1.png)")),
            qPrintable(source));
        QVERIFY2(source.contains(QLatin1String("*(the image gone.png could not be included: ")), qPrintable(source));
        QVERIFY2(source.contains(QLatin1String("*(the image fake.png could not be included: ")), qPrintable(source));
        // Code cells may not have attachments; cells without images have none.
        QVERIFY(!notebook[QLatin1String("cells")][0].toObject().contains(QLatin1String("attachments")));
    }

    // Code that never reached a kernel (no Docker) has no execution count; the others count on.
    void codeThatNeverRanHasNoExecutionCount()
    {
        const qint64 id = newConversation();
        StoredExecution unavailable = execution(id, QString(), QStringLiteral("1"));
        unavailable.result.status = ExecutionResult::Status::Unavailable;
        unavailable.result.errorMessage = QStringLiteral("Docker is not running.");
        StoredExecution crashed = execution(id, QString(), QStringLiteral("import os; os._exit(1)"));
        crashed.result.status = ExecutionResult::Status::Crashed;
        crashed.result.errorMessage = QStringLiteral("The kernel died.");
        QVERIFY(m_store->addExecution(unavailable).ok());
        QVERIFY(m_store->addExecution(crashed).ok());
        const QList<QJsonObject> code = codeCells(exportNotebook(id));
        QCOMPARE(code.size(), 2);
        QVERIFY(code[0][QLatin1String("execution_count")].isNull());
        QCOMPARE(code[1][QLatin1String("execution_count")].toInt(), 1);
        const QJsonObject error = code[1][QLatin1String("outputs")][0].toObject();
        QCOMPARE(error[QLatin1String("ename")].toString(), QStringLiteral("KernelDied"));
        QCOMPARE(error[QLatin1String("traceback")].toArray(),
                 QJsonArray{QStringLiteral("KernelDied: The kernel died.")});
    }

    // 1 000 executions with a figure each: all of them, counted in order. The time is printed.
    void aThousandExecutions()
    {
        const qint64 id = newConversation();
        const QString folder = m_store->conversationFolder(id);
        for (int i = 0; i < 1000; ++i) {
            const QString name = QStringLiteral("figures/f%1.png").arg(i);
            QVERIFY(Test::writeFile(folder + QLatin1Char('/') + name, m_png + QByteArray(20000, char(i))));
            StoredExecution run = execution(id, QString(), QStringLiteral("plot(%1)").arg(i));
            run.result.standardOutput = QStringLiteral("line\n").repeated(20);
            run.result.figures = {name};
            QVERIFY(m_store->addExecution(run).ok());
        }
        const auto snapshot = m_store->loadConversation(id);
        QVERIFY(snapshot.ok());
        const QString path = m_dir->filePath(QStringLiteral("big.ipynb"));
        QElapsedTimer timer;
        timer.start();
        const auto written = NotebookExport::write(*snapshot, folder, path, {});
        const qint64 elapsed = timer.elapsed();
        QVERIFY(written.ok());
        qInfo("1000 executions with a 20 kB figure each: %lld ms, %lld MB", elapsed, QFileInfo(path).size() / 1000000);
        QCOMPARE(written->codeCells, 1000);
        QCOMPARE(written->figures, 1000);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject notebook = QJsonDocument::fromJson(file.readAll()).object();
        const QList<QJsonObject> code = codeCells(notebook);
        QCOMPARE(code.size(), 1000);
        for (int i = 0; i < code.size(); ++i)
            QCOMPARE(code[i][QLatin1String("execution_count")].toInt(), i + 1);
        // Without a known image or Python version, the metadata names neither.
        const QJsonObject metadata = notebook[QLatin1String("metadata")].toObject();
        QVERIFY(!metadata[QLatin1String("language_info")].toObject().contains(QLatin1String("version")));
        QVERIFY(!metadata[QLatin1String("sandpiper")].toObject().contains(QLatin1String("sandbox_image")));
    }

    void aFailedWriteSaysWhereAndLeavesNoFile()
    {
        const qint64 id = newConversation();
        const auto snapshot = m_store->loadConversation(id);
        const QString path = m_dir->filePath(QStringLiteral("no-such-folder/chat.ipynb"));
        const auto written = NotebookExport::write(*snapshot, m_store->conversationFolder(id), path, {});
        QVERIFY(!written.ok());
        QVERIFY2(written.error().message.contains(QDir::toNativeSeparators(path)), qPrintable(written.error().message));
        QVERIFY(!QFileInfo::exists(path));
    }
};

QTEST_GUILESS_MAIN(TestNotebookExport)
#include "tst_notebookexport.moc"
