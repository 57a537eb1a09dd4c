#include "localmodels/hubclient.h"

#include <QCoroNetworkReply>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSet>
#include <QUrlQuery>

#include <algorithm>

namespace Sandpiper {

namespace {

constexpr qint64 largestAnswer = 32 * 1024 * 1024;
constexpr int mostPages = 50;    // of a repository's tree (a hostile mirror's endless cursor ends here)
constexpr int mostFolders = 200; // folders asked for one by one when the tree was not given whole

// NAME-00002-of-00003.gguf: the name, the part and the count of a split model.
const QRegularExpression &splitName()
{
    static const QRegularExpression pattern(QStringLiteral("^(.*)-(\\d{5})-of-(\\d{5})$"));
    return pattern;
}

// The quantization at the end of a file's name: "…-Q4_K_M", "….IQ4_XS", "…-UD-Q4_K_XL", "…-f16".
const QRegularExpression &quantizationName()
{
    static const QRegularExpression pattern(
        QStringLiteral("(?:^|[-_.])((?:UD-)?(?:I?Q[1-8](?:_[0-9A-Z]+)*|TQ[12]_0|BF16|F16|FP16|F32|MXFP4(?:_MOE)?))$"),
        QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

// A path the hub gives: relative, within the repository, without controls.
bool acceptablePath(const QString &path)
{
    if (path.isEmpty() || path.startsWith(QLatin1Char('/')) || path.contains(QLatin1Char('\\')))
        return false;
    for (const QString &part : path.split(QLatin1Char('/'))) {
        if (part.isEmpty() || part == QLatin1String(".") || part == QLatin1String(".."))
            return false;
    }
    return std::none_of(path.cbegin(), path.cend(), [](QChar c) { return c.category() == QChar::Other_Control; });
}

// The next page of a listing from its Link header: <URL>; rel="next".
QByteArray nextLink(const QByteArray &link)
{
    for (const QByteArray &entry : link.split(',')) {
        if (!entry.contains("rel=\"next\""))
            continue;
        const qsizetype open = entry.indexOf('<');
        const qsizetype close = entry.indexOf('>');
        if (open >= 0 && close > open)
            return entry.mid(open + 1, close - open - 1).trimmed();
    }
    return {};
}

} // namespace

qint64 HubModel::bytes() const
{
    qint64 total = 0;
    for (const HubFile &file : files)
        total += file.size;
    return total;
}

QUrl HubClient::defaultEndpoint()
{
    const QString mirror = qEnvironmentVariable("HF_ENDPOINT").trimmed();
    QUrl url(mirror.isEmpty() ? QStringLiteral("https://huggingface.co") : mirror);
    url.setPath(url.path().chopped(url.path().endsWith(QLatin1Char('/')) ? 1 : 0));
    return url;
}

HubClient::HubClient(QUrl endpoint, QObject *parent)
    : QObject(parent)
    , m_endpoint(std::move(endpoint))
    , m_network(new QNetworkAccessManager(this))
{}

HubClient::~HubClient() = default;

bool HubClient::validRepository(const QString &repository)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$"));
    return pattern.match(repository).hasMatch() && !repository.contains(QLatin1String(".."));
}

QUrl HubClient::fileUrl(const QUrl &endpoint, const QString &repository, const QString &path)
{
    QUrl url = endpoint;
    url.setPath(endpoint.path() + QLatin1Char('/') + repository + QStringLiteral("/resolve/main/") + path);
    return url;
}

QString HubClient::statusProblem(int status, const QString &what, const QByteArray &body, bool withToken)
{
    const QString said = QJsonDocument::fromJson(body).object().value(QLatin1String("error")).toString().left(300);
    QString sentence;
    if ((status == 401 || status == 403) && withToken)
        sentence = tr("The hub refused the Hugging Face token for %1: the token may have expired, or the model's "
                      "terms were not accepted on its page at the hub yet.")
                       .arg(what);
    else if (status == 401 || status == 403)
        sentence = tr("Access to %1 needs a Hugging Face token: it is gated or private. Accept the model's terms on "
                      "its page at the hub, then give Sandpiper a token.")
                       .arg(what);
    else if (status == 404)
        sentence = tr("The hub has no %1.").arg(what);
    else if (status == 429)
        sentence = tr("The hub refuses more requests for now (too many); try again in a few minutes.");
    else
        sentence = tr("The hub answered %1 for %2.").arg(status).arg(what);
    return said.isEmpty() ? sentence : sentence + QLatin1Char(' ') + tr("It said: %1").arg(said);
}

QCoro::Task<Result<QByteArray>> HubClient::get(QUrl url, QString what, QByteArray *nextPage)
{
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    if (!m_token.isEmpty() && url.host() == m_endpoint.host())
        request.setRawHeader("Authorization", "Bearer " + m_token.toUtf8());
    request.setTransferTimeout(30000);
    std::unique_ptr<QNetworkReply> reply(m_network->get(request));
    co_await qCoro(reply.get()).waitForFinished();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->read(largestAnswer);
    if (status == 0)
        co_return tr("The Hugging Face hub at %1 could not be reached: %2.")
            .arg(m_endpoint.host(), reply->errorString());
    if (status != 200)
        co_return statusProblem(status, what, body, !m_token.isEmpty());
    if (nextPage)
        *nextPage = nextLink(reply->rawHeader("Link"));
    co_return body;
}

QCoro::Task<Result<QList<HubRepository>>> HubClient::search(QString query, int limit)
{
    QUrl url = m_endpoint;
    url.setPath(m_endpoint.path() + QStringLiteral("/api/models"));
    QUrlQuery parameters;
    parameters.addQueryItem(QStringLiteral("search"), query.trimmed());
    parameters.addQueryItem(QStringLiteral("filter"), QStringLiteral("gguf"));
    parameters.addQueryItem(QStringLiteral("sort"), QStringLiteral("downloads"));
    parameters.addQueryItem(QStringLiteral("direction"), QStringLiteral("-1"));
    parameters.addQueryItem(QStringLiteral("limit"), QString::number(std::clamp(limit, 1, 100)));
    url.setQuery(parameters);
    const Result<QByteArray> body = co_await get(url, tr("search"));
    if (!body)
        co_return body.error();
    const QJsonDocument document = QJsonDocument::fromJson(*body);
    if (!document.isArray())
        co_return tr("The hub's search answer is not the list of repositories it should be.");
    QList<HubRepository> repositories;
    for (const QJsonValue &value : document.array()) {
        const QJsonObject object = value.toObject();
        HubRepository repository;
        repository.id = object.value(QLatin1String("id")).toString(object.value(QLatin1String("modelId")).toString());
        if (!validRepository(repository.id))
            continue;
        repository.downloads = object.value(QLatin1String("downloads")).toInteger();
        repository.likes = object.value(QLatin1String("likes")).toInteger();
        // false, or how access is granted: "auto", "manual".
        const QJsonValue gated = object.value(QLatin1String("gated"));
        repository.gated = gated.isString() ? !gated.toString().isEmpty() : gated.toBool();
        repository.pipeline = object.value(QLatin1String("pipeline_tag")).toString();
        repositories.append(repository);
    }
    co_return repositories;
}

QCoro::Task<Result<QList<HubModel>>> HubClient::models(QString repository)
{
    if (!validRepository(repository))
        co_return tr("\"%1\" is not the name of a repository of the hub (owner/name).").arg(repository);
    QList<HubFile> files;
    QSet<QString> listed;           // every path seen, files and folders
    QStringList folders{QString()}; // asked for one by one only where the hub does not list folders whole
    QSet<QString> folderSeen;
    int foldersAsked = 0;
    while (!folders.isEmpty() && foldersAsked < mostFolders) {
        const QString folder = folders.takeFirst();
        ++foldersAsked;
        QUrl url = m_endpoint;
        url.setPath(m_endpoint.path() + QStringLiteral("/api/models/%1/tree/main%2")
                                            .arg(repository, folder.isEmpty() ? QString() : QLatin1Char('/') + folder));
        url.setQuery(QStringLiteral("recursive=true"));
        QStringList folderEntries;
        for (int page = 0; page < mostPages && url.isValid(); ++page) {
            QByteArray next;
            const Result<QByteArray> body = co_await get(url, tr("repository %1").arg(repository), &next);
            if (!body)
                co_return body.error();
            const QJsonDocument document = QJsonDocument::fromJson(*body);
            if (!document.isArray())
                co_return tr("The hub's list of the files of %1 is not the list it should be.").arg(repository);
            for (const QJsonValue &value : document.array()) {
                const QJsonObject entry = value.toObject();
                const QString path = entry.value(QLatin1String("path")).toString();
                if (!acceptablePath(path) || listed.contains(path))
                    continue;
                listed.insert(path);
                const QString type = entry.value(QLatin1String("type")).toString();
                if (type == QLatin1String("directory")) {
                    folderEntries << path;
                    continue;
                }
                if (type != QLatin1String("file"))
                    continue;
                HubFile file;
                file.path = path;
                file.size = entry.value(QLatin1String("size")).toInteger();
                const QJsonObject lfs = entry.value(QLatin1String("lfs")).toObject();
                if (!lfs.isEmpty()) {
                    file.size = lfs.value(QLatin1String("size")).toInteger(file.size);
                    const QString oid = lfs.value(QLatin1String("oid")).toString().toLower();
                    static const QRegularExpression sha256(QStringLiteral("^[0-9a-f]{64}$"));
                    if (sha256.match(oid).hasMatch())
                        file.sha256 = oid;
                }
                if (file.size >= 0)
                    files.append(file);
            }
            url = next.isEmpty() ? QUrl() : m_endpoint.resolved(QUrl::fromEncoded(next));
            // The next page only from the same hub.
            if (url.isValid() && url.host() != m_endpoint.host())
                url = QUrl();
        }
        // A folder whose contents were not listed with it (a mirror that ignores recursive=true).
        for (const QString &entry : std::as_const(folderEntries)) {
            const QString prefix = entry + QLatin1Char('/');
            const bool covered = std::any_of(listed.cbegin(), listed.cend(),
                                             [&](const QString &path) { return path.startsWith(prefix); });
            if (!covered && !folderSeen.contains(entry)) {
                folderSeen.insert(entry);
                folders << entry;
            }
        }
    }
    const QList<HubModel> models = group(files);
    if (models.isEmpty())
        co_return tr("The repository %1 has no GGUF file.").arg(repository);
    co_return models;
}

QList<HubModel> HubClient::group(const QList<HubFile> &files)
{
    QList<HubModel> models;
    QHash<QString, qsizetype> rows; // folder and name -> row
    QHash<QString, QList<std::pair<int, HubFile>>> parts;
    for (const HubFile &file : files) {
        if (!file.path.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive))
            continue;
        const QString folder = file.path.section(QLatin1Char('/'), 0, -2);
        QString name = file.path.section(QLatin1Char('/'), -1).chopped(5);
        int part = 1;
        int count = 1;
        if (const auto split = splitName().match(name); split.hasMatch()) {
            name = split.captured(1);
            part = split.captured(2).toInt();
            count = split.captured(3).toInt();
            if (part < 1 || count < 1 || part > count)
                continue;
        }
        const QString key = folder + QLatin1Char('/') + name + QLatin1Char('/') + QString::number(count);
        if (!rows.contains(key)) {
            HubModel model;
            model.name = name;
            model.partsExpected = count;
            model.projector = name.contains(QLatin1String("mmproj"), Qt::CaseInsensitive);
            if (const auto quantization = quantizationName().match(name); quantization.hasMatch())
                model.quantization = quantization.captured(1).toUpper();
            rows.insert(key, models.size());
            models.append(model);
        }
        QList<std::pair<int, HubFile>> &modelParts = parts[key];
        if (std::none_of(modelParts.cbegin(), modelParts.cend(), [&](const auto &p) { return p.first == part; }))
            modelParts.append({part, file});
    }
    for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
        QList<std::pair<int, HubFile>> modelParts = parts.value(it.key());
        std::sort(modelParts.begin(), modelParts.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        for (const auto &[number, file] : modelParts)
            models[*it].files.append(file);
    }
    std::stable_sort(models.begin(), models.end(), [](const HubModel &a, const HubModel &b) {
        if (a.projector != b.projector)
            return !a.projector;
        return a.bytes() < b.bytes();
    });
    return models;
}

std::optional<HubModel> HubClient::choose(const QList<HubModel> &models, const QString &quantization, QString *error)
{
    QList<HubModel> candidates;
    for (const HubModel &model : models) {
        if (!model.projector && model.complete())
            candidates.append(model);
    }
    if (candidates.isEmpty()) {
        *error = tr("it has no complete GGUF model");
        return std::nullopt;
    }
    const QString wanted = quantization.trimmed().isEmpty() ? QStringLiteral("Q4_K_M") : quantization.trimmed();
    for (const HubModel &model : std::as_const(candidates)) {
        if (model.quantization.compare(wanted, Qt::CaseInsensitive) == 0)
            return model;
    }
    for (const HubModel &model : std::as_const(candidates)) {
        if (model.name.contains(wanted, Qt::CaseInsensitive))
            return model;
    }
    if (quantization.trimmed().isEmpty())
        return candidates.constFirst(); // the smallest
    QStringList offered;
    for (const HubModel &model : std::as_const(candidates))
        offered << (model.quantization.isEmpty() ? model.name : model.quantization);
    offered.removeDuplicates();
    *error = tr("it has no model quantized as %1 (it has %2)").arg(quantization, offered.join(QStringLiteral(", ")));
    return std::nullopt;
}

} // namespace Sandpiper
