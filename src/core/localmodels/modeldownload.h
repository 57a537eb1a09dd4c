#pragma once

#include "localmodels/hubclient.h"
#include "localmodels/sha256.h"

#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <chrono>

class QNetworkAccessManager;
class QNetworkReply;

namespace Sandpiper {

struct DownloadOptions {
    QString token; // a Hugging Face token, sent to the hub's own host only
    // Hosts besides the hub's own (and, for huggingface.co, its file hosts) that its redirects may
    // lead to: a mirror's file servers. "*.example.org" takes every host under example.org.
    QStringList extraHosts;
    qint64 diskMargin = qint64(256) << 20;           // left free beside the model
    int retries = 5;                                 // after a dropped connection, in a row
    std::chrono::milliseconds firstRetryDelay{1000}; // doubled at each retry
    std::chrono::milliseconds stallTimeout{30000};   // no byte for this long: the connection dropped
    // Bytes received and not hashed yet, at most: beyond, the network waits for the hash.
    qint64 hashBacklog = qint64(64) << 20;
};

// One model of a hub repository (all its parts) downloaded into MODELSFOLDER/owner/name/: each
// file to NAME.part first, resumed with an HTTP Range where it stopped (after a dropped
// connection, a pause, or by a new ModelDownload after a restart, which checks the bytes already
// there first), its SHA-256 checked against the one the hub publishes while it is written, and
// renamed into place only when every part is whole and the first reads as a GGUF model. Nothing
// half-downloaded ever carries a model's name. Redirects are followed only to the hub's own host
// and its file hosts.
class ModelDownload : public QObject
{
    Q_OBJECT

public:
    enum class State { Idle, Checking, Downloading, Paused, Finished, Failed, Canceled };
    Q_ENUM(State)

    ModelDownload(QUrl endpoint, QString repository, HubModel model, QString modelsFolder, DownloadOptions options = {},
                  QObject *parent = nullptr);
    ~ModelDownload() override;

    // Starts, or continues after a pause or a failure (what is on disk is kept and checked); a
    // model already here whole is Finished at once.
    void start();
    void pause();
    void resume() { start(); }
    // Stops and deletes what was downloaded.
    void cancel();

    State state() const { return m_state; }
    // What happens or happened, a sentence for the window; after Failed, why.
    QString message() const { return m_message; }
    // Where the model is (its first part) once Finished; where it will be before.
    QString modelPath() const;
    QString folder() const { return m_folder; }
    qint64 bytesDone() const { return m_doneBefore + m_partDone; }
    qint64 bytesTotal() const { return m_model.bytes(); }
    const HubModel &model() const { return m_model; }

    // MODELSFOLDER/owner/name
    static QString folderFor(const QString &modelsFolder, const QString &repository);
    // Whether a redirect from the hub at ENDPOINT may lead to HOST.
    static bool hostAllowed(const QUrl &endpoint, const QString &host, const QStringList &extraHosts);

Q_SIGNALS:
    void stateChanged(Sandpiper::ModelDownload::State state, const QString &message);
    // At most five times a second, and when a part ends. SECONDSLEFT is -1 while unknown.
    void progressed(qint64 done, qint64 total, double bytesPerSecond, qint64 secondsLeft);
    // Finished, Failed or Canceled.
    void finished();

private:
    enum class Stop { None, Pause, Cancel, Restart, Fail };

    QString partPath(int index) const;
    QString finalPath(int index) const;
    QString checkFreeSpace(qint64 needed) const;
    void beginPart();
    void hashExisting();
    void request(const QUrl &url);
    void headersArrived();
    void bytesArrived();
    void replyFinished();
    void followRedirect(QNetworkReply *reply);
    void retryOrFail(const QString &problem);
    void startOver();
    void partComplete();
    void complete();
    void fail(const QString &message);
    void setState(State state, const QString &message);
    void abortReply(Stop why);
    void reportProgress(bool now);
    QString partName() const;
    // A buffer of m_buffers that the hash is done with, made while there are fewer than a few;
    // null when all of them wait for the hash.
    QByteArray *freeBuffer();
    // Writes and hashes the first SIZE bytes of BUFFER; false when that failed (and said why).
    bool keep(const QByteArray &buffer, qint64 size);

    QUrl m_endpoint;
    QString m_repository;
    HubModel m_model;
    QString m_folder;
    DownloadOptions m_options;
    QNetworkAccessManager *m_network;
    QPointer<QNetworkReply> m_reply;
    QFile m_file;
    Sha256Thread m_hash;
    // What comes goes through these on its way to the file and the hash, used again and again: a
    // new buffer for every read (readAll) had the system map every page of it anew, which cost
    // more than hashing it.
    QList<QByteArray> m_buffers;
    qint64 m_hashed = -1; // bytes of the current .part in m_hash; -1: not read yet
    int m_index = 0;
    qint64 m_doneBefore = 0; // the parts before the current one
    qint64 m_partDone = 0;
    qint64 m_expectedSize = 0;
    QString m_expectedSha;
    int m_redirects = 0;
    int m_retriesLeft = 0;
    int m_retriesMade = 0;
    qint64 m_sinceRetry = 0;
    bool m_receiving = false;
    bool m_restartedOnce = false;
    Stop m_stop = Stop::None;
    qint64 m_sinceSpaceCheck = 0;
    QTimer m_retry;
    QTimer m_hashWait; // while the hash catches up
    State m_state = State::Idle;
    QString m_message;
    QElapsedTimer m_clock;
    qint64 m_lastReport = -1;
    QList<std::pair<qint64, qint64>> m_samples; // (ms, bytes done) over the last seconds, for the speed
};

} // namespace Sandpiper
