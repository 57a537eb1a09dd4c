#include "storage/conversationstore.h"

#include "logging.h"
#include "storage/schema.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QThread>
#include <QTimeZone>

#include <algorithm>

namespace Sandpiper {

namespace {

const QString DatabaseFileName = QStringLiteral("sandpiper.db");
const QString ConversationsFolderName = QStringLiteral("conversations");
const QString InterruptedToolResult =
    QStringLiteral("The tool call was interrupted when Sandpiper stopped; it did not finish.");
constexpr int BusyTimeoutMs = 5000;

// SQLite's primary result codes (sqlite3.h), as Qt SQL reports them in nativeErrorCode().
enum SqliteCode {
    SqliteBusy = 5,
    SqliteLocked = 6,
    SqliteReadOnly = 8,
    SqliteIoError = 10,
    SqliteCorrupt = 11,
    SqliteFull = 13,
    SqliteCantOpen = 14,
    SqliteNotADatabase = 26,
};

std::atomic<quint64> nextStoreSerial = 1;

// Qt SQL connections belong to the thread that opened them; this closes the ones a thread
// opened when it finishes (thread_local objects die with their thread, before static ones).
struct ThreadConnections {
    QStringList names;
    ~ThreadConnections()
    {
        for (const QString &name : std::as_const(names))
            QSqlDatabase::removeDatabase(name);
    }
};
thread_local ThreadConnections threadConnections;

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// UTC: converting tens of thousands of stamps to local time would cost more than the query.
QDateTime fromMs(const QVariant &value)
{
    return QDateTime::fromMSecsSinceEpoch(value.toLongLong(), QTimeZone::UTC);
}

qint64 toMs(const QDateTime &time, qint64 fallback)
{
    return time.isValid() ? time.toMSecsSinceEpoch() : fallback;
}

QString compactJson(const QJsonArray &array)
{
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QVariant toolCallsToJson(const QList<ToolCall> &calls)
{
    if (calls.isEmpty())
        return QVariant(QMetaType::fromType<QString>());
    QJsonArray array;
    for (const ToolCall &call : calls) {
        array.append(QJsonObject{{QStringLiteral("id"), call.id},
                                 {QStringLiteral("name"), call.name},
                                 {QStringLiteral("arguments"), call.arguments}});
    }
    return compactJson(array);
}

QList<ToolCall> toolCallsFromJson(const QString &json)
{
    QList<ToolCall> calls;
    if (json.isEmpty())
        return calls;
    const QJsonArray array = QJsonDocument::fromJson(json.toUtf8()).array();
    calls.reserve(array.size());
    for (const QJsonValue &value : array) {
        calls.append({value[QLatin1String("id")].toString(), value[QLatin1String("name")].toString(),
                      value[QLatin1String("arguments")].toString()});
    }
    return calls;
}

QString stringListToJson(const QStringList &list)
{
    return compactJson(QJsonArray::fromStringList(list));
}

QStringList stringListFromJson(const QString &json)
{
    QStringList list;
    if (json.size() <= 2) // "[]"
        return list;
    for (const QJsonValue &value : QJsonDocument::fromJson(json.toUtf8()).array())
        list.append(value.toString());
    return list;
}

bool run(QSqlQuery &query, const QString &sql, const QVariantList &values = {})
{
    if (!query.prepare(sql))
        return false;
    // Qt SQL binds a null QString as NULL, but a null QString means "empty" here and the text
    // columns are NOT NULL; a deliberate NULL is a typed null QVariant, which isNull().
    for (const QVariant &value : values) {
        const bool nullString = value.typeId() == QMetaType::QString && !value.isNull() && value.toString().isNull();
        query.addBindValue(nullString ? QVariant(QStringLiteral("")) : value);
    }
    return query.exec();
}

// BEGIN IMMEDIATE takes the write lock at once, so two writers wait for each other through the
// busy timeout instead of failing when a read transaction cannot be upgraded.
class WriteTransaction
{
public:
    explicit WriteTransaction(QSqlQuery &query)
        : m_query(query)
    {}
    ~WriteTransaction()
    {
        if (m_active)
            m_query.exec(QStringLiteral("ROLLBACK"));
    }
    WriteTransaction(const WriteTransaction &) = delete;
    WriteTransaction &operator=(const WriteTransaction &) = delete;

    bool begin()
    {
        m_active = m_query.exec(QStringLiteral("BEGIN IMMEDIATE"));
        return m_active;
    }
    bool commit()
    {
        if (!m_query.exec(QStringLiteral("COMMIT")))
            return false;
        m_active = false;
        return true;
    }

private:
    QSqlQuery &m_query;
    bool m_active = false;
};

const QString MessageColumns = QStringLiteral(
    "id, role, content, reasoning, tool_calls, tool_call_id, tool_name, prompt_tokens, completion_tokens, "
    "total_tokens, status, error, created, updated");

ChatMessage messageFromRow(const QSqlQuery &query)
{
    ChatMessage message;
    message.id = query.value(0).toLongLong();
    message.role = ChatMessage::roleFromName(query.value(1).toString());
    message.content = query.value(2).toString();
    message.reasoning = query.value(3).toString();
    message.toolCalls = toolCallsFromJson(query.value(4).toString());
    message.toolCallId = query.value(5).toString();
    message.toolName = query.value(6).toString();
    message.usage = {query.value(7).toLongLong(), query.value(8).toLongLong(), query.value(9).toLongLong()};
    message.status = ChatMessage::statusFromName(query.value(10).toString());
    message.error = query.value(11).toString();
    message.created = fromMs(query.value(12));
    message.updated = fromMs(query.value(13));
    return message;
}

const QString ExecutionColumns = QStringLiteral(
    "id, conversation_id, tool_call_id, origin, code, status, stdout, stderr, value, error_type, error_message, "
    "traceback, dropped_stdout_bytes, dropped_stderr_bytes, duration_ms, timed_out, state_lost, state_reset, figures, "
    "html, files, created");

StoredExecution executionFromRow(const QSqlQuery &query)
{
    StoredExecution execution;
    execution.id = query.value(0).toLongLong();
    execution.conversationId = query.value(1).toLongLong();
    execution.toolCallId = query.value(2).toString();
    execution.origin =
        StoredExecution::originFromName(query.value(3).toString()).value_or(StoredExecution::Origin::Model);
    execution.code = query.value(4).toString();
    ExecutionResult &result = execution.result;
    result.status = StoredExecution::statusFromName(query.value(5).toString()).value_or(ExecutionResult::Status::Error);
    result.standardOutput = query.value(6).toString();
    result.standardError = query.value(7).toString();
    result.value = query.value(8).toString();
    result.errorType = query.value(9).toString();
    result.errorMessage = query.value(10).toString();
    result.traceback = query.value(11).toString();
    result.droppedStdoutBytes = query.value(12).toLongLong();
    result.droppedStderrBytes = query.value(13).toLongLong();
    result.durationMs = query.value(14).toLongLong();
    result.timedOut = query.value(15).toBool();
    result.stateLost = query.value(16).toBool();
    result.stateReset = query.value(17).toBool();
    result.figures = stringListFromJson(query.value(18).toString());
    result.html = stringListFromJson(query.value(19).toString());
    result.files = stringListFromJson(query.value(20).toString());
    execution.created = fromMs(query.value(21));
    return execution;
}

const QString ConversationColumns =
    QStringLiteral("c.id, c.title, c.created, c.updated, c.provider, c.model, c.settings, "
                   "(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id)");

Conversation conversationFromRow(const QSqlQuery &query)
{
    Conversation conversation;
    conversation.id = query.value(0).toLongLong();
    conversation.title = query.value(1).toString();
    conversation.created = fromMs(query.value(2));
    conversation.updated = fromMs(query.value(3));
    conversation.provider = query.value(4).toString();
    conversation.model = query.value(5).toString();
    conversation.settings = QJsonDocument::fromJson(query.value(6).toString().toUtf8()).object();
    conversation.messageCount = query.value(7).toLongLong();
    return conversation;
}

const QString AttachmentColumns = QStringLiteral("id, conversation_id, file_name, size, created");

Attachment attachmentFromRow(const QSqlQuery &query)
{
    return {query.value(0).toLongLong(), query.value(1).toLongLong(), query.value(2).toString(),
            query.value(3).toLongLong(), fromMs(query.value(4))};
}

StoreError notFound(const QString &what, qint64 id)
{
    return {StoreError::Kind::NotFound, QStringLiteral("There is no %1 with id %2.").arg(what).arg(id)};
}

// What the user types, as an FTS5 query that cannot be a syntax error: every word becomes a
// quoted phrase (quotes doubled) matched as a prefix, and the phrases must all occur. Words
// without letters or digits are dropped: the tokenizer would see no token in them anyway.
QString ftsQuery(const QString &text)
{
    QStringList phrases;
    for (const QString &word : text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        if (std::none_of(word.begin(), word.end(), [](QChar c) { return c.isLetterOrNumber(); }))
            continue;
        QString escaped = word;
        escaped.replace(QLatin1Char('"'), QLatin1String("\"\""));
        phrases.append(QLatin1Char('"') + escaped + QLatin1String("\"*"));
    }
    return phrases.join(QLatin1Char(' '));
}

QString timestampSuffix()
{
    return QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

} // namespace

ConversationStore::ConversationStore(const QString &dataFolder)
    : m_dataFolder(QDir::cleanPath(dataFolder))
    , m_connectionPrefix(QStringLiteral("sandpiper-store%1-").arg(nextStoreSerial.fetch_add(1)))
{}

ConversationStore::~ConversationStore()
{
    QMutexLocker locker(&m_connectionsMutex);
    for (const QString &name : std::as_const(m_connections)) {
        threadConnections.names.removeAll(name);
        QSqlDatabase::removeDatabase(name);
    }
}

QString ConversationStore::defaultDataFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

QString ConversationStore::dataFolder() const
{
    return m_dataFolder;
}

QString ConversationStore::databasePath() const
{
    return m_dataFolder + QLatin1Char('/') + DatabaseFileName;
}

QString ConversationStore::conversationFolder(qint64 conversationId) const
{
    return m_dataFolder + QLatin1Char('/') + ConversationsFolderName + QLatin1Char('/') +
           QString::number(conversationId);
}

StoreResult<void> ConversationStore::open()
{
    return ensureOpen();
}

QString ConversationStore::lastWarning() const
{
    QMutexLocker locker(&m_openMutex);
    return m_lastWarning;
}

ConversationStore::Recovery ConversationStore::lastRecovery() const
{
    QMutexLocker locker(&m_openMutex);
    return m_lastRecovery;
}

StoreResult<void> ConversationStore::ensureOpen()
{
    if (m_open.load(std::memory_order_acquire))
        return {};
    QMutexLocker locker(&m_openMutex);
    if (m_open.load(std::memory_order_relaxed))
        return {};
    auto result = initialize();
    if (!result) {
        qCWarning(lcStorage).noquote() << result.error().message;
        return result;
    }
    m_open.store(true, std::memory_order_release);
    return {};
}

StoreResult<void> ConversationStore::initialize()
{
    if (!QDir().mkpath(m_dataFolder) || !QFileInfo(m_dataFolder).isDir()) {
        return StoreError{StoreError::Kind::Unavailable,
                          QStringLiteral("Sandpiper cannot create its data folder %1, so it cannot save "
                                         "conversations. Check that the folder can be written.")
                              .arg(QDir::toNativeSeparators(m_dataFolder))};
    }
    if (const auto reason = unusableFileReason()) {
        if (auto moved = moveBrokenFilesAside(*reason); !moved)
            return moved;
    }

    auto db = threadConnection();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    // WAL lets the GUI read while the agent writes, and a commit costs one append.
    if (!query.exec(QStringLiteral("PRAGMA journal_mode = WAL")) || !query.next() ||
        query.value(0).toString() != QLatin1String("wal")) {
        return StoreError{StoreError::Kind::Unavailable,
                          QStringLiteral("Sandpiper cannot open its database %1: %2")
                              .arg(QDir::toNativeSeparators(databasePath()), query.lastError().text())};
    }
    query.finish();
    if (auto migrated = migrate(query); !migrated)
        return migrated;
    return recoverInterrupted(query);
}

std::optional<QString> ConversationStore::unusableFileReason()
{
    QFile file(databasePath());
    if (file.size() == 0) // missing or empty: a new database
        return std::nullopt;
    if (!file.open(QIODevice::ReadOnly)) // not ours to judge: opening will report the problem
        return std::nullopt;
    if (file.read(16) != QByteArray("SQLite format 3\0", 16))
        return QStringLiteral("The database %1 is not an SQLite file (it may have been damaged).")
            .arg(QDir::toNativeSeparators(databasePath()));
    file.close();

    // A read-only look: a writable connection would checkpoint the journal into the file and
    // delete it on close, and the journal has to leave with the file if the file is set aside.
    const QString probe = m_connectionPrefix + QLatin1String("probe");
    std::optional<QString> reason;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), probe);
        db.setDatabaseName(databasePath());
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=%1").arg(BusyTimeoutMs));
        if (db.open()) {
            QSqlQuery query(db);
            bool read = query.exec(QStringLiteral("PRAGMA application_id")) && query.next();
            const int applicationId = read ? query.value(0).toInt() : 0;
            read = read && query.exec(QStringLiteral("SELECT COUNT(*) FROM sqlite_schema")) && query.next();
            if (read) {
                const int tables = query.value(0).toInt();
                if (applicationId != Schema::ApplicationId && (applicationId != 0 || tables > 0)) {
                    reason = QStringLiteral("The file %1 is an SQLite database of another program, not Sandpiper's.")
                                 .arg(QDir::toNativeSeparators(databasePath()));
                }
            } else {
                const int code = query.lastError().nativeErrorCode().toInt() & 0xff;
                if (code == SqliteCorrupt || code == SqliteNotADatabase) {
                    reason = QStringLiteral("The database %1 is damaged (%2).")
                                 .arg(QDir::toNativeSeparators(databasePath()), query.lastError().databaseText());
                }
            }
        }
    }
    QSqlDatabase::removeDatabase(probe);
    return reason;
}

