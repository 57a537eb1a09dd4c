#include "fakehub.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QUrlQuery>

#include <algorithm>

namespace Sandpiper::Test {

namespace {

FakeWebResponse hubError(int status, const QByteArray &code, const QString &message)
{
    FakeWebResponse response =
        FakeWebResponse::json(QJsonDocument(QJsonObject{{QStringLiteral("error"), message}}).toJson(), status);
    response.headers.append({"X-Error-Code", code});
    response.headers.append({"X-Error-Message", message.toUtf8()});
    return response;
}

// A git object id for a path, as the tree gives beside the LFS one.
QString gitOid(const QString &text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace

FakeHub::FakeHub(QObject *parent)
    : QObject(parent)
{
    m_hub.setFallback([this](const FakeWebRequest &request) { return answerHub(request); });
    m_files.setFallback([this](const FakeWebRequest &request) {
        static const QRegularExpression path(QStringLiteral("^/xet/(\\d+)$"));
        const auto match = path.match(QString::fromUtf8(request.path));
        if (!match.hasMatch() || match.captured(1).toInt() >= m_entries.size())
            return hubError(404, "EntryNotFound", QStringLiteral("Entry not found"));
        return serve(match.captured(1).toInt(), request);
    });
}

bool FakeHub::listen()
{
    return m_hub.listen(QHostAddress(QStringLiteral("127.0.0.1"))) &&
           m_files.listen(QHostAddress(QStringLiteral("127.0.0.2"))) &&
           m_elsewhere.listen(QHostAddress(QStringLiteral("127.0.0.3")));
}

QUrl FakeHub::endpoint() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_hub.port()));
}

QString FakeHub::sha256Of(const QString &localFile)
{
    QFile file(localFile);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (file.open(QIODevice::ReadOnly))
        hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

void FakeHub::addRepository(const QString &repository, qint64 downloads, bool gated)
{
    m_repositories.append({repository, downloads, gated, {}});
}

void FakeHub::addFile(const QString &repository, const FakeHubFile &file)
{
    for (Repository &known : m_repositories) {
        if (known.id != repository)
            continue;
        Entry entry{repository, file, QFileInfo(file.localFile).size(),
                    file.sha256.isEmpty() ? sha256Of(file.localFile) : file.sha256};
        known.files.append(m_entries.size());
        m_entries.append(entry);
        return;
    }
    qFatal("no repository %s on the fake hub", qPrintable(repository));
}

const FakeHub::Repository *FakeHub::repositoryOf(const QString &id) const
{
    for (const Repository &repository : m_repositories) {
        if (repository.id == id)
            return &repository;
    }
    return nullptr;
}

FakeWebResponse FakeHub::answerHub(const FakeWebRequest &request)
{
    const QString path = QUrl::fromPercentEncoding(request.path);
    if (path == QLatin1String("/api/models"))
        return search(request);
    static const QRegularExpression treePath(QStringLiteral("^/api/models/([^/]+/[^/]+)/tree/main(?:/(.*))?$"));
    static const QRegularExpression resolvePath(QStringLiteral("^/([^/]+/[^/]+)/resolve/main/(.+)$"));
    QString id;
    auto match = treePath.match(path);
    const bool isTree = match.hasMatch();
    if (!isTree)
        match = resolvePath.match(path);
    if (!match.hasMatch())
        return hubError(404, "NotFound", QStringLiteral("Not Found"));
    const Repository *repository = repositoryOf(match.captured(1));
    if (!repository)
        return hubError(404, "RepoNotFound", QStringLiteral("Repository not found"));
    if (repository->gated && request.headers.value("authorization") != QByteArray("Bearer ") + goodToken)
        return hubError(401, "GatedRepo",
                        QStringLiteral("Access to model %1 is restricted. You must have access to it and be "
                                       "authenticated to access it. Please log in.")
                            .arg(repository->id));
    if (isTree)
        return tree(*repository, match.captured(2), request);
    for (int index : repository->files) {
        if (m_entries[index].file.path == match.captured(2))
            return resolve(index);
    }
    return hubError(404, "EntryNotFound", QStringLiteral("Entry not found"));
}

FakeWebResponse FakeHub::search(const FakeWebRequest &request)
{
    const QUrlQuery query(QString::fromUtf8(request.target.mid(request.target.indexOf('?') + 1)));
    const QString wanted = query.queryItemValue(QStringLiteral("search"), QUrl::FullyDecoded);
    const int limit = query.queryItemValue(QStringLiteral("limit")).toInt();
    QList<Repository> found;
    for (const Repository &repository : std::as_const(m_repositories)) {
        if (repository.id.contains(wanted, Qt::CaseInsensitive))
            found.append(repository);
    }
    if (query.queryItemValue(QStringLiteral("sort")) == QLatin1String("downloads"))
        std::stable_sort(found.begin(), found.end(),
                         [](const Repository &a, const Repository &b) { return a.downloads > b.downloads; });
    QJsonArray list;
    for (const Repository &repository : std::as_const(found)) {
        if (limit > 0 && list.size() >= limit)
            break;
        list.append(QJsonObject{
            {QStringLiteral("_id"), gitOid(repository.id).left(24)},
            {QStringLiteral("id"), repository.id},
            {QStringLiteral("modelId"), repository.id},
            {QStringLiteral("likes"), 7},
            {QStringLiteral("trendingScore"), 1},
            {QStringLiteral("private"), false},
            {QStringLiteral("gated"), repository.gated ? QJsonValue(QStringLiteral("manual")) : QJsonValue(false)},
            {QStringLiteral("downloads"), repository.downloads},
            {QStringLiteral("tags"), QJsonArray{QStringLiteral("gguf"), QStringLiteral("chat")}},
            {QStringLiteral("pipeline_tag"), QStringLiteral("text-generation")},
            {QStringLiteral("library_name"), QStringLiteral("gguf")},
            {QStringLiteral("createdAt"), QStringLiteral("2025-01-01T00:00:00.000Z")}});
    }
    return FakeWebResponse::json(QJsonDocument(list).toJson(QJsonDocument::Compact));
}

FakeWebResponse FakeHub::tree(const Repository &repository, const QString &folder, const FakeWebRequest &request)
{
    const QUrlQuery query(QString::fromUtf8(request.target.mid(request.target.indexOf('?') + 1)));
    const bool recursive =
        query.queryItemValue(QStringLiteral("recursive")) == QLatin1String("true") && !m_ignoresRecursive;
    const QString prefix = folder.isEmpty() ? QString() : folder + QLatin1Char('/');
    QJsonArray entries;
    QSet<QString> folders;
    for (int index : repository.files) {
        const Entry &entry = m_entries[index];
        if (!entry.file.path.startsWith(prefix))
            continue;
        const QString rest = entry.file.path.mid(prefix.size());
        // The folders on the way, each once.
        const QStringList parts = rest.split(QLatin1Char('/'));
        for (int depth = 1; depth < parts.size() && (recursive || depth == 1); ++depth) {
            const QString sub = prefix + parts.mid(0, depth).join(QLatin1Char('/'));
            if (!folders.contains(sub)) {
                folders.insert(sub);
                entries.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("directory")},
                                           {QStringLiteral("oid"), gitOid(sub)},
                                           {QStringLiteral("size"), 0},
                                           {QStringLiteral("path"), sub}});
            }
        }
        if (parts.size() > 1 && !recursive)
            continue;
        QJsonObject file{{QStringLiteral("type"), QStringLiteral("file")},
                         {QStringLiteral("oid"), gitOid(entry.file.path)},
                         {QStringLiteral("size"), entry.size},
                         {QStringLiteral("path"), entry.file.path}};
        if (entry.file.path.endsWith(QLatin1String(".gguf")))
            file.insert(QStringLiteral("lfs"), QJsonObject{{QStringLiteral("oid"), entry.sha256},
                                                           {QStringLiteral("size"), entry.size},
                                                           {QStringLiteral("pointerSize"), 135}});
        entries.append(file);
    }
    const int cursor = query.queryItemValue(QStringLiteral("cursor")).toInt();
    QJsonArray page;
    for (int i = cursor; i < entries.size() && page.size() < m_pageSize; ++i)
        page.append(entries[i]);
    FakeWebResponse response = FakeWebResponse::json(QJsonDocument(page).toJson(QJsonDocument::Compact));
    if (cursor + m_pageSize < entries.size()) {
        QUrl next = m_hub.url(QUrl::fromPercentEncoding(request.path));
        QUrlQuery nextQuery(query);
        nextQuery.removeAllQueryItems(QStringLiteral("cursor"));
        nextQuery.addQueryItem(QStringLiteral("cursor"), QString::number(cursor + m_pageSize));
        next.setQuery(nextQuery);
        response.headers.append({"Link", "<" + next.toEncoded() + ">; rel=\"next\""});
    }
    return response;
}

