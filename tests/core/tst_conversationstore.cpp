#include "rawdatabase.h"
#include "sandboxfiles.h"

#include <llm/modelimage.h>
#include <sandbox/sandboxfolder.h>
#include <session/conversationsession.h>
#include <session/messagemodel.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>
#include <storage/conversationexport.h>
#include <storage/conversationimport.h>
#include <storage/conversationstore.h>
#include <storage/schema.h>
#include <storage/streamingwriter.h>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace std::chrono_literals;
using namespace Sandpiper;
using Sandpiper::Test::RawDatabase;

using Role = ChatMessage::Role;
using Status = ChatMessage::Status;

namespace {

// An import of one message of ROLE with the content PARTS.
QByteArray importWithParts(const QJsonArray &parts, const QString &role = QStringLiteral("user"))
{
    const QJsonObject message{{QStringLiteral("role"), role}, {QStringLiteral("content"), parts}};
    return QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("sandpiper-conversation")},
                                     {QStringLiteral("version"), 1},
                                     {QStringLiteral("messages"), QJsonArray{message}}})
        .toJson();
}

// An import of one message of ROLE with a text and an image part of URL.
QByteArray importWithImage(const QString &url, const QString &role = QStringLiteral("user"))
{
    return importWithParts(
        {QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), QStringLiteral("a")}},
         QJsonObject{{QStringLiteral("type"), QStringLiteral("image_url")},
                     {QStringLiteral("image_url"), QJsonObject{{QStringLiteral("url"), url}}}}},
        role);
}

// The child process of killedWhileStreamingLosesAtMostOneInterval() is this binary again.
const char *const StreamChildFolder = "SANDPIPER_TST_STREAM_FOLDER";
const char *const StreamChildConversation = "SANDPIPER_TST_STREAM_CONVERSATION";
constexpr auto StreamChildAppendEvery = 5ms;

ChatMessage makeMessage(Role role, const QString &content, Status status = Status::Complete)
{
    ChatMessage message;
    message.role = role;
    message.content = content;
    message.status = status;
    return message;
}

ChatMessage toolResult(const QString &callId, const QString &content)
{
    ChatMessage message = makeMessage(Role::Tool, content);
    message.toolCallId = callId;
    message.toolName = QStringLiteral("execute_python_code");
    return message;
}

StoredExecution makeExecution(qint64 conversationId, const QString &toolCallId, const QString &code)
{
    StoredExecution execution;
    execution.conversationId = conversationId;
    execution.toolCallId = toolCallId;
    execution.code = code;
    execution.origin = toolCallId.isEmpty() ? StoredExecution::Origin::User : StoredExecution::Origin::Model;
    execution.result.status = ExecutionResult::Status::Ok;
    execution.result.standardOutput = QStringLiteral("4\n");
    execution.result.durationMs = 12;
    return execution;
}

// A compact spelling of a conversation for data-driven tests: "user", "assistant",
// "assistant:streaming", "assistant:complete:c1,c2" (with tool calls), "tool:c1".
QList<ChatMessage> messagesFromSpec(const QStringList &spec)
{
    QList<ChatMessage> messages;
    for (const QString &entry : spec) {
        const QStringList parts = entry.split(QLatin1Char(':'));
        ChatMessage message;
        message.role = ChatMessage::roleFromName(parts.value(0));
        message.content = entry;
        if (message.role == Role::Tool) {
            message.toolCallId = parts.value(1);
        } else {
            if (parts.size() > 1)
                message.status = ChatMessage::statusFromName(parts.at(1));
            for (const QString &id : parts.value(2).split(QLatin1Char(','), Qt::SkipEmptyParts))
                message.toolCalls.append({id, QStringLiteral("execute_python_code"), QStringLiteral("{}")});
        }
        messages.append(message);
    }
    return messages;
}

QStringList specFromMessages(const QList<ChatMessage> &messages)
{
    QStringList spec;
    for (const ChatMessage &message : messages) {
        QString entry = ChatMessage::roleName(message.role);
        if (message.role == Role::Tool) {
            entry += QLatin1Char(':') + message.toolCallId;
            if (message.content.contains(QLatin1String("interrupted when Sandpiper stopped")))
                entry += QLatin1String(":synthesized");
        } else if (message.status != Status::Complete || !message.toolCalls.isEmpty()) {
            entry += QLatin1Char(':') + ChatMessage::statusName(message.status);
            QStringList ids;
            for (const ToolCall &call : message.toolCalls)
                ids << call.id;
            if (!ids.isEmpty())
                entry += QLatin1Char(':') + ids.join(QLatin1Char(','));
        }
        spec << entry;
    }
    return spec;
}

void compareMessages(const QList<ChatMessage> &actual, const QList<ChatMessage> &expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (qsizetype i = 0; i < actual.size(); ++i) {
        const ChatMessage &a = actual.at(i);
        const ChatMessage &e = expected.at(i);
        QCOMPARE(a.role, e.role);
        QCOMPARE(a.content, e.content);
        QCOMPARE(a.reasoning, e.reasoning);
        QCOMPARE(a.toolCalls, e.toolCalls);
        QCOMPARE(a.toolCallId, e.toolCallId);
        QCOMPARE(a.toolName, e.toolName);
        QCOMPARE(a.usage, e.usage);
        QCOMPARE(a.status, e.status);
        QCOMPARE(a.error, e.error);
        QCOMPARE(a.created, e.created);
        QCOMPARE(a.updated, e.updated);
    }
}

void compareExecutions(const QList<StoredExecution> &actual, const QList<StoredExecution> &expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (qsizetype i = 0; i < actual.size(); ++i) {
        const StoredExecution &a = actual.at(i);
        const StoredExecution &e = expected.at(i);
        QCOMPARE(a.toolCallId, e.toolCallId);
        QCOMPARE(a.code, e.code);
        QCOMPARE(a.origin, e.origin);
        QCOMPARE(a.created, e.created);
        QCOMPARE(a.result.status, e.result.status);
        QCOMPARE(a.result.value, e.result.value);
        QCOMPARE(a.result.errorType, e.result.errorType);
        QCOMPARE(a.result.errorMessage, e.result.errorMessage);
        QCOMPARE(a.result.traceback, e.result.traceback);
        QCOMPARE(a.result.standardOutput, e.result.standardOutput);
        QCOMPARE(a.result.standardError, e.result.standardError);
        QCOMPARE(a.result.droppedStdoutBytes, e.result.droppedStdoutBytes);
        QCOMPARE(a.result.droppedStderrBytes, e.result.droppedStderrBytes);
        QCOMPARE(a.result.figures, e.result.figures);
        QCOMPARE(a.result.files, e.result.files);
        QCOMPARE(a.result.durationMs, e.result.durationMs);
        QCOMPARE(a.result.timedOut, e.result.timedOut);
        QCOMPARE(a.result.stateLost, e.result.stateLost);
        QCOMPARE(a.result.stateReset, e.result.stateReset);
        QCOMPARE(a.result.figuresNotKept, e.result.figuresNotKept);
        QCOMPARE(a.result.refused, e.result.refused);
        QCOMPARE(a.result.stopReason, e.result.stopReason);
        QCOMPARE(a.result.tables, e.result.tables);
        QCOMPARE(a.result.markdown, e.result.markdown);
        QCOMPARE(a.result.svg, e.result.svg);
        QCOMPARE(a.result.notes, e.result.notes);
    }
}

// A conversation with every kind of message and execution, for export and import.
ConversationSnapshot richSnapshot()
{
    const QDateTime start = QDateTime::fromString(QStringLiteral("2025-03-01T10:00:00.125Z"), Qt::ISODateWithMs);
    ConversationSnapshot snapshot;
    snapshot.conversation.title = QStringLiteral("Revenue by month");
    snapshot.conversation.provider = QStringLiteral("openai");
    snapshot.conversation.model = QStringLiteral("gpt-4o");
    snapshot.conversation.settings =
        QJsonObject{{QStringLiteral("approval"), QStringLiteral("ask")}, {QStringLiteral("network"), false}};
    snapshot.conversation.created = start;
    snapshot.conversation.updated = start.addSecs(60);

    ChatMessage user =
        makeMessage(Role::User, QStringLiteral("Load sales.csv and plot revenue by month, \"quoted\" π"));
    ChatMessage call = makeMessage(Role::Assistant, QString());
    call.reasoning = QStringLiteral("I should read the CSV first.");
    call.toolCalls = {
        {QStringLiteral("call_1"), QStringLiteral("execute_python_code"), QStringLiteral("{\"code\": \"print(2+2)\"}")},
        {QStringLiteral("call_2"), QStringLiteral("search_web"), QStringLiteral("{\"query\": \"qt\"}")}};
    call.usage = {120, 30, 150};
    ChatMessage result1 = toolResult(QStringLiteral("call_1"), QStringLiteral("4"));
    ChatMessage result2 = toolResult(QStringLiteral("call_2"), QStringLiteral("Qt 6.8 was released."));
    result2.toolName = QStringLiteral("search_web");
    ChatMessage answer = makeMessage(Role::Assistant, QStringLiteral("Here is the chart:\n\n```python\nx = 1\n```"));
    ChatMessage failed = makeMessage(Role::Assistant, QStringLiteral("partial"), Status::Error);
    failed.error = QStringLiteral("The server closed the connection.");
    snapshot.messages = {
        makeMessage(Role::System, QStringLiteral("Be brief.")), user, call, result1, result2, answer, failed};
    for (qsizetype i = 0; i < snapshot.messages.size(); ++i) {
        snapshot.messages[i].created = start.addSecs(i);
        snapshot.messages[i].updated = start.addSecs(i).addMSecs(500);
    }

    StoredExecution model = makeExecution(0, QStringLiteral("call_1"), QStringLiteral("print(2+2)\n```\nfenced"));
    model.result.value = QStringLiteral("None");
    model.result.standardError = QStringLiteral("warning: deprecated\n");
    model.result.figures = {QStringLiteral("figures/plot 1.png")};
    // A DataFrame's table, with missing values, text and numbers; Markdown, SVG and a note.
    DataTable table;
    table.tableId = QStringLiteral("t-abc-1");
    table.kind = QStringLiteral("DataFrame");
    table.columns = {QStringLiteral("name"), QStringLiteral("value")};
    table.dtypes = {QStringLiteral("object"), QStringLiteral("float64")};
    table.rows = {QJsonArray{QStringLiteral("a"), 1.5}, QJsonArray{QStringLiteral("b"), QJsonValue(QJsonValue::Null)}};
    table.totalRows = 1234567;
    table.totalColumns = 2;
    table.exportable = true;
    model.result.tables = {table};
    model.result.markdown = {QStringLiteral("**Summary**")};
    model.result.svg = {QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\"/>")};
    model.result.notes = {QStringLiteral("pip could not download packages.")};
    model.result.files = {QStringLiteral("out.csv")};
    model.result.droppedStdoutBytes = 10;
    model.result.figuresNotKept = 380;
    model.result.refused = {QStringLiteral("“leak.txt” is or goes through a symbolic link.")};
    model.result.stopReason = QStringLiteral("The conversation's files reached the 1 GiB limit.");
    model.result.timedOut = true;
    model.result.stateReset = true;
    model.created = start.addSecs(3);
    StoredExecution user1 = makeExecution(0, QString(), QStringLiteral("1/0"));
    user1.result.status = ExecutionResult::Status::Error;
    user1.result.errorType = QStringLiteral("ZeroDivisionError");
    user1.result.errorMessage = QStringLiteral("division by zero");
    user1.result.traceback = QStringLiteral("Traceback (most recent call last):\nZeroDivisionError: division by zero");
    user1.result.stateLost = true;
    user1.created = start.addSecs(30);
    snapshot.executions = {model, user1};
    return snapshot;
}

qint64 countRows(ConversationStore &store, const QString &table)
{
    RawDatabase raw(store.databasePath());
    return raw.value(QStringLiteral("SELECT COUNT(*) FROM %1").arg(table)).toLongLong();
}

