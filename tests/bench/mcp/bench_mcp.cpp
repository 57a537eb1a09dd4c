// scripts/bench mcp: a tools/call round trip to server-everything's echo over stdio, through
// Sandpiper's registry (the caller's thread to the MCP thread, the pipe, and back), beside a
// plain JSON-RPC client written for this benchmark that talks to the same server on the same
// machine in the same run. Target: Sandpiper adds at most 1 ms at the median.
#include "mcptestservers.h"

#include <mcp/mcpserverregistry.h>

#include <QCoreApplication>
#include <QCoroTask>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using namespace std::chrono_literals;

namespace {

constexpr int warmUp = 50;
constexpr int runs = 500;

double percentile(QList<double> samples, double p)
{
    std::sort(samples.begin(), samples.end());
    const auto index = qsizetype(std::clamp(p * double(samples.size() - 1) + 0.5, 0.0, double(samples.size() - 1)));
    return samples.at(index);
}

QJsonObject echoCall(qint64 id, int i)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("method"), QStringLiteral("tools/call")},
            {QStringLiteral("params"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("echo")},
                         {QStringLiteral("arguments"),
                          QJsonObject{{QStringLiteral("message"), QStringLiteral("ping %1").arg(i)}}}}}};
}

// The simplest client that works: one blocking line out, one blocking line in.
class PlainClient
{
public:
    explicit PlainClient(const McpServerConfig &config)
    {
        m_process.setWorkingDirectory(config.cwd);
        m_process.start(config.command, config.args);
        if (!m_process.waitForStarted(10000))
            qFatal("the server did not start");
        request(
            {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
             {QStringLiteral("id"), 0},
             {QStringLiteral("method"), QStringLiteral("initialize")},
             {QStringLiteral("params"), QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                                                    {QStringLiteral("capabilities"), QJsonObject()},
                                                    {QStringLiteral("clientInfo"),
                                                     QJsonObject{{QStringLiteral("name"), QStringLiteral("bench")},
                                                                 {QStringLiteral("version"), QStringLiteral("1")}}}}}});
        write({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
               {QStringLiteral("method"), QStringLiteral("notifications/initialized")}});
    }
    ~PlainClient()
    {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
    }

    QJsonObject request(const QJsonObject &message)
    {
        write(message);
        const QJsonValue id = message.value(QLatin1String("id"));
        while (true) {
            while (!m_process.canReadLine())
                if (!m_process.waitForReadyRead(10000))
                    qFatal("the server did not answer");
            const QJsonObject answer = QJsonDocument::fromJson(m_process.readLine()).object();
            if (answer.value(QLatin1String("id")) == id)
                return answer;
        }
    }

private:
    void write(const QJsonObject &message)
    {
        m_process.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
    }

    QProcess m_process;
};

void row(const char *name, const QList<double> &samples)
{
    std::printf("%-28s %6lld %10.3f %10.3f %10.3f\n", name, qlonglong(samples.size()), percentile(samples, 0.5),
                percentile(samples, 0.95), *std::min_element(samples.begin(), samples.end()));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (const QString reason = McpTestServers::unavailableReason(); !reason.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(reason));
        return 1;
    }
    QTemporaryDir dir;
    const McpServerConfig server = McpTestServers::everything();

    QList<double> plain;
    {
        PlainClient client(server);
        for (int i = 0; i < warmUp + runs; ++i) {
            QElapsedTimer timer;
            timer.start();
            const QJsonObject answer = client.request(echoCall(i + 1, i));
            if (i >= warmUp)
                plain << double(timer.nsecsElapsed()) / 1e6;
            if (!answer.contains(QLatin1String("result")))
                qFatal("echo failed");
        }
    }

    QList<double> registryCalls;
    {
        McpServerRegistry registry({McpTestServers::writeConfig(dir.path(), {server}), dir.path(), 30s});
        const QJsonObject params{{QStringLiteral("name"), QStringLiteral("echo")}};
        for (int i = 0; i < warmUp + runs; ++i) {
            QJsonObject call = params;
            call.insert(QStringLiteral("arguments"),
                        QJsonObject{{QStringLiteral("message"), QStringLiteral("ping %1").arg(i)}});
            QElapsedTimer timer;
            timer.start();
            const McpReply reply = QCoro::waitFor(registry.call(server.name, QStringLiteral("tools/call"), call));
            if (i >= warmUp)
                registryCalls << double(timer.nsecsElapsed()) / 1e6;
            if (!reply.ok())
                qFatal("echo through the registry failed: %s", qPrintable(reply.message));
        }
    }

    std::printf("%-28s %6s %10s %10s %10s\n", "echo round trip (ms)", "runs", "median", "p95", "min");
    row("plain JSON-RPC client", plain);
    row("Sandpiper registry", registryCalls);
    const double added = percentile(registryCalls, 0.5) - percentile(plain, 0.5);
    std::printf("Sandpiper adds %.3f ms at the median (target: at most 1 ms)\n", added);
    const QJsonObject figures{{QStringLiteral("plain_p50_ms"), percentile(plain, 0.5)},
                              {QStringLiteral("plain_p95_ms"), percentile(plain, 0.95)},
                              {QStringLiteral("sandpiper_p50_ms"), percentile(registryCalls, 0.5)},
                              {QStringLiteral("sandpiper_p95_ms"), percentile(registryCalls, 0.95)},
                              {QStringLiteral("added_p50_ms"), added},
                              {QStringLiteral("target_met"), added <= 1.0}};
    std::printf("%s\n", QJsonDocument(figures).toJson(QJsonDocument::Compact).constData());
    return 0;
}
