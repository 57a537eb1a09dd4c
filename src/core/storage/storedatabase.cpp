#include "storage/storedatabase.h"

#include "logging.h"
#include "storage/rowcodec.h"
#include "storage/schema.h"
#include "storage/turnrecovery.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QThread>

namespace Sandpiper {

namespace {

const QString DatabaseFileName = QStringLiteral("sandpiper.db");
const QString ConversationsFolderName = QStringLiteral("conversations");
const QString SnapshotsFolderName = QStringLiteral("snapshots");
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

QString timestampSuffix()
{
    return QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

} // namespace

WriteTransaction::~WriteTransaction()
{
    if (m_active)
        m_query.exec(QStringLiteral("ROLLBACK"));
}

bool WriteTransaction::begin()
{
    m_active = m_query.exec(QStringLiteral("BEGIN IMMEDIATE"));
    return m_active;
}

bool WriteTransaction::commit()
{
    if (!m_query.exec(QStringLiteral("COMMIT")))
        return false;
    m_active = false;
    return true;
}

ConversationWrite::ConversationWrite(const QSqlDatabase &database)
    : query(database)
    , transaction(query)
    , now(RowCodec::nowMs())
{}

StoreDatabase::StoreDatabase(const QString &dataFolder)
    : m_dataFolder(QDir::cleanPath(dataFolder))
    , m_connectionPrefix(QStringLiteral("sandpiper-store%1-").arg(nextStoreSerial.fetch_add(1)))
{}

StoreDatabase::~StoreDatabase()
{
    QMutexLocker locker(&m_connectionsMutex);
    for (const QString &name : std::as_const(m_connections)) {
        threadConnections.names.removeAll(name);
        QSqlDatabase::removeDatabase(name);
    }
}

QString StoreDatabase::databasePath() const
{
    return m_dataFolder + QLatin1Char('/') + DatabaseFileName;
}

QString StoreDatabase::conversationsFolder() const
{
    return m_dataFolder + QLatin1Char('/') + ConversationsFolderName;
}

QString StoreDatabase::snapshotsFolder() const
{
    return m_dataFolder + QLatin1Char('/') + SnapshotsFolderName;
}

QString StoreDatabase::conversationFolder(qint64 conversationId) const
{
    return conversationsFolder() + QLatin1Char('/') + QString::number(conversationId);
}

QString StoreDatabase::lastWarning() const
{
    QMutexLocker locker(&m_openMutex);
    return m_lastWarning;
}

StoreRecovery StoreDatabase::lastRecovery() const
{
    QMutexLocker locker(&m_openMutex);
    return m_lastRecovery;
}

StoreResult<void> StoreDatabase::open()
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

StoreResult<void> StoreDatabase::initialize()
{
    if (!QDir().mkpath(m_dataFolder) || !QFileInfo(m_dataFolder).isDir()) {
        return StoreError{StoreError::Kind::Unavailable,
                          tr("Sandpiper cannot create its data folder %1, so it cannot save conversations. Check "
                             "that the folder can be written.")
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
                          tr("Sandpiper cannot open its database %1: %2")
                              .arg(QDir::toNativeSeparators(databasePath()), query.lastError().text())};
    }
    query.finish();
    if (auto migrated = migrate(query); !migrated)
        return migrated;
    auto recovered = TurnRecovery::recover(*this, query);
    if (!recovered)
        return recovered.error();
    m_lastRecovery = *recovered;
    return {};
}

std::optional<QString> StoreDatabase::unusableFileReason()
{
    QFile file(databasePath());
    if (file.size() == 0) // missing or empty: a new database
        return std::nullopt;
    if (!file.open(QIODevice::ReadOnly)) // not ours to judge: opening will report the problem
        return std::nullopt;
    if (file.read(16) != QByteArray("SQLite format 3\0", 16))
        return tr("The database %1 is not an SQLite file (it may have been damaged).")
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
                    reason = tr("The file %1 is an SQLite database of another program, not Sandpiper's.")
                                 .arg(QDir::toNativeSeparators(databasePath()));
                }
            } else {
                const int code = query.lastError().nativeErrorCode().toInt() & 0xff;
                if (code == SqliteCorrupt || code == SqliteNotADatabase) {
                    reason = tr("The database %1 is damaged (%2).")
                                 .arg(QDir::toNativeSeparators(databasePath()), query.lastError().databaseText());
                }
            }
        }
    }
    QSqlDatabase::removeDatabase(probe);
    return reason;
}