StoreResult<void> ConversationStore::moveBrokenFilesAside(const QString &reason)
{
    const QString database = databasePath();
    QString aside = database + QLatin1String(".broken-") + timestampSuffix();
    for (int n = 2; QFileInfo::exists(aside); ++n)
        aside = database + QLatin1String(".broken-") + timestampSuffix() + QLatin1Char('-') + QString::number(n);
    if (!QFile::rename(database, aside)) {
        return StoreError{StoreError::Kind::Unavailable,
                          QStringLiteral("%1 Sandpiper could not move it aside to %2; move or remove it, then "
                                         "start Sandpiper again.")
                              .arg(reason, QDir::toNativeSeparators(aside))};
    }
    // The journal belongs with its database: SQLite finds it by the name.
    for (const QLatin1String suffix : {QLatin1String("-wal"), QLatin1String("-shm")}) {
        if (QFileInfo::exists(database + suffix) && !QFile::rename(database + suffix, aside + suffix))
            QFile::remove(database + suffix); // a stale journal would be applied to the new database
    }
    // The new database numbers conversations from 1 again; the old folders must not become theirs.
    const QString folders = m_dataFolder + QLatin1Char('/') + ConversationsFolderName;
    QString foldersAside;
    if (QFileInfo::exists(folders)) {
        foldersAside = folders + aside.mid(database.size());
        if (!QDir().rename(folders, foldersAside)) {
            return StoreError{StoreError::Kind::Unavailable,
                              QStringLiteral("%1 Sandpiper moved it to %2 but could not move the folder %3 aside.")
                                  .arg(reason, QDir::toNativeSeparators(aside), QDir::toNativeSeparators(folders))};
        }
    }
    m_lastWarning = QStringLiteral("%1 It was moved to %2 and a new, empty database was created.")
                        .arg(reason, QDir::toNativeSeparators(aside));
    if (!foldersAside.isEmpty()) {
        m_lastWarning +=
            QLatin1Char(' ') +
            QStringLiteral("The conversation folders were moved to %1.").arg(QDir::toNativeSeparators(foldersAside));
    }
    qCWarning(lcStorage).noquote() << m_lastWarning;
    return {};
}

