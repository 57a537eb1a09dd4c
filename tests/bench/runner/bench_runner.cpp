// scripts/bench runner: the local model's figures (issue 26).
// - The runner: from Send to the first token through a conversation of the provider "This
//   computer" with tests/llama's tiny model, cold (the runner stopped: it starts, loads, answers)
//   and warm (it runs), beside llama-server started by hand with the same flags on the same model
//   in the same run (its own start to /health, and the first token of the very request the app
//   sends, as the agent logs it); targets: warm at
//   most 1.05 of the hand-started server's, cold no slower than its start plus 300 ms. And this
//   process's memory with the model loaded beside without (target: within 20 MB; the model lives
//   in the runner).
// - The download: a model file (200 MB, made here) fetched by ModelDownload from the fake hub on
//   loopback (302 to its file host, the SHA-256 checked while it comes), beside curl fetching the
//   same file the same way in the same run, interleaved; the target is at least 0.9 of curl's
//   speed.
#include "benchstats.h"
#include "fakehub.h"
#include "llamaserver.h"
#include "testprofile.h"

#include <localmodels/ggufheader.h>
#include <localmodels/localrunner.h>
#include <localmodels/modeldownload.h>
#include <session/conversationsession.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTcpServer>
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
    // Into one buffer used again, as ModelDownload reads (a new one per read maps every page anew).
    QByteArray buffer(2 << 20, Qt::Uninitialized);
    const auto drain = [&] {
        for (qint64 read = 0; (read = reply->read(buffer.data(), buffer.size())) > 0;)
            received += read;
    };
    QObject::connect(reply, &QNetworkReply::readyRead, reply, drain);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    drain();
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

// This process's resident memory in bytes (VmRSS).
qint64 residentBytes()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return 0;
}

// The first token of a streamed chat request with BODY to the llama-server at BASEURL, in
// milliseconds.
double firstTokenByHand(const QUrl &baseUrl, const QByteArray &body)
{
    QNetworkAccessManager network;
    QNetworkRequest request(QUrl(baseUrl.toString() + QStringLiteral("/chat/completions")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    QElapsedTimer timer;
    timer.start();
    QNetworkReply *reply = network.post(request, body);
    double ms = -1;
    QByteArray seen;
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [&] {
        seen += reply->readAll();
        // The first token, or the end when the model's first token is its end (the tiny model may
        // stop at once): what the app's first event is measured against.
        if (ms < 0 && (seen.contains("\"content\":\"") || seen.contains("\"reasoning_content\":\"") ||
                       seen.contains("\"finish_reason\":\""))) {
            ms = elapsedMs(timer);
            loop.quit();
        }
    });
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    if (ms < 0)
        qFatal("the hand-started server sent no token: %s", seen.left(300).constData());
    reply->abort();
    delete reply;
    return ms;
}

// llama-server started by hand with the runner's flags: its start until /health answers, in
// milliseconds, and the server (to ask, then to stop).
struct HandServer {
    QProcess process;
    quint16 port = 0;
    double startMs = 0;

    HandServer()
    {
        QString why;
        const auto command = Test::LlamaServer::command(&why);
        if (!command)
            qFatal("no llama-server: %s", qPrintable(why));
        const QString model = Test::LlamaServer::modelPath();
        const auto info = GgufHeader::read(model);
        RunnerPlan plan =
            RunnerPlan::forModel(model, *info, RunnerPlan::availableMemory(), QThread::idealThreadCount(), 2);
        plan.alias = QStringLiteral("tiny");
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        port = probe.serverPort();
        probe.close();
        process.setProcessEnvironment(command->environment);
        process.setStandardOutputFile(QProcess::nullDevice());
        process.setStandardErrorFile(QProcess::nullDevice());
        QElapsedTimer timer;
        timer.start();
        process.start(command->program, command->leading + plan.arguments(port));
        QNetworkAccessManager network;
        for (;;) {
            QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/health").arg(port)));
            QNetworkReply *reply = network.get(request);
            QEventLoop loop;
            QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
            loop.exec();
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            delete reply;
            if (status == 200)
                break;
            if (process.state() == QProcess::NotRunning || timer.elapsed() > 60000)
                qFatal("the hand-started llama-server did not come up");
            QThread::msleep(5);
        }
        startMs = elapsedMs(timer);
    }
    ~HandServer()
    {
        process.terminate();
        process.waitForFinished(5000);
    }
    QUrl baseUrl() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(port)); }
};