StoreResult<void> StoreDatabase::moveBrokenFilesAside(const QString &reason)
{
    const QString database = databasePath();
    QString aside = database + QLatin1String(".broken-") + timestampSuffix();
    for (int n = 2; QFileInfo::exists(aside); ++n)
        aside = database + QLatin1String(".broken-") + timestampSuffix() + QLatin1Char('-') + QString::number(n);
    if (!QFile::rename(database, aside)) {
        return StoreError{StoreError::Kind::Unavailable,
                          reason + QLatin1Char(' ') +
                              tr("Sandpiper could not move it aside to %1; move or remove it, then start Sandpiper "
                                 "again.")
                                  .arg(QDir::toNativeSeparators(aside))};
    }
    // The journal belongs with its database: SQLite finds it by the name.
    for (const QLatin1String suffix : {QLatin1String("-wal"), QLatin1String("-shm")}) {
        if (QFileInfo::exists(database + suffix) && !QFile::rename(database + suffix, aside + suffix))
            QFile::remove(database + suffix); // a stale journal would be applied to the new database
    }
    // The new database numbers conversations from 1 again; the old folders must not become theirs.
    const QString folders = conversationsFolder();
    QString foldersAside;
    if (QFileInfo::exists(folders)) {
        foldersAside = folders + aside.mid(database.size());
        if (!QDir().rename(folders, foldersAside)) {
            return StoreError{StoreError::Kind::Unavailable,
                              reason + QLatin1Char(' ') +
                                  tr("Sandpiper moved it to %1 but could not move the folder %2 aside.")
                                      .arg(QDir::toNativeSeparators(aside), QDir::toNativeSeparators(folders))};
        }
    }
    // The kept copies of the folders' files belong to the runs of the old database: a new one names
    // none of them, and would sweep them away.
    const QString snapshots = snapshotsFolder();
    if (QFileInfo::exists(snapshots) && !QDir().rename(snapshots, snapshots + aside.mid(database.size())))
        qCWarning(lcStorage) << "cannot move" << snapshots << "aside";
    m_lastWarning =
        reason + QLatin1Char(' ') +
        tr("It was moved to %1 and a new, empty database was created.").arg(QDir::toNativeSeparators(aside));
    if (!foldersAside.isEmpty()) {
        m_lastWarning += QLatin1Char(' ') +
                         tr("The conversation folders were moved to %1.").arg(QDir::toNativeSeparators(foldersAside));
    }
    qCWarning(lcStorage).noquote() << m_lastWarning;
    return {};
}

StoreResult<void> StoreDatabase::migrate(QSqlQuery &query)
{
    if (!query.exec(QStringLiteral("PRAGMA user_version")) || !query.next())
        return sqlError(query, tr("The version of the database could not be read."));
    const int version = query.value(0).toInt();
    query.finish();
    if (version > Schema::LatestVersion) {
        return StoreError{StoreError::Kind::Unavailable,
                          tr("The database %1 was written by a newer version of Sandpiper (schema %2; this version "
                             "knows up to %3). Update Sandpiper to open it.")
                              .arg(QDir::toNativeSeparators(databasePath()))
                              .arg(version)
                              .arg(Schema::LatestVersion)};
    }
    for (int next = version + 1; next <= Schema::LatestVersion; ++next) {
        const QString failed = tr("The database could not be upgraded to version %1.").arg(next);
        WriteTransaction transaction(query);
        if (!transaction.begin())
            return sqlError(query, failed);
        QStringList notes;
        if (!Schema::prepareRowsFor(next, query, &notes))
            return sqlError(query, failed);
        QStringList statements = Schema::migrationTo(next);
        if (next == 1)
            statements.append(QStringLiteral("PRAGMA application_id = %1").arg(Schema::ApplicationId));
        statements.append(QStringLiteral("PRAGMA user_version = %1").arg(next));
        for (const QString &statement : std::as_const(statements)) {
            if (!query.exec(statement))
                return sqlError(query, failed);
        }
        if (!Schema::rewriteRowsFor(next, query) || !transaction.commit())
            return sqlError(query, failed);
        qCInfo(lcStorage) << "database upgraded to version" << next;
        if (!notes.isEmpty()) {
            const QString said = notes.join(QLatin1Char(' '));
            qCWarning(lcStorage).noquote() << said;
            m_lastWarning = m_lastWarning.isEmpty() ? said : m_lastWarning + QLatin1Char(' ') + said;
        }
    }
    return {};
}