StoreResult<void> ConversationStore::migrate(QSqlQuery &query)
{
    if (!query.exec(QStringLiteral("PRAGMA user_version")) || !query.next())
        return sqlError(query, QStringLiteral("read the database version"));
    const int version = query.value(0).toInt();
    query.finish();
    if (version > Schema::LatestVersion) {
        return StoreError{StoreError::Kind::Unavailable,
                          QStringLiteral("The database %1 was written by a newer version of Sandpiper (schema %2; "
                                         "this version knows up to %3). Update Sandpiper to open it.")
                              .arg(QDir::toNativeSeparators(databasePath()))
                              .arg(version)
                              .arg(Schema::LatestVersion)};
    }
    for (int next = version + 1; next <= Schema::LatestVersion; ++next) {
        WriteTransaction transaction(query);
        if (!transaction.begin())
            return sqlError(query, QStringLiteral("upgrade the database"));
        QStringList statements = Schema::migrationTo(next);
        if (next == 1)
            statements.append(QStringLiteral("PRAGMA application_id = %1").arg(Schema::ApplicationId));
        statements.append(QStringLiteral("PRAGMA user_version = %1").arg(next));
        for (const QString &statement : std::as_const(statements)) {
            if (!query.exec(statement))
                return sqlError(query, QStringLiteral("upgrade the database to version %1").arg(next));
        }
        if (!transaction.commit())
            return sqlError(query, QStringLiteral("upgrade the database to version %1").arg(next));
        qCInfo(lcStorage) << "database upgraded to version" << next;
    }
    return {};
}

