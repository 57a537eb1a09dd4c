#pragma once

#include "fakewebserver.h"

#include <QString>
#include <QStringList>

namespace Sandpiper::Test {

// A file of a repository on the fake hub.
struct FakeHubFile {
    QString path;      // in the repository
    QString localFile; // its bytes
    QString sha256;    // the one the hub publishes; empty: the file's own
    int drops = 0;     // this many answers with its bytes end after DROPAFTER bytes
    qint64 dropAfter = 0;
    bool ignoresRange = false; // the file host sends it whole, whatever Range asks
    QByteArray redirectTo;     // the hub sends the download there instead of to its file host
};

// The Hugging Face hub as its API speaks, on 127.0.0.1: /api/models (search), /api/models/REPO/
// tree/main (the files with their sizes and LFS checksums, in pages with a Link header), and
// /REPO/resolve/main/FILE answering 302 with X-Linked-Size and X-Linked-Etag to a second host,
// 127.0.0.2, that serves the bytes with Range, 206, Content-Range and ETag. A gated repository
// answers 401 without the token "hf_good". A third host, 127.0.0.3, stands for anywhere else.
class FakeHub : public QObject
{
    Q_OBJECT

public:
    explicit FakeHub(QObject *parent = nullptr);

    bool listen();
    QUrl endpoint() const; // http://127.0.0.1:PORT
    QString fileHost() const { return QStringLiteral("127.0.0.2"); }

    void addRepository(const QString &repository, qint64 downloads = 0, bool gated = false);
    void addFile(const QString &repository, const FakeHubFile &file);
    // The INDEXth file added, to change how it is served from now on.
    FakeHubFile &file(int index) { return m_entries[index].file; }
    // Entries per page of a tree (a Link header leads to the next).
    void setPageSize(int size) { m_pageSize = size; }
    // Lists only a folder's own entries, whatever recursive=true asks.
    void setIgnoresRecursive(bool ignores) { m_ignoresRecursive = ignores; }

    FakeWebServer &hub() { return m_hub; }
    FakeWebServer &files() { return m_files; }
    FakeWebServer &elsewhere() { return m_elsewhere; }

    static QString sha256Of(const QString &localFile);
    static constexpr const char *goodToken = "hf_good";

private:
    struct Repository {
        QString id;
        qint64 downloads = 0;
        bool gated = false;
        QList<int> files;
    };
    struct Entry {
        QString repository;
        FakeHubFile file;
        qint64 size = 0;
        QString sha256; // published
    };

    FakeWebResponse answerHub(const FakeWebRequest &request);
    FakeWebResponse search(const FakeWebRequest &request);
    FakeWebResponse tree(const Repository &repository, const QString &folder, const FakeWebRequest &request);
    FakeWebResponse resolve(int entry);
    FakeWebResponse serve(int entry, const FakeWebRequest &request);
    const Repository *repositoryOf(const QString &id) const;

    FakeWebServer m_hub;
    FakeWebServer m_files;
    FakeWebServer m_elsewhere;
    QList<Repository> m_repositories;
    QList<Entry> m_entries;
    int m_pageSize = 1000;
    bool m_ignoresRecursive = false;
};

} // namespace Sandpiper::Test