QString StoreDatabase::connectionName() const
{
    return m_connectionPrefix + QString::number(quintptr(QThread::currentThreadId()), 16);
}

StoreResult<QSqlDatabase> StoreDatabase::threadConnection()
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
        return StoreError{
            StoreError::Kind::Unavailable,
            tr("Sandpiper cannot open its database %1: %2").arg(QDir::toNativeSeparators(databasePath()), problem)};
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

StoreResult<QSqlDatabase> StoreDatabase::connection()
{
    if (auto opened = open(); !opened)
        return opened.error();
    return threadConnection();
}

StoreResult<std::unique_ptr<ConversationWrite>> StoreDatabase::beginConversationWrite(qint64 id, const QString &failed)
{
    auto db = connection();
    if (!db)
        return db.error();
    auto write = std::make_unique<ConversationWrite>(*db);
    if (!write->transaction.begin() ||
        !run(write->query, QStringLiteral("UPDATE conversations SET updated = ? WHERE id = ?"), {write->now, id}))
        return sqlError(write->query, failed);
    if (write->query.numRowsAffected() == 0)
        return noConversation(id);
    return write;
}

bool StoreDatabase::run(QSqlQuery &query, const QString &sql, const QVariantList &values)
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

StoreError StoreDatabase::noConversation(qint64 id)
{
    return {StoreError::Kind::NotFound, tr("There is no conversation with the id %1.").arg(id)};
}

StoreError StoreDatabase::sqlError(const QSqlQuery &query, const QString &failed) const
{
    const QSqlError error = query.lastError();
    const QString detail = error.databaseText().isEmpty() ? error.text() : error.databaseText();
    const QString folder = QDir::toNativeSeparators(m_dataFolder);
    StoreError result{StoreError::Kind::Database, {}};
    QString why;
    switch (error.nativeErrorCode().toInt() & 0xff) {
    case SqliteReadOnly:
        result.kind = StoreError::Kind::WriteFailed;
        why = tr("The database is read-only; check that %1 can be written.").arg(folder);
        break;
    case SqliteFull:
        result.kind = StoreError::Kind::WriteFailed;
        why = tr("The disk holding %1 is full.").arg(folder);
        break;
    case SqliteIoError:
        result.kind = StoreError::Kind::WriteFailed;
        why = tr("The disk holding %1 could not be written (%2); it may be full.").arg(folder, detail);
        break;
    case SqliteCantOpen:
        result.kind = StoreError::Kind::Unavailable;
        why = tr("The database file in %1 cannot be opened.").arg(folder);
        break;
    case SqliteBusy:
    case SqliteLocked:
        why = tr("The database is busy; is another Sandpiper using %1?").arg(folder);
        break;
    case SqliteCorrupt:
    case SqliteNotADatabase:
        why = tr("The database file is damaged (%1).").arg(detail);
        break;
    default:
        why = tr("SQLite reported: %1").arg(detail);
        break;
    }
    result.message = failed + QLatin1Char(' ') + why;
    return result;
}

} // namespace Sandpiper
