// llama-server in a container (issue 26), for a machine without one of its own: the runner starts
// Debian's real server from the image sandpiper-llama (tests/llama/setup.sh imports it from its sid
// root) on the real Docker engine, with the model read-only, the port on 127.0.0.1 alone and
// nothing to write; it answers, is started again once when the container is killed mid-answer,
// and the container is gone once it stops.
#include "dockertest.h"
#include "llamaserver.h"

#include <localmodels/localrunner.h>
#include <localmodels/runnercontainer.h>

#include <QCoroTask>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using namespace std::chrono_literals;

namespace {

std::optional<QByteArray> docker(const QStringList &arguments)
{
    return LlamaServer::docker(arguments);
}

bool dockerAnswers()
{
    return docker({QStringLiteral("version"), QStringLiteral("--format"), QStringLiteral("{{.Server.Version}}")})
        .has_value();
}

} // namespace

class TestContainerRunner : public QObject
{
    Q_OBJECT

    QTemporaryDir m_logs;
    QString m_image;

    std::unique_ptr<LocalRunner> runner()
    {
        RunnerPlan plan = RunnerPlan::forModel(LlamaServer::modelPath(), GgufInfo{}, 0, 1);
        plan.alias = QStringLiteral("tiny");
        plan.offloadTo(DeviceProbe::run(RunnerProgram::container(m_image)));
        return std::make_unique<LocalRunner>(RunnerProgram::container(m_image), plan,
                                             m_logs.filePath(QStringLiteral("llama-server.log")));
    }

    // A chat completion of the server at BASEURL: the answer's JSON.
    static QJsonObject ask(const QUrl &baseUrl) { return LlamaServer::chat(baseUrl); }