// A profile whose provider is "This computer" with the tiny model on its shelf.
std::unique_ptr<Test::TestProfile> localProfile()
{
    auto profile = std::make_unique<Test::TestProfile>();
    const QStringList assignments{
        QStringLiteral("sandbox/enabled=false"),      QStringLiteral("web/enabled=false"),
        QStringLiteral("charts/enabled=false"),       QStringLiteral("provider=local"),
        QStringLiteral("providers/local/model=tiny"), QStringLiteral("models/test_first_use=never")};
    if (const QString refused = profile->open(assignments); !refused.isEmpty())
        qFatal("profile: %s", qPrintable(refused));
    const QString launcher = profile->filePath(QStringLiteral("llama-server"));
    if (const QString why = Test::LlamaServer::writeLauncher(launcher); !why.isEmpty())
        qFatal("launcher: %s", qPrintable(why));
    if (const QString refused = profile->set({QStringLiteral("local/server=") + launcher}); !refused.isEmpty())
        qFatal("profile: %s", qPrintable(refused));
    QDir().mkpath(profile->settings()->localModelsFolder());
    QFile::copy(Test::LlamaServer::modelPath(),
                profile->settings()->localModelsFolder() + QStringLiteral("/tiny.gguf"));
    return profile;
}

// From Send to the first token of a new conversation of PROFILE (or to the answer's end when it
// ends at its first token), in milliseconds; the turn is waited for to its end.
double firstTokenThroughTheApp(Test::TestProfile &profile)
{
    const auto created = profile.sessions()->create();
    if (!created)
        qFatal("no conversation: %s", qPrintable(created.error().message));
    ConversationSession *session = *created;
    QElapsedTimer timer;
    double ms = -1;
    QEventLoop loop;
    QObject::connect(session, &ConversationSession::agentEvent, session, [&](const AgentEvent &event) {
        if (ms < 0 && (event.kind == AgentEvent::Kind::TextDelta || event.kind == AgentEvent::Kind::ReasoningDelta))
            ms = elapsedMs(timer);
    });
    QObject::connect(session, &ConversationSession::turnFinished, &loop, [&] {
        if (ms < 0) // an answer that ended at its first token
            ms = elapsedMs(timer);
        loop.quit();
    });
    timer.start();
    session->send(QStringLiteral("Say hello."));
    loop.exec();
    if (ms < 0)
        qFatal("the local model sent no token");
    return ms;
}

// What the agent logs of its requests (sandpiper.agent.wire), while a body is wanted.
QMutex wireMutex;
QByteArray wireBody;
QtMessageHandler previousHandler = nullptr;

void catchWire(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (qstrcmp(context.category, "sandpiper.agent.wire") == 0) {
        const QMutexLocker lock(&wireMutex);
        if (wireBody.isEmpty() && message.startsWith(QLatin1String("request ")))
            wireBody = message.mid(8).toUtf8();
        return;
    }
    if (previousHandler)
        previousHandler(type, context, message);
}

// The body of the chat request the app sends for "Say hello." in a new conversation (its system
// prompt, tools and options), as the agent logs it at debug level. The hand-started server is
// asked the very same.
QByteArray appRequestBody()
{
    QLoggingCategory::setFilterRules(QStringLiteral("sandpiper.agent.wire.debug=true"));
    previousHandler = qInstallMessageHandler(catchWire);
    auto profile = localProfile();
    firstTokenThroughTheApp(*profile);
    if (!profile->close())
        qFatal("the profile did not close");
    qInstallMessageHandler(previousHandler);
    QLoggingCategory::setFilterRules(QString());
    const QMutexLocker lock(&wireMutex);
    if (QJsonDocument::fromJson(wireBody).isNull())
        qFatal("the agent logged no request body (sandpiper.agent.wire)");
    return wireBody;
}