// A v1 database as the first schema left it, written with the statements of that release.
void writeVersion1Database(const QString &path)
{
    RawDatabase raw(path);
    const QStringList statements = {
        QStringLiteral("PRAGMA journal_mode = WAL"),
        QStringLiteral("CREATE TABLE conversations (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL DEFAULT "
                       "'', created INTEGER NOT NULL, updated INTEGER NOT NULL, provider TEXT NOT NULL DEFAULT '', "
                       "model TEXT NOT NULL DEFAULT '', settings TEXT NOT NULL DEFAULT '{}')"),
        QStringLiteral("CREATE INDEX conversations_by_update ON conversations(updated)"),
        QStringLiteral(
            "CREATE TABLE messages (id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL REFERENCES "
            "conversations(id) ON DELETE CASCADE, seq INTEGER NOT NULL, role TEXT NOT NULL CHECK (role IN ('system', "
            "'user', 'assistant', 'tool')), content TEXT NOT NULL DEFAULT '', reasoning TEXT NOT NULL DEFAULT '', "
            "tool_calls TEXT, tool_call_id TEXT, tool_name TEXT, prompt_tokens INTEGER NOT NULL DEFAULT 0, "
            "completion_tokens INTEGER NOT NULL DEFAULT 0, total_tokens INTEGER NOT NULL DEFAULT 0, status TEXT NOT "
            "NULL DEFAULT 'complete' CHECK (status IN ('complete', 'streaming', 'cancelled', 'error', "
            "'interrupted')), error TEXT NOT NULL DEFAULT '', created INTEGER NOT NULL, updated INTEGER NOT NULL)"),
        QStringLiteral("CREATE INDEX messages_in_order ON messages(conversation_id, seq)"),
        QStringLiteral("CREATE INDEX messages_streaming ON messages(status) WHERE status = 'streaming'"),
        QStringLiteral(
            "CREATE TABLE executions (id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL REFERENCES "
            "conversations(id) ON DELETE CASCADE, tool_call_id TEXT, origin TEXT NOT NULL CHECK (origin IN ('model', "
            "'user')), code TEXT NOT NULL, status TEXT NOT NULL, stdout TEXT NOT NULL DEFAULT '', stderr TEXT NOT "
            "NULL DEFAULT '', value TEXT NOT NULL DEFAULT '', error_type TEXT NOT NULL DEFAULT '', error_message TEXT "
            "NOT NULL DEFAULT '', traceback TEXT NOT NULL DEFAULT '', dropped_stdout_bytes INTEGER NOT NULL DEFAULT 0, "
            "dropped_stderr_bytes INTEGER NOT NULL DEFAULT 0, duration_ms INTEGER NOT NULL DEFAULT 0, timed_out "
            "INTEGER NOT NULL DEFAULT 0, state_lost INTEGER NOT NULL DEFAULT 0, state_reset INTEGER NOT NULL DEFAULT "
            "0, figures TEXT NOT NULL DEFAULT '[]', html TEXT NOT NULL DEFAULT '[]', files TEXT NOT NULL DEFAULT "
            "'[]', created INTEGER NOT NULL)"),
        QStringLiteral("CREATE INDEX executions_in_order ON executions(conversation_id, id)"),
        QStringLiteral("CREATE TABLE attachments (id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL REFERENCES "
                       "conversations(id) ON DELETE CASCADE, file_name TEXT NOT NULL, size INTEGER NOT NULL, created "
                       "INTEGER NOT NULL)"),
        QStringLiteral("CREATE INDEX attachments_in_order ON attachments(conversation_id, id)"),
        QStringLiteral("PRAGMA application_id = %1").arg(Schema::ApplicationId),
        QStringLiteral("PRAGMA user_version = 1"),
        QStringLiteral("INSERT INTO conversations (id, title, created, updated, model) VALUES (7, 'Old chat', "
                       "1700000000000, 1700000000000, 'llama3')"),
        QStringLiteral("INSERT INTO messages (conversation_id, seq, role, content, created, updated) VALUES (7, 1, "
                       "'user', 'How many penguins live in Antarctica?', 1700000000000, 1700000000000)"),
        QStringLiteral("INSERT INTO messages (conversation_id, seq, role, content, tool_calls, created, updated) "
                       "VALUES (7, 2, 'assistant', '', '[{\"id\":\"c1\",\"name\":\"execute_python_code\","
                       "\"arguments\":\"{}\"}]', 1700000000001, 1700000000001)"),
        QStringLiteral("INSERT INTO messages (conversation_id, seq, role, content, tool_call_id, created, updated) "
                       "VALUES (7, 3, 'tool', 'penguins counted: 20000000', 'c1', 1700000000002, 1700000000002)"),
        QStringLiteral("INSERT INTO executions (conversation_id, tool_call_id, origin, code, status, stdout, created) "
                       "VALUES (7, 'c1', 'model', 'colonies = load_penguin_colonies()', 'ok', '20000000', "
                       "1700000000002)"),
    };
    for (const QString &statement : statements)
        QVERIFY(raw.exec(statement));
}

// A v5 database (issue 17's images, before attachments had columns of their own): the v1 file
// taken through the released migrations, with messages as schema 5 stored files that went with
// them: the note on the files in front of the user's words, in one text.
void writeVersion5Database(const QString &path)
{
    writeVersion1Database(path);
    RawDatabase raw(path);
    for (int version = 2; version <= 5; ++version) {
        for (const QString &statement : Schema::migrationTo(version))
            QVERIFY(raw.exec(statement));
    }
    const QStringList statements = {
        QStringLiteral("PRAGMA user_version = 5"),
        QStringLiteral("INSERT INTO conversations (id, title, created, updated) VALUES (8, 'Attached files (in "
                       "/mnt/data):', 1700000000000, 1700000000000)"),
        QStringLiteral(
            "INSERT INTO messages (conversation_id, seq, role, content, images, created, updated) VALUES (8, "
            "1, 'user', 'Attached files (in /mnt/data):' || char(10) || '- /mnt/data/sales.csv: CSV "
            "document, 1.2 kB;' || char(10) || '  first lines:' || char(10) || '    month,turnover' || "
            "char(10) || '    Jan,10' || char(10) || '- /mnt/data/chart.png: PNG image, 2 kB' || char(10) "
            "|| char(10) || 'Plot the revenue' || char(10) || 'by month', '[\"chart.png\"]', "
            "1700000000000, 1700000000000)"),
        QStringLiteral("INSERT INTO attachments (conversation_id, file_name, size, created) VALUES (8, 'sales.csv', "
                       "1234, 1700000000000)"),
        QStringLiteral("INSERT INTO attachments (conversation_id, file_name, size, created) VALUES (8, 'chart.png', "
                       "2048, 1700000000000)"),
        // Files without words.
        QStringLiteral("INSERT INTO conversations (id, title, created, updated) VALUES (9, 'Attached files (in "
                       "/mnt/data):', 1700000000000, 1700000000000)"),
        QStringLiteral("INSERT INTO messages (conversation_id, seq, role, content, created, updated) VALUES (9, 1, "
                       "'user', 'Attached files (in /mnt/data):' || char(10) || '- /mnt/data/notes (2).txt: plain "
                       "text document, 12 bytes' || char(10) || char(10), 1700000000000, 1700000000000)"),
        // A later message with a file, in a conversation named after its first.
        QStringLiteral("INSERT INTO messages (conversation_id, seq, role, content, created, updated) VALUES (7, 4, "
                       "'user', 'Attached files (in /mnt/data):' || char(10) || '- /mnt/data/colonies.xlsx: Excel "
                       "workbook, 9 kB' || char(10) || char(10) || 'And these?', 1700000000003, 1700000000003)"),
    };
    for (const QString &statement : statements)
        QVERIFY(raw.exec(statement));
}

// Makes every write that would grow a file fail, as a full disk does, until it goes out of
// scope. Unlike permissions, this limit holds for root too (tests run as root in CI).
class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &m_saved);
        rlimit limit = m_saved;
        limit.rlim_cur = bytes;
        m_active = setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &m_saved); }
    bool isActive() const { return m_active; }

private:
    rlimit m_saved{};
    bool m_active = false;
};

int runStreamingChild()
{
    // The parent kills this process with SIGKILL while the answer streams; every append is
    // reported on stdout first, so the parent knows how much the store could have lost.
    ConversationStore store(qEnvironmentVariable(StreamChildFolder));
    const qint64 conversationId = qEnvironmentVariable(StreamChildConversation).toLongLong();
    auto started = store.appendMessage(conversationId, makeMessage(Role::Assistant, QString(), Status::Streaming));
    if (!started)
        return 1;
    StreamingWriter writer(&store, *started);
    int words = 0;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    QObject::connect(&ticker, &QTimer::timeout, &writer, [&] {
        writer.appendContent(QStringLiteral("w%1 ").arg(words++));
        std::printf("%d\n", words);
        std::fflush(stdout);
    });
    ticker.start(StreamChildAppendEvery);
    return QCoreApplication::exec();
}

} // namespace