FakeWebResponse FakeHub::resolve(int index)
{
    const Entry &entry = m_entries[index];
    const QByteArray location = !entry.file.redirectTo.isEmpty()
                                    ? entry.file.redirectTo
                                    : m_files.url(QStringLiteral("/xet/%1").arg(index)).toEncoded() +
                                          "?X-Amz-Signature=0123&X-Amz-Expires=3600";
    FakeWebResponse response = FakeWebResponse::redirect(302, location);
    response.body = "Found. Redirecting to " + location;
    response.headers = {{"Content-Type", "text/plain; charset=utf-8"},
                        {"Location", location},
                        {"X-Repo-Commit", gitOid(entry.repository).toLatin1()},
                        {"X-Linked-Size", QByteArray::number(entry.size)},
                        {"X-Linked-Etag", '"' + entry.sha256.toLatin1() + '"'},
                        {"ETag", "W/\"" + gitOid(entry.file.path).left(20).toLatin1() + '"'},
                        {"Accept-Ranges", "bytes"}};
    return response;
}

FakeWebResponse FakeHub::serve(int index, const FakeWebRequest &request)
{
    Entry &entry = m_entries[index];
    FakeWebResponse response;
    response.headers = {{"Content-Type", "application/octet-stream"},
                        {"Accept-Ranges", "bytes"},
                        {"ETag", '"' + entry.sha256.toLatin1() + '"'}};
    response.file = entry.file.localFile;
    response.fileBytes = entry.size;
    static const QRegularExpression range(QStringLiteral("^bytes=(\\d+)-(\\d*)$"));
    const auto match = range.match(QString::fromLatin1(request.headers.value("range")));
    if (match.hasMatch() && !entry.file.ignoresRange) {
        const qint64 from = match.captured(1).toLongLong();
        const qint64 to =
            match.captured(2).isEmpty() ? entry.size - 1 : std::min(entry.size - 1, match.captured(2).toLongLong());
        if (from >= entry.size || to < from) {
            FakeWebResponse refused;
            refused.status = 416;
            refused.headers = {{"Content-Range", "bytes */" + QByteArray::number(entry.size)}};
            return refused;
        }
        response.status = 206;
        response.fileOffset = from;
        response.fileBytes = to - from + 1;
        response.headers.append(
            {"Content-Range", QStringLiteral("bytes %1-%2/%3").arg(from).arg(to).arg(entry.size).toLatin1()});
    }
    if (entry.file.drops > 0) {
        --entry.file.drops;
        response.dropAfter = entry.file.dropAfter;
    }
    return response;
}

} // namespace Sandpiper::Test