StoreResult<void> ConversationStore::recoverInterrupted(QSqlQuery &query)
{
    WriteTransaction transaction(query);
    if (!transaction.begin())
        return sqlError(query, QStringLiteral("recover interrupted messages"));

    // Conversations the last run may have left mid-turn: a message still streaming, or a
    // last message that asks for or answers a tool call.
    QList<qint64> candidates;
    if (!query.exec(QStringLiteral(
            "SELECT DISTINCT conversation_id FROM messages WHERE status = 'streaming' "
            "UNION SELECT c.id FROM conversations c WHERE EXISTS (SELECT 1 FROM (SELECT role, tool_calls FROM messages "
            "WHERE conversation_id = c.id ORDER BY seq DESC, id DESC LIMIT 1) AS last "
            "WHERE last.role = 'tool' OR last.tool_calls IS NOT NULL)")))
        return sqlError(query, QStringLiteral("recover interrupted messages"));
    while (query.next())
        candidates.append(query.value(0).toLongLong());

    Recovery recovery;
    if (!run(query,
             QStringLiteral("UPDATE messages SET status = 'interrupted', updated = ? WHERE status = 'streaming'"),
             {nowMs()}))
        return sqlError(query, QStringLiteral("recover interrupted messages"));
    recovery.interruptedMessages = query.numRowsAffected();

    for (const qint64 conversationId : std::as_const(candidates)) {
        auto supplied = supplyMissingToolResults(query, conversationId);
        if (!supplied)
            return supplied.error();
        recovery.synthesizedToolResults += *supplied;
    }
    if (!transaction.commit())
        return sqlError(query, QStringLiteral("recover interrupted messages"));
    if (recovery.interruptedMessages > 0 || recovery.synthesizedToolResults > 0) {
        qCInfo(lcStorage) << "recovered" << recovery.interruptedMessages << "interrupted messages and"
                          << recovery.synthesizedToolResults << "unanswered tool calls";
    }
    m_lastRecovery = recovery;
    return {};
}

StoreResult<int> ConversationStore::supplyMissingToolResults(QSqlQuery &query, qint64 conversationId)
{
    struct Row {
        qint64 seq;
        ChatMessage::Role role;
        QList<ToolCall> calls;
        QString toolCallId;
    };
    QList<Row> rows;
    if (!run(query,
             QStringLiteral("SELECT seq, role, tool_calls, tool_call_id FROM messages WHERE conversation_id = ? "
                            "ORDER BY seq, id"),
             {conversationId}))
        return sqlError(query, QStringLiteral("recover interrupted tool calls"));
    while (query.next()) {
        rows.append({query.value(0).toLongLong(), ChatMessage::roleFromName(query.value(1).toString()),
                     toolCallsFromJson(query.value(2).toString()), query.value(3).toString()});
    }

    // Strict servers reject a history in which a tool call is not answered by the tool messages
    // right after it. Going backwards keeps the positions of earlier rows valid while later ones
    // shift to make room.
    int supplied = 0;
    for (qsizetype i = rows.size() - 1; i >= 0; --i) {
        if (rows[i].role != ChatMessage::Role::Assistant || rows[i].calls.isEmpty())
            continue;
        QSet<QString> answered;
        qint64 lastSeq = rows[i].seq;
        for (qsizetype j = i + 1; j < rows.size() && rows[j].role == ChatMessage::Role::Tool; ++j) {
            answered.insert(rows[j].toolCallId);
            lastSeq = rows[j].seq;
        }
        QList<ToolCall> missing;
        for (const ToolCall &call : std::as_const(rows[i].calls)) {
            if (!answered.contains(call.id))
                missing.append(call);
        }
        if (missing.isEmpty())
            continue;
        if (!run(query, QStringLiteral("UPDATE messages SET seq = seq + ? WHERE conversation_id = ? AND seq > ?"),
                 {missing.size(), conversationId, lastSeq}))
            return sqlError(query, QStringLiteral("recover interrupted tool calls"));
        const qint64 now = nowMs();
        for (const ToolCall &call : std::as_const(missing)) {
            if (!run(query,
                     QStringLiteral(
                         "INSERT INTO messages (conversation_id, seq, role, content, tool_call_id, tool_name, "
                         "status, created, updated) VALUES (?, ?, 'tool', ?, ?, ?, 'complete', ?, ?)"),
                     {conversationId, ++lastSeq, InterruptedToolResult, call.id, call.name, now, now}))
                return sqlError(query, QStringLiteral("recover interrupted tool calls"));
            ++supplied;
        }
    }
    return supplied;
}

QString ConversationStore::connectionName() const
{
    return m_connectionPrefix + QString::number(quintptr(QThread::currentThreadId()), 16);
}

StoreResult<QSqlDatabase> ConversationStore::threadConnection()
{
    const QString name = connectionName();
    QSqlDatabase db = QSqlDatabase::database(name, false);
    if (db.isValid())
        return db;

    db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(databasePath());
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(BusyTimeoutMs));
    if (!db.open()) {
        const QString problem = db.lastError().text();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
        return StoreError{StoreError::Kind::Unavailable, QStringLiteral("Sandpiper cannot open its database %1: %2")
                                                             .arg(QDir::toNativeSeparators(databasePath()), problem)};
    }
    QSqlQuery pragmas(db);
    pragmas.exec(QStringLiteral("PRAGMA foreign_keys = ON"));
    // In WAL mode NORMAL loses no committed data when the app dies, only (at worst) the last
    // commits when the machine loses power, and saves an fsync per commit.
    pragmas.exec(QStringLiteral("PRAGMA synchronous = NORMAL"));
    pragmas.exec(QStringLiteral("PRAGMA cache_size = -16000"));
    threadConnections.names.append(name);
    QMutexLocker locker(&m_connectionsMutex);
    if (!m_connections.contains(name)) // thread ids are reused once their thread has ended
        m_connections.append(name);
    return db;
}

