#include "rawdatabase.h"
#include "testconversation.h"

#include <storage/conversationexport.h>
#include <storage/conversationimport.h>
#include <storage/conversationstore.h>
#include <storage/notebookexport.h>
#include <storage/schema.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using Sandpiper::Test::RawDatabase;
using Sandpiper::Test::TestConversation;
using Role = ChatMessage::Role;

namespace {

ChatMessage makeMessage(Role role, const QString &content)
{
    ChatMessage message;
    message.role = role;
    message.content = content;
    return message;
}

QStringList contents(const QList<ChatMessage> &messages)
{
    QStringList texts;
    for (const ChatMessage &message : messages)
        texts << message.content;
    return texts;
}

QString contentsOf(const StoreResult<QList<ChatMessage>> &messages)
{
    return messages ? contents(*messages).join(QLatin1Char('/')) : messages.error().message;
}

StoredExecution runOf(qint64 conversationId, const CallKey &call, const QString &code)
{
    StoredExecution execution;
    execution.conversationId = conversationId;
    execution.call = call;
    execution.toolCallId = QStringLiteral("c1");
    execution.code = code;
    execution.result.status = ExecutionResult::Status::Ok;
    return execution;
}

QStringList codes(const StoreResult<QList<StoredExecution>> &executions)
{
    QStringList found;
    for (const StoredExecution &execution : executions.value())
        found << execution.code;
    return found;
}

// A database as version 7 (the release before conversations kept versions) left it: made with the
// released migrations, the rows written as that release wrote them, and the leftovers a database
// without foreign keys could hold. ROWS counts the rows of each table.
void writeVersion7Database(const QString &path)
{
    RawDatabase raw(path);
    QVERIFY(raw.exec(QStringLiteral("PRAGMA journal_mode = WAL")));
    for (int version = 1; version <= 7; ++version) {
        QVERIFY(raw.exec(QStringLiteral("BEGIN")));
        for (const QString &statement : Schema::migrationTo(version))
            QVERIFY(raw.exec(statement));
        QSqlQuery query(QSqlDatabase::database(raw.name()));
        QVERIFY(Schema::rewriteRowsFor(version, query));
        QVERIFY(raw.exec(QStringLiteral("COMMIT")));
    }
    const QStringList statements = {
        QStringLiteral("PRAGMA application_id = %1").arg(Schema::ApplicationId),
        QStringLiteral("PRAGMA user_version = 7"),
        QStringLiteral("INSERT INTO conversations (id, title, created, updated) VALUES (3, 'Penguins', 1, 1)"),
        QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, created, updated) VALUES "
                       "(10, 3, 1, 'user', 'How many penguins?', 1, 1)"),
        QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, tool_calls, created, updated) "
                       "VALUES (11, 3, 2, 'assistant', '', '[{\"id\":\"c1\",\"name\":\"execute_python_code\","
                       "\"arguments\":\"{}\"}]', 2, 2)"),
        QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, tool_call_id, created, updated) "
                       "VALUES (12, 3, 3, 'tool', '20000000', 'c1', 3, 3)"),
        QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, created, updated) VALUES "
                       "(13, 3, 4, 'assistant', 'About twenty million.', 4, 4)"),
        // Two rows of one place (a hand-edited file): the older row first.
        QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, created, updated) VALUES "
                       "(15, 3, 5, 'user', 'And emperors?', 5, 5)"),
        QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, created, updated) VALUES "
                       "(14, 3, 5, 'user', 'Thanks.', 5, 5)"),
        QStringLiteral("INSERT INTO executions (conversation_id, tool_call_id, origin, code, status, created, "
                       "message_id, call_index) VALUES (3, 'c1', 'model', 'count()', 'ok', 3, 11, 0)"),
        // A run whose message an edit dropped, and one that names a message that is not there.
        QStringLiteral("INSERT INTO executions (conversation_id, tool_call_id, origin, code, status, created) "
                       "VALUES (3, 'c9', 'model', 'dropped()', 'ok', 3)"),
        QStringLiteral("INSERT INTO executions (conversation_id, tool_call_id, origin, code, status, created, "
                       "message_id, call_index) VALUES (3, 'c2', 'model', 'gone()', 'ok', 3, 99, 0)"),
        QStringLiteral("INSERT INTO conversations (id, title, created, updated) VALUES (4, 'Other', 1, 1)"),
        QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, created, updated) VALUES "
                       "(20, 4, 1, 'user', 'Hello', 1, 1)"),
        QStringLiteral("INSERT INTO conversations (id, title, created, updated) VALUES (5, 'Empty', 1, 1)"),
        // Rows whose conversation is gone.
        QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, created, updated) VALUES "
                       "(30, 50, 1, 'user', 'orphaned question', 7, 7)"),
        QStringLiteral("INSERT INTO messages (id, conversation_id, seq, role, content, created, updated) VALUES "
                       "(31, 50, 2, 'assistant', 'orphaned answer', 8, 8)"),
        QStringLiteral("INSERT INTO executions (conversation_id, origin, code, status, created) "
                       "VALUES (51, 'user', 'orphaned_run()', 'ok', 9)"),
        QStringLiteral("INSERT INTO attachments (conversation_id, file_name, size, created) "
                       "VALUES (52, 'data.csv', 10, 9)"),
    };
    for (const QString &statement : statements)
        QVERIFY(raw.exec(statement));
}