void runnerRows(QJsonObject *figures)
{
    const int coldRuns = 5;
    const int warmRuns = 9;
    QList<double> handStart;
    QList<double> handCold; // its start and its first request's first token
    QList<double> handWarm;
    QList<double> appCold;
    QList<double> appWarm;
    qint64 memoryWithout = 0;
    qint64 memoryWith = 0;
    const QByteArray body = appRequestBody();
    for (int round = 0; round < coldRuns; ++round) {
        {
            HandServer hand;
            handStart << hand.startMs;
            handCold << hand.startMs + firstTokenByHand(hand.baseUrl(), body);
            if (round == 0) {
                for (int i = 0; i < warmRuns; ++i)
                    handWarm << firstTokenByHand(hand.baseUrl(), body);
            }
        }
        auto profile = localProfile();
        if (!profile->sessions()->create()) // the window has its sessions before any model runs
            qFatal("no conversation");
        if (round == 0)
            memoryWithout = residentBytes();
        appCold << firstTokenThroughTheApp(*profile);
        if (round == 0) {
            for (int i = 0; i < warmRuns; ++i)
                appWarm << firstTokenThroughTheApp(*profile);
            memoryWith = residentBytes();
        }
        if (!profile->close())
            qFatal("the profile did not close");
    }
    std::printf("%-28s %4s %10s %10s\n", "Send to the first token", "n", "median ms", "p95 ms");
    const auto timeRow = [](const char *name, const QList<double> &samples) {
        std::printf("%-28s %4lld %10.1f %10.1f\n", name, qlonglong(samples.size()), percentile(samples, 0.5),
                    percentile(samples, 0.95));
    };
    timeRow("llama-server's own start", handStart);
    timeRow("hand-started, from nothing", handCold);
    timeRow("Sandpiper, runner stopped", appCold);
    timeRow("hand-started, first token", handWarm);
    timeRow("Sandpiper, runner running", appWarm);
    const double coldOver = percentile(appCold, 0.5) - percentile(handCold, 0.5);
    const double warmRatio = percentile(appWarm, 0.5) / percentile(handWarm, 0.5);
    std::printf("cold: %.1f ms beyond the server's start and its first request's first token (target <= 300)\n",
                coldOver);
    std::printf("warm / hand-started: %.2f (target <= 1.05)\n", warmRatio);
    const double memoryMb = double(memoryWith - memoryWithout) / 1e6;
    std::printf("this process with the model loaded: %+.1f MB (target within 20)\n\n", memoryMb);
    figures->insert(QStringLiteral("server_start_ms"), percentile(handStart, 0.5));
    figures->insert(QStringLiteral("hand_cold_first_token_ms"), percentile(handCold, 0.5));
    figures->insert(QStringLiteral("cold_first_token_ms"), percentile(appCold, 0.5));
    figures->insert(QStringLiteral("hand_first_token_ms"), percentile(handWarm, 0.5));
    figures->insert(QStringLiteral("warm_first_token_ms"), percentile(appWarm, 0.5));
    figures->insert(QStringLiteral("cold_beyond_server_ms"), coldOver);
    figures->insert(QStringLiteral("warm_over_hand"), warmRatio);
    figures->insert(QStringLiteral("memory_with_model_mb"), memoryMb);
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
    QJsonObject figures;
    runnerRows(&figures);
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
    figures.insert(QStringLiteral("download_ms"), percentile(download, 0.5));
    figures.insert(QStringLiteral("curl_ms"), percentile(curl, 0.5));
    figures.insert(QStringLiteral("download_mb_per_s"), double(bytes) / 1e3 / percentile(download, 0.5));
    figures.insert(QStringLiteral("curl_mb_per_s"), double(bytes) / 1e3 / percentile(curl, 0.5));
    figures.insert(QStringLiteral("qt_network_mb_per_s"), double(bytes) / 1e3 / percentile(network, 0.5));
    figures.insert(QStringLiteral("download_over_curl"), ratio);
    std::printf("%s\n", QJsonDocument(figures).toJson(QJsonDocument::Compact).constData());
    return 0;
}