StoreResult<QSqlDatabase> ConversationStore::database()
{
    if (auto opened = ensureOpen(); !opened)
        return opened.error();
    return threadConnection();
}

StoreError ConversationStore::sqlError(const QSqlQuery &query, const QString &action) const
{
    const QSqlError error = query.lastError();
    const QString detail = error.databaseText().isEmpty() ? error.text() : error.databaseText();
    const QString folder = QDir::toNativeSeparators(m_dataFolder);
    StoreError result{StoreError::Kind::Database, {}};
    QString why;
    switch (error.nativeErrorCode().toInt() & 0xff) {
    case SqliteReadOnly:
        result.kind = StoreError::Kind::WriteFailed;
        why = QStringLiteral("the database is read-only; check that %1 can be written").arg(folder);
        break;
    case SqliteFull:
        result.kind = StoreError::Kind::WriteFailed;
        why = QStringLiteral("the disk holding %1 is full").arg(folder);
        break;
    case SqliteIoError:
        result.kind = StoreError::Kind::WriteFailed;
        why = QStringLiteral("the disk holding %1 could not be written (%2); it may be full").arg(folder, detail);
        break;
    case SqliteCantOpen:
        result.kind = StoreError::Kind::Unavailable;
        why = QStringLiteral("the database file in %1 cannot be opened").arg(folder);
        break;
    case SqliteBusy:
    case SqliteLocked:
        why = QStringLiteral("the database is busy; is another Sandpiper using %1?").arg(folder);
        break;
    case SqliteCorrupt:
    case SqliteNotADatabase:
        why = QStringLiteral("the database file is damaged (%1)").arg(detail);
        break;
    default:
        why = detail;
        break;
    }
    result.message = QStringLiteral("Could not %1: %2.").arg(action, why);
    return result;
}

StoreResult<Conversation> ConversationStore::createConversation(const QString &provider, const QString &model,
                                                                const QJsonObject &settings)
{
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    WriteTransaction transaction(query);
    const qint64 now = nowMs();
    if (!transaction.begin() ||
        !run(query,
             QStringLiteral("INSERT INTO conversations (created, updated, provider, model, settings) "
                            "VALUES (?, ?, ?, ?, ?)"),
             {now, now, provider, model, compactJson(settings)}))
        return sqlError(query, QStringLiteral("create a conversation"));
    Conversation conversation;
    conversation.id = query.lastInsertId().toLongLong();
    conversation.created = conversation.updated = fromMs(now);
    conversation.provider = provider;
    conversation.model = model;
    conversation.settings = settings;

    const QString folder = conversationFolder(conversation.id);
    if (!QDir().mkpath(folder)) {
        return StoreError{StoreError::Kind::WriteFailed,
                          QStringLiteral("Could not create a conversation: the folder %1 cannot be created.")
                              .arg(QDir::toNativeSeparators(folder))};
    }
    if (!transaction.commit()) {
        QDir(folder).removeRecursively();
        return sqlError(query, QStringLiteral("create a conversation"));
    }
    return conversation;
}

template<typename T>
StoreResult<QList<T>> ConversationStore::selectRows(const QString &sql, const QVariantList &values,
                                                    const QString &action, T (*fromRow)(const QSqlQuery &))
{
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    query.setForwardOnly(true);
    if (!run(query, sql, values))
        return sqlError(query, action);
    QList<T> rows;
    while (query.next())
        rows.append(fromRow(query));
    return rows;
}

StoreResult<QList<Conversation>> ConversationStore::selectConversations(const QString &where,
                                                                        const QVariantList &values)
{
    return selectRows(QStringLiteral("SELECT %1 FROM conversations c %2 ORDER BY c.updated DESC, c.id DESC")
                          .arg(ConversationColumns, where),
                      values, QStringLiteral("read the conversations"), &conversationFromRow);
}

StoreResult<Conversation> ConversationStore::conversation(qint64 id)
{
    auto found = selectConversations(QStringLiteral("WHERE c.id = ?"), {id});
    if (!found)
        return found.error();
    if (found->isEmpty())
        return notFound(QStringLiteral("conversation"), id);
    return found->first();
}

StoreResult<QList<Conversation>> ConversationStore::conversations()
{
    return selectConversations({}, {});
}

StoreResult<void> ConversationStore::updateConversation(qint64 id, const QString &assignments,
                                                        const QVariantList &values, const QString &action)
{
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    if (!run(query, QStringLiteral("UPDATE conversations SET %1, updated = ? WHERE id = ?").arg(assignments),
             QVariantList(values) << nowMs() << id))
        return sqlError(query, action);
    if (query.numRowsAffected() == 0)
        return notFound(QStringLiteral("conversation"), id);
    return {};
}

StoreResult<void> ConversationStore::renameConversation(qint64 id, const QString &title)
{
    return updateConversation(id, QStringLiteral("title = ?"), {title.simplified()},
                              QStringLiteral("rename the conversation"));
}

StoreResult<void> ConversationStore::setConversationModel(qint64 id, const QString &provider, const QString &model)
{
    return updateConversation(id, QStringLiteral("provider = ?, model = ?"), {provider, model},
                              QStringLiteral("change the conversation's model"));
}