class TestConversationStore : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_folders = 0;
    std::unique_ptr<ConversationStore> m_searchStore;

    QString freshFolder() { return m_dir.filePath(QStringLiteral("data%1").arg(++m_folders)); }

    // A conversation whose user messages have images, as the composer stores them: files of the
    // folder, one a figure shown to the model, one sent twice (an edit), one deleted since.
    struct ImageChat {
        qint64 id = 0;
        QByteArray photo = Test::pngImage(40, 30);
        QByteArray figure = Test::pngImage(64, 48);
    };
    ImageChat storeImageChat(ConversationStore &store)
    {
        ImageChat chat;
        ConversationSnapshot snapshot;
        snapshot.conversation.title = QStringLiteral("Look at this");
        ChatMessage first = makeMessage(Role::User, QStringLiteral("What is in the photo?"));
        first.images = {QStringLiteral("photo 1.png"), QStringLiteral("figures/fig-a-1.png")};
        ChatMessage again = makeMessage(Role::User, QStringLiteral("And now?"));
        again.images = {QStringLiteral("photo 1.png"), QStringLiteral("gone.png")};
        snapshot.messages = {first, makeMessage(Role::Assistant, QStringLiteral("A gradient.")), again};
        const auto inserted = store.insertConversation(snapshot);
        if (!inserted)
            return chat;
        chat.id = inserted->id;
        const QString folder = store.conversationFolder(chat.id);
        Test::writeFile(folder + QStringLiteral("/photo 1.png"), chat.photo);
        Test::writeFile(folder + QStringLiteral("/figures/fig-a-1.png"), chat.figure);
        return chat;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void createsADatabaseInWalModeWithItsIdentity()
    {
        ConversationStore store(freshFolder());
        QVERIFY(!QFileInfo::exists(store.databasePath())); // nothing happens before the first call
        const auto opened = store.open();
        QVERIFY2(opened.ok(), qPrintable(opened.error().message));
        QVERIFY(store.lastWarning().isEmpty());
        RawDatabase raw(store.databasePath());
        QCOMPARE(raw.value(QStringLiteral("PRAGMA journal_mode")).toString(), QStringLiteral("wal"));
        QCOMPARE(raw.value(QStringLiteral("PRAGMA application_id")).toInt(), Schema::ApplicationId);
        QCOMPARE(raw.value(QStringLiteral("PRAGMA user_version")).toInt(), Schema::LatestVersion);
    }

    void enforcesForeignKeys()
    {
        ConversationStore store(freshFolder());
        const auto conversation = store.createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o"));
        QVERIFY(conversation.ok());
        const auto orphan = store.appendMessage(conversation->id + 100, makeMessage(Role::User, QStringLiteral("hi")));
        QVERIFY(!orphan.ok());
        QCOMPARE(orphan.error().kind, StoreError::Kind::NotFound);
        auto execution = store.addExecution(makeExecution(conversation->id + 100, QString(), QStringLiteral("1")));
        QCOMPARE(execution.error().kind, StoreError::Kind::NotFound);
    }

    void upgradesAVersion1Database()
    {
        const QString folder = freshFolder();
        QDir().mkpath(folder);
        writeVersion1Database(folder + QStringLiteral("/sandpiper.db"));

        ConversationStore store(folder);
        const auto opened = store.open();
        QVERIFY2(opened.ok(), qPrintable(opened.error().message));
        QVERIFY(store.lastWarning().isEmpty());
        RawDatabase raw(store.databasePath());
        QCOMPARE(raw.value(QStringLiteral("PRAGMA user_version")).toInt(), Schema::LatestVersion);

        const auto conversation = store.conversation(7);
        QVERIFY(conversation.ok());
        QCOMPARE(conversation->title, QStringLiteral("Old chat"));
        QCOMPARE(conversation->messageCount, 3);
        // Rows from before the upgrade are in the new full-text index.
        const auto penguins = store.search(QStringLiteral("penguin"));
        QVERIFY(penguins.ok());
        QCOMPARE(penguins->size(), 1);
        QCOMPARE(penguins->at(0).matchCount, 2); // the user message and the code; tool results stay out
        QCOMPARE(penguins->at(0).conversationId, 7);
        const auto code = store.search(QStringLiteral("load_penguin_colonies"));
        QCOMPARE(code->size(), 1);
        QCOMPARE(code->at(0).kind, SearchHit::Kind::Execution);
        // New rows are indexed by the triggers the upgrade added.
        QVERIFY(store.appendMessage(7, makeMessage(Role::Assistant, QStringLiteral("About twenty million penguins.")))
                    .ok());
        QCOMPARE(store.search(QStringLiteral("million"))->size(), 1);
    }

    // Version 1 stored no provider (its column's default is empty): such a conversation takes the
    // default provider when it is first opened, keeps the model it had, and keeps both from then
    // on, whatever the default becomes; its place in the list stays.
    void aVersion1ConversationTakesTheDefaultProviderOnceAndKeepsIt()
    {
        const QString folder = freshFolder();
        QDir().mkpath(folder);
        writeVersion1Database(folder + QStringLiteral("/sandpiper.db"));
        ConversationStore store(folder);
        QVERIFY(store.open().ok());
        Settings settings(m_dir.filePath(QStringLiteral("profile%1").arg(m_folders)));
        QCOMPARE(settings.addOverride(QStringLiteral("provider=ollama")), QString());
        QCOMPARE(settings.addOverride(QStringLiteral("sandbox/enabled=false")), QString());
        {
            SessionManager sessions(&settings, &store);
            const auto session = sessions.open(7);
            QVERIFY(session);
            QCOMPARE((*session)->state().providerId, QStringLiteral("ollama"));
            QCOMPARE((*session)->state().model, QStringLiteral("llama3"));
            QCOMPARE(store.conversation(7)->provider, QStringLiteral("ollama"));
            QCOMPARE(store.conversation(7)->updated.toMSecsSinceEpoch(), 1700000000000);

            QCOMPARE(settings.addOverride(QStringLiteral("provider=lmstudio")), QString());
            sessions.applySettings();
            QCOMPARE((*session)->state().providerId, QStringLiteral("ollama"));
            QCOMPARE((*session)->state().model, QStringLiteral("llama3"));
        }
        SessionManager restarted(&settings, &store);
        const auto reopened = restarted.open(7);
        QVERIFY(reopened);
        QCOMPARE((*reopened)->state().providerId, QStringLiteral("ollama"));
        QCOMPARE((*reopened)->state().model, QStringLiteral("llama3"));
    }

    // Servers repeat call ids (call_0 every turn, or for every call of a message): the upgrade
    // ties each stored run to the call it ran, as it happened, not to the last call with its id.
    void upgradeTiesEachRunToItsCall()
    {
        const QString folder = freshFolder();
        QDir().mkpath(folder);
        writeVersion1Database(folder + QStringLiteral("/sandpiper.db"));
        {
            RawDatabase raw(folder + QStringLiteral("/sandpiper.db"));
            const QString call =
                QStringLiteral("{\"id\":\"call_0\",\"name\":\"execute_python_code\",\"arguments\":\"{}\"}");
            const QStringList statements = {
                QStringLiteral("INSERT INTO conversations (id, title, created, updated) VALUES (8, 'Repeats', 1, 1)"),
                QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, created, updated) "
                               "VALUES (10, 8, 1, 'user', 'plot', 1000, 1000)"),
                QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, tool_calls, created, updated) "
                               "VALUES (11, 8, 2, 'assistant', '[%1]', 1001, 1001)")
                    .arg(call),
                QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, tool_call_id, created, "
                               "updated) VALUES (12, 8, 3, 'tool', 'one', 'call_0', 1003, 1003)"),
                QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, created, updated) "
                               "VALUES (13, 8, 4, 'user', 'two more', 2000, 2000)"),
                QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, tool_calls, created, updated) "
                               "VALUES (14, 8, 5, 'assistant', '[%1,%1]', 2001, 2001)")
                    .arg(call),
                QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, tool_call_id, created, "
                               "updated) VALUES (15, 8, 6, 'tool', 'two', 'call_0', 2003, 2003)"),
                QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, tool_call_id, created, "
                               "updated) VALUES (16, 8, 7, 'tool', 'three', 'call_0', 2005, 2005)"),
                QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, created, updated) "
                               "VALUES (17, 8, 8, 'user', 'I ran this code in the sandbox myself:\n```python\nx = 3\n"
                               "```\nResult:\nStatus: ok', 3001, 3001)"),
                QStringLiteral("INSERT INTO executions (conversation_id, tool_call_id, origin, code, status, created) "
                               "VALUES (8, 'call_0', 'model', 'first', 'ok', 1002)"),
                QStringLiteral("INSERT INTO executions (conversation_id, tool_call_id, origin, code, status, created) "
                               "VALUES (8, 'call_0', 'model', 'second', 'ok', 2002)"),
                QStringLiteral("INSERT INTO executions (conversation_id, tool_call_id, origin, code, status, created) "
                               "VALUES (8, 'call_0', 'model', 'third', 'ok', 2004)"),
                QStringLiteral("INSERT INTO executions (conversation_id, origin, code, status, created) "
                               "VALUES (8, 'user', 'x = 3', 'ok', 3000)"),
            };
            for (const QString &statement : statements)
                QVERIFY(raw.exec(statement));
        }

        ConversationStore store(folder);
        QVERIFY(store.open().ok());
        const auto executions = store.executions(8);
        QVERIFY(executions.ok());
        QCOMPARE(executions->size(), 4);
        QCOMPARE(executions->at(0).call, (CallKey{11, 0}));
        QCOMPARE(executions->at(1).call, (CallKey{14, 0}));
        QCOMPARE(executions->at(2).call, (CallKey{14, 1}));
        QCOMPARE(executions->at(3).call, (CallKey{17, 0}));
        QCOMPARE(store.executions(7)->first().call, (CallKey{store.messages(7)->at(1).id, 0}));

        // The chat shows each run under its own call, and the user's run as a run.
        const QList<TurnItem> items = MessageModel::itemsFromHistory(*store.messages(8), *executions);
        QStringList shown;
        for (const TurnItem &item : items)
            shown << (item.kind == TurnItem::Kind::ToolCall ? item.preview + QLatin1Char('/') + item.modelText
                                                            : item.message.content);
        QCOMPARE(shown,
                 (QStringList{QStringLiteral("plot"), QStringLiteral("first/one"), QStringLiteral("two more"),
                              QStringLiteral("second/two"), QStringLiteral("third/three"), QStringLiteral("x = 3/")}));
        QCOMPARE(items.last().origin, RunOrigin::User);

        // Deleting a message takes the runs of the messages below it: they belonged to that branch.
        QVERIFY(store.deleteMessage(8, 13).ok());
        const auto kept = store.allExecutions(8);
        QCOMPARE(kept->size(), 1);
        QCOMPARE(kept->at(0).call, (CallKey{11, 0}));
    }

    // Schema 6 keeps the note on attached files apart from the user's words: a v5 file's messages
    // are split, their files named with the sizes they were attached with, and conversations that
    // were named after the note are named after the words (or the files) instead.
    void upgradesAttachmentNotesApartFromTheWords()
    {
        const QString folder = freshFolder();
        QDir().mkpath(folder);
        writeVersion5Database(folder + QStringLiteral("/sandpiper.db"));

        ConversationStore store(folder);
        const auto opened = store.open();
        QVERIFY2(opened.ok(), qPrintable(opened.error().message));
        QCOMPARE(RawDatabase(store.databasePath()).value(QStringLiteral("PRAGMA user_version")).toInt(),
                 Schema::LatestVersion);

        QCOMPARE(store.conversation(8)->title, QStringLiteral("Plot the revenue"));
        const ChatMessage plot = store.messages(8)->first();
        QCOMPARE(plot.content, QStringLiteral("Plot the revenue\nby month"));
        QCOMPARE(plot.attachments,
                 (QList<AttachedFile>{{QStringLiteral("sales.csv"), 1234}})); // the image shows as one
        QCOMPARE(plot.images, QStringList{QStringLiteral("chart.png")});
        QVERIFY2(plot.attachmentNote.startsWith(QLatin1String("- /mnt/data/sales.csv: CSV document")),
                 qPrintable(plot.attachmentNote));
        QVERIFY2(plot.attachmentNote.contains(QLatin1String("Jan,10")), qPrintable(plot.attachmentNote));
        // The model reads what it read before.
        QVERIFY2(plot.modelContent().startsWith(ChatMessage::attachmentHeader() + QLatin1String("- /mnt/data/sales")),
                 qPrintable(plot.modelContent()));
        QVERIFY2(plot.modelContent().endsWith(QLatin1String("\n\nPlot the revenue\nby month")),
                 qPrintable(plot.modelContent()));

        QCOMPARE(store.conversation(9)->title, QStringLiteral("notes (2).txt"));
        const ChatMessage notes = store.messages(9)->first();
        QVERIFY(notes.content.isEmpty());
        QCOMPARE(notes.attachments, (QList<AttachedFile>{{QStringLiteral("notes (2).txt"), 0}}));

        QCOMPARE(store.conversation(7)->title, QStringLiteral("Old chat"));
        const ChatMessage later = store.messages(7)->last();
        QCOMPARE(later.content, QStringLiteral("And these?"));
        QCOMPARE(later.attachments, (QList<AttachedFile>{{QStringLiteral("colonies.xlsx"), 0}}));

        // Search finds the user's words, not the rows the model was shown.
        QCOMPARE(store.search(QStringLiteral("revenue"))->size(), 1);
        QCOMPARE(store.search(QStringLiteral("turnover"))->size(), 0);
    }

    void attachedFilesStayApartFromTheWords()
    {
        ConversationStore store(freshFolder());
        const auto conversation = store.createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o"));
        QVERIFY(conversation.ok());
        ChatMessage files = makeMessage(Role::User, QString());
        files.attachments = {{QStringLiteral("report 2024.pdf"), 48000}, {QStringLiteral("sales.csv"), 1200}};
        files.attachmentNote = QStringLiteral(
            "- /mnt/data/report 2024.pdf: PDF document, 48 kB\n- /mnt/data/sales.csv: CSV document, 1.2 kB");
        QVERIFY(store.appendMessage(conversation->id, files).ok());
        // Named after the files when the user wrote nothing, never after the note.
        QCOMPARE(store.conversation(conversation->id)->title, QStringLiteral("report 2024.pdf, sales.csv"));
        const ChatMessage stored = store.messages(conversation->id)->first();
        QCOMPARE(stored.attachments, files.attachments);
        QCOMPARE(stored.attachmentNote, files.attachmentNote);
        QVERIFY(stored.content.isEmpty());

        const auto worded = store.createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o"));
        files.content = QStringLiteral("Compare the report with the sales");
        QVERIFY(store.appendMessage(worded->id, files).ok());
        QCOMPARE(store.conversation(worded->id)->title, QStringLiteral("Compare the report with the sales"));

        // Exported, the request reads as the model read it, and imported, the words are the user's again.
        const auto snapshot = store.loadConversation(worded->id);
        QVERIFY(snapshot.ok());
        const QString json = m_dir.filePath(QStringLiteral("files.json"));
        QVERIFY(ConversationExport::writeJson(*snapshot, store.conversationFolder(worded->id), json).ok());
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString sent =
            QJsonDocument::fromJson(file.readAll())[QLatin1String("messages")][0][QLatin1String("content")].toString();
        QCOMPARE(sent, files.modelContent());
        const auto imported = ConversationImport::importFile(store, json);
        QVERIFY2(imported.ok(), qPrintable(imported.error().message));
        const ChatMessage back = store.messages(imported->id)->first();
        QCOMPARE(back.content, files.content);
        QCOMPARE(back.attachmentNote, files.attachmentNote);
        QCOMPARE(back.attachments,
                 (QList<AttachedFile>{{QStringLiteral("report 2024.pdf"), 0}, {QStringLiteral("sales.csv"), 0}}));
        const QString markdown = m_dir.filePath(QStringLiteral("files.md"));
        QVERIFY(ConversationExport::writeMarkdown(*snapshot, store.conversationFolder(worded->id), markdown).ok());
        QFile written(markdown);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(written.readAll());
        QVERIFY2(text.contains(QStringLiteral("*Attached:* `report 2024.pdf` (%1), `sales.csv` (%2)")
                                   .arg(SandboxFolder::formatBytes(48000), SandboxFolder::formatBytes(1200))),
                 qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("/mnt/data")), qPrintable(text));
    }

    void refusesADatabaseFromANewerVersion()
    {
        const QString folder = freshFolder();
        QDir().mkpath(folder);
        {
            RawDatabase raw(folder + QStringLiteral("/sandpiper.db"));
            QVERIFY(raw.exec(QStringLiteral("PRAGMA application_id = %1").arg(Schema::ApplicationId)));
            QVERIFY(raw.exec(QStringLiteral("PRAGMA user_version = 99")));
            QVERIFY(raw.exec(QStringLiteral("CREATE TABLE future (x)")));
        }
        ConversationStore store(folder);
        const auto opened = store.open();
        QVERIFY(!opened.ok());
        QCOMPARE(opened.error().kind, StoreError::Kind::Unavailable);
        QVERIFY2(opened.error().message.contains(QLatin1String("newer version")), qPrintable(opened.error().message));
        QVERIFY(QFileInfo::exists(store.databasePath())); // kept for the newer version to open
        QCOMPARE(QDir(folder).entryList({QStringLiteral("*.broken-*")}, QDir::Files).size(), 0);
    }

    void movesAnUnusableFileAside_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("warning");

        QByteArray random(64 * 1024, Qt::Uninitialized);
        QRandomGenerator generator(42);
        generator.fillRange(reinterpret_cast<quint32 *>(random.data()), random.size() / 4);
        QTest::newRow("random bytes") << random << QStringLiteral("not an SQLite file");
        QTest::newRow("sqlite header, then garbage")
            << (QByteArray("SQLite format 3\0", 16) + random) << QStringLiteral("damaged");
        QTest::newRow("another program's database") << QByteArray() << QStringLiteral("another program");
    }

    void movesAnUnusableFileAside()
    {
        QFETCH(QByteArray, contents);
        QFETCH(QString, warning);
        const QString folder = freshFolder();
        const QString path = folder + QStringLiteral("/sandpiper.db");
        QDir().mkpath(folder + QStringLiteral("/conversations/1"));
        QFile::copy(QFINDTESTDATA("tst_conversationstore.cpp"), folder + QStringLiteral("/conversations/1/kept.txt"));
        QDir().mkpath(folder + QStringLiteral("/snapshots/sha256/ab"));
        QFile::copy(QFINDTESTDATA("tst_conversationstore.cpp"), folder + QStringLiteral("/snapshots/sha256/ab/cdef"));
        if (contents.isEmpty()) {
            RawDatabase raw(path);
            QVERIFY(raw.exec(QStringLiteral("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")));
            QVERIFY(raw.exec(QStringLiteral("INSERT INTO invoices (total) VALUES (99.5)")));
        } else {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(contents);
            file.close();
            QFile wal(path + QStringLiteral("-wal"));
            QVERIFY(wal.open(QIODevice::WriteOnly));
            wal.write("stale journal");
        }

        ConversationStore store(folder);
        const auto opened = store.open();
        QVERIFY2(opened.ok(), qPrintable(opened.error().message));
        QVERIFY2(store.lastWarning().contains(warning), qPrintable(store.lastWarning()));
        QVERIFY(store.lastWarning().contains(QLatin1String("moved to")));

        const QStringList aside = QDir(folder).entryList({QStringLiteral("sandpiper.db.broken-*")}, QDir::Files);
        const QString moved = folder + QLatin1Char('/') + aside.value(0);
        QVERIFY2(QFileInfo::exists(moved), qPrintable(aside.join(QLatin1Char(' '))));
        if (contents.isEmpty()) {
            RawDatabase raw(moved); // never deleted: the other program's data is still there
            QCOMPARE(raw.value(QStringLiteral("SELECT total FROM invoices")).toDouble(), 99.5);
        } else {
            QFile file(moved);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), contents);
            QVERIFY(aside.contains(aside.value(0) + QStringLiteral("-wal")));
            QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")) ||
                    QFileInfo(path + QStringLiteral("-wal")).size() != 13);
        }
        // The old conversation folders went with their database; new ids must not inherit them.
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/conversations/1/kept.txt")));
        const QStringList folders = QDir(folder).entryList({QStringLiteral("conversations.broken-*")}, QDir::Dirs);
        QCOMPARE(folders.size(), 1);
        QVERIFY(QFileInfo::exists(folder + QLatin1Char('/') + folders.first() + QStringLiteral("/1/kept.txt")));
        // So did the kept copies of their files, which the new database would sweep away.
        const QStringList snapshots = QDir(folder).entryList({QStringLiteral("snapshots.broken-*")}, QDir::Dirs);
        QCOMPARE(snapshots.size(), 1);
        QVERIFY(QFileInfo::exists(folder + QLatin1Char('/') + snapshots.first() + QStringLiteral("/sha256/ab/cdef")));

        const auto conversation = store.createConversation(QString(), QString());
        QVERIFY(conversation.ok());
        QVERIFY(store.appendMessage(conversation->id, makeMessage(Role::User, QStringLiteral("fresh start"))).ok());
        QCOMPARE(store.conversations()->size(), 1);
    }

    void deletingAConversationRemovesItsRowsAndFolder()
    {
        ConversationStore store(freshFolder());
        const auto kept = store.createConversation(QString(), QString());
        const auto doomed = store.createConversation(QStringLiteral("ollama"), QStringLiteral("qwen"));
        QVERIFY2(kept.ok(), qPrintable(kept.error().message));
        QVERIFY2(doomed.ok(), qPrintable(doomed.error().message));
        const QString folder = store.conversationFolder(doomed->id);
        QVERIFY(QFileInfo(folder).isDir());
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/figures")));
        QFile figure(folder + QStringLiteral("/figures/fig-1.png"));
        QVERIFY(figure.open(QIODevice::WriteOnly));
        figure.write("png");
        figure.close();

        for (const qint64 id : {kept->id, doomed->id}) {
            QVERIFY(store.appendMessage(id, makeMessage(Role::User, QStringLiteral("shared needle"))).ok());
            QVERIFY(store.addExecution(makeExecution(id, QString(), QStringLiteral("needle = 1"))).ok());
            QVERIFY(store.attachFile(id, QFINDTESTDATA("tst_conversationstore.cpp")).ok());
        }
        QCOMPARE(store.search(QStringLiteral("needle"))->size(), 2);

        const auto deleted = store.deleteConversation(doomed->id);
        QVERIFY2(deleted.ok(), qPrintable(deleted.error().message));
        QVERIFY(!QFileInfo::exists(folder));
        QCOMPARE(store.conversation(doomed->id).error().kind, StoreError::Kind::NotFound);
        QCOMPARE(countRows(store, QStringLiteral("messages")), 1);
        QCOMPARE(countRows(store, QStringLiteral("executions")), 1);
        QCOMPARE(countRows(store, QStringLiteral("attachments")), 1);
        const auto hits = store.search(QStringLiteral("needle"));
        QCOMPARE(hits->size(), 1);
        QCOMPARE(hits->at(0).conversationId, kept->id);
        QCOMPARE(hits->at(0).matchCount, 2);
        QVERIFY(QFileInfo(store.conversationFolder(kept->id)).isDir());
        QCOMPARE(store.deleteConversation(doomed->id).error().kind, StoreError::Kind::NotFound);

        // Ids are never reused, so a new conversation never finds an old folder.
        const auto next = store.createConversation(QString(), QString());
        QVERIFY(next->id > doomed->id);
    }

    // The sandbox can leave links in its folder; deleting the conversation removes them, never
    // what they point to.
    void deletingAConversationRemovesLinksNotTheirTargets()
    {
        ConversationStore store(freshFolder());
        const auto doomed = store.createConversation(QString(), QString());
        const QString folder = store.conversationFolder(doomed->id);
        const QString outside = m_dir.filePath(QStringLiteral("precious"));
        QVERIFY(QDir().mkpath(outside + QStringLiteral("/inner")));
        QFile precious(outside + QStringLiteral("/inner/data.txt"));
        QVERIFY(precious.open(QIODevice::WriteOnly));
        precious.write("keep me");
        precious.close();
        QVERIFY(QFile::link(outside, folder + QStringLiteral("/linked-folder")));
        QVERIFY(QFile::link(precious.fileName(), folder + QStringLiteral("/linked-file.txt")));
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/figures/deeper")));
        QVERIFY(QFile::link(outside, folder + QStringLiteral("/figures/deeper/up")));
        QVERIFY(store.deleteConversation(doomed->id).ok());
        QVERIFY(!QFileInfo::exists(folder));
        QVERIFY(precious.open(QIODevice::ReadOnly));
        QCOMPARE(precious.readAll(), QByteArray("keep me"));
    }

    void uploadsCountAgainstTheDiskLimit()
    {
        ConversationStore store(freshFolder());
        const auto conversation = store.createConversation(QString(), QString());
        const QString folder = store.conversationFolder(conversation->id);
        auto fileOf = [this](const QString &name, qint64 size) {
            QFile file(m_dir.filePath(name));
            if (file.open(QIODevice::WriteOnly))
                file.write(QByteArray(size, 'x'));
            return file.fileName();
        };
        const qint64 limit = 64 * 1024;
        QVERIFY(store.attachFile(conversation->id, fileOf(QStringLiteral("small.bin"), 20 * 1024), limit).ok());
        const auto refused = store.attachFile(conversation->id, fileOf(QStringLiteral("big.bin"), 50 * 1024), limit);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().kind, StoreError::Kind::InvalidInput);
        QVERIFY2(refused.error().message.contains(QLatin1String("big.bin")) &&
                     refused.error().message.contains(QLatin1String("64 KiB limit")),
                 qPrintable(refused.error().message));
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/big.bin")));
        QCOMPARE(store.attachments(conversation->id)->size(), 1);
        // No limit, and a disk that must keep more free than any disk has.
        QVERIFY(store.attachFile(conversation->id, fileOf(QStringLiteral("big.bin"), 50 * 1024)).ok());
        const auto full = store.attachFile(conversation->id, fileOf(QStringLiteral("more.bin"), 10), 0,
                                           std::numeric_limits<qint64>::max() / 2);
        QCOMPARE(full.error().kind, StoreError::Kind::WriteFailed);
        QVERIFY2(full.error().message.contains(QLatin1String("free")), qPrintable(full.error().message));
    }

    void uploadsNeverWriteThroughALinkTheSandboxLeft()
    {
        ConversationStore store(freshFolder());
        const auto conversation = store.createConversation(QString(), QString());
        const QString folder = store.conversationFolder(conversation->id);
        const QString planted = m_dir.filePath(QStringLiteral("planted-target.csv"));
        QVERIFY(QFile::link(planted, folder + QStringLiteral("/sales.csv"))); // dangling
        QFile source(m_dir.filePath(QStringLiteral("sales.csv")));
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write("month,revenue\n");
        source.close();
        const auto attached = store.attachFile(conversation->id, source.fileName());
        QVERIFY2(attached.ok(), qPrintable(attached.error().message));
        QCOMPARE(attached->fileName, QStringLiteral("sales (2).csv"));
        QVERIFY(!QFileInfo::exists(planted));
    }

    void titleFromFirstMessage_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("title");

        const QString ellipsis(QChar(0x2026));
        QTest::newRow("short") << QStringLiteral("What is 2^100 mod 97?") << QStringLiteral("What is 2^100 mod 97?");
        QTest::newRow("first line only") << QStringLiteral("  Plot revenue  \nby month\nplease")
                                         << QStringLiteral("Plot revenue");
        QTest::newRow("blank lines first") << QStringLiteral("\n\n   \n\tHello there") << QStringLiteral("Hello there");
        QTest::newRow("cut at a word")
            << QStringLiteral("Load the attached CSV file with monthly sales and plot the revenue per region as bars")
            << QStringLiteral("Load the attached CSV file with monthly sales and plot the") + ellipsis;
        QTest::newRow("punctuation before the cut")
            << QStringLiteral("Summarise this, then translate it, then shorten it, then, finally, explain it all")
            << QStringLiteral("Summarise this, then translate it, then shorten it, then") + ellipsis;
        QTest::newRow("one long word")
            << QStringLiteral("https://example.com/a/very/long/path/that/goes/on/and/on/for/ever/and/ever/index.html")
            << QStringLiteral("https://example.com/a/very/long/path/that/goes/on/and/on/for") + ellipsis;
        QTest::newRow("code fence skipped")
            << QStringLiteral("```python\nprint('hi')\n```") << QStringLiteral("print('hi')");
        QTest::newRow("markdown heading")
            << QStringLiteral("## Quarterly report") << QStringLiteral("Quarterly report");
        QTest::newRow("whitespace collapsed") << QStringLiteral("a\t\tb   c") << QStringLiteral("a b c");
        QTest::newRow("no words") << QStringLiteral("  \n ... \n") << QString();
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("emoji at the cut")
            << QStringLiteral("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghi🐍🐍 tail")
            << QStringLiteral("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghi") + ellipsis;
    }

    void titleFromFirstMessage()
    {
        QFETCH(QString, text);
        QFETCH(QString, title);
        const QString actual = Conversation::titleFromFirstMessage(text);
        QCOMPARE(actual, title);
        QVERIFY(actual.size() <= Conversation::TitleLength + 1);
    }

    void theFirstUserMessageNamesTheConversation()
    {
        ConversationStore store(freshFolder());
        const auto created = store.createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o"));
        QVERIFY(created.ok());
        QCOMPARE(created->title, QString());
        QVERIFY(store.appendMessage(created->id, makeMessage(Role::System, QStringLiteral("Be brief."))).ok());
        QCOMPARE(store.conversation(created->id)->title, QString());
        QVERIFY(store.appendMessage(created->id, makeMessage(Role::User, QStringLiteral("Plot sales\nthanks"))).ok());
        QCOMPARE(store.conversation(created->id)->title, QStringLiteral("Plot sales"));
        QVERIFY(store.appendMessage(created->id, makeMessage(Role::User, QStringLiteral("And costs?"))).ok());
        QCOMPARE(store.conversation(created->id)->title, QStringLiteral("Plot sales"));

        QVERIFY(store.renameConversation(created->id, QStringLiteral("  Sales  and costs ")).ok());
        QCOMPARE(store.conversation(created->id)->title, QStringLiteral("Sales and costs"));
        QCOMPARE(store.renameConversation(created->id + 1, QStringLiteral("x")).error().kind,
                 StoreError::Kind::NotFound);
    }

    // An answer is stored empty when it starts streaming and filled in as it arrives; search
    // must find what it ended up saying, whichever thread wrote it.
    void searchFindsAnswersThatStreamedIn()
    {
        ConversationStore store(freshFolder());
        const auto created = store.createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o"));
        QVERIFY(created.ok());
        QThread writer;
        writer.start();
        QObject onWriter;
        onWriter.moveToThread(&writer);
        QMetaObject::invokeMethod(
            &onWriter,
            [&] {
                auto placeholder = store.appendMessage(created->id, makeMessage(Role::Assistant, QString()));
                ChatMessage answer = *placeholder;
                answer.content = QStringLiteral("Photosynthesis turns light into sugar.");
                QVERIFY(store.updateMessage(answer).ok());
            },
            Qt::BlockingQueuedConnection);
        writer.quit();
        writer.wait();
        const auto hits = store.search(QStringLiteral("sugar"));
        QVERIFY2(hits.ok(), qPrintable(hits.error().message));
        QCOMPARE(hits->size(), 1);
    }

    void deletingAMessageTakesWhatFollowsIt()
    {
        ConversationStore store(freshFolder());
        const auto created = store.createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o"));
        QVERIFY(created.ok());
        QList<qint64> ids;
        for (const QString &text : {QStringLiteral("one"), QStringLiteral("two"), QStringLiteral("three")}) {
            const auto stored = store.appendMessage(created->id, makeMessage(Role::User, text));
            QVERIFY(stored.ok());
            ids << stored->id;
        }
        QVERIFY(store.deleteMessage(created->id, ids.at(1)).ok());
        const auto left = store.messages(created->id);
        QCOMPARE(left->size(), 1);
        QCOMPARE(left->first().content, QStringLiteral("one"));
        QVERIFY(store.search(QStringLiteral("three")).value().isEmpty());
        // A message of another conversation, or none at all, removes nothing.
        QCOMPARE(store.deleteMessage(created->id + 1, ids.at(0)).error().kind, StoreError::Kind::NotFound);
        QCOMPARE(store.messages(created->id)->size(), 1);
    }

    void listsConversationsMostRecentFirst()
    {
        ConversationStore store(freshFolder());
        const auto first = store.createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o"),
                                                    QJsonObject{{QStringLiteral("approval"), QStringLiteral("never")}});
        QTest::qWait(5);
        const auto second = store.createConversation(QStringLiteral("ollama"), QStringLiteral("llama3"));
        QTest::qWait(5);
        QVERIFY(store.appendMessage(first->id, makeMessage(Role::User, QStringLiteral("bump"))).ok());
        auto list = store.conversations();
        QVERIFY(list.ok());
        QCOMPARE(list->size(), 2);
        QCOMPARE(list->at(0).id, first->id);
        QCOMPARE(list->at(0).messageCount, 1);
        QCOMPARE(list->at(0).settings.value(QLatin1String("approval")).toString(), QStringLiteral("never"));
        QCOMPARE(list->at(1).id, second->id);

        QTest::qWait(5);
        QVERIFY(store.setConversationModel(second->id, QStringLiteral("lmstudio"), QStringLiteral("phi")).ok());
        QVERIFY(store.setConversationSettings(second->id, QJsonObject{{QStringLiteral("network"), true}}).ok());
        list = store.conversations();
        QCOMPARE(list->at(0).id, second->id);
        QCOMPARE(list->at(0).model, QStringLiteral("phi"));
        QCOMPARE(list->at(0).provider, QStringLiteral("lmstudio"));
        QCOMPARE(list->at(0).settings.value(QLatin1String("network")).toBool(), true);
    }

    void storesEveryFieldOfMessagesAndExecutions()
    {
        ConversationStore store(freshFolder());
        const ConversationSnapshot rich = richSnapshot();
        const auto conversation = store.createConversation(QString(), QString());
        QList<ChatMessage> stored;
        for (const ChatMessage &message : rich.messages) {
            auto appended = store.appendMessage(conversation->id, message);
            QVERIFY2(appended.ok(), qPrintable(appended.error().message));
            QVERIFY(appended->id > 0);
            stored.append(*appended);
        }
        compareMessages(*store.messages(conversation->id), rich.messages);
        QCOMPARE(store.messages(conversation->id)->at(2).id, stored.at(2).id);

        for (StoredExecution execution : rich.executions) {
            execution.conversationId = conversation->id;
            auto added = store.addExecution(execution);
            QVERIFY2(added.ok(), qPrintable(added.error().message));
            QCOMPARE(store.execution(added->id)->code, execution.code);
        }
        compareExecutions(*store.executions(conversation->id), rich.executions);
        QCOMPARE(store.execution(12345).error().kind, StoreError::Kind::NotFound);

        ChatMessage changed = stored.at(5);
        changed.content = QStringLiteral("Changed");
        changed.status = Status::Cancelled;
        changed.usage = {1, 2, 3};
        QVERIFY(store.updateMessage(changed).ok());
        const ChatMessage reread = store.messages(conversation->id)->at(5);
        QCOMPARE(reread.content, QStringLiteral("Changed"));
        QCOMPARE(reread.status, Status::Cancelled);
        QCOMPARE(reread.usage, (TokenUsage{1, 2, 3}));
        QVERIFY(reread.updated >= stored.at(5).updated);
        changed.id = 999999;
        QCOMPARE(store.updateMessage(changed).error().kind, StoreError::Kind::NotFound);
    }

    void attachesFilesUnderFreeNames()
    {
        ConversationStore store(freshFolder());
        const auto conversation = store.createConversation(QString(), QString());
        const QString source = m_dir.filePath(QStringLiteral("sales.csv"));
        QFile file(source);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("month,revenue\n1,100\n");
        file.close();

        const auto first = store.attachFile(conversation->id, source);
        const auto second = store.attachFile(conversation->id, source);
        QVERIFY(first.ok() && second.ok());
        QCOMPARE(first->fileName, QStringLiteral("sales.csv"));
        QCOMPARE(second->fileName, QStringLiteral("sales (2).csv"));
        QCOMPARE(first->size, 20);
        const QString folder = store.conversationFolder(conversation->id);
        QVERIFY(QFileInfo::exists(folder + QStringLiteral("/sales (2).csv")));
        QCOMPARE(store.attachments(conversation->id)->size(), 2);

        QVERIFY(store.removeAttachment(first->id).ok());
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/sales.csv")));
        QCOMPARE(store.attachments(conversation->id)->size(), 1);
        QCOMPARE(store.removeAttachment(first->id).error().kind, StoreError::Kind::NotFound);
        QCOMPARE(store.attachFile(conversation->id, m_dir.filePath(QStringLiteral("missing"))).error().kind,
                 StoreError::Kind::InvalidInput);
    }

    void streamingWriterThrottlesAndFlushesOnFinish()
    {
        ConversationStore store(freshFolder());
        const auto conversation = store.createConversation(QString(), QString());
        const auto started =
            store.appendMessage(conversation->id, makeMessage(Role::Assistant, QString(), Status::Streaming));
        QVERIFY(started.ok());
        StreamingWriter writer(&store, *started);
        QSignalSpy saves(&writer, &StreamingWriter::saved);
        auto storedContent = [&] {
            return store.messages(conversation->id)->first().content;
        };

        // Right after the row was created nothing is written; the text is pending.
        writer.appendContent(QStringLiteral("Hel"));
        QCOMPARE(storedContent(), QString());
        // Without further deltas, the pending text is saved once the interval has passed.
        QTRY_COMPARE_WITH_TIMEOUT(storedContent(), QStringLiteral("Hel"), 1000);
        QCOMPARE(saves.size(), 1);

        // Deltas every 10 ms for a second: about four saves, never more than one per interval.
        saves.clear();
        QString expected = QStringLiteral("Hel");
        QElapsedTimer elapsed;
        elapsed.start();
        int delta = 0;
        while (elapsed.elapsed() < 1000) {
            const QString text = QStringLiteral(" d%1").arg(delta++);
            writer.appendContent(text);
            expected += text;
            if (delta % 10 == 0)
                writer.appendReasoning(QStringLiteral("."));
            QTest::qWait(10);
        }
        const qsizetype savedWhileStreaming = saves.size();
        QVERIFY2(savedWhileStreaming >= 2 && savedWhileStreaming <= 5,
                 qPrintable(QString::number(savedWhileStreaming)));
        QVERIFY(expected.startsWith(storedContent()));

        writer.setToolCalls({{QStringLiteral("call_9"), QStringLiteral("execute_python_code"), QStringLiteral("{")}});
        writer.setUsage({10, 20, 30});
        QVERIFY(writer.finish().ok());
        QVERIFY(writer.isFinished());
        const ChatMessage final = store.messages(conversation->id)->first();
        QCOMPARE(final.content, expected);
        QCOMPARE(final.status, Status::Complete);
        QCOMPARE(final.reasoning.size(), delta / 10);
        QCOMPARE(final.toolCalls.size(), 1);
        QCOMPARE(final.usage.totalTokens, 30);
        // Nothing is written after finish().
        const qsizetype total = saves.size();
        QTest::qWait(300);
        QCOMPARE(saves.size(), total);
    }

    void streamingWriterRecordsAnError()
    {
        ConversationStore store(freshFolder());
        const auto conversation = store.createConversation(QString(), QString());
        const auto started =
            store.appendMessage(conversation->id, makeMessage(Role::Assistant, QString(), Status::Streaming));
        {
            StreamingWriter writer(&store, *started, 10s);
            writer.appendContent(QStringLiteral("partial answer"));
            QVERIFY(writer.finish(Status::Error, QStringLiteral("HTTP 500")).ok());
        }
        const ChatMessage stored = store.messages(conversation->id)->first();
        QCOMPARE(stored.content, QStringLiteral("partial answer"));
        QCOMPARE(stored.status, Status::Error);
        QCOMPARE(stored.error, QStringLiteral("HTTP 500"));
    }

    void killedWhileStreamingLosesAtMostOneInterval()
    {
        const QString folder = freshFolder();
        qint64 conversationId = 0;
        {
            ConversationStore store(folder);
            const auto conversation = store.createConversation(QString(), QString());
            QVERIFY(conversation.ok());
            conversationId = conversation->id;
            QVERIFY(store.appendMessage(conversationId, makeMessage(Role::User, QStringLiteral("Tell a story"))).ok());
        }
        QProcess child;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QString::fromLatin1(StreamChildFolder), folder);
        environment.insert(QString::fromLatin1(StreamChildConversation), QString::number(conversationId));
        child.setProcessEnvironment(environment);
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY2(child.waitForStarted(), qPrintable(child.errorString()));
        QByteArray output;
        QTRY_VERIFY_WITH_TIMEOUT((output += child.readAllStandardOutput()).count('\n') >= 200, 10000);
        child.kill(); // SIGKILL: no destructor, no flush
        QVERIFY(child.waitForFinished());
        output += child.readAllStandardOutput();
        const QList<QByteArray> lines = output.trimmed().split('\n');
        const int appended = lines.last().toInt();

        ConversationStore store(folder);
        QVERIFY(store.open().ok());
        QCOMPARE(store.lastRecovery().interruptedMessages, 1);
        const ChatMessage answer = store.messages(conversationId)->last();
        QCOMPARE(answer.status, Status::Interrupted);
        const int saved = int(answer.content.split(QLatin1Char(' '), Qt::SkipEmptyParts).size());
        // The child appends every 5 ms, so one 250 ms interval holds about 50 deltas; allow a
        // little for the write itself and a busy machine.
        const int perInterval = int(StreamingWriter::DefaultInterval / StreamChildAppendEvery);
        QVERIFY2(saved <= appended && appended - saved <= perInterval + 15,
                 qPrintable(QStringLiteral("appended %1, saved %2").arg(appended).arg(saved)));
        QVERIFY(answer.content.startsWith(QLatin1String("w0 w1 w2 ")));
    }

    void recoversWhatALastRunLeftStreaming_data()
    {
        QTest::addColumn<QStringList>("before");
        QTest::addColumn<QStringList>("after");
        QTest::addColumn<int>("interrupted");
        QTest::addColumn<int>("synthesized");

        QTest::newRow("text was streaming")
            << QStringList{"user", "assistant:streaming"} << QStringList{"user", "assistant:interrupted"} << 1 << 0;
        QTest::newRow("calls streamed, none answered")
            << QStringList{"user", "assistant:streaming:c1,c2"}
            << QStringList{"user", "assistant:interrupted:c1,c2", "tool:c1:synthesized", "tool:c2:synthesized"} << 1
            << 2;
        QTest::newRow("second of two calls was running")
            << QStringList{"user", "assistant:complete:c1,c2", "tool:c1"}
            << QStringList{"user", "assistant:complete:c1,c2", "tool:c1", "tool:c2:synthesized"} << 0 << 1;
        QTest::newRow("earlier turns stay untouched")
            << QStringList{"user", "assistant:complete:a1", "tool:a1", "assistant", "user", "assistant:complete:b1"}
            << QStringList{"user",
                           "assistant:complete:a1",
                           "tool:a1",
                           "assistant",
                           "user",
                           "assistant:complete:b1",
                           "tool:b1:synthesized"}
            << 0 << 1;
        // Some servers give every call of a message the same id: each call needs its own answer.
        QTest::newRow("second of two calls with one id was running")
            << QStringList{"user", "assistant:complete:call_0,call_0", "tool:call_0"}
            << QStringList{"user", "assistant:complete:call_0,call_0", "tool:call_0", "tool:call_0:synthesized"} << 0
            << 1;
        QTest::newRow("all answered") << QStringList{"user", "assistant:complete:c1", "tool:c1"}
                                      << QStringList{"user", "assistant:complete:c1", "tool:c1"} << 0 << 0;
        QTest::newRow("finished normally")
            << QStringList{"user", "assistant"} << QStringList{"user", "assistant"} << 0 << 0;
    }

    void recoversWhatALastRunLeftStreaming()
    {
        QFETCH(QStringList, before);
        QFETCH(QStringList, after);
        QFETCH(int, interrupted);
        QFETCH(int, synthesized);
        const QString folder = freshFolder();
        qint64 id = 0;
        qint64 untouchedId = 0;
        {
            ConversationStore store(folder);
            id = store.createConversation(QString(), QString())->id;
            for (const ChatMessage &message : messagesFromSpec(before))
                QVERIFY(store.appendMessage(id, message).ok());
            untouchedId = store.createConversation(QString(), QString())->id;
            QVERIFY(store.appendMessage(untouchedId, makeMessage(Role::User, QStringLiteral("hello"))).ok());
        } // the app "dies" here: nothing finishes what was streaming

        ConversationStore store(folder);
        QVERIFY(store.open().ok());
        QCOMPARE(specFromMessages(*store.messages(id)), after);
        QCOMPARE(store.lastRecovery().interruptedMessages, interrupted);
        QCOMPARE(store.lastRecovery().synthesizedToolResults, synthesized);
        QCOMPARE(store.messages(untouchedId)->size(), 1);
        for (const ChatMessage &message : *store.messages(id)) {
            if (message.role == Role::Tool && message.content.contains(QLatin1String("interrupted"))) {
                QCOMPARE(message.status, Status::Complete);
                QCOMPARE(message.toolName, QStringLiteral("execute_python_code"));
            }
        }
    }

    void searchRanksAndMarksMatches()
    {
        ConversationStore store(freshFolder());
        const auto dense = store.createConversation(QString(), QString());
        const auto sparse = store.createConversation(QString(), QString());
        QVERIFY(store.renameConversation(dense->id, QStringLiteral("Pandas tips")).ok());
        QVERIFY(store.renameConversation(sparse->id, QStringLiteral("Long story")).ok());
        const auto denseMessage =
            store.appendMessage(dense->id, makeMessage(Role::User, QStringLiteral("pandas pandas: pandas groupby")));
        QString filler;
        for (int i = 0; i < 60; ++i)
            filler += QStringLiteral("word%1 ").arg(i);
        QVERIFY(
            store.appendMessage(sparse->id, makeMessage(Role::Assistant, filler + QStringLiteral("pandas ") + filler))
                .ok());
        QVERIFY(
            store.appendMessage(sparse->id, makeMessage(Role::Tool, QStringLiteral("pandas in a tool result"))).ok());
        const auto execution =
            store.addExecution(makeExecution(sparse->id, QString(), QStringLiteral("import pandas as pd")));
        QVERIFY(
            store.appendMessage(dense->id, makeMessage(Role::User, QStringLiteral("Un café crème, s'il vous plaît")))
                .ok());

        const auto hits = store.search(QStringLiteral("pandas"));
        QVERIFY2(hits.ok(), qPrintable(hits.error().message));
        QCOMPARE(hits->size(), 2); // one per conversation
        QCOMPARE(hits->at(0).kind, SearchHit::Kind::Message);
        QCOMPARE(hits->at(0).messageId, denseMessage->id);
        QCOMPARE(hits->at(0).conversationId, dense->id);
        QCOMPARE(hits->at(0).title, QStringLiteral("Pandas tips"));
        QCOMPARE(hits->at(0).matchCount, 1);
        QVERIFY(hits->at(0).score <= hits->at(1).score);
        const QString marked = QString(SearchHit::MatchStart) + QStringLiteral("pandas") + SearchHit::MatchEnd;
        QVERIFY2(hits->at(0).snippet.contains(marked), qPrintable(hits->at(0).snippet));
        QVERIFY(hits->at(0).snippetHtml().contains(QLatin1String("<b>pandas</b>")));
        // The long message and the code; the tool result is not indexed. The message stands for
        // the conversation (the chat scrolls to it), cut around the match.
        const SearchHit &story = hits->at(1);
        QCOMPARE(story.conversationId, sparse->id);
        QCOMPARE(story.matchCount, 2);
        QCOMPARE(story.kind, SearchHit::Kind::Message);
        QVERIFY(story.snippet.size() < filler.size());
        QVERIFY(story.snippet.contains(QChar(0x2026)));
        QVERIFY2(story.snippet.contains(marked), qPrintable(story.snippet));
        // Code alone stands for its conversation when no message matches.
        const auto code = store.search(QStringLiteral("pd"));
        QCOMPARE(code->size(), 1);
        QCOMPARE(code->at(0).kind, SearchHit::Kind::Execution);
        QCOMPARE(code->at(0).executionId, execution->id);
        QCOMPARE(code->at(0).messageId, 0);
        QVERIFY2(code->at(0).snippet.contains(QString(SearchHit::MatchStart) + QStringLiteral("pd")),
                 qPrintable(code->at(0).snippet));

        QCOMPARE(store.search(QStringLiteral("pand"))->size(), 2);           // words match as prefixes
        QCOMPARE(store.search(QStringLiteral("pandas groupby"))->size(), 1); // every word must occur
        QCOMPARE(store.search(QStringLiteral("cafe creme"))->size(), 1);     // diacritics do not matter
        QCOMPARE(store.search(QStringLiteral("PANDAS"))->size(), 2);
        QCOMPARE(store.search(QStringLiteral("pandas"), 1)->size(), 1);
        QCOMPARE(store.search(QStringLiteral("pandas"), 0)->size(), 0);
    }

    // A conversation that matches in many messages and in its code is one hit that counts them
    // all, shown by its best message; another conversation still makes the list.
    void searchFindsEachConversationOnce()
    {
        ConversationStore store(freshFolder());
        const auto chatty = store.createConversation(QString(), QString());
        const auto other = store.createConversation(QString(), QString());
        qint64 best = 0;
        for (int i = 0; i < 5; ++i) {
            const QString text = i == 3 ? QStringLiteral("histogram histogram histogram")
                                        : QStringLiteral("a histogram of column %1 among many other words").arg(i);
            const auto stored = store.appendMessage(chatty->id, makeMessage(Role::User, text));
            QVERIFY(stored.ok());
            if (i == 3)
                best = stored->id;
        }
        QVERIFY(
            store.addExecution(makeExecution(chatty->id, QString(), QStringLiteral("df.hist()  # histogram"))).ok());
        QVERIFY(
            store.appendMessage(other->id, makeMessage(Role::Assistant, QStringLiteral("No histogram here."))).ok());

        const auto hits = store.search(QStringLiteral("histogram"));
        QVERIFY2(hits.ok(), qPrintable(hits.error().message));
        QCOMPARE(hits->size(), 2);
        QCOMPARE(hits->at(0).conversationId, chatty->id);
        QCOMPARE(hits->at(0).matchCount, 6);
        QCOMPARE(hits->at(0).messageId, best);
        const QString marked = QString(SearchHit::MatchStart) + QStringLiteral("histogram") + SearchHit::MatchEnd;
        QCOMPARE(hits->at(0).snippet, QStringList(3, marked).join(QLatin1Char(' ')));
        QCOMPARE(hits->at(1).conversationId, other->id);
        QCOMPARE(hits->at(1).matchCount, 1);
    }

    void searchTakesAnyInput_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("hits");

        QTest::newRow("empty") << QString() << 0;
        QTest::newRow("spaces") << QStringLiteral(" \t\n ") << 0;
        QTest::newRow("lone quote") << QStringLiteral("\"") << 0;
        QTest::newRow("unbalanced quote") << QStringLiteral("\"alpha") << 1;
        QTest::newRow("quoted phrase") << QStringLiteral("\"alpha beta\"") << 1;
        QTest::newRow("star") << QStringLiteral("*") << 0;
        QTest::newRow("star prefix") << QStringLiteral("alp*") << 1;
        QTest::newRow("AND") << QStringLiteral("AND") << 1;
        QTest::newRow("OR between words") << QStringLiteral("alpha OR nothing") << 0;
        QTest::newRow("NOT") << QStringLiteral("NOT alpha") << 0;
        QTest::newRow("NEAR(") << QStringLiteral("NEAR(") << 0;
        QTest::newRow("NEAR group") << QStringLiteral("NEAR(alpha beta, 2)") << 0;
        QTest::newRow("column filter") << QStringLiteral("content:alpha") << 0;
        QTest::newRow("caret") << QStringLiteral("^alpha") << 1;
        QTest::newRow("parentheses") << QStringLiteral("(alpha)") << 1;
        QTest::newRow("minus") << QStringLiteral("-alpha") << 1;
        QTest::newRow("plus") << QStringLiteral("+") << 0;
        QTest::newRow("braces") << QStringLiteral("{content}: alpha") << 0;
        QTest::newRow("SQL") << QStringLiteral("'; DROP TABLE messages; --") << 0;
        QTest::newRow("percent and underscore") << QStringLiteral("% _") << 0;
        QTest::newRow("backslash") << QStringLiteral("\\") << 0;
        QTest::newRow("snake case") << QStringLiteral("read_csv") << 1;
        QTest::newRow("japanese") << QStringLiteral("日本語") << 1;
        QTest::newRow("emoji word") << QStringLiteral("🐍 python") << 1;
        QTest::newRow("control characters") << QStringLiteral("\x01\x02\x03") << 0;
        QTest::newRow("very long") << QStringLiteral("alpha ").repeated(500) << 1;
    }

    void searchTakesAnyInput()
    {
        QFETCH(QString, query);
        QFETCH(int, hits);
        if (!m_searchStore) {
            m_searchStore = std::make_unique<ConversationStore>(freshFolder());
            ConversationStore &store = *m_searchStore;
            const auto conversation = store.createConversation(QString(), QString());
            QVERIFY(store
                        .appendMessage(conversation->id,
                                       makeMessage(Role::User, QStringLiteral("alpha beta and gamma, AND")))
                        .ok());
            QVERIFY(store.appendMessage(conversation->id, makeMessage(Role::User, QStringLiteral("日本語のテキスト")))
                        .ok());
            QVERIFY(
                store.appendMessage(conversation->id, makeMessage(Role::User, QStringLiteral("python 🐍 rocks"))).ok());
            QVERIFY(
                store.addExecution(makeExecution(conversation->id, QString(), QStringLiteral("pd.read_csv(f)"))).ok());
        }
        const auto result = m_searchStore->search(query);
        QVERIFY2(result.ok(), qPrintable(result.error().message));
        QCOMPARE(result->size(), hits);
    }

    void exportsMarkdownWithFigures()
    {
        ConversationStore store(freshFolder());
        const ConversationSnapshot rich = richSnapshot();
        const auto imported = store.insertConversation(rich);
        QVERIFY2(imported.ok(), qPrintable(imported.error().message));
        const QString folder = store.conversationFolder(imported->id);
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/figures")));
        // A PNG's header and end are what the export checks; the rest is copied as it is.
        const QByteArray pngBytes = Test::pngHeader(640, 480) + "pixels";
        QFile png(folder + QStringLiteral("/figures/plot 1.png"));
        QVERIFY(png.open(QIODevice::WriteOnly));
        png.write(pngBytes);
        png.close();
        // Figure paths come from code the model wrote; none may reach outside the folder.
        QFile secret(m_dir.filePath(QStringLiteral("secret.png")));
        QVERIFY(secret.open(QIODevice::WriteOnly));
        secret.write("secret");
        secret.close();
        QVERIFY(QFile::link(secret.fileName(), folder + QStringLiteral("/figures/link.png")));
        QCOMPARE(::mkfifo(QFile::encodeName(folder + QStringLiteral("/figures/pipe.png")).constData(), 0644), 0);
        StoredExecution sneaky = makeExecution(imported->id, QString(), QStringLiteral("sneaky()"));
        sneaky.result.figures = {QStringLiteral("../../secret.png"), QStringLiteral("figures/link.png"),
                                 secret.fileName(), QStringLiteral("figures/pipe.png"),
                                 QStringLiteral("figures/gone.png")};
        QVERIFY(store.addExecution(sneaky).ok());

        const auto snapshot = store.loadConversation(imported->id);
        QVERIFY(snapshot.ok());
        const QString exportFolder = m_dir.filePath(QStringLiteral("export"));
        QDir().mkpath(exportFolder);
        const QString path = exportFolder + QStringLiteral("/Revenue chat.md");
        const auto written = ConversationExport::writeMarkdown(*snapshot, folder, path);
        QVERIFY2(written.ok(), qPrintable(written.error().message));

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString markdown = QString::fromUtf8(file.readAll());
        QVERIFY(markdown.startsWith(QLatin1String("# Revenue by month\n")));
        QVERIFY(markdown.contains(QLatin1String("## You\n\nLoad sales.csv and plot revenue by month")));
        // The code holds a fence, so its block needs a longer one.
        QVERIFY2(markdown.contains(QLatin1String("````python\nprint(2+2)\n```\nfenced\n````")), qPrintable(markdown));
        QVERIFY(markdown.contains(QLatin1String("Output:\n\n```text\n4\n```")));
        QVERIFY(markdown.contains(QLatin1String("Standard error:\n\n```text\nwarning: deprecated\n```")));
        QVERIFY(markdown.contains(QLatin1String("```text\nTraceback (most recent call last):")));
        QVERIFY(markdown.contains(QLatin1String("**Called search_web:**")));
        QVERIFY(markdown.contains(QLatin1String("```text\nQt 6.8 was released.\n```")));
        QVERIFY(markdown.contains(QLatin1String("<summary>Reasoning</summary>")));
        QVERIFY(markdown.contains(QLatin1String("*Error: The server closed the connection.*")));
        QVERIFY(markdown.contains(QLatin1String("## You ran code")));
        // The figure is copied beside the file and linked relatively.
        QVERIFY2(markdown.contains(QLatin1String("](Revenue%20chat_files/figures/plot%201.png)")),
                 qPrintable(markdown));
        QFile copy(exportFolder + QStringLiteral("/Revenue chat_files/figures/plot 1.png"));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), pngBytes);
        QVERIFY(!markdown.contains(folder)); // no absolute paths of this machine
        QCOMPARE(markdown.count(QLatin1String("*(a figure was not exported: ")), 5);
        QVERIFY(markdown.contains(QStringLiteral("“../../secret.png” is not a name inside the conversation's folder")));
        QVERIFY(markdown.contains(QStringLiteral("“figures/link.png” is or goes through a symbolic link")));
        QVERIFY(markdown.contains(QStringLiteral("“figures/pipe.png” is not a regular file but a named pipe")));
        QVERIFY(markdown.contains(QStringLiteral("“figures/gone.png” does not exist")));
        QVERIFY(!QFileInfo::exists(exportFolder + QStringLiteral("/Revenue chat_files/figures/link.png")));
        QVERIFY(!QFileInfo::exists(exportFolder + QStringLiteral("/secret.png")));

        // Exporting again over the first export works.
        QVERIFY(ConversationExport::writeMarkdown(*snapshot, folder, path).ok());
    }

    void jsonExportImportsBackEqual()
    {
        ConversationStore store(freshFolder());
        const auto original = store.insertConversation(richSnapshot());
        QVERIFY(original.ok());
        const auto before = store.loadConversation(original->id);
        QVERIFY(before.ok());

        const QString path = m_dir.filePath(QStringLiteral("roundtrip.json"));
        QVERIFY(ConversationExport::writeJson(*before, store.conversationFolder(original->id), path).ok());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(json.value(QLatin1String("format")).toString(), QStringLiteral("sandpiper-conversation"));
        QCOMPARE(json.value(QLatin1String("version")).toInt(), 1);
        const QJsonObject call = json.value(QLatin1String("messages")).toArray().at(2).toObject();
        QCOMPARE(call.value(QLatin1String("content")).type(), QJsonValue::Null); // as OpenAI expects
        QCOMPARE(call[QLatin1String("tool_calls")][0][QLatin1String("function")][QLatin1String("name")].toString(),
                 QStringLiteral("execute_python_code"));
        QCOMPARE(call[QLatin1String("sandpiper")][QLatin1String("usage")][QLatin1String("total_tokens")].toInt(), 150);

        const auto imported = ConversationImport::importFile(store, path);
        QVERIFY2(imported.ok(), qPrintable(imported.error().message));
        QVERIFY(imported->id != original->id);
        QVERIFY(QFileInfo(store.conversationFolder(imported->id)).isDir());
        const auto after = store.loadConversation(imported->id);
        QVERIFY(after.ok());
        QCOMPARE(after->conversation.title, before->conversation.title);
        QCOMPARE(after->conversation.provider, before->conversation.provider);
        QCOMPARE(after->conversation.model, before->conversation.model);
        QCOMPARE(after->conversation.settings, before->conversation.settings);
        QCOMPARE(after->conversation.created, before->conversation.created);
        compareMessages(after->messages, before->messages);
        compareExecutions(after->executions, before->executions);
        compareMessages(after->messages, richSnapshot().messages);
    }

    // Exported as the OpenAI vision format (the bytes as given, in data URLs, their names beside)
    // and imported back as files of the new conversation's folder.
    void userImagesTravelThroughTheJsonExport()
    {
        ConversationStore store(freshFolder());
        const ImageChat chat = storeImageChat(store);
        QVERIFY(chat.id);
        const auto snapshot = store.loadConversation(chat.id);
        QVERIFY(snapshot.ok());
        const QString path = m_dir.filePath(QStringLiteral("images.json"));
        QVERIFY(ConversationExport::writeJson(*snapshot, store.conversationFolder(chat.id), path).ok());

        const QJsonObject json = QJsonDocument::fromJson(Test::readFile(path)).object();
        const QJsonObject first = json[QLatin1String("messages")][0].toObject();
        const QJsonArray parts = first[QLatin1String("content")].toArray();
        QCOMPARE(parts.size(), 3);
        QCOMPARE(parts[0][QLatin1String("text")].toString(), QStringLiteral("What is in the photo?"));
        QCOMPARE(parts[1][QLatin1String("type")].toString(), QStringLiteral("image_url"));
        QCOMPARE(parts[1][QLatin1String("image_url")][QLatin1String("url")].toString(),
                 QLatin1String("data:image/png;base64,") + QString::fromLatin1(chat.photo.toBase64()));
        QCOMPARE(first[QLatin1String("sandpiper")][QLatin1String("images")].toArray(),
                 (QJsonArray{QStringLiteral("photo 1.png"), QStringLiteral("figures/fig-a-1.png")}));
        // The deleted one is named, with why, and not pretended to be there.
        const QJsonObject third = json[QLatin1String("messages")][2].toObject();
        QCOMPARE(third[QLatin1String("content")].toArray().size(), 2);
        const QJsonArray notExported =
            third[QLatin1String("sandpiper")][QLatin1String("images_not_exported")].toArray();
        QCOMPARE(notExported.size(), 1);
        QVERIFY2(notExported[0].toString().startsWith(QLatin1String("gone.png: ")),
                 qPrintable(notExported[0].toString()));

        const auto imported = ConversationImport::importFile(store, path);
        QVERIFY2(imported.ok(), qPrintable(imported.error().message));
        const auto messages = store.messages(imported->id);
        QVERIFY(messages.ok());
        QCOMPARE(messages->at(0).content, QStringLiteral("What is in the photo?"));
        QCOMPARE(messages->at(0).images, (QStringList{QStringLiteral("photo 1.png"), QStringLiteral("fig-a-1.png")}));
        QCOMPARE(messages->at(2).images, QStringList{QStringLiteral("photo 1.png")}); // the same file, once
        const QString folder = store.conversationFolder(imported->id);
        QCOMPARE(Test::readFile(folder + QStringLiteral("/photo 1.png")), chat.photo);
        QCOMPARE(Test::readFile(folder + QStringLiteral("/fig-a-1.png")), chat.figure);
        QCOMPARE(QDir(folder).entryList(QDir::Files).size(), 2);
    }

    // Two images of one name but other bytes both survive an import (a hand-made file).
    void importedImagesOfOneNameKeepBoth()
    {
        auto image = [](const QByteArray &png) {
            return QJsonObject{{QStringLiteral("type"), QStringLiteral("image_url")},
                               {QStringLiteral("image_url"),
                                QJsonObject{{QStringLiteral("url"), QString(QLatin1String("data:image/png;base64,") +
                                                                            QString::fromLatin1(png.toBase64()))}}}};
        };
        auto user = [](const QJsonArray &parts, const QStringList &names) {
            return QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                               {QStringLiteral("content"), parts},
                               {QStringLiteral("sandpiper"),
                                QJsonObject{{QStringLiteral("images"), QJsonArray::fromStringList(names)}}}};
        };
        const QJsonObject root{{QStringLiteral("format"), QStringLiteral("sandpiper-conversation")},
                               {QStringLiteral("version"), 1},
                               {QStringLiteral("messages"),
                                QJsonArray{user({image(Test::pngImage(8, 8)), image(Test::pngImage(9, 9))},
                                                {QStringLiteral("a.png"), QStringLiteral("a.png")}),
                                           user({image(Test::pngImage(8, 8))}, {QStringLiteral("../../evil.png")})}}};
        const QByteArray json = QJsonDocument(root).toJson();
        const auto parsed = ConversationImport::parse(json);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error().message));
        QCOMPARE(parsed->messages[0].images, (QStringList{QStringLiteral("a.png"), QStringLiteral("a-2.png")}));
        // A name that reaches out of the folder keeps only its file name.
        QCOMPARE(parsed->messages[1].images, QStringList{QStringLiteral("evil.png")});
        QCOMPARE(parsed->files.keys(),
                 (QStringList{QStringLiteral("a-2.png"), QStringLiteral("a.png"), QStringLiteral("evil.png")}));
        QCOMPARE(parsed->files.value(QStringLiteral("a-2.png")), Test::pngImage(9, 9));
    }

    // An image larger than ModelImage takes is refused before it is decoded.
    void anOversizedImportedImageIsRefused()
    {
        const QByteArray base64(ModelImage::MaxFileBytes / 3 * 4 + 4096, 'A');
        const auto parsed = ConversationImport::parse(
            importWithImage(QLatin1String("data:image/png;base64,") + QString::fromLatin1(base64)));
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error().message.contains(QLatin1String("Image 1 of message 1 is larger than 64 MiB")),
                 qPrintable(parsed.error().message));
    }

    void exportsUserImagesBesideTheMarkdown()
    {
        ConversationStore store(freshFolder());
        const ImageChat chat = storeImageChat(store);
        const auto snapshot = store.loadConversation(chat.id);
        QVERIFY(snapshot.ok());
        const QString exportFolder = m_dir.filePath(QStringLiteral("image-export"));
        QVERIFY(QDir().mkpath(exportFolder));
        const QString path = exportFolder + QStringLiteral("/Look.md");
        const auto written = ConversationExport::writeMarkdown(*snapshot, store.conversationFolder(chat.id), path);
        QVERIFY2(written.ok(), qPrintable(written.error().message));
        const QString markdown = QString::fromUtf8(Test::readFile(path));
        QVERIFY2(
            markdown.contains(QLatin1String("## You\n\nWhat is in the photo?\n\n![photo 1](Look_files/photo%201.png)"
                                            "\n\n![fig-a-1](Look_files/figures/fig-a-1.png)")),
            qPrintable(markdown));
        QCOMPARE(Test::readFile(exportFolder + QStringLiteral("/Look_files/photo 1.png")), chat.photo);
        QCOMPARE(Test::readFile(exportFolder + QStringLiteral("/Look_files/figures/fig-a-1.png")), chat.figure);
        QVERIFY2(markdown.contains(QStringLiteral("*(an image was not exported: “gone.png” does not exist")),
                 qPrintable(markdown));
    }

    void rejectsInvalidImports_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");

        const QByteArray head = R"({"format": "sandpiper-conversation", "version": 1, )";
        QTest::newRow("not JSON") << QByteArray("{\n  \"title\": \"x\",\n  oops\n}")
                                  << QStringLiteral("at line 3, column ");
        QTest::newRow("empty file") << QByteArray() << QStringLiteral("not valid JSON");
        QTest::newRow("truncated") << head.left(30) << QStringLiteral("not valid JSON");
        QTest::newRow("array") << QByteArray("[1, 2]") << QStringLiteral("holds no JSON object");
        QTest::newRow("no format") << QByteArray(R"({"messages": []})")
                                   << QStringLiteral("its \"format\" is missing instead of \"sandpiper-conversation\"");
        QTest::newRow("wrong format") << QByteArray(R"({"format": "chatgpt-export", "messages": []})")
                                      << QStringLiteral("its \"format\" is \"chatgpt-export\"");
        QTest::newRow("newer version") << QByteArray(R"({"format": "sandpiper-conversation", "version": 7})")
                                       << QStringLiteral("newer Sandpiper (format version 7");
        QTest::newRow("version text") << QByteArray(R"({"format": "sandpiper-conversation", "version": "1"})")
                                      << QStringLiteral("invalid \"version\": \"1\"");
        QTest::newRow("no messages") << head + R"("title": "x"})" << QStringLiteral("no \"messages\" list");
        QTest::newRow("title not text") << head + R"("title": 5, "messages": []})"
                                        << QStringLiteral("\"title\" that is not text: 5");
        QTest::newRow("bad created") << head + R"("created": "yesterday", "messages": []})"
                                     << QStringLiteral("invalid \"created\" time: \"yesterday\"");
        QTest::newRow("message not object") << head + R"("messages": [{"role": "user", "content": "a"}, 3]})"
                                            << QStringLiteral("Message 2 is not an object");
        QTest::newRow("unknown role")
            << head + R"("messages": [{"role": "user", "content": "a"}, {"role": "robot", "content": "b"}]})"
            << QStringLiteral("Message 2 has an unknown role \"robot\"");
        QTest::newRow("no role") << head + R"("messages": [{"content": "a"}]})"
                                 << QStringLiteral("Message 1 has no \"role\"");
        QTest::newRow("tool without call id")
            << head + R"("messages": [{"role": "user", "content": "a"},
                {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
                 "function": {"name": "execute_python_code", "arguments": "{}"}}]},
                {"role": "tool", "content": "4"}]})"
            << QStringLiteral("Message 3 is a tool result without a \"tool_call_id\"");
        QTest::newRow("tool answering nothing")
            << head + R"("messages": [{"role": "user", "content": "a"}, {"role": "tool", "tool_call_id": "c9",
                "content": "4"}]})"
            << QStringLiteral("Message 2 answers the tool call \"c9\", which the assistant message before it did not "
                              "make");
        QTest::newRow("call without id")
            << head + R"("messages": [{"role": "assistant", "tool_calls": [{"function": {"name": "f"}}]}]})"
            << QStringLiteral("Tool call 1 of message 1 has no \"id\"");
        QTest::newRow("tool calls on a user message")
            << head + R"("messages": [{"role": "user", "tool_calls": []}]})"
            << QStringLiteral("Message 1 has \"tool_calls\", which only assistant messages can have");
        QTest::newRow("content of the wrong type") << head + R"("messages": [{"role": "user", "content": 42}]})"
                                                   << QStringLiteral("Message 1 has a \"content\" that is neither");
        QTest::newRow("unknown status")
            << head + R"("messages": [{"role": "user", "content": "a", "sandpiper": {"status": "done"}}]})"
            << QStringLiteral("Message 1 has an unknown status \"done\"");
        QTest::newRow("usage not a number") << head + R"("messages": [{"role": "user", "content": "a",
                "sandpiper": {"usage": {"total_tokens": "many"}}}]})"
                                            << QStringLiteral("Message 1 has a \"total_tokens\" that is not a number");
        const QString png = QLatin1String("data:image/png;base64,");
        QTest::newRow("not an image") << importWithImage(png + QString::fromLatin1(QByteArray("some text").toBase64()))
                                      << QStringLiteral("Image 1 of message 1 is not an image Sandpiper can read");
        QTest::newRow("corrupt image")
            << importWithImage(png +
                               QString::fromLatin1(QByteArray(Test::pngHeader(50, 50) + "no pixels here").toBase64()))
            << QStringLiteral("Image 1 of message 1 could not be read as an image");
        QTest::newRow("not base64") << importWithImage(png + QStringLiteral("@@@@"))
                                    << QStringLiteral("Image 1 of message 1 is not valid base64");
        QTest::newRow("remote image") << importWithImage(QStringLiteral("https://example.org/cat.png"))
                                      << QStringLiteral("Image 1 of message 1 is not embedded in the file");
        QTest::newRow("image without url")
            << importWithParts({QJsonObject{{QStringLiteral("type"), QStringLiteral("image_url")},
                                            {QStringLiteral("image_url"), QJsonObject()}}})
            << QStringLiteral("Message 1 has an image part without a \"url\"");
        QTest::newRow("image of the assistant")
            << importWithImage(png + QString::fromLatin1(Test::pngImage(4, 4).toBase64()), QStringLiteral("assistant"))
            << QStringLiteral("Message 1 has images, which only user messages can have");
        QTest::newRow("audio part") << importWithParts(
                                           {QJsonObject{{QStringLiteral("type"), QStringLiteral("input_audio")}}})
                                    << QStringLiteral("Message 1 has a content part that is neither text nor an image");
        QTest::newRow("execution without code") << head + R"("messages": [], "executions": [{"status": "ok"}]})"
                                                << QStringLiteral("Execution 1 has no \"code\"");
        QTest::newRow("execution status")
            << head + R"("messages": [], "executions": [{"code": "1", "status": "fine"}]})"
            << QStringLiteral("Execution 1 has an unknown status \"fine\"");
        QTest::newRow("execution origin")
            << head + R"("messages": [], "executions": [{"code": "1", "status": "ok", "origin": "cat"}]})"
            << QStringLiteral("Execution 1 has an unknown origin \"cat\"");
        QTest::newRow("figures not a list")
            << head + R"("messages": [], "executions": [{"code": "1", "status": "ok", "figures": "a.png"}]})"
            << QStringLiteral("Execution 1 has a \"figures\" that is not a list");
    }

    void rejectsInvalidImports()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        ConversationStore store(freshFolder());
        QVERIFY(store.insertConversation(richSnapshot()).ok());
        const QString path = m_dir.filePath(QStringLiteral("invalid.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(json);
        file.close();

        const auto imported = ConversationImport::importFile(store, path);
        QVERIFY(!imported.ok());
        QCOMPARE(imported.error().kind, StoreError::Kind::InvalidInput);
        if (QJsonDocument::fromJson(json).isNull())
            QVERIFY(imported.error().message.startsWith(QLatin1String("The file is not valid JSON: ")));
        QVERIFY2(imported.error().message.contains(error), qPrintable(imported.error().message));
        QCOMPARE(store.conversations()->size(), 1);
        QCOMPARE(countRows(store, QStringLiteral("messages")), richSnapshot().messages.size());
        QCOMPARE(QDir(store.dataFolder() + QStringLiteral("/conversations"))
                     .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                     .size(),
                 1);
    }

    void aFailedImportLeavesNothingBehind()
    {
        ConversationStore store(freshFolder());
        ConversationSnapshot snapshot = richSnapshot();
        for (int i = 0; i < 500; ++i)
            snapshot.messages.append(makeMessage(Role::User, QStringLiteral("message %1").arg(i)));
        // A value the schema refuses, late in the import: everything before it must go too.
        snapshot.messages[400].role = static_cast<Role>(42);
        const auto imported = store.insertConversation(snapshot);
        QVERIFY(!imported.ok());
        QCOMPARE(countRows(store, QStringLiteral("conversations")), 0);
        QCOMPARE(countRows(store, QStringLiteral("messages")), 0);
        QCOMPARE(countRows(store, QStringLiteral("executions")), 0);
        QCOMPARE(store.search(QStringLiteral("message"))->size(), 0);
        QVERIFY(!QFileInfo::exists(store.conversationFolder(1)));
        snapshot.messages[400].role = Role::User;
        QVERIFY(store.insertConversation(snapshot).ok());
    }

    void reportsAndRecoversFromUnwritableStorage_data()
    {
        QTest::addColumn<QString>("obstacle");
        QTest::addColumn<int>("kind");

        QTest::newRow("data folder is a file") << QStringLiteral("data folder") << int(StoreError::Kind::Unavailable);
        QTest::newRow("conversations folder is a file")
            << QStringLiteral("conversations folder") << int(StoreError::Kind::WriteFailed);
        QTest::newRow("read-only data folder") << QStringLiteral("read-only") << int(StoreError::Kind::Unavailable);
    }

    void reportsAndRecoversFromUnwritableStorage()
    {
        QFETCH(QString, obstacle);
        QFETCH(int, kind);
        const QString folder = freshFolder();
        ConversationStore store(folder);
        QString blocker;
        if (obstacle == QLatin1String("data folder")) {
            blocker = folder;
        } else if (obstacle == QLatin1String("conversations folder")) {
            QVERIFY(store.open().ok());
            blocker = folder + QStringLiteral("/conversations");
            QVERIFY(QDir(blocker).removeRecursively());
        } else {
            if (::geteuid() == 0)
                QSKIP("Permissions do not stop root; the other rows and diskFull cover the same error paths as root.");
            QVERIFY(QDir().mkpath(folder));
            QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
        }
        if (!blocker.isEmpty()) {
            QFile file(blocker);
            QVERIFY(file.open(QIODevice::WriteOnly));
        }

        const auto failed = store.createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o"));
        QVERIFY(!failed.ok());
        QCOMPARE(int(failed.error().kind), kind);
        QVERIFY2(failed.error().message.contains(QDir::toNativeSeparators(folder)), qPrintable(failed.error().message));
        QVERIFY(!store.search(QStringLiteral("anything")).ok() || obstacle == QLatin1String("conversations folder"));

        // Once the obstacle is gone, the next call succeeds: nothing has to be restarted.
        if (blocker.isEmpty())
            QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        else
            QVERIFY(QFile::remove(blocker));
        const auto created = store.createConversation(QStringLiteral("openai"), QStringLiteral("gpt-4o"));
        QVERIFY2(created.ok(), qPrintable(created.error().message));
        QCOMPARE(store.conversations()->size(), 1);
        QVERIFY(QFileInfo(store.conversationFolder(created->id)).isDir());
    }

    void diskFull()
    {
        ConversationStore store(freshFolder());
        const auto conversation = store.createConversation(QString(), QString());
        QVERIFY(conversation.ok());
        QVERIFY(store.appendMessage(conversation->id, makeMessage(Role::User, QStringLiteral("small"))).ok());
        const auto started =
            store.appendMessage(conversation->id, makeMessage(Role::Assistant, QString(), Status::Streaming));
        QVERIFY(started.ok());
        const qint64 used = std::max(QFileInfo(store.databasePath()).size(),
                                     QFileInfo(store.databasePath() + QStringLiteral("-wal")).size());
        const QString big = QStringLiteral("x").repeated(4 * 1024 * 1024);

        StreamingWriter writer(&store, *started, 10ms);
        QSignalSpy failures(&writer, &StreamingWriter::saveFailed);
        {
            FileSizeLimit full(rlim_t(used) + 4096);
            QVERIFY(full.isActive());
            const auto refused = store.appendMessage(conversation->id, makeMessage(Role::User, big));
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().kind, StoreError::Kind::WriteFailed);
            QVERIFY2(refused.error().message.contains(QLatin1String("disk")), qPrintable(refused.error().message));
            // Reading goes on while writing fails.
            QVERIFY(store.messages(conversation->id).ok());
            QVERIFY(store.search(QStringLiteral("small")).ok());
            // A streaming answer keeps its text and says it could not save it.
            writer.appendContent(big);
            QTRY_VERIFY(failures.size() >= 1);
        }
        QVERIFY(failures.first().first().toString().contains(QLatin1String("disk")));
        // With room again, writes succeed and the streaming writer catches up.
        const auto accepted = store.appendMessage(conversation->id, makeMessage(Role::User, big));
        QVERIFY2(accepted.ok(), qPrintable(accepted.error().message));
        QVERIFY(writer.finish().ok());
        const auto messages = store.messages(conversation->id);
        QCOMPARE(messages->size(), 3);
        QCOMPARE(messages->at(1).content.size(), big.size());
        QCOMPARE(messages->at(2).content.size(), big.size());
    }

    void loadsTenThousandMessagesQuickly()
    {
        ConversationStore store(freshFolder());
        ConversationSnapshot snapshot;
        snapshot.conversation.title = QStringLiteral("Marathon");
        for (int i = 0; i < 10000; ++i) {
            ChatMessage message = makeMessage(i % 2 ? Role::Assistant : Role::User,
                                              QStringLiteral("Message number %1 with some text to render.").arg(i));
            if (i % 10 == 1) {
                message.toolCalls = {{QStringLiteral("call_%1").arg(i), QStringLiteral("execute_python_code"),
                                      QStringLiteral("{\"code\": \"print(%1)\"}").arg(i)}};
            }
            snapshot.messages.append(message);
        }
        QElapsedTimer timer;
        timer.start();
        const auto stored = store.insertConversation(snapshot);
        QVERIFY2(stored.ok(), qPrintable(stored.error().message));
        const qint64 insertMs = timer.restart();
        const auto loaded = store.loadConversation(stored->id);
        const qint64 loadMs = timer.elapsed();
        QVERIFY(loaded.ok());
        qInfo("10 000 messages: stored in %lld ms, loaded in %lld ms", insertMs, loadMs);
        QCOMPARE(loaded->messages.size(), 10000);
        QCOMPARE(loaded->conversation.messageCount, 10000);
        QCOMPARE(loaded->messages.at(9999).content, QStringLiteral("Message number 9999 with some text to render."));
        QCOMPARE(loaded->messages.at(11).toolCalls.first().id, QStringLiteral("call_11"));
        QVERIFY2(loadMs < 1000, qPrintable(QString::number(loadMs))); // a debug build; release is far faster
    }

    void readsFromAnotherThreadWhileWriting()
    {
        auto store = std::make_unique<ConversationStore>(freshFolder());
        const auto conversation = store->createConversation(QString(), QString());
        QVERIFY(conversation.ok());
        const qsizetype connectionsBefore = QSqlDatabase::connectionNames().size();
        constexpr int Messages = 300;

        std::atomic<int> writeFailures = 0;
        std::atomic<int> reads = 0;
        std::unique_ptr<QThread> writer(QThread::create([&] {
            for (int i = 0; i < Messages; ++i) {
                // Halfway, the writer lets the reader catch up: on a loaded machine it could
                // otherwise finish before the GUI thread read twice, and nothing would overlap.
                if (i == Messages / 2) {
                    const QDeadlineTimer patience(std::chrono::seconds(30));
                    while (reads.load() < 2 && !patience.hasExpired())
                        QThread::msleep(1);
                }
                auto message =
                    store->appendMessage(conversation->id, makeMessage(Role::Assistant, QString(), Status::Streaming));
                if (!message) {
                    ++writeFailures;
                    continue;
                }
                message.value().content = QStringLiteral("answer %1").arg(i);
                message.value().status = Status::Complete;
                if (!store->updateMessage(*message))
                    ++writeFailures;
            }
        }));
        writer->start();
        qsizetype seen = 0;
        while (!writer->isFinished()) {
            const auto snapshot = store->loadConversation(conversation->id);
            QVERIFY2(snapshot.ok(), qPrintable(snapshot.error().message));
            QVERIFY(snapshot->messages.size() >= seen);
            seen = snapshot->messages.size();
            // A consistent snapshot: the count agrees with the rows read in the same transaction.
            QCOMPARE(snapshot->conversation.messageCount, snapshot->messages.size());
            // The GUI thread may write too (a rename) while the worker writes.
            QVERIFY(store->renameConversation(conversation->id, QStringLiteral("read %1").arg(reads++)).ok());
        }
        writer->wait();
        QCOMPARE(writeFailures.load(), 0);
        QVERIFY(reads.load() > 1);
        const auto messages = store->messages(conversation->id);
        QCOMPARE(messages->size(), Messages);
        QCOMPARE(messages->last().content, QStringLiteral("answer %1").arg(Messages - 1));
        // The worker's connection closes as its thread ends; the store's own close with it.
        QTRY_COMPARE(QSqlDatabase::connectionNames().size(), connectionsBefore);
        store.reset();
        QCOMPARE(QSqlDatabase::connectionNames().size(), connectionsBefore - 1);
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsSet(StreamChildFolder))
        return runStreamingChild();
    TestConversationStore test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_conversationstore.moc"
