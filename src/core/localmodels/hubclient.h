#pragma once

#include "result.h"

#include <QCoreApplication>
#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

#include <QCoroTask>

#include <optional>

class QNetworkAccessManager;

namespace Sandpiper {

// A repository of the Hugging Face hub, as its search lists it.
struct HubRepository {
    QString id; // "Qwen/Qwen2.5-0.5B-Instruct-GGUF"
    qint64 downloads = 0;
    qint64 likes = 0;
    bool gated = false;
    QString pipeline; // "text-generation", empty when not given
};

// One file of a repository, with what the hub publishes about it.
struct HubFile {
    QString path; // inside the repository, "Q4_K_M/model-Q4_K_M-00001-of-00002.gguf"
    qint64 size = 0;
    QString sha256; // the LFS object id, lower-case hex; empty for a file kept in git itself
};

// A model of a repository: one quantization, in one file or split into several, or a vision
// projector (mmproj) that goes with the models.
struct HubModel {
    QString name;         // the file name without ".gguf" and without the split's numbers
    QString quantization; // from the file name ("Q4_K_M", "F16"), upper-case; empty when it does not say
    QList<HubFile> files; // the parts, in order
    int partsExpected = 1;
    bool projector = false;

    qint64 bytes() const;
    // Every part is listed.
    bool complete() const { return files.size() == partsExpected; }
};

// The Hugging Face hub's API (or a mirror's, HF_ENDPOINT): search GGUF repositories, a
// repository's models with their sizes and checksums, a file's address. A token, when given, goes
// to the hub's own host only. The client outlives the tasks it returns (its replies are its
// children); every request gives up after 30 s without a byte.
class HubClient : public QObject
{
    Q_OBJECT

public:
    // HF_ENDPOINT when set, else https://huggingface.co.
    static QUrl defaultEndpoint();

    explicit HubClient(QUrl endpoint = defaultEndpoint(), QObject *parent = nullptr);
    ~HubClient() override;

    QUrl endpoint() const { return m_endpoint; }
    void setToken(const QString &token) { m_token = token; }

    // GGUF repositories matching QUERY, the most downloaded first.
    QCoro::Task<Result<QList<HubRepository>>> search(QString query, int limit = 20);
    // The GGUF models of REPOSITORY (owner/name) on its main branch, projectors after the models.
    QCoro::Task<Result<QList<HubModel>>> models(QString repository);

    // {endpoint}/{repository}/resolve/main/{path}
    QUrl fileUrl(const QString &repository, const QString &path) const { return fileUrl(m_endpoint, repository, path); }
    static QUrl fileUrl(const QUrl &endpoint, const QString &repository, const QString &path);

    // A repository's name is owner/name with letters, digits, '-', '_' and '.'.
    static bool validRepository(const QString &repository);
    // The GGUF files among FILES grouped into models: the parts of a split model together (a model
    // whose parts are not all listed says so by complete()), smallest first, projectors last.
    static QList<HubModel> group(const QList<HubFile> &files);
    // The model of QUANTIZATION (case-insensitive; a name's part matches too), or, when it is
    // empty, Q4_K_M where there is one, else the smallest. Null with ERROR saying why not.
    static std::optional<HubModel> choose(const QList<HubModel> &models, const QString &quantization, QString *error);
    // The hub's answer STATUS for WHAT (a repository or a file), as a sentence; BODY may hold its
    // {"error": …} text; WITHTOKEN: a token was sent.
    static QString statusProblem(int status, const QString &what, const QByteArray &body, bool withToken);

private:
    QCoro::Task<Result<QByteArray>> get(QUrl url, QString what, QByteArray *nextPage = nullptr);

    QUrl m_endpoint;
    QString m_token;
    QNetworkAccessManager *m_network;
};

} // namespace Sandpiper
