#include "storage/schema.h"

#include "storage/conversation.h"
#include "storage/rowcodec.h"

#include <QCoreApplication>
#include <QSqlQuery>

namespace Sandpiper::Schema {

namespace {

// Version 1: the tables. Times are milliseconds since the epoch (UTC); JSON columns hold arrays
// or objects as text.
QStringList tables()
{
    return {
        QStringLiteral("CREATE TABLE conversations ("
                       " id INTEGER PRIMARY KEY AUTOINCREMENT," // never reused: a folder is named after it
                       " title TEXT NOT NULL DEFAULT '',"
                       " created INTEGER NOT NULL,"
                       " updated INTEGER NOT NULL,"
                       " provider TEXT NOT NULL DEFAULT '',"
                       " model TEXT NOT NULL DEFAULT '',"
                       " settings TEXT NOT NULL DEFAULT '{}')"),
        QStringLiteral("CREATE INDEX conversations_by_update ON conversations(updated)"),
        QStringLiteral("CREATE TABLE messages ("
                       " id INTEGER PRIMARY KEY,"
                       " conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,"
                       " seq INTEGER NOT NULL,"
                       " role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),"
                       " content TEXT NOT NULL DEFAULT '',"
                       " reasoning TEXT NOT NULL DEFAULT '',"
                       " tool_calls TEXT,"
                       " tool_call_id TEXT,"
                       " tool_name TEXT,"
                       " prompt_tokens INTEGER NOT NULL DEFAULT 0,"
                       " completion_tokens INTEGER NOT NULL DEFAULT 0,"
                       " total_tokens INTEGER NOT NULL DEFAULT 0,"
                       " status TEXT NOT NULL DEFAULT 'complete'"
                       "  CHECK (status IN ('complete', 'streaming', 'cancelled', 'error', 'interrupted')),"
                       " error TEXT NOT NULL DEFAULT '',"
                       " created INTEGER NOT NULL,"
                       " updated INTEGER NOT NULL)"),
        QStringLiteral("CREATE INDEX messages_in_order ON messages(conversation_id, seq)"),
        // Startup looks for messages that were streaming when the app died.
        QStringLiteral("CREATE INDEX messages_streaming ON messages(status) WHERE status = 'streaming'"),
        QStringLiteral("CREATE TABLE executions ("
                       " id INTEGER PRIMARY KEY,"
                       " conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,"
                       " tool_call_id TEXT,"
                       " origin TEXT NOT NULL CHECK (origin IN ('model', 'user')),"
                       " code TEXT NOT NULL,"
                       " status TEXT NOT NULL,"
                       " stdout TEXT NOT NULL DEFAULT '',"
                       " stderr TEXT NOT NULL DEFAULT '',"
                       " value TEXT NOT NULL DEFAULT '',"
                       " error_type TEXT NOT NULL DEFAULT '',"
                       " error_message TEXT NOT NULL DEFAULT '',"
                       " traceback TEXT NOT NULL DEFAULT '',"
                       " dropped_stdout_bytes INTEGER NOT NULL DEFAULT 0,"
                       " dropped_stderr_bytes INTEGER NOT NULL DEFAULT 0,"
                       " duration_ms INTEGER NOT NULL DEFAULT 0,"
                       " timed_out INTEGER NOT NULL DEFAULT 0,"
                       " state_lost INTEGER NOT NULL DEFAULT 0,"
                       " state_reset INTEGER NOT NULL DEFAULT 0,"
                       " figures TEXT NOT NULL DEFAULT '[]',"
                       " html TEXT NOT NULL DEFAULT '[]',"
                       " files TEXT NOT NULL DEFAULT '[]',"
                       " created INTEGER NOT NULL)"),
        QStringLiteral("CREATE INDEX executions_in_order ON executions(conversation_id, id)"),
        QStringLiteral("CREATE TABLE attachments ("
                       " id INTEGER PRIMARY KEY,"
                       " conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,"
                       " file_name TEXT NOT NULL,"
                       " size INTEGER NOT NULL,"
                       " created INTEGER NOT NULL)"),
        QStringLiteral("CREATE INDEX attachments_in_order ON attachments(conversation_id, id)"),
    };
}

// Version 2: full-text search over what people wrote and read (user and assistant messages) and
// the code that ran. External-content tables keep the text once; triggers keep the index in
// step. Tool and system messages stay out: a tool result repeats an execution's output.
QStringList fullTextSearch()
{
    const QString searchable = QStringLiteral("role IN ('user', 'assistant')");
    return {
        QStringLiteral("CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', "
                       "content_rowid='id', tokenize='unicode61 remove_diacritics 2')"),
        QStringLiteral("CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN new.%1 BEGIN"
                       " INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END")
            .arg(searchable),
        QStringLiteral("CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.%1 BEGIN"
                       " INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);"
                       " END")
            .arg(searchable),
        // One trigger, so that the old text leaves the index before the new text enters it:
        // SQLite does not promise an order between two triggers on the same event, and an
        // external-content index whose row is added before it is removed is damaged.
        QStringLiteral("CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, role ON messages BEGIN"
                       " INSERT INTO messages_fts(messages_fts, rowid, content)"
                       " SELECT 'delete', old.id, old.content WHERE old.%1;"
                       " INSERT INTO messages_fts(rowid, content) SELECT new.id, new.content WHERE new.%1; END")
            .arg(searchable),
        QStringLiteral("INSERT INTO messages_fts(rowid, content) SELECT id, content FROM messages WHERE %1")
            .arg(searchable),
        QStringLiteral("CREATE VIRTUAL TABLE executions_fts USING fts5(code, content='executions', "
                       "content_rowid='id', tokenize='unicode61 remove_diacritics 2')"),
        QStringLiteral("CREATE TRIGGER executions_fts_insert AFTER INSERT ON executions BEGIN"
                       " INSERT INTO executions_fts(rowid, code) VALUES (new.id, new.code); END"),
        QStringLiteral("CREATE TRIGGER executions_fts_delete AFTER DELETE ON executions BEGIN"
                       " INSERT INTO executions_fts(executions_fts, rowid, code) VALUES ('delete', old.id, old.code);"
                       " END"),
        QStringLiteral("CREATE TRIGGER executions_fts_update AFTER UPDATE OF code ON executions BEGIN"
                       " INSERT INTO executions_fts(executions_fts, rowid, code) VALUES ('delete', old.id, old.code);"
                       " INSERT INTO executions_fts(rowid, code) VALUES (new.id, new.code); END"),
        QStringLiteral("INSERT INTO executions_fts(executions_fts) VALUES ('rebuild')"),
    };
}

// Version 3: what the host refused of what the sandbox reported, the figures it did not keep,
// and why it stopped an execution (issue 13).
QStringList hostChecks()
{
    return {
        QStringLiteral("ALTER TABLE executions ADD COLUMN figures_not_kept INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE executions ADD COLUMN refused TEXT NOT NULL DEFAULT '[]'"),
        QStringLiteral("ALTER TABLE executions ADD COLUMN stop_reason TEXT NOT NULL DEFAULT ''"),
    };
}

// Version 4: what an execution showed beside figures (tables, Markdown, SVG) and Sandpiper's notes
// on it, as one JSON object (ExecutionResult::richOutputJson).
QStringList richOutput()
{
    return {QStringLiteral("ALTER TABLE executions ADD COLUMN rich_output TEXT NOT NULL DEFAULT '{}'")};
}

// Version 5: the images that go with a user's message, as a JSON array of file names in the
// conversation's folder (issue 17).
QStringList messageImages()
{
    return {QStringLiteral("ALTER TABLE messages ADD COLUMN images TEXT NOT NULL DEFAULT '[]'")};
}

// Version 6: which call an execution ran, as the message that holds the call and the call's place
// in it (CallKey): servers repeat call ids across messages (call_0 every turn), so tool_call_id
// alone mixed up the runs of different turns (issue 23). Existing runs are matched as they
// happened: a model's run to the newest answer holding its id that was written before the run was
// stored, the n-th run of an id in an answer to the n-th call with that id there; a user's run to
// the message that told the model about it, written just after the run. Message ids can be reused
// after a message is deleted (an edit drops later turns), so a run lets go of a deleted message.
QStringList callKeys()
{
    return {
        QStringLiteral("ALTER TABLE executions ADD COLUMN message_id INTEGER"),
        QStringLiteral("ALTER TABLE executions ADD COLUMN call_index INTEGER"),
        QStringLiteral("UPDATE executions SET message_id = (SELECT m.id FROM messages m, json_each(m.tool_calls) c"
                       " WHERE m.conversation_id = executions.conversation_id AND m.role = 'assistant'"
                       " AND json_valid(m.tool_calls) AND json_extract(c.value, '$.id') = executions.tool_call_id"
                       " AND m.created <= executions.created ORDER BY m.seq DESC, m.id DESC LIMIT 1)"
                       " WHERE origin = 'model' AND tool_call_id IS NOT NULL"),
        QStringLiteral("UPDATE executions SET call_index = (SELECT c.key FROM messages m, json_each(m.tool_calls) c"
                       " WHERE m.id = executions.message_id AND json_extract(c.value, '$.id') = executions.tool_call_id"
                       " AND (SELECT count(*) FROM json_each(m.tool_calls) d WHERE d.key < c.key"
                       "  AND json_extract(d.value, '$.id') = executions.tool_call_id)"
                       " = (SELECT count(*) FROM executions e WHERE e.message_id = executions.message_id"
                       "  AND e.tool_call_id = executions.tool_call_id AND e.id < executions.id))"
                       " WHERE message_id IS NOT NULL"),
        QStringLiteral("UPDATE executions SET call_index = 0, message_id = (SELECT m.id FROM messages m"
                       " WHERE m.conversation_id = executions.conversation_id AND m.role = 'user'"
                       " AND m.created >= executions.created"
                       " AND m.content LIKE 'I ran this code in the sandbox myself:%' ORDER BY m.seq, m.id LIMIT 1)"
                       " WHERE origin = 'user'"),
        QStringLiteral("UPDATE executions SET message_id = NULL, call_index = NULL"
                       " WHERE message_id IS NULL OR call_index IS NULL"),
        QStringLiteral("CREATE INDEX executions_by_message ON executions(message_id) WHERE message_id IS NOT NULL"),
        QStringLiteral("CREATE TRIGGER executions_lose_message AFTER DELETE ON messages BEGIN"
                       " UPDATE executions SET message_id = NULL, call_index = NULL WHERE message_id = old.id; END"),
    };
}

// Version 7: the files that go with a user's message, as a JSON array of {name, size}, and what
// the model is told about them, apart from the user's words (issue 23: they were one text).
QStringList messageAttachments()
{
    return {QStringLiteral("ALTER TABLE messages ADD COLUMN attachments TEXT NOT NULL DEFAULT '[]'"),
            QStringLiteral("ALTER TABLE messages ADD COLUMN attachment_note TEXT NOT NULL DEFAULT ''")};
}

// Version 7's rows: the note taken out of the user's text, the files named in it with the sizes
// their attachments had, and the conversations that were named after the note named anew.
bool separateAttachmentNotes(QSqlQuery &query)
{
    struct Row {
        qint64 id;
        qint64 conversationId;
        ChatMessage message;
    };
    QList<Row> rows;
    if (!query.prepare(QStringLiteral("SELECT id, conversation_id, content, images FROM messages WHERE role = 'user' "
                                      "AND substr(content, 1, length(?)) = ? ORDER BY conversation_id, seq")))
        return false;
    query.addBindValue(ChatMessage::attachmentHeader());
    query.addBindValue(ChatMessage::attachmentHeader());
    if (!query.exec())
        return false;
    while (query.next()) {
        Row row{query.value(0).toLongLong(), query.value(1).toLongLong(), {}};
        row.message.content = query.value(2).toString();
        row.message.images = RowCodec::stringListFromJson(query.value(3).toString());
        row.message.separateAttachmentNote();
        rows << row;
    }
    query.finish();
    const QString oldTitle = ChatMessage::attachmentHeader().trimmed();
    for (Row &row : rows) {
        for (AttachedFile &file : row.message.attachments) {
            if (!query.prepare(
                    QStringLiteral("SELECT size FROM attachments WHERE conversation_id = ? AND file_name = ? "
                                   "ORDER BY id DESC LIMIT 1")))
                return false;
            query.addBindValue(row.conversationId);
            query.addBindValue(file.name);
            if (!query.exec())
                return false;
            if (query.next())
                file.size = query.value(0).toLongLong();
            query.finish();
        }
        if (!query.prepare(QStringLiteral("UPDATE messages SET content = ?, attachments = ?, attachment_note = ? "
                                          "WHERE id = ?")))
            return false;
        query.addBindValue(row.message.content);
        query.addBindValue(RowCodec::attachedFilesToJson(row.message.attachments));
        query.addBindValue(row.message.attachmentNote);
        query.addBindValue(row.id);
        if (!query.exec())
            return false;
        // The rows come in order: the first of a conversation is the one it was named after.
        if (!query.prepare(QStringLiteral("UPDATE conversations SET title = ? WHERE id = ? AND title = ?")))
            return false;
        query.addBindValue(Conversation::titleFromFirstMessage(row.message));
        query.addBindValue(row.conversationId);
        query.addBindValue(oldTitle);
        if (!query.exec())
            return false;
    }
    return true;
}

// Version 8: a conversation is a tree (issue 27). Each message names the one it follows
// (parent_id; NULL begins the conversation), and editing a question or asking again adds a version
// beside the old one. Which version is shown is remembered as a number, CHOSEN, that grows each
// time a version is added or picked: the path shown starts at the root chosen last and goes down
// through the child chosen last of each message. So switching versions is one UPDATE (of the
// version and the messages above it) and what lies below follows by itself: the versions last
// shown there. A pointer per message to its chosen child, or a current leaf per conversation,
// would have to be mended whenever a version is deleted; a number needs nothing (the next most
// recent is shown). Loading the path is one recursive query over the index (parent_id, chosen).
// Deleting a message takes its subtree (ON DELETE CASCADE). Every existing conversation becomes
// one path: each message follows the one before it in order, CHOSEN being its place.
QStringList messageTree()
{
    return {
        QStringLiteral("ALTER TABLE messages ADD COLUMN parent_id INTEGER REFERENCES messages(id) ON DELETE CASCADE"),
        QStringLiteral("ALTER TABLE messages ADD COLUMN chosen INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("UPDATE messages SET chosen = seq, parent_id = (SELECT p.id FROM messages p"
                       " WHERE p.conversation_id = messages.conversation_id"
                       " AND (p.seq < messages.seq OR (p.seq = messages.seq AND p.id < messages.id))"
                       " ORDER BY p.seq DESC, p.id DESC LIMIT 1)"),
        QStringLiteral("CREATE INDEX messages_children ON messages(parent_id, chosen)"),
        QStringLiteral("CREATE INDEX messages_roots ON messages(conversation_id, chosen) WHERE parent_id IS NULL"),
    };
}

// Version 9: what the conversation's folder held after each run of code (issue 27), so that going
// back to a branch brings its files back. One row per run: a JSON manifest (FolderSnapshots says
// what it holds) whose files are kept once each, by their SHA-256, in <data>/snapshots. Runs stored
// before have no row: their folder was not recorded. A manifest goes with its run.
QStringList folderStates()
{
    return {QStringLiteral("CREATE TABLE folder_states ("
                           " execution_id INTEGER PRIMARY KEY REFERENCES executions(id) ON DELETE CASCADE,"
                           " manifest TEXT NOT NULL)")};
}

// Runs the statement SQL with VALUES and returns how many rows it changed, -1 when it failed.
int changedRows(QSqlQuery &query, const QString &sql, const QVariantList &values = {})
{
    if (!query.prepare(sql))
        return -1;
    for (const QVariant &value : values)
        query.addBindValue(value);
    if (!query.exec())
        return -1;
    const int changed = query.numRowsAffected();
    query.finish();
    return changed;
}

// Version 8's rows, before the tree is made: rows whose conversation is gone (an old database, or
// one edited by hand, without foreign keys) are kept in a conversation of their own, under the id
// they name, so that the folder of that id is theirs again; runs whose message is gone are kept
// as the conversation's own (shown on every branch). NOTES tells the user what was done.
bool placeOrphans(QSqlQuery &query, QStringList *notes)
{
    const QString orphanConversations =
        QStringLiteral("SELECT conversation_id, MIN(created) FROM (SELECT conversation_id, created FROM messages"
                       " UNION ALL SELECT conversation_id, created FROM executions"
                       " UNION ALL SELECT conversation_id, created FROM attachments)"
                       " WHERE conversation_id NOT IN (SELECT id FROM conversations) GROUP BY conversation_id");
    if (!query.exec(orphanConversations))
        return false;
    QList<std::pair<qint64, qint64>> lost;
    while (query.next())
        lost.append({query.value(0).toLongLong(), query.value(1).toLongLong()});
    query.finish();
    for (const auto &[id, created] : std::as_const(lost)) {
        const QString title = QCoreApplication::translate("Schema", "Recovered conversation %1").arg(id);
        if (changedRows(query,
                        QStringLiteral("INSERT INTO conversations (id, title, created, updated) VALUES (?, ?, ?, ?)"),
                        {id, title, created, created}) < 0)
            return false;
        if (notes) {
            *notes << QCoreApplication::translate("Schema",
                                                  "The database held messages, runs of code or attached files of a "
                                                  "conversation %1 that was gone; they are kept in \"%2\".")
                          .arg(id)
                          .arg(title);
        }
    }
    const int unplaced = changedRows(
        query, QStringLiteral("UPDATE executions SET message_id = NULL, call_index = NULL"
                              " WHERE message_id IS NOT NULL AND message_id NOT IN (SELECT id FROM messages)"));
    if (unplaced < 0)
        return false;
    if (unplaced > 0 && notes) {
        *notes << QCoreApplication::translate("Schema",
                                              "%n run(s) of code whose message was gone are kept with their "
                                              "conversation and shown on every branch of it.",
                                              nullptr, unplaced);
    }
    return true;
}

} // namespace

QStringList migrationTo(int version)
{
    switch (version) {
    case 1:
        return tables();
    case 2:
        return fullTextSearch();
    case 3:
        return hostChecks();
    case 4:
        return richOutput();
    case 5:
        return messageImages();
    case 6:
        return callKeys();
    case 7:
        return messageAttachments();
    case 8:
        return messageTree();
    case 9:
        return folderStates();
    }
    return {};
}

bool prepareRowsFor(int version, QSqlQuery &query, QStringList *notes)
{
    return version != 8 || placeOrphans(query, notes);
}

bool rewriteRowsFor(int version, QSqlQuery &query)
{
    return version != 7 || separateAttachmentNotes(query);
}

} // namespace Sandpiper::Schema
