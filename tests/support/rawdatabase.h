#pragma once

#include <QDebug>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

namespace Sandpiper::Test {

// A connection of the test's own, for what the store's API does not show: the file's pragmas,
// raw rows, a database written by hand.
class RawDatabase
{
public:
    explicit RawDatabase(const QString &path)
        : m_name(QStringLiteral("raw-%1").arg(QRandomGenerator::global()->generate64()))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(path);
        db.open();
    }
    ~RawDatabase() { QSqlDatabase::removeDatabase(m_name); }

    QString name() const { return m_name; }

    bool exec(const QString &sql)
    {
        QSqlQuery query(QSqlDatabase::database(m_name));
        if (!query.exec(sql)) {
            qWarning() << sql << query.lastError().text();
            return false;
        }
        return true;
    }
    QVariant value(const QString &sql)
    {
        QSqlQuery query(QSqlDatabase::database(m_name));
        if (!query.exec(sql) || !query.next())
            return {};
        return query.value(0);
    }

private:
    QString m_name;
};

// Puts a copy of the database file SOURCE (a test's data) into the data folder FOLDER, made, where
// a store opened on FOLDER finds it, writable; the copy's path, empty when it could not be made.
inline QString placeDatabase(const QString &source, const QString &folder)
{
    const QString file = folder + QStringLiteral("/sandpiper.db");
    if (!QDir().mkpath(folder) || !QFile::copy(source, file) ||
        !QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner))
        return {};
    return file;
}

} // namespace Sandpiper::Test