StoreResult<void> ConversationStore::setConversationSettings(qint64 id, const QJsonObject &settings)
{
    return updateConversation(id, QStringLiteral("settings = ?"), {compactJson(settings)},
                              QStringLiteral("save the conversation's settings"));
}

StoreResult<void> ConversationStore::deleteConversation(qint64 id)
{
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    if (!run(query, QStringLiteral("DELETE FROM conversations WHERE id = ?"), {id}))
        return sqlError(query, QStringLiteral("delete the conversation"));
    if (query.numRowsAffected() == 0)
        return notFound(QStringLiteral("conversation"), id);
    // The rows are gone and the id is never reused, so a folder that resists removal (a file
    // still open elsewhere) harms nothing but disk space; the user hears about the deletion only.
    const QString folder = conversationFolder(id);
    if (!QDir(folder).removeRecursively())
        qCWarning(lcStorage) << "could not remove all of" << folder;
    return {};
}

StoreResult<ChatMessage> ConversationStore::insertMessage(QSqlQuery &query, qint64 conversationId,
                                                          const ChatMessage &message, qint64 now)
{
    ChatMessage stored = message;
    stored.created = fromMs(toMs(message.created, now));
    stored.updated = fromMs(toMs(message.updated, now));
    if (!run(query,
             QStringLiteral("INSERT INTO messages (conversation_id, seq, role, content, reasoning, tool_calls, "
                            "tool_call_id, tool_name, prompt_tokens, completion_tokens, total_tokens, status, error, "
                            "created, updated) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE "
                            "conversation_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
             {conversationId, conversationId, ChatMessage::roleName(message.role), message.content, message.reasoning,
              toolCallsToJson(message.toolCalls), message.toolCallId, message.toolName, message.usage.promptTokens,
              message.usage.completionTokens, message.usage.totalTokens, ChatMessage::statusName(message.status),
              message.error, stored.created.toMSecsSinceEpoch(), stored.updated.toMSecsSinceEpoch()}))
        return sqlError(query, QStringLiteral("save the message"));
    stored.id = query.lastInsertId().toLongLong();
    return stored;
}

StoreResult<ChatMessage> ConversationStore::appendMessage(qint64 conversationId, const ChatMessage &message)
{
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    WriteTransaction transaction(query);
    const qint64 now = nowMs();
    if (!transaction.begin() ||
        !run(query, QStringLiteral("UPDATE conversations SET updated = ? WHERE id = ?"), {now, conversationId}))
        return sqlError(query, QStringLiteral("save the message"));
    if (query.numRowsAffected() == 0)
        return notFound(QStringLiteral("conversation"), conversationId);
    auto stored = insertMessage(query, conversationId, message, now);
    if (!stored)
        return stored;
    if (message.role == ChatMessage::Role::User) {
        const QString title = Conversation::titleFromFirstMessage(message.content);
        if (!title.isEmpty() &&
            !run(query, QStringLiteral("UPDATE conversations SET title = ? WHERE id = ? AND title = ''"),
                 {title, conversationId}))
            return sqlError(query, QStringLiteral("save the message"));
    }
    if (!transaction.commit())
        return sqlError(query, QStringLiteral("save the message"));
    return stored;
}

StoreResult<void> ConversationStore::deleteMessagesFrom(qint64 conversationId, qint64 messageId)
{
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    WriteTransaction transaction(query);
    if (!transaction.begin() || !run(query,
                                     QStringLiteral("DELETE FROM messages WHERE conversation_id = ? AND seq >= "
                                                    "(SELECT seq FROM messages WHERE id = ? AND conversation_id = ?)"),
                                     {conversationId, messageId, conversationId}))
        return sqlError(query, QStringLiteral("remove the later messages"));
    if (query.numRowsAffected() == 0)
        return notFound(QStringLiteral("message"), messageId);
    if (!run(query, QStringLiteral("UPDATE conversations SET updated = ? WHERE id = ?"), {nowMs(), conversationId}) ||
        !transaction.commit())
        return sqlError(query, QStringLiteral("remove the later messages"));
    return {};
}

StoreResult<void> ConversationStore::updateMessage(const ChatMessage &message)
{
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    WriteTransaction transaction(query);
    const qint64 now = nowMs();
    if (!transaction.begin() ||
        !run(query,
             QStringLiteral("UPDATE messages SET content = ?, reasoning = ?, tool_calls = ?, tool_call_id = ?, "
                            "tool_name = ?, prompt_tokens = ?, completion_tokens = ?, total_tokens = ?, status = ?, "
                            "error = ?, updated = ? WHERE id = ?"),
             {message.content, message.reasoning, toolCallsToJson(message.toolCalls), message.toolCallId,
              message.toolName, message.usage.promptTokens, message.usage.completionTokens, message.usage.totalTokens,
              ChatMessage::statusName(message.status), message.error, now, message.id}))
        return sqlError(query, QStringLiteral("save the message"));
    if (query.numRowsAffected() == 0)
        return notFound(QStringLiteral("message"), message.id);
    if (!run(query,
             QStringLiteral("UPDATE conversations SET updated = ? WHERE id = "
                            "(SELECT conversation_id FROM messages WHERE id = ?)"),
             {now, message.id}) ||
        !transaction.commit())
        return sqlError(query, QStringLiteral("save the message"));
    return {};
}

StoreResult<QList<ChatMessage>> ConversationStore::messages(qint64 conversationId)
{
    return selectRows(
        QStringLiteral("SELECT %1 FROM messages WHERE conversation_id = ? ORDER BY seq, id").arg(MessageColumns),
        {conversationId}, QStringLiteral("read the messages"), &messageFromRow);
}

StoreResult<StoredExecution> ConversationStore::insertExecution(QSqlQuery &query, qint64 conversationId,
                                                                const StoredExecution &execution, qint64 now)
{
    StoredExecution stored = execution;
    stored.conversationId = conversationId;
    stored.created = fromMs(toMs(execution.created, now));
    const ExecutionResult &result = execution.result;
    if (!run(query,
             QStringLiteral(
                 "INSERT INTO executions (conversation_id, tool_call_id, origin, code, status, stdout, stderr, "
                 "value, error_type, error_message, traceback, dropped_stdout_bytes, dropped_stderr_bytes, "
                 "duration_ms, timed_out, state_lost, state_reset, figures, html, files, created) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
             {conversationId,
              execution.toolCallId.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : execution.toolCallId,
              StoredExecution::originName(execution.origin),
              execution.code,
              ExecutionResult::statusName(result.status),
              result.standardOutput,
              result.standardError,
              result.value,
              result.errorType,
              result.errorMessage,
              result.traceback,
              result.droppedStdoutBytes,
              result.droppedStderrBytes,
              result.durationMs,
              result.timedOut,
              result.stateLost,
              result.stateReset,
              stringListToJson(result.figures),
              stringListToJson(result.html),
              stringListToJson(result.files),
              stored.created.toMSecsSinceEpoch()}))
        return sqlError(query, QStringLiteral("save the execution"));
    stored.id = query.lastInsertId().toLongLong();
    return stored;
}

StoreResult<StoredExecution> ConversationStore::addExecution(const StoredExecution &execution)
{
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    WriteTransaction transaction(query);
    const qint64 now = nowMs();
    if (!transaction.begin() || !run(query, QStringLiteral("UPDATE conversations SET updated = ? WHERE id = ?"),
                                     {now, execution.conversationId}))
        return sqlError(query, QStringLiteral("save the execution"));
    if (query.numRowsAffected() == 0)
        return notFound(QStringLiteral("conversation"), execution.conversationId);
    auto stored = insertExecution(query, execution.conversationId, execution, now);
    if (stored && !transaction.commit())
        return sqlError(query, QStringLiteral("save the execution"));
    return stored;
}

StoreResult<QList<StoredExecution>> ConversationStore::selectExecutions(const QString &where, qint64 id)
{
    return selectRows(QStringLiteral("SELECT %1 FROM executions WHERE %2 ORDER BY id").arg(ExecutionColumns, where),
                      {id}, QStringLiteral("read the executions"), &executionFromRow);
}

StoreResult<StoredExecution> ConversationStore::execution(qint64 id)
{
    auto found = selectExecutions(QStringLiteral("id = ?"), id);
    if (!found)
        return found.error();
    if (found->isEmpty())
        return notFound(QStringLiteral("execution"), id);
    return found->first();
}

StoreResult<QList<StoredExecution>> ConversationStore::executions(qint64 conversationId)
{
    return selectExecutions(QStringLiteral("conversation_id = ?"), conversationId);
}

StoreResult<Attachment> ConversationStore::attachFile(qint64 conversationId, const QString &sourcePath)
{
    auto db = database();
    if (!db)
        return db.error();
    const QFileInfo source(sourcePath);
    if (!source.isFile()) {
        return StoreError{StoreError::Kind::InvalidInput,
                          QStringLiteral("%1 is not a file.").arg(QDir::toNativeSeparators(sourcePath))};
    }
    QSqlQuery query(*db);
    WriteTransaction transaction(query);
    const qint64 now = nowMs();
    if (!transaction.begin() ||
        !run(query, QStringLiteral("UPDATE conversations SET updated = ? WHERE id = ?"), {now, conversationId}))
        return sqlError(query, QStringLiteral("attach the file"));
    if (query.numRowsAffected() == 0)
        return notFound(QStringLiteral("conversation"), conversationId);

    const QDir folder(conversationFolder(conversationId));
    QString fileName = source.fileName();
    for (int n = 2; folder.exists(fileName); ++n) {
        fileName = source.completeSuffix().isEmpty()
                       ? QStringLiteral("%1 (%2)").arg(source.baseName()).arg(n)
                       : QStringLiteral("%1 (%2).%3").arg(source.baseName()).arg(n).arg(source.completeSuffix());
    }
    const QString target = folder.filePath(fileName);
    if (!QDir().mkpath(folder.path()) || !QFile::copy(sourcePath, target)) {
        return StoreError{StoreError::Kind::WriteFailed,
                          QStringLiteral("Could not attach the file: %1 cannot be copied to %2.")
                              .arg(QDir::toNativeSeparators(sourcePath), QDir::toNativeSeparators(folder.path()))};
    }
    const Attachment attachment{0, conversationId, fileName, source.size(), fromMs(now)};
    if (!run(query,
             QStringLiteral("INSERT INTO attachments (conversation_id, file_name, size, created) VALUES (?, ?, ?, ?)"),
             {conversationId, fileName, attachment.size, now}) ||
        !transaction.commit()) {
        QFile::remove(target);
        return sqlError(query, QStringLiteral("attach the file"));
    }
    Attachment stored = attachment;
    stored.id = query.lastInsertId().toLongLong();
    return stored;
}

StoreResult<QList<Attachment>> ConversationStore::attachments(qint64 conversationId)
{
    return selectRows(
        QStringLiteral("SELECT %1 FROM attachments WHERE conversation_id = ? ORDER BY id").arg(AttachmentColumns),
        {conversationId}, QStringLiteral("read the attachments"), &attachmentFromRow);
}

StoreResult<void> ConversationStore::removeAttachment(qint64 attachmentId)
{
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    if (!run(query, QStringLiteral("DELETE FROM attachments WHERE id = ? RETURNING conversation_id, file_name"),
             {attachmentId}))
        return sqlError(query, QStringLiteral("remove the attachment"));
    if (!query.next())
        return notFound(QStringLiteral("attachment"), attachmentId);
    const QString path = conversationFolder(query.value(0).toLongLong()) + QLatin1Char('/') + query.value(1).toString();
    query.finish();
    if (QFileInfo::exists(path) && !QFile::remove(path)) {
        return StoreError{StoreError::Kind::WriteFailed,
                          QStringLiteral("The attachment was removed from the conversation, but the file %1 could "
                                         "not be deleted.")
                              .arg(QDir::toNativeSeparators(path))};
    }
    return {};
}

StoreResult<ConversationSnapshot> ConversationStore::loadConversation(qint64 id)
{
    // One read transaction, so the parts agree with each other while the agent writes.
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery transaction(*db);
    if (!transaction.exec(QStringLiteral("BEGIN")))
        return sqlError(transaction, QStringLiteral("read the conversation"));
    ConversationSnapshot snapshot;
    StoreError failure;
    bool ok = false;
    if (auto conversation = this->conversation(id); !conversation) {
        failure = conversation.error();
    } else if (auto messages = this->messages(id); !messages) {
        failure = messages.error();
    } else if (auto executions = this->executions(id); !executions) {
        failure = executions.error();
    } else if (auto attachments = this->attachments(id); !attachments) {
        failure = attachments.error();
    } else {
        snapshot = {std::move(conversation).value(), std::move(messages).value(), std::move(executions).value(),
                    std::move(attachments).value()};
        ok = true;
    }
    transaction.exec(QStringLiteral("COMMIT"));
    if (!ok)
        return failure;
    return snapshot;
}

StoreResult<Conversation> ConversationStore::insertConversation(const ConversationSnapshot &snapshot)
{
    auto db = database();
    if (!db)
        return db.error();
    const QString action = QStringLiteral("import the conversation");
    QSqlQuery query(*db);
    WriteTransaction transaction(query);
    const qint64 now = nowMs();
    const Conversation &source = snapshot.conversation;
    if (!transaction.begin() ||
        !run(query,
             QStringLiteral("INSERT INTO conversations (title, created, updated, provider, model, settings) "
                            "VALUES (?, ?, ?, ?, ?, ?)"),
             {source.title, toMs(source.created, now), toMs(source.updated, now), source.provider, source.model,
              compactJson(source.settings)}))
        return sqlError(query, action);
    const qint64 id = query.lastInsertId().toLongLong();
    for (const ChatMessage &message : snapshot.messages) {
        if (auto stored = insertMessage(query, id, message, now); !stored)
            return stored.error();
    }
    for (const StoredExecution &execution : snapshot.executions) {
        if (auto stored = insertExecution(query, id, execution, now); !stored)
            return stored.error();
    }
    const QString folder = conversationFolder(id);
    if (!QDir().mkpath(folder)) {
        return StoreError{StoreError::Kind::WriteFailed,
                          QStringLiteral("Could not import the conversation: the folder %1 cannot be created.")
                              .arg(QDir::toNativeSeparators(folder))};
    }
    if (!transaction.commit()) {
        QDir(folder).removeRecursively();
        return sqlError(query, action);
    }
    query.finish();
    return conversation(id);
}

StoreResult<QList<SearchHit>> ConversationStore::searchTable(QSqlQuery &query, const QString &match,
                                                             SearchHit::Kind kind, int limit)
{
    // The inner query lets FTS5 sort by rank itself and stop at LIMIT, so snippets are made for
    // the hits returned only, not for every row that matches.
    const bool messages = kind == SearchHit::Kind::Message;
    const QString sql =
        messages
            ? QStringLiteral("SELECT f.rowid, f.snip, f.score, m.conversation_id, c.title FROM (SELECT rowid, "
                             "snippet(messages_fts, 0, ?, ?, ?, 16) AS snip, rank AS score FROM messages_fts "
                             "WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?) AS f "
                             "JOIN messages m ON m.id = f.rowid JOIN conversations c ON c.id = m.conversation_id "
                             "ORDER BY f.score")
            : QStringLiteral("SELECT f.rowid, f.snip, f.score, e.conversation_id, c.title FROM (SELECT rowid, "
                             "snippet(executions_fts, 0, ?, ?, ?, 16) AS snip, rank AS score FROM executions_fts "
                             "WHERE executions_fts MATCH ? ORDER BY rank LIMIT ?) AS f "
                             "JOIN executions e ON e.id = f.rowid JOIN conversations c ON c.id = e.conversation_id "
                             "ORDER BY f.score");
    if (!run(query, sql,
             {QString(SearchHit::MatchStart), QString(SearchHit::MatchEnd), QString(QChar(0x2026)), match, limit}))
        return sqlError(query, QStringLiteral("search"));
    QList<SearchHit> hits;
    while (query.next()) {
        SearchHit hit;
        hit.kind = kind;
        (messages ? hit.messageId : hit.executionId) = query.value(0).toLongLong();
        hit.snippet = query.value(1).toString();
        hit.score = query.value(2).toDouble();
        hit.conversationId = query.value(3).toLongLong();
        hit.title = query.value(4).toString();
        hits.append(hit);
    }
    return hits;
}

StoreResult<QList<SearchHit>> ConversationStore::search(const QString &text, int limit)
{
    const QString match = ftsQuery(text);
    if (match.isEmpty() || limit <= 0)
        return QList<SearchHit>();
    auto db = database();
    if (!db)
        return db.error();
    QSqlQuery query(*db);
    query.setForwardOnly(true);
    auto hits = searchTable(query, match, SearchHit::Kind::Message, limit);
    if (!hits)
        return hits;
    auto code = searchTable(query, match, SearchHit::Kind::Execution, limit);
    if (!code)
        return code;
    // Both indexes use the same tokenizer and bm25, so their scores are close enough to merge;
    // each side already holds its own best LIMIT hits.
    QList<SearchHit> all = std::move(hits).value() + std::move(code).value();
    std::stable_sort(all.begin(), all.end(), [](const SearchHit &a, const SearchHit &b) { return a.score < b.score; });
    if (all.size() > limit)
        all.resize(limit);
    return all;
}

} // namespace Sandpiper
