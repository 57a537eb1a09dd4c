#include "llamaserver.h"

#include <localmodels/runnercontainer.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTimer>

namespace Sandpiper::Test {

namespace {

// Where tests/llama/setup.sh keeps the sid root and the model (as scripts/lib/common.sh has it).
QString llamaFolder()
{
    QString cache = qEnvironmentVariable("SANDPIPER_CACHE");
    if (cache.isEmpty()) {
        QString xdg = qEnvironmentVariable("XDG_CACHE_HOME");
        if (xdg.isEmpty())
            xdg = QDir::homePath() + QStringLiteral("/.cache");
        cache = xdg + QStringLiteral("/sandpiper");
    }
    return cache + QStringLiteral("/llama");
}

QString root()
{
    return llamaFolder() + QStringLiteral("/root");
}

QString model()
{
    return llamaFolder() + QStringLiteral("/tiny.gguf");
}

// The multiarch folder of the root's libraries (x86_64-linux-gnu, aarch64-linux-gnu, ...), the
// one that holds its dynamic loader.
QString libraryFolder(QString *loader)
{
    const QDir lib(root() + QStringLiteral("/usr/lib"));
    for (const QString &triplet : lib.entryList({QStringLiteral("*-linux-gnu*")}, QDir::Dirs)) {
        const QDir folder(lib.filePath(triplet));
        const QStringList loaders = folder.entryList({QStringLiteral("ld-linux*.so*")}, QDir::Files);
        if (!loaders.isEmpty()) {
            *loader = folder.filePath(loaders.first());
            return folder.path();
        }
    }
    return {};
}

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace

LlamaServer::LlamaServer() = default;

LlamaServer::~LlamaServer()
{
    stop();
}

QString LlamaServer::modelPath()
{
    return model();
}

QList<qint64> LlamaServer::processesNaming(const QString &text)
{
    QList<qint64> found;
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList({QStringLiteral("[0-9]*")}, QDir::Dirs)) {
        QFile commandLine(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (commandLine.open(QIODevice::ReadOnly) && commandLine.readAll().contains(text.toUtf8()))
            found.append(pid.toLongLong());
    }
    return found;
}

QString LlamaServer::rootPath()
{
    return root();
}

std::optional<QByteArray> LlamaServer::docker(const QStringList &arguments)
{
    QProcess process;
    process.setProcessEnvironment(RunnerContainer::environment());
    process.start(QStringLiteral("docker"), arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return std::nullopt;
    return process.readAllStandardOutput();
}

QJsonObject LlamaServer::chat(const QUrl &baseUrl)
{
    QNetworkAccessManager network;
    QNetworkRequest request(QUrl(baseUrl.toString() + QStringLiteral("/chat/completions")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    const QJsonObject body{
        {QStringLiteral("model"), QStringLiteral("tiny")},
        {QStringLiteral("max_tokens"), 16},
        {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                            {QStringLiteral("content"), QStringLiteral("Hello")}}}}};
    std::unique_ptr<QNetworkReply> reply(network.post(request, QJsonDocument(body).toJson()));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(30000);
    return QJsonDocument::fromJson(reply->readAll()).object();
}

QString LlamaServer::unavailableReason()
{
    QFile unavailable(llamaFolder() + QStringLiteral("/unavailable"));
    if (unavailable.open(QIODevice::ReadOnly))
        return QStringLiteral("the llama.cpp test server could not be set up: %1")
            .arg(QString::fromUtf8(unavailable.readAll()).trimmed());
    if (!QFile::exists(root() + QStringLiteral("/usr/bin/llama-server")) || !QFile::exists(model()))
        return QStringLiteral("the llama.cpp test server is not set up in %1 (scripts/test runs tests/llama/setup.sh)")
            .arg(llamaFolder());
    return {};
}

std::optional<LlamaServer::Command> LlamaServer::command(QString *error)
{
    QString loader;
    const QString libraries = libraryFolder(&loader);
    if (libraries.isEmpty()) {
        *error = QStringLiteral("no dynamic loader in %1").arg(root());
        return std::nullopt;
    }
    // Debian's ggml picks its CPU code from a folder compiled in as an absolute path, which
    // outside the root is not there; the variant for every x86-64 (or the first one) will do.
    const QDir backends(libraries + QStringLiteral("/ggml/backends0"));
    QStringList cpu = backends.entryList({QStringLiteral("libggml-cpu-x64.so")}, QDir::Files);
    if (cpu.isEmpty())
        cpu = backends.entryList({QStringLiteral("libggml-cpu*.so")}, QDir::Files, QDir::Name);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (!cpu.isEmpty())
        environment.insert(QStringLiteral("GGML_BACKEND_PATH"), backends.filePath(cpu.first()));
    return Command{loader,
                   {QStringLiteral("--library-path"),
                    QStringList{libraries, libraries + QStringLiteral("/llama"),
                                root() + QStringLiteral("/lib/") + QDir(libraries).dirName()}
                        .join(QLatin1Char(':')),
                    root() + QStringLiteral("/usr/bin/llama-server")},
                   environment};
}

QString LlamaServer::writeLauncher(const QString &path, const QString &before)
{
    QString why;
    const std::optional<Command> server = command(&why);
    if (!server)
        return why;
    const auto quoted = [](const QString &word) -> QString {
        return QLatin1Char('\'') + QString(word).replace(QLatin1Char('\''), QLatin1String("'\\''")) + QLatin1Char('\'');
    };
    QString text = QStringLiteral("#!/bin/sh\n");
    if (server->environment.contains(QStringLiteral("GGML_BACKEND_PATH")))
        text += QStringLiteral("export GGML_BACKEND_PATH=%1\n")
                    .arg(quoted(server->environment.value(QStringLiteral("GGML_BACKEND_PATH"))));
    text += before;
    QStringList words{quoted(server->program)};
    for (const QString &word : server->leading)
        words << quoted(word);
    text += QStringLiteral("exec %1 \"$@\"\n").arg(words.join(QLatin1Char(' ')));
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly) || script.write(text.toUtf8()) < 0)
        return script.errorString();
    script.close();
    if (!script.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner))
        return script.errorString();
    return {};
}

