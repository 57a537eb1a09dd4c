// scripts/bench runner: the local model's figures (issue 26). For now the download: a model file
// (200 MB, made here) fetched by ModelDownload from the fake hub on loopback (302 to its file
// host, the SHA-256 checked while it comes), beside curl fetching the same file the same way in
// the same run, interleaved; the target is at least 0.9 of curl's speed. One function per
// measure, so the runner's cold and warm starts can join the table.
#include "benchstats.h"
#include "fakehub.h"

#include <localmodels/modeldownload.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>

using namespace Sandpiper;
using Sandpiper::Test::elapsedMs;
using Sandpiper::Test::percentile;

namespace {

const QString repository = QStringLiteral("bench/big-GGUF");
const QString fileName = QStringLiteral("big-Q4_K_M.gguf");

// The fake hub on a thread of its own, so that it serves while this thread downloads or waits.
class HubThread
{
public:
    explicit HubThread(const QString &localFile)
    {
        m_thread.start();
        m_context.moveToThread(&m_thread);
        QMetaObject::invokeMethod(
            &m_context,
            [&] {
                m_hub = new Test::FakeHub;
                if (!m_hub->listen())
                    qFatal("the fake hub cannot listen");
                m_hub->addRepository(repository);
                m_hub->addFile(repository, {fileName, localFile});
            },
            Qt::BlockingQueuedConnection);
    }
    ~HubThread()
    {
        QMetaObject::invokeMethod(
            &m_context, [this] { delete m_hub; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    QUrl endpoint() const { return m_hub->endpoint(); }
    QString fileHost() const { return m_hub->fileHost(); }

private:
    QThread m_thread;
    QObject m_context;
    Test::FakeHub *m_hub = nullptr;
};

// BYTES of random data (no compression on the way helps) behind an empty GGUF header, as a model
// file (ModelDownload keeps only what reads as GGUF).
QString makeFile(const QString &folder, qint64 bytes)
{
    const QString path = folder + QStringLiteral("/source.gguf");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    QByteArray block(4 << 20, Qt::Uninitialized);
    for (qint64 written = 0; written < bytes; written += block.size()) {
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
        if (written == 0)
            block.replace(0, 24, QByteArray(QByteArray("GGUF") + QByteArray::fromHex("03000000") + QByteArray(16, 0)));
        file.write(block.constData(), std::min<qint64>(block.size(), bytes - written));
    }
    return path;
}

// One ModelDownload of the file into FOLDER, in milliseconds.
double downloadOnce(const HubThread &hub, const HubModel &model, const QString &folder)
{
    DownloadOptions options;
    options.extraHosts = {hub.fileHost()};
    options.diskMargin = 0;
    ModelDownload configured(hub.endpoint(), repository, model, folder, options);
    QEventLoop loop;
    QObject::connect(&configured, &ModelDownload::finished, &loop, &QEventLoop::quit);
    QElapsedTimer timer;
    timer.start();
    configured.start();
    if (configured.state() != ModelDownload::State::Finished && configured.state() != ModelDownload::State::Failed)
        loop.exec();
    const double ms = elapsedMs(timer);
    if (configured.state() != ModelDownload::State::Finished)
        qFatal("the download failed: %s", qPrintable(configured.message()));
    QFile::remove(configured.modelPath());
    return ms;
}

// Qt's network stack alone reading the same file (the 302 followed, nothing written or hashed),
// in milliseconds: what ModelDownload cannot be faster than.
double networkOnce(const HubThread &hub)
{
    QNetworkAccessManager network;
    QNetworkRequest request(HubClient::fileUrl(hub.endpoint(), repository, fileName));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    QElapsedTimer timer;
    timer.start();
    QNetworkReply *reply = network.get(request);
    qint64 received = 0;
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [&] { received += reply->readAll().size(); });
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    received += reply->readAll().size();
    const double ms = elapsedMs(timer);
    if (reply->error() != QNetworkReply::NoError || received == 0)
        qFatal("Qt's download failed: %s", qPrintable(reply->errorString()));
    delete reply;
    return ms;
}

// SANDPIPER_CURL, else curl on PATH.
QString curlProgram()
{
    const QString named = qEnvironmentVariable("SANDPIPER_CURL");
    return named.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("curl")) : named;
}

// curl fetching the same file the same way (the hub's 302 followed), in milliseconds.
double curlOnce(const HubThread &hub, const QString &folder)
{
    const QString target = folder + QStringLiteral("/curl.gguf");
    QProcess curl;
    QElapsedTimer timer;
    timer.start();
    curl.start(curlProgram(), {QStringLiteral("-sSfL"), QStringLiteral("-o"), target,
                               HubClient::fileUrl(hub.endpoint(), repository, fileName).toString()});
    if (!curl.waitForFinished(600000) || curl.exitCode() != 0)
        qFatal("curl failed: %s", curl.readAllStandardError().constData());
    const double ms = elapsedMs(timer);
    QFile::remove(target);
    return ms;
}

void row(const char *name, const QList<double> &samples, qint64 bytes)
{
    const double median = percentile(samples, 0.5);
    std::printf("%-28s %4lld %10.1f %10.1f %10.1f\n", name, qlonglong(samples.size()), median,
                percentile(samples, 0.95), double(bytes) / 1e6 / (median / 1000.0));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (curlProgram().isEmpty()) {
        std::fprintf(stderr, "curl is not installed (SANDPIPER_CURL may name one)\n");
        return 1;
    }
    const qint64 bytes = qint64(200) * 1000 * 1000;
    const int runs = 5;
    QTemporaryDir dir;
    const QString source = makeFile(dir.path(), bytes);
    const HubThread hub(source);
    HubModel model;
    model.name = QStringLiteral("big-Q4_K_M");
    model.quantization = QStringLiteral("Q4_K_M");
    model.files = {{fileName, bytes, Test::FakeHub::sha256Of(source)}};

    QList<double> download;
    QList<double> curl;
    QList<double> network;
    downloadOnce(hub, model, dir.path() + QStringLiteral("/models")); // warms the page cache and the paths
    curlOnce(hub, dir.path());
    for (int i = 0; i < runs; ++i) {
        download << downloadOnce(hub, model, dir.path() + QStringLiteral("/models"));
        curl << curlOnce(hub, dir.path());
        network << networkOnce(hub);
    }
    std::printf("%-28s %4s %10s %10s %10s\n", "200 MB from the fake hub", "n", "median ms", "p95 ms", "MB/s");
    row("ModelDownload (SHA-256)", download, bytes);
    row("curl -L", curl, bytes);
    row("Qt's network alone", network, bytes);
    const double ratio = percentile(curl, 0.5) / percentile(download, 0.5);
    std::printf("download speed / curl's: %.2f (target >= 0.9)\n", ratio);
    const QJsonObject figures{{QStringLiteral("download_ms"), percentile(download, 0.5)},
                              {QStringLiteral("curl_ms"), percentile(curl, 0.5)},
                              {QStringLiteral("download_mb_per_s"), double(bytes) / 1e3 / percentile(download, 0.5)},
                              {QStringLiteral("curl_mb_per_s"), double(bytes) / 1e3 / percentile(curl, 0.5)},
                              {QStringLiteral("qt_network_mb_per_s"), double(bytes) / 1e3 / percentile(network, 0.5)},
                              {QStringLiteral("download_over_curl"), ratio}};
    std::printf("%s\n", QJsonDocument(figures).toJson(QJsonDocument::Compact).constData());
    return 0;
}
