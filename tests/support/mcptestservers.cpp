#include "mcptestservers.h"

#include <mcp/mcpconfigfile.h>

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

namespace Sandpiper::Test::McpTestServers {

namespace {

QString modules()
{
    const QString configured = qEnvironmentVariable("SANDPIPER_MCP_SERVERS");
    if (!configured.isEmpty())
        return configured;
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) +
           QStringLiteral("/sandpiper/npm/node_modules");
}

// Relative to modules(), where the servers run from: no path of this machine in what they show.
QString script(const QString &package)
{
    return QStringLiteral("@modelcontextprotocol/") + package + QStringLiteral("/dist/index.js");
}

McpServerConfig nodeServer(const QString &name, const QString &package, const QStringList &args)
{
    McpServerConfig config;
    config.name = name;
    config.command = QStringLiteral("node");
    config.args = QStringList{script(package)} + args;
    config.cwd = modules();
    return config;
}

quint16 freePort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost);
    return server.serverPort();
}

} // namespace

QString unavailableReason()
{
    if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
        return QStringLiteral("node is not installed (scripts/buildroot-packages.txt has it)");
    for (const QString &package : {QStringLiteral("server-everything"), QStringLiteral("server-filesystem")}) {
        if (!QFileInfo::exists(modules() + QLatin1Char('/') + script(package)))
            return QStringLiteral("the MCP reference server %1 is not installed in %2 (scripts/test installs it)")
                .arg(package, modules());
    }
    return {};
}

McpServerConfig everything(const QString &name)
{
    return nodeServer(name, QStringLiteral("server-everything"), {QStringLiteral("stdio")});
}

McpServerConfig filesystem(const QString &folder, const QString &name)
{
    return nodeServer(name, QStringLiteral("server-filesystem"), {folder});
}

McpServerConfig misbehaving(const QString &mode, const QString &name)
{
    McpServerConfig config;
    config.name = name;
    config.command = QStringLiteral("python3");
    config.args = {QStringLiteral(SANDPIPER_TEST_SUPPORT_DIR "/misbehaving-mcp-server.py"), mode};
    return config;
}

HttpServer::HttpServer(const QString &mode)
    : m_process(std::make_unique<QProcess>())
{
    const quint16 port = freePort();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("PORT"), QString::number(port));
    m_process->setProcessEnvironment(environment);
    m_process->setStandardOutputFile(QProcess::nullDevice());
    m_process->setStandardErrorFile(QProcess::nullDevice());
    m_process->setWorkingDirectory(modules());
    m_process->start(QStringLiteral("node"), {script(QStringLiteral("server-everything")), mode});
    const QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired() && m_process->state() != QProcess::NotRunning) {
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, port);
        if (probe.waitForConnected(200)) {
            m_url = QStringLiteral("http://127.0.0.1:%1/%2")
                        .arg(port)
                        .arg(mode == QLatin1String("sse") ? QStringLiteral("sse") : QStringLiteral("mcp"));
            return;
        }
        QTest::qWait(100);
    }
}

HttpServer::~HttpServer()
{
    m_process->kill();
    m_process->waitForFinished(3000);
}

QString writeConfig(const QString &folder, const QList<McpServerConfig> &servers)
{
    const QString path = folder + QStringLiteral("/mcp.json");
    QFile::remove(path);
    const QString error = McpConfigFile::read(path).write(path, servers);
    if (!error.isEmpty())
        qFatal("cannot write %s: %s", qPrintable(path), qPrintable(error));
    return path;
}

} // namespace Sandpiper::Test::McpTestServers
