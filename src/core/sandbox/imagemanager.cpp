#include "sandbox/imagemanager.h"

#include "logging.h"
#include "sandbox/dockercli.h"
#include "sandbox/sandboxfolder.h"

#include <QCoroProcess>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QPointer>
#include <QProcess>
#include <QRegularExpression>

using namespace std::chrono_literals;

namespace Sandpiper {

QCoro::Task<bool> ImageManager::isPresent(QString image)
{
    const auto result = co_await DockerCli::run({QStringLiteral("image"), QStringLiteral("inspect"),
                                                 QStringLiteral("--format"), QStringLiteral("{{.Id}}"), image},
                                                {}, 20s);
    co_return result.ok();
}

QCoro::Task<QString> ImageManager::pythonVersion(QString image)
{
    const auto result = co_await DockerCli::run(
        {QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--pull"), QStringLiteral("never"),
         QStringLiteral("--network"), QStringLiteral("none"), QStringLiteral("--read-only"),
         QStringLiteral("--cap-drop"), QStringLiteral("ALL"), QStringLiteral("--security-opt"),
         QStringLiteral("no-new-privileges"), QStringLiteral("--user"), QStringLiteral("65534:65534"), image,
         QStringLiteral("python3"), QStringLiteral("-c"),
         QStringLiteral("import sys; print('%d.%d.%d' % sys.version_info[:3])")},
        {}, 20s);
    const QString version = QString::fromLatin1(result.standardOutput).trimmed();
    static const QRegularExpression shape(QStringLiteral("^\\d+\\.\\d+\\.\\d+$"));
    if (!result.ok() || !shape.match(version).hasMatch()) {
        qCWarning(lcSandbox) << "no Python version from" << image << result.errorMessage();
        co_return QString();
    }
    co_return version;
}

QCoro::Task<bool> ImageManager::build(QString image, QString context, DockerCli::Engine engine)
{
    QPointer<ImageManager> self(this);
    m_lastError.clear();
    if (!QFileInfo::exists(context + QStringLiteral("/Dockerfile"))) {
        m_lastError = tr("There is no Dockerfile in %1.").arg(context);
        co_return false;
    }
    QProcess process;
    engine.applyTo(process);
    process.setProcessChannelMode(QProcess::MergedChannels);
    QByteArray partial;
    QString lastLines;
    connect(&process, &QProcess::readyRead, this, [&] {
        partial += process.readAll();
        qsizetype newline;
        while ((newline = partial.indexOf('\n')) >= 0) {
            const QString line = QString::fromUtf8(partial.left(newline)).trimmed();
            partial.remove(0, newline + 1);
            if (line.isEmpty())
                continue;
            lastLines = QString(lastLines + QLatin1Char('\n') + line).right(2000);
            Q_EMIT progress(line);
        }
    });
    // --force-rm: a step that fails leaves no stopped container behind (the classic builder keeps it).
    if (!co_await qCoro(process).start(DockerCli::program(), {QStringLiteral("build"), QStringLiteral("--force-rm"),
                                                              QStringLiteral("-t"), image, context})) {
        if (self)
            m_lastError = tr("The Docker client could not be started: is Docker installed?");
        co_return false;
    }
    const bool finished = co_await qCoro(process).waitForFinished(60min);
    if (!self)
        co_return false;
    if (!finished) {
        process.kill();
        process.waitForFinished(2000);
        m_lastError = tr("Building the image took longer than an hour and was stopped.");
        co_return false;
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        m_lastError = tr("Building the image failed: %1").arg(lastLines.trimmed().section(QLatin1Char('\n'), -1));
        qCWarning(lcSandbox) << "image build failed:" << lastLines;
        co_return false;
    }
    co_return true;
}

QCoro::Task<bool> ImageManager::send(QString image, DockerCli::Engine engine)
{
    QPointer<ImageManager> self(this);
    m_lastError.clear();
    QProcess size;
    DockerCli::Engine::thisMachine().applyTo(size);
    size.start(DockerCli::program(), {QStringLiteral("image"), QStringLiteral("inspect"), QStringLiteral("--format"),
                                      QStringLiteral("{{.Size}}"), image});
    co_await qCoro(size).waitForFinished(20s);
    if (!self)
        co_return false;
    const qint64 total = size.readAllStandardOutput().trimmed().toLongLong();
    if (size.exitStatus() != QProcess::NormalExit || size.exitCode() != 0 || total <= 0) {
        m_lastError =
            tr("The image %1 is not on this machine either, so it cannot be sent; build it instead.").arg(image);
        co_return false;
    }

    QProcess save, load;
    DockerCli::Engine::thisMachine().applyTo(save);
    engine.applyTo(load);
    save.start(DockerCli::program(), {QStringLiteral("save"), image});
    load.start(DockerCli::program(), {QStringLiteral("load"), QStringLiteral("-q")});
    if (!co_await qCoro(save).waitForStarted(10s) || !co_await qCoro(load).waitForStarted(10s)) {
        if (self)
            m_lastError = tr("The Docker client could not be started: is Docker installed?");
        save.kill();
        load.kill();
        co_return false;
    }
    // The end of `docker save` has to wake the wait for its output too.
    connect(&save, &QProcess::finished, &save, [&save] { Q_EMIT save.readyRead(); });
    qint64 sent = 0;
    int shownPercent = -1;
    const QDeadlineTimer deadline(60min);
    while (!deadline.hasExpired() && load.state() == QProcess::Running) {
        if (save.bytesAvailable() == 0) {
            if (save.state() == QProcess::NotRunning)
                break;
            co_await qCoro(save).waitForReadyRead(1s);
            if (!self)
                co_return false;
            continue;
        }
        const QByteArray chunk = save.read(1024 * 1024);
        load.write(chunk);
        sent += chunk.size();
        while (load.bytesToWrite() > 4 * 1024 * 1024 && load.state() == QProcess::Running)
            co_await qCoro(load).waitForBytesWritten(1s);
        if (!self)
            co_return false;
        if (const int percent = int(std::min<qint64>(100, sent * 100 / total)); percent / 5 != shownPercent / 5) {
            shownPercent = percent;
            Q_EMIT progress(tr("Sending the image: %1 of %2")
                                .arg(SandboxFolder::formatBytes(sent), SandboxFolder::formatBytes(total)));
        }
    }
    load.closeWriteChannel();
    // (Waiting for a process that has ended already says false.)
    const bool saved = (save.state() == QProcess::NotRunning || co_await qCoro(save).waitForFinished(10s)) &&
                       save.exitStatus() == QProcess::NormalExit && save.exitCode() == 0;
    const bool loaded = (load.state() == QProcess::NotRunning || co_await qCoro(load).waitForFinished(10min)) &&
                        load.exitStatus() == QProcess::NormalExit && load.exitCode() == 0;
    if (!self)
        co_return false;
    if (!saved || !loaded || deadline.hasExpired()) {
        save.kill();
        load.kill();
        const QString said = QString::fromUtf8(saved ? load.readAllStandardError() : save.readAllStandardError());
        m_lastError = deadline.hasExpired() ? tr("Sending the image took longer than an hour and was stopped.")
                                            : tr("Sending the image failed: %1").arg(said.trimmed().section(u'\n', -1));
        qCWarning(lcSandbox) << "image send failed:" << said;
        co_return false;
    }
    Q_EMIT progress(tr("The image was sent: %1.").arg(SandboxFolder::formatBytes(sent)));
    co_return true;
}

} // namespace Sandpiper