qint64 count(RawDatabase &raw, const QString &sql)
{
    return raw.value(sql).toLongLong();
}

} // namespace

class TestMessageTree : public QObject
{
    Q_OBJECT

    TestConversation m_conversation;

private Q_SLOTS:
    void init() { QCOMPARE(m_conversation.open(), QString()); }
    void cleanup() { m_conversation.close(); }

    void upgradesEveryConversationIntoOnePathLosingNoRow()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("data"));
        QVERIFY(QDir().mkpath(folder));
        const QString file = folder + QStringLiteral("/sandpiper.db");
        writeVersion7Database(file);
        if (QTest::currentTestFailed())
            return;
        qint64 messages = 0;
        qint64 executions = 0;
        qint64 attachments = 0;
        qint64 conversations = 0;
        {
            RawDatabase raw(file);
            messages = count(raw, QStringLiteral("SELECT COUNT(*) FROM messages"));
            executions = count(raw, QStringLiteral("SELECT COUNT(*) FROM executions"));
            attachments = count(raw, QStringLiteral("SELECT COUNT(*) FROM attachments"));
            conversations = count(raw, QStringLiteral("SELECT COUNT(*) FROM conversations"));
        }
        QCOMPARE(messages, 9);

        ConversationStore store(folder);
        QVERIFY2(store.open().ok(), qPrintable(store.open().error().message));
        {
            RawDatabase raw(file);
            QCOMPARE(raw.value(QStringLiteral("PRAGMA user_version")).toInt(), Schema::LatestVersion);
            // Nothing lost: every row is there, the leftovers in conversations of their own.
            QCOMPARE(count(raw, QStringLiteral("SELECT COUNT(*) FROM messages")), messages);
            QCOMPARE(count(raw, QStringLiteral("SELECT COUNT(*) FROM executions")), executions);
            QCOMPARE(count(raw, QStringLiteral("SELECT COUNT(*) FROM attachments")), attachments);
            QCOMPARE(count(raw, QStringLiteral("SELECT COUNT(*) FROM conversations")), conversations + 3);
            QCOMPARE(raw.value(QStringLiteral("SELECT COUNT(*) FROM pragma_foreign_key_check")).toInt(), 0);
            // One root per conversation with messages; every other message under one of its own.
            QCOMPARE(count(raw, QStringLiteral("SELECT COUNT(*) FROM messages WHERE parent_id IS NULL")), 3);
            QCOMPARE(count(raw, QStringLiteral("SELECT COUNT(*) FROM messages m JOIN messages p ON p.id = m.parent_id "
                                               "WHERE p.conversation_id <> m.conversation_id")),
                     0);
            QCOMPARE(count(raw, QStringLiteral("SELECT message_id IS NULL FROM executions WHERE code = 'gone()'")), 1);
        }
        QCOMPARE(contentsOf(store.messages(3)),
                 QStringLiteral("How many penguins?//20000000/About twenty million./Thanks./And emperors?"));
        const QList<ChatMessage> path = store.messages(3).value();
        for (qsizetype i = 0; i < path.size(); ++i) {
            QCOMPARE(path.at(i).parentId, i == 0 ? 0 : path.at(i - 1).id);
            QCOMPARE(path.at(i).versionCount, 1);
        }
        QCOMPARE(contentsOf(store.messages(4)), QStringLiteral("Hello"));
        QCOMPARE(contentsOf(store.messages(5)), QString());
        // The runs without a message are the conversation's own, on every branch.
        QCOMPARE(codes(store.executions(3)),
                 (QStringList{QStringLiteral("count()"), QStringLiteral("dropped()"), QStringLiteral("gone()")}));
        // The leftovers, kept where the user finds them, and said.
        const auto recovered = store.conversation(50);
        QVERIFY(recovered.ok());
        QCOMPARE(recovered->title, QStringLiteral("Recovered conversation 50"));
        QCOMPARE(contentsOf(store.messages(50)), QStringLiteral("orphaned question/orphaned answer"));
        QCOMPARE(codes(store.executions(51)), QStringList{QStringLiteral("orphaned_run()")});
        QCOMPARE(store.attachments(52)->size(), 1);
        QVERIFY2(store.lastWarning().contains(QLatin1String("Recovered conversation 50")),
                 qPrintable(store.lastWarning()));
        QVERIFY2(store.lastWarning().contains(QLatin1String("run")), qPrintable(store.lastWarning()));
        // The upgraded conversation goes on at the end of its path.
        const auto next = store.appendMessage(3, makeMessage(Role::Assistant, QStringLiteral("Yes.")));
        QVERIFY(next.ok());
        QCOMPARE(next->parentId, path.last().id);
    }

    // data/version7.db was written by sandpiper-cli of the release before conversations kept
    // versions (two conversations: two turns, one turn), then given a row whose conversation is gone.
    void upgradesADatabaseOfTheLastRelease()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("data"));
        const QString file = Sandpiper::Test::placeDatabase(QFINDTESTDATA("data/version7.db"), folder);
        QVERIFY(!file.isEmpty());
        {
            RawDatabase raw(file);
            QCOMPARE(raw.value(QStringLiteral("PRAGMA user_version")).toInt(), 7);
            QCOMPARE(count(raw, QStringLiteral("SELECT COUNT(*) FROM messages")), 6);
            QVERIFY(raw.exec(QStringLiteral("INSERT INTO messages (conversation_id, seq, role, content, created, "
                                            "updated) VALUES (9, 1, 'user', 'left behind', 1, 1)")));
        }
        ConversationStore store(folder);
        QVERIFY(store.open().ok());
        {
            RawDatabase raw(file);
            QCOMPARE(raw.value(QStringLiteral("PRAGMA user_version")).toInt(), Schema::LatestVersion);
            QCOMPARE(count(raw, QStringLiteral("SELECT COUNT(*) FROM messages")), 7);
            QCOMPARE(raw.value(QStringLiteral("SELECT COUNT(*) FROM pragma_foreign_key_check")).toInt(), 0);
        }
        QCOMPARE(contentsOf(store.messages(1)),
                 QStringLiteral("How many penguins live in Antarctica?/Penguins: about twenty million./And emperor "
                                "penguins?/Emperor penguins: about half a million."));
        QCOMPARE(contentsOf(store.messages(2)), QStringLiteral("Hi/Hello!"));
        QCOMPARE(contentsOf(store.messages(9)), QStringLiteral("left behind"));
        QVERIFY2(store.lastWarning().contains(QLatin1String("conversation 9")), qPrintable(store.lastWarning()));
        const auto path = store.messages(1);
        const auto again =
            store.addMessageVersion(1, path->at(3).id, makeMessage(Role::Assistant, QStringLiteral("Fewer.")));
        QVERIFY(again.ok());
        QCOMPARE(again->parentId, path->at(2).id);
    }

    void versionsOfAnAnswerAreKeptAndSwitched()
    {
        ConversationStore &store = *m_conversation.store;
        const qint64 id = m_conversation.id;
        const auto question = store.appendMessage(id, makeMessage(Role::User, QStringLiteral("q")));
        const auto first = store.appendMessage(id, makeMessage(Role::Assistant, QStringLiteral("a1")));
        QVERIFY(question.ok() && first.ok());
        QCOMPARE(first->parentId, question->id);
        const auto second = store.addMessageVersion(id, first->id, makeMessage(Role::Assistant, QStringLiteral("a2")));
        QVERIFY(second.ok());
        QCOMPARE(second->parentId, question->id);
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q/a2"));
        QCOMPARE(store.messages(id)->last().version, 2);
        QCOMPARE(store.messages(id)->last().versionCount, 2);
        QCOMPARE(store.messageVersions(first->id).value(), (QList<qint64>{first->id, second->id}));

        QVERIFY(store.showMessage(id, first->id).ok());
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q/a1"));
        QCOMPARE(store.messages(id)->last().version, 1);
        QCOMPARE(store.messages(id)->first().versionCount, 1);
        // Another conversation's message, or none, is refused.
        QCOMPARE(store.showMessage(id + 1, first->id).error().kind, StoreError::Kind::NotFound);
        QCOMPARE(store.addMessageVersion(id, 999, makeMessage(Role::User, QStringLiteral("x"))).error().kind,
                 StoreError::Kind::NotFound);
        ChatMessage stray = makeMessage(Role::User, QStringLiteral("x"));
        stray.parentId = 999;
        QCOMPARE(store.appendMessage(id, stray).error().kind, StoreError::Kind::NotFound);
    }

    // q1 → a1 → q2 → a2, then q2 edited: q2' → a2'. Each version keeps what followed it.
    void whatFollowsAVersionComesBackWithIt()
    {
        ConversationStore &store = *m_conversation.store;
        const qint64 id = m_conversation.id;
        QList<qint64> ids;
        for (const auto &[role, text] : {std::pair{Role::User, QStringLiteral("q1")},
                                         {Role::Assistant, QStringLiteral("a1")},
                                         {Role::User, QStringLiteral("q2")},
                                         {Role::Assistant, QStringLiteral("a2")}})
            ids << store.appendMessage(id, makeMessage(role, text))->id;
        const auto edited = store.addMessageVersion(id, ids.at(2), makeMessage(Role::User, QStringLiteral("q2'")));
        QVERIFY(edited.ok());
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q1/a1/q2'"));
        QVERIFY(store.appendMessage(id, makeMessage(Role::Assistant, QStringLiteral("a2'"))).ok());
        // Asking again under the old version, then going back and forth.
        QVERIFY(store.showMessage(id, ids.at(2)).ok());
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q1/a1/q2/a2"));
        const auto again = store.addMessageVersion(id, ids.at(3), makeMessage(Role::Assistant, QStringLiteral("a2b")));
        QVERIFY(again.ok());
        QVERIFY(store.showMessage(id, edited->id).ok());
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q1/a1/q2'/a2'"));
        QVERIFY(store.showMessage(id, ids.at(2)).ok());
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q1/a1/q2/a2b")); // the answer shown last there
        // A message deep on a branch not shown (as search finds it) brings its whole branch.
        QVERIFY(store.showMessage(id, ids.at(3)).ok());
        QVERIFY(store.showMessage(id, edited->id).ok());
        QVERIFY(store.showMessage(id, ids.at(3)).ok());
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q1/a1/q2/a2"));
        QCOMPARE(store.allMessages(id)->size(), 7);
        // Each message comes after its parent in the whole tree.
        QSet<qint64> seen;
        for (const ChatMessage &message : store.allMessages(id).value()) {
            QVERIFY(message.parentId == 0 || seen.contains(message.parentId));
            seen.insert(message.id);
        }
    }

    void deletingAVersionTakesItsSubtreeAndItsRunsOnly()
    {
        ConversationStore &store = *m_conversation.store;
        const qint64 id = m_conversation.id;
        const auto q = store.appendMessage(id, makeMessage(Role::User, QStringLiteral("q")));
        ChatMessage call = makeMessage(Role::Assistant, QString());
        call.toolCalls = {{QStringLiteral("c1"), QStringLiteral("execute_python_code"), QStringLiteral("{}")}};
        const auto a1 = store.appendMessage(id, call);
        const auto after = store.appendMessage(id, makeMessage(Role::User, QStringLiteral("after a1")));
        QVERIFY(store.addExecution(runOf(id, CallKey{a1->id, 0}, QStringLiteral("x = 1"))).ok());
        QVERIFY(store.addExecution(runOf(id, {}, QStringLiteral("unplaced()"))).ok());
        const auto a2 = store.addMessageVersion(id, a1->id, makeMessage(Role::Assistant, QStringLiteral("a2")));
        QVERIFY(a2.ok() && after.ok());
        QVERIFY(store.addExecution(runOf(id, CallKey{a2->id, 0}, QStringLiteral("y = 2"))).ok());
        // The inspector lists the runs of the branch shown.
        QCOMPARE(codes(store.executions(id)), (QStringList{QStringLiteral("unplaced()"), QStringLiteral("y = 2")}));
        QVERIFY(store.showMessage(id, a1->id).ok());
        QCOMPARE(codes(store.executions(id)), (QStringList{QStringLiteral("x = 1"), QStringLiteral("unplaced()")}));
        QCOMPARE(store.allExecutions(id)->size(), 3);

        QVERIFY(store.deleteMessage(id, a1->id).ok());
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q/a2"));
        QCOMPARE(store.allMessages(id)->size(), 2);
        QCOMPARE(codes(store.allExecutions(id)), (QStringList{QStringLiteral("unplaced()"), QStringLiteral("y = 2")}));
        QVERIFY(store.search(QStringLiteral("after")).value().isEmpty());
        QCOMPARE(store.messages(id)->last().versionCount, 1);
        QVERIFY(q.ok());
    }

    void searchFindsTextOnABranchNotShown()
    {
        ConversationStore &store = *m_conversation.store;
        const qint64 id = m_conversation.id;
        QVERIFY(store.appendMessage(id, makeMessage(Role::User, QStringLiteral("q"))).ok());
        const auto old = store.appendMessage(id, makeMessage(Role::Assistant, QStringLiteral("albatross wingspan")));
        QVERIFY(store.addMessageVersion(id, old->id, makeMessage(Role::Assistant, QStringLiteral("gull"))).ok());
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q/gull"));
        const auto hits = store.search(QStringLiteral("albatross"));
        QCOMPARE(hits->size(), 1);
        QCOMPARE(hits->first().messageId, old->id);
        // The window opens it on its branch.
        QVERIFY(store.showMessage(hits->first().conversationId, hits->first().messageId).ok());
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q/albatross wingspan"));
    }

    void aTreeTravelsThroughTheJsonExport()
    {
        ConversationStore &store = *m_conversation.store;
        const qint64 id = m_conversation.id;
        const auto q1 = store.appendMessage(id, makeMessage(Role::User, QStringLiteral("q1")));
        ChatMessage call = makeMessage(Role::Assistant, QStringLiteral("a1"));
        call.toolCalls = {{QStringLiteral("c1"), QStringLiteral("execute_python_code"), QStringLiteral("{}")}};
        const auto a1 = store.appendMessage(id, call);
        ChatMessage result = makeMessage(Role::Tool, QStringLiteral("1"));
        result.toolCallId = QStringLiteral("c1");
        QVERIFY(store.appendMessage(id, result).ok());
        QVERIFY(store.addExecution(runOf(id, CallKey{a1->id, 0}, QStringLiteral("x = 1"))).ok());
        const auto done = store.appendMessage(id, makeMessage(Role::Assistant, QStringLiteral("a1 done")));
        const auto q1b = store.addMessageVersion(id, q1->id, makeMessage(Role::User, QStringLiteral("q1b")));
        QVERIFY(store.appendMessage(id, makeMessage(Role::Assistant, QStringLiteral("a1b"))).ok());
        // A version in the middle: its parent is not the message before it in the file.
        QVERIFY(store.addMessageVersion(id, done->id, makeMessage(Role::Assistant, QStringLiteral("a1 again"))).ok());
        QVERIFY(store.showMessage(id, done->id).ok());
        QVERIFY(q1b.ok());

        const auto snapshot = store.loadConversation(id);
        QVERIFY(snapshot.ok());
        QCOMPARE(snapshot->tree.size(), 7);
        QCOMPARE(contents(snapshot->messages), QStringList({"q1", "a1", "1", "a1 done"}));
        const QJsonObject json = ConversationExport::toJson(*snapshot, m_conversation.folder());
        QCOMPARE(json.value(QLatin1String("version")).toInt(), ConversationExport::FormatVersion);
        QCOMPARE(json.value(QLatin1String("messages")).toArray().size(), 7);

        const auto parsed = ConversationImport::parse(QJsonDocument(json).toJson());
        QVERIFY2(parsed.ok(), qPrintable(parsed ? QString() : parsed.error().message));
        const auto imported = store.insertConversation(*parsed);
        QVERIFY2(imported.ok(), qPrintable(imported ? QString() : imported.error().message));
        QCOMPARE(contentsOf(store.messages(imported->id)), QStringLiteral("q1/a1/1/a1 done"));
        QCOMPARE(store.messages(imported->id)->first().versionCount, 2);
        QCOMPARE(store.messages(imported->id)->last().versionCount, 2);
        QCOMPARE(codes(store.executions(imported->id)), QStringList{QStringLiteral("x = 1")});
        const auto importedTree = store.allMessages(imported->id);
        QCOMPARE(contents(*importedTree), contents(snapshot->tree));
        // The other branch, with its parents in the same places.
        QStringList parents;
        QHash<qint64, QString> textOf;
        for (const ChatMessage &message : *importedTree) {
            parents << textOf.value(message.parentId);
            textOf.insert(message.id, message.content);
        }
        QCOMPARE(parents, QStringList({"", "q1", "a1", "1", "", "q1b", "1"}));
        QVERIFY(store.showMessage(imported->id, importedTree->at(4).id).ok());
        QCOMPARE(contentsOf(store.messages(imported->id)), QStringLiteral("q1b/a1b"));

        // A conversation without versions is still written as the format earlier versions read.
        const auto linear = store.loadConversation(imported->id);
        QVERIFY(store.deleteMessage(imported->id, importedTree->at(0).id).ok());
        const auto single = store.loadConversation(imported->id);
        QCOMPARE(ConversationExport::toJson(*single, m_conversation.folder()).value(QLatin1String("version")).toInt(),
                 ConversationExport::LinearFormatVersion);
        QVERIFY(linear.ok());
    }

    // 500 messages with 20 places where a second version branches off: switching the view between
    // the two versions at the first of them reads the whole path again.
    void switchingBetweenBranchesOfALongConversationIsQuick()
    {
        ConversationStore &store = *m_conversation.store;
        ConversationSnapshot snapshot;
        snapshot.conversation.title = QStringLiteral("long");
        qint64 previous = 0;
        QList<qint64> branchPoints;
        for (qint64 id = 1; id <= 480; ++id) {
            ChatMessage message = makeMessage(id % 2 ? Role::User : Role::Assistant, QStringLiteral("m%1").arg(id));
            message.id = id;
            message.parentId = previous;
            snapshot.tree << message;
            previous = id;
            if (id % 24 == 0)
                branchPoints << id;
        }
        for (qsizetype i = 0; i < branchPoints.size(); ++i) {
            ChatMessage version = makeMessage(Role::Assistant, QStringLiteral("version %1").arg(i));
            version.id = 1000 + i;
            version.parentId = snapshot.tree.at(branchPoints.at(i) - 2).id;
            snapshot.tree << version;
        }
        snapshot.messages = snapshot.tree.first(480);
        const auto stored = store.insertConversation(snapshot);
        QVERIFY(stored.ok());
        QCOMPARE(store.messages(stored->id)->size(), 480);
        const auto tree = store.allMessages(stored->id);
        QCOMPARE(tree->size(), 500);
        const qint64 first = tree->at(branchPoints.first() - 1).id;
        const qint64 other = tree->at(480).id;
        QElapsedTimer timer;
        timer.start();
        constexpr int Switches = 20;
        for (int i = 0; i < Switches; ++i) {
            QVERIFY(store.showMessage(stored->id, i % 2 ? first : other).ok());
            QCOMPARE(store.messages(stored->id)->size(), i % 2 ? 480 : 24);
        }
        const double perSwitch = double(timer.nsecsElapsed()) / 1e6 / Switches;
        qInfo("switching the branch shown of 500 messages: %.2f ms (show and read the path)", perSwitch);
        QVERIFY2(perSwitch < 250, qPrintable(QString::number(perSwitch))); // 50 ms is the target of a release build
    }

    void theNotebookHasTheBranchShown()
    {
        ConversationStore &store = *m_conversation.store;
        const qint64 id = m_conversation.id;
        QVERIFY(store.appendMessage(id, makeMessage(Role::User, QStringLiteral("q"))).ok());
        QList<qint64> answers;
        for (const QString &code : {QStringLiteral("x = 1"), QStringLiteral("y = 2")}) {
            ChatMessage call = makeMessage(Role::Assistant, QString());
            call.toolCalls = {{QStringLiteral("c1"), QStringLiteral("execute_python_code"),
                               QJsonDocument(QJsonObject{{QStringLiteral("code"), code}}).toJson()}};
            const auto stored =
                answers.isEmpty() ? store.appendMessage(id, call) : store.addMessageVersion(id, answers.first(), call);
            QVERIFY(stored.ok());
            answers << stored->id;
            ChatMessage result = makeMessage(Role::Tool, QStringLiteral("done"));
            result.toolCallId = QStringLiteral("c1");
            QVERIFY(store.appendMessage(id, result).ok());
            QVERIFY(store.addExecution(runOf(id, CallKey{stored->id, 0}, code)).ok());
        }
        auto notebook = [&] {
            return QString::fromUtf8(
                QJsonDocument(NotebookExport::toJson(store.loadConversation(id).value(), m_conversation.folder(), {}))
                    .toJson());
        };
        QVERIFY(notebook().contains(QLatin1String("y = 2")));
        QVERIFY(!notebook().contains(QLatin1String("x = 1")));
        QVERIFY(store.showMessage(id, answers.first()).ok());
        QVERIFY(notebook().contains(QLatin1String("x = 1")));
        QVERIFY(!notebook().contains(QLatin1String("y = 2")));
    }

    void rejectsAParentThatDoesNotComeBefore()
    {
        const QByteArray file = R"({"format": "sandpiper-conversation", "version": 2, "messages": [
            {"role": "user", "content": "a"},
            {"role": "user", "content": "b", "sandpiper": {"parent": 2}}]})";
        const auto parsed = ConversationImport::parse(file);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error().message.contains(QLatin1String("\"parent\"")), qPrintable(parsed.error().message));
    }

    // The last run stopped after one of two calls was answered, on the second version of an answer.
    void recoveryPutsMissingResultsOnTheirBranch()
    {
        TestConversation &conversation = m_conversation;
        const qint64 id = conversation.id;
        const QString folder = conversation.store->dataFolder();
        {
            ConversationStore &store = *conversation.store;
            QVERIFY(store.appendMessage(id, makeMessage(Role::User, QStringLiteral("q"))).ok());
            const auto old = store.appendMessage(id, makeMessage(Role::Assistant, QStringLiteral("old")));
            ChatMessage calls = makeMessage(Role::Assistant, QString());
            calls.toolCalls = {{QStringLiteral("c1"), QStringLiteral("execute_python_code"), QStringLiteral("{}")},
                               {QStringLiteral("c2"), QStringLiteral("execute_python_code"), QStringLiteral("{}")}};
            QVERIFY(store.addMessageVersion(id, old->id, calls).ok());
            ChatMessage result = makeMessage(Role::Tool, QStringLiteral("r1"));
            result.toolCallId = QStringLiteral("c1");
            QVERIFY(store.appendMessage(id, result).ok());
            // The user looks at the old answer when Sandpiper stops.
            QVERIFY(store.showMessage(id, old->id).ok());
        }
        conversation.store = std::make_unique<ConversationStore>(folder);
        ConversationStore &store = *conversation.store;
        QVERIFY(store.open().ok());
        QCOMPARE(store.lastRecovery().synthesizedToolResults, 1);
        QCOMPARE(contentsOf(store.messages(id)), QStringLiteral("q/old"));
        const auto tree = store.allMessages(id);
        QCOMPARE(tree->size(), 5);
        QCOMPARE(tree->last().toolCallId, QStringLiteral("c2"));
        QCOMPARE(tree->last().parentId, tree->at(3).id); // under r1
        QCOMPARE(store.messages(id)->at(1).versionCount, 2);
    }
};

QTEST_GUILESS_MAIN(TestMessageTree)
#include "tst_messagetree.moc"
