// A chart lives in the store as the create_chart call's arguments: reading them back and
// validating them again draws the same chart, and the Markdown export shows it.
#include <charts/chartspec.h>
#include <storage/conversationexport.h>
#include <storage/conversationstore.h>
#include <tools/charttool.h>

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;

namespace {

// Sloppy on purpose: numeric strings, a bare series object, a spelled-out type.
const QString chartArguments = QStringLiteral(
    R"({"type": "Bar Chart", "title": "Revenue [2024]", "y_unit": "k€", "categories": ["Q1", "Q2", "Q3"],)"
    R"( "series": {"name": "North", "data": ["12.5", 14, 9]}})");

struct StoredChat {
    qint64 conversationId = 0;
    QString callId;
};

StoredChat storeChartConversation(ConversationStore &store, const QString &arguments)
{
    StoredChat chat;
    const auto conversation = store.createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o"));
    if (!conversation)
        return chat;
    chat.conversationId = conversation->id;
    chat.callId = QStringLiteral("call_chart");

    ChatMessage user;
    user.role = ChatMessage::Role::User;
    user.content = QStringLiteral("Chart our revenue");
    ChatMessage assistant;
    assistant.role = ChatMessage::Role::Assistant;
    assistant.content = QStringLiteral("Here it is.");
    assistant.toolCalls = {{chat.callId, ChartTool::toolName(), arguments}};
    ChatMessage tool;
    tool.role = ChatMessage::Role::Tool;
    tool.toolCallId = chat.callId;
    tool.toolName = ChartTool::toolName();
    tool.content = QStringLiteral("Chart shown to the user.");
    for (const ChatMessage &message : {user, assistant, tool}) {
        if (!store.appendMessage(chat.conversationId, message))
            return {};
    }
    return chat;
}

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class TestChartStorage : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_folders = 0;

    QString freshFolder() { return m_dir.filePath(QStringLiteral("data-%1").arg(++m_folders)); }

private Q_SLOTS:
    void aStoredCallDrawsTheSameChartAgain()
    {
        const auto original = ChartSpec::fromToolArguments(chartArguments);
        QVERIFY(original);
        const QString folder = freshFolder();
        qint64 conversationId = 0;
        {
            ConversationStore store(folder);
            const StoredChat chat = storeChartConversation(store, chartArguments);
            QVERIFY(chat.conversationId != 0);
            conversationId = chat.conversationId;
        }
        // A new store on the same folder: what the app sees after a restart.
        ConversationStore store(folder);
        const auto messages = store.messages(conversationId);
        QVERIFY2(messages.ok(), qPrintable(messages.error().message));
        QCOMPARE(messages->size(), 3);
        const ChatMessage &assistant = messages->at(1);
        QCOMPARE(assistant.toolCalls.size(), 1);
        QCOMPARE(assistant.toolCalls.first().name, QStringLiteral("create_chart"));
        QCOMPARE(assistant.toolCalls.first().arguments, chartArguments);

        const auto redrawn = ChartSpec::fromToolArguments(assistant.toolCalls.first().arguments);
        QVERIFY2(redrawn, qPrintable(redrawn.error().message()));
        QCOMPARE(*redrawn, *original);
        QCOMPARE(redrawn->type, ChartSpec::Type::Bar);
        QCOMPARE(redrawn->series.first().points.first(), QPointF(0, 12.5));
    }

    void markdownExportWritesTheSpecWithoutARenderer()
    {
        ConversationStore store(freshFolder());
        const StoredChat chat = storeChartConversation(store, chartArguments);
        const auto snapshot = store.loadConversation(chat.conversationId);
        QVERIFY(snapshot.ok());
        const QString path = m_dir.filePath(QStringLiteral("plain.md"));
        QVERIFY(ConversationExport::writeMarkdown(*snapshot, store.conversationFolder(chat.conversationId), path).ok());
        const QString markdown = readText(path);
        QVERIFY2(markdown.contains(QLatin1String("**Chart:** Revenue [2024]\n\n```json\n{\n")), qPrintable(markdown));
        // The normalised spec, not the model's sloppy text.
        QVERIFY2(markdown.contains(QLatin1String("\"type\": \"bar\"")), qPrintable(markdown));
        QVERIFY(!markdown.contains(QLatin1String("Bar Chart")));
        QVERIFY(!markdown.contains(QLatin1String("**Called create_chart")));
    }

    void markdownExportLinksTheRenderedImage()
    {
        ConversationStore store(freshFolder());
        const StoredChat chat = storeChartConversation(store, chartArguments);
        const auto snapshot = store.loadConversation(chat.conversationId);
        QVERIFY(snapshot.ok());
        QList<QJsonObject> rendered;
        ConversationExport::MarkdownOptions options;
        options.renderChart = [&rendered](const QJsonObject &spec, const QString &pngPath) {
            rendered << spec;
            QFile file(pngPath);
            return file.open(QIODevice::WriteOnly) && file.write("\x89PNG") == 4;
        };
        const QString path = m_dir.filePath(QStringLiteral("my export.md"));
        QVERIFY(
            ConversationExport::writeMarkdown(*snapshot, store.conversationFolder(chat.conversationId), path, options)
                .ok());
        QCOMPARE(rendered.size(), 1);
        QCOMPARE(rendered.first(), ChartSpec::fromToolArguments(chartArguments)->toJson());
        const QString markdown = readText(path);
        QVERIFY2(markdown.contains(QLatin1String("![Revenue 2024](my%20export_files/charts/chart-1.png)")),
                 qPrintable(markdown));
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("my export_files/charts/chart-1.png"))));
    }

    void aFailingRendererFallsBackToTheSpec()
    {
        ConversationStore store(freshFolder());
        const StoredChat chat = storeChartConversation(store, chartArguments);
        const auto snapshot = store.loadConversation(chat.conversationId);
        QVERIFY(snapshot.ok());
        ConversationExport::MarkdownOptions options;
        options.renderChart = [](const QJsonObject &, const QString &) {
            return false;
        };
        const QString path = m_dir.filePath(QStringLiteral("failed.md"));
        QVERIFY(
            ConversationExport::writeMarkdown(*snapshot, store.conversationFolder(chat.conversationId), path, options)
                .ok());
        const QString markdown = readText(path);
        QVERIFY2(markdown.contains(QLatin1String("**Chart:** Revenue [2024]\n\n```json")), qPrintable(markdown));
        QVERIFY(!markdown.contains(QLatin1String("![")));
    }

    void aRefusedChartIsExportedAsTheCallItWas()
    {
        ConversationStore store(freshFolder());
        const QString broken = QStringLiteral(R"({"type": "pie", "categories": ["a"], "series": [{"data": [-1]}]})");
        const StoredChat chat = storeChartConversation(store, broken);
        const auto snapshot = store.loadConversation(chat.conversationId);
        QVERIFY(snapshot.ok());
        ConversationExport::MarkdownOptions options;
        options.renderChart = [](const QJsonObject &, const QString &) {
            return true;
        };
        const QString path = m_dir.filePath(QStringLiteral("refused.md"));
        QVERIFY(
            ConversationExport::writeMarkdown(*snapshot, store.conversationFolder(chat.conversationId), path, options)
                .ok());
        const QString markdown = readText(path);
        QVERIFY2(markdown.contains(QLatin1String("**Called create_chart:**\n\n```json\n") + broken),
                 qPrintable(markdown));
    }
};

QTEST_GUILESS_MAIN(TestChartStorage)
#include "tst_chartstorage.moc"
