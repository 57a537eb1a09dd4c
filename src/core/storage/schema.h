#pragma once

#include <QStringList>

class QSqlQuery;

namespace Sandpiper::Schema {

// Stored in the file header (PRAGMA application_id), so the store tells its own database from
// any other SQLite file that happens to sit at its path. "SNDP".
inline constexpr int ApplicationId = 0x534e4450;

// PRAGMA user_version of a database the store has fully migrated.
inline constexpr int LatestVersion = 9;

// The statements that take a database from VERSION - 1 to VERSION, one statement per entry
// (Qt SQL runs one at a time). A released migration never changes: files in that version exist.
QStringList migrationTo(int version);
// What has to be done to the rows with QUERY before migrationTo(VERSION)'s statements run, in the
// same transaction; NOTES gets what the user should be told of it. False when a statement failed.
bool prepareRowsFor(int version, QSqlQuery &query, QStringList *notes);
// What SQL alone cannot do to take the rows to VERSION, run with QUERY after migrationTo(VERSION)'s
// statements, in the same transaction; false when a statement failed (QUERY says why).
bool rewriteRowsFor(int version, QSqlQuery &query);

} // namespace Sandpiper::Schema