    static QJsonObject inspect(const QString &container)
    {
        const auto json = docker({QStringLiteral("container"), QStringLiteral("inspect"), container});
        return json ? QJsonDocument::fromJson(*json).array().at(0).toObject() : QJsonObject();
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!dockerAnswers())
            QSKIP("Docker does not answer on this machine");
        SANDPIPER_REQUIRE_LLAMA();
        m_image = RunnerContainer::findImage();
        SANDPIPER_REQUIRE_AVAILABLE(
            m_image.isEmpty() ? QStringLiteral("no %1 image on this machine's Docker engine (tests/llama/setup.sh "
                                               "imports it)")
                                    .arg(RunnerContainer::repository())
                              : QString());
    }

    // Started in a container, it answers a chat on 127.0.0.1; the container has the model
    // read-only, no capabilities, nothing writable but a small /tmp, the port on 127.0.0.1 alone
    // and the app's network without masquerading; its output is the runner's log; once stopped,
    // the container is gone.
    void answersFromAContainerThatHoldsNothingElse()
    {
        auto local = runner();
        const Result<QUrl> url = QCoro::waitFor(local->ready());
        QVERIFY2(url.ok(), qPrintable(url.error()));
        QCOMPARE(url->host(), QStringLiteral("127.0.0.1"));
        const QString container = local->container();
        QVERIFY(container.startsWith(QLatin1String("sandpiper-llama-")));

        const QJsonObject answer = ask(*url);
        QVERIFY2(answer[QLatin1String("choices")].toArray().size() == 1, QJsonDocument(answer).toJson().constData());
        QCOMPARE(answer[QLatin1String("model")].toString(), QStringLiteral("tiny"));

        const QJsonObject info = inspect(container);
        QVERIFY2(!info.isEmpty(), "the container is there while it runs");
        const QJsonObject host = info[QLatin1String("HostConfig")].toObject();
        QCOMPARE(info[QLatin1String("Config")].toObject()[QLatin1String("Image")].toString(), m_image);
        QVERIFY(host[QLatin1String("ReadonlyRootfs")].toBool());
        // The app's own user on an engine that runs as root (a rootless one maps root to it).
        if (!docker({QStringLiteral("info"), QStringLiteral("--format"), QStringLiteral("{{json .SecurityOptions}}")})
                 ->contains("rootless"))
            QCOMPARE(info[QLatin1String("Config")].toObject()[QLatin1String("User")].toString(),
                     QStringLiteral("%1:%2").arg(::getuid()).arg(::getgid()));
        QCOMPARE(host[QLatin1String("CapDrop")].toArray(), QJsonArray{QStringLiteral("ALL")});
        QVERIFY(host[QLatin1String("CapAdd")].toArray().isEmpty());
        QVERIFY(host[QLatin1String("SecurityOpt")].toArray().contains(QStringLiteral("no-new-privileges")));
        QVERIFY(host[QLatin1String("AutoRemove")].toBool());
        QVERIFY(host[QLatin1String("PidsLimit")].toInteger() > 0);
        QVERIFY(host[QLatin1String("NanoCpus")].toInteger() > 0);
        QVERIFY(!host[QLatin1String("Privileged")].toBool());
        QCOMPARE(host[QLatin1String("NetworkMode")].toString(), QStringLiteral("sandpiper-llama"));
        const QJsonObject bindings = host[QLatin1String("PortBindings")].toObject();
        QCOMPARE(bindings.size(), 1);
        for (const QJsonValue &binding : bindings.begin()->toArray())
            QCOMPARE(binding[QLatin1String("HostIp")].toString(), QStringLiteral("127.0.0.1"));
        const QJsonArray mounts = info[QLatin1String("Mounts")].toArray();
        QCOMPARE(mounts.size(), 1);
        QCOMPARE(mounts.at(0)[QLatin1String("Source")].toString(), LlamaServer::modelPath());
        QCOMPARE(mounts.at(0)[QLatin1String("Destination")].toString(), QStringLiteral("/models/tiny.gguf"));
        QCOMPARE(mounts.at(0)[QLatin1String("RW")].toBool(), false);
        const auto network = docker({QStringLiteral("network"), QStringLiteral("inspect"), QStringLiteral("--format"),
                                     QStringLiteral("{{json .Options}}"), QStringLiteral("sandpiper-llama")});
        QVERIFY(network);
        QCOMPARE(QJsonDocument::fromJson(*network)
                     .object()[QLatin1String("com.docker.network.bridge.enable_ip_masquerade")]
                     .toString(),
                 QStringLiteral("false"));
        // Nothing can be written but /tmp.
        QVERIFY(!docker({QStringLiteral("exec"), container, QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                         QStringLiteral("echo x > /models/tiny.gguf || echo x > /etc/x")}));

        const auto said = [&] {
            QFile log(local->logFile());
            return log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
        };
        QVERIFY2(said().contains("docker run --rm"), "the log starts with the command");
        QVERIFY2(said().contains("-ngl 0"), "no GPU in the container: no layer is offloaded");
        // The server's own output, of the answer it gave (it comes through the docker client).
        QTRY_VERIFY2_WITH_TIMEOUT(said().contains("print_timing"), said().right(1500).constData(), 10000);

        local->stop();
        QCOMPARE(local->state(), LocalRunner::State::Stopped);
        QVERIFY(local->container().isEmpty());
        // Removed off the GUI thread: gone within moments.
        QTRY_VERIFY2_WITH_TIMEOUT(inspect(container).isEmpty(), "the container is gone once stopped", 20000);
    }

    // The container killed while an answer streams: the runner starts another, once, at the same
    // address; killed again, it says so and the next message starts it.
    void isStartedAgainOnceAfterADockerKillMidAnswer()
    {
        auto local = runner();
        const Result<QUrl> url = QCoro::waitFor(local->ready());
        QVERIFY2(url.ok(), qPrintable(url.error()));
        const QString first = local->container();

        QNetworkAccessManager network;
        QNetworkRequest request(QUrl(url->toString() + QStringLiteral("/chat/completions")));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        const QJsonObject body{
            {QStringLiteral("stream"), true},
            {QStringLiteral("max_tokens"), 3000},
            {QStringLiteral("ignore_eos"), true},
            {QStringLiteral("messages"),
             QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                    {QStringLiteral("content"), QStringLiteral("Tell me a long story")}}}}};
        QNetworkReply *reply = network.post(request, QJsonDocument(body).toJson());
        QSignalSpy streamed(reply, &QIODevice::readyRead);
        QVERIFY(streamed.wait(30000));
        QVERIFY(docker({QStringLiteral("kill"), first}));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(reply->isFinished() || finished.wait(30000));
        QVERIFY2(reply->error() != QNetworkReply::NoError || !reply->readAll().contains("[DONE]"),
                 "the answer was cut short");
        reply->deleteLater();

        QTRY_VERIFY_WITH_TIMEOUT(local->state() == LocalRunner::State::Ready && !local->container().isEmpty() &&
                                     local->container() != first,
                                 60000);
        QVERIFY2(inspect(first).isEmpty(), "the killed container is gone");
        QVERIFY(ask(*url)[QLatin1String("choices")].toArray().size() == 1);

        const QString second = local->container();
        QVERIFY(docker({QStringLiteral("kill"), second}));
        QTRY_COMPARE_WITH_TIMEOUT(local->state(), LocalRunner::State::Failed, 30000);
        QVERIFY2(local->message().startsWith(QLatin1String("The local model's server stopped again (exit code 137)")),
                 qPrintable(local->message()));
        const Result<QUrl> again = QCoro::waitFor(local->ready());
        QVERIFY2(again.ok(), qPrintable(again.error()));
        QVERIFY(local->container() != second);
        local.reset();
        QVERIFY2(inspect(second).isEmpty() &&
                     docker({QStringLiteral("ps"), QStringLiteral("-aq"), QStringLiteral("--filter"),
                             QStringLiteral("name=sandpiper-llama-%1-").arg(QCoreApplication::applicationPid())})
                         ->trimmed()
                         .isEmpty(),
                 "no container is left once the runner goes");
    }

    // Unused for the idle time, the container stops and is gone, as the child process would.
    void stopsWhenIdle()
    {
        auto local = runner();
        local->setIdleStop(500ms);
        QVERIFY(QCoro::waitFor(local->ready()).ok());
        const QString container = local->container();
        QTRY_COMPARE_WITH_TIMEOUT(local->state(), LocalRunner::State::Stopped, 15000);
        QVERIFY2(local->message().contains(QLatin1String("without use")), qPrintable(local->message()));
        QVERIFY(local->container().isEmpty());
        QTRY_VERIFY2_WITH_TIMEOUT(inspect(container).isEmpty(), "the container is gone", 20000);
    }

    // A container that a Sandpiper which was killed left behind goes when the next one starts;
    // one of a Sandpiper that still runs stays.
    void leftContainersOfAGoneAppAreRemoved()
    {
        const auto started = [&](const QString &name, qint64 owner) {
            return docker({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--name"), name,
                           QStringLiteral("--label"), QStringLiteral("sandpiper.llama.owner=%1").arg(owner),
                           QStringLiteral("--network"), QStringLiteral("none"), QStringLiteral("--entrypoint"),
                           QStringLiteral("/bin/sleep"), m_image, QStringLiteral("300")})
                .has_value();
        };
        const QString orphan = QStringLiteral("sandpiper-llama-test-orphan-%1").arg(QCoreApplication::applicationPid());
        const QString owned = QStringLiteral("sandpiper-llama-test-owned-%1").arg(QCoreApplication::applicationPid());
        QVERIFY(started(orphan, deadPid));
        QVERIFY(started(owned, QCoreApplication::applicationPid()));
        const auto cleanup = qScopeGuard([&] { RunnerContainer::remove(owned); });
        auto local = runner();
        const Result<QUrl> url = QCoro::waitFor(local->ready());
        QVERIFY2(url.ok(), qPrintable(url.error()));
        QVERIFY2(inspect(orphan).isEmpty(), "the gone app's container was removed");
        QVERIFY2(!inspect(owned).isEmpty(), "a running app's container stays");
    }

    // Where llama-server comes from, in this order: the settings' path, PATH, the container.
    void theServerIsLookedForInOrder()
    {
        QTemporaryDir bin;
        const QByteArray path = qgetenv("PATH");
        const auto restore = qScopeGuard([&] { qputenv("PATH", path); });
        qputenv("PATH", bin.path().toLocal8Bit());
        RunnerProgram found = RunnerProgram::find(QString());
        QVERIFY(found.isContainer());
        QCOMPARE(found.image, m_image);
        QCOMPARE(found.describe(), QStringLiteral("llama-server in a container (image %1)").arg(m_image));

        QVERIFY(LlamaServer::writeLauncher(bin.filePath(QStringLiteral("llama-server"))).isEmpty());
        found = RunnerProgram::find(QString());
        QVERIFY(!found.isContainer());
        QCOMPARE(found.program, bin.filePath(QStringLiteral("llama-server")));

        found = RunnerProgram::find(QStringLiteral("/opt/llama/llama-server"));
        QCOMPARE(found.program, QStringLiteral("/opt/llama/llama-server"));
        QCOMPARE(found.describe(), QStringLiteral("llama-server at /opt/llama/llama-server"));

        // No GPU reaches the container: it is not asked, and nothing is offloaded.
        const DeviceProbe probe = DeviceProbe::run(RunnerProgram::container(m_image));
        QVERIFY(!probe.listed);
        RunnerPlan plan;
        plan.offloadTo(probe);
        QCOMPARE(plan.gpuLayers, 0);
        QVERIFY2(plan.offload.contains(QLatin1String("in a container, without the GPU")), qPrintable(plan.offload));
    }
};

QTEST_GUILESS_MAIN(TestContainerRunner)
#include "tst_containerrunner.moc"