QString LlamaServer::writeListingLauncher(const QString &path, const QString &asked, int seconds)
{
    return writeLauncher(path, QStringLiteral("if [ \"$1\" = --list-devices ]; then\n"
                                              "  echo asked >> '%1'\n"
                                              "  sleep %2\n"
                                              "  printf 'Available devices:\\n"
                                              "  Vulkan0: Fake GPU (8192 MiB, 8000 MiB free)\\n'\n"
                                              "  exit 0\n"
                                              "fi\n")
                                   .arg(asked)
                                   .arg(seconds));
}

bool LlamaServer::start(const QStringList &extraArguments)
{
    m_error.clear();
    const std::optional<Command> server = command(&m_error);
    if (!server)
        return false;
    m_port = freePort();
    const QStringList arguments =
        server->leading +
        QStringList{// One slot and one thread keep the CPU quiet; the sampling is the model's own.
                    QStringLiteral("-m"),      model(),
                    QStringLiteral("--host"),  QStringLiteral("127.0.0.1"),
                    QStringLiteral("--port"),  QString::number(m_port),
                    QStringLiteral("-c"),      QStringLiteral("4096"),
                    QStringLiteral("-np"),     QStringLiteral("1"),
                    QStringLiteral("-t"),      QStringLiteral("1"),
                    QStringLiteral("-tb"),     QStringLiteral("1"),
                    QStringLiteral("--jinja"), QStringLiteral("--temp"),
                    QStringLiteral("1.0"),     QStringLiteral("--top-k"),
                    QStringLiteral("0"),       QStringLiteral("--top-p"),
                    QStringLiteral("1.0"),     QStringLiteral("--min-p"),
                    QStringLiteral("0.0"),     QStringLiteral("--seed"),
                    QStringLiteral("42"),      QStringLiteral("-n"),
                    QStringLiteral("256"),     QStringLiteral("--alias"),
                    QStringLiteral("tiny"),    QStringLiteral("--no-webui")} +
        extraArguments;
    m_process.setProcessEnvironment(server->environment);
    m_process.setStandardOutputFile(m_logDir.filePath(QStringLiteral("llama-server.log")));
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.start(server->program, arguments);
    if (!m_process.waitForStarted(10000)) {
        m_error = QStringLiteral("llama-server did not start: %1").arg(m_process.errorString());
        return false;
    }
    if (!waitForHealth()) {
        stop();
        return false;
    }
    return true;
}

bool LlamaServer::waitForHealth()
{
    QNetworkAccessManager network;
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 60000) {
        if (m_process.state() == QProcess::NotRunning) {
            m_error = QStringLiteral("llama-server exited (%1):\n%2").arg(m_process.exitCode()).arg(logTail());
            return false;
        }
        QNetworkReply *reply =
            network.get(QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1/health").arg(m_port))));
        QEventLoop wait;
        QObject::connect(reply, &QNetworkReply::finished, &wait, &QEventLoop::quit);
        QTimer::singleShot(2000, &wait, &QEventLoop::quit);
        wait.exec();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->abort();
        reply->deleteLater();
        if (status == 200)
            return true;
        QTest::qWait(100);
    }
    m_error = QStringLiteral("llama-server did not answer /health within 60 s:\n%1").arg(logTail());
    return false;
}

void LlamaServer::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(5000)) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

QUrl LlamaServer::baseUrl() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(m_port));
}

QString LlamaServer::logTail() const
{
    QFile log(m_logDir.filePath(QStringLiteral("llama-server.log")));
    if (!log.open(QIODevice::ReadOnly))
        return {};
    const QByteArray all = log.readAll();
    return QString::fromUtf8(all.right(2000));
}

} // namespace Sandpiper::Test
