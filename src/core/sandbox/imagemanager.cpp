#include "sandbox/imagemanager.h"

#include "logging.h"
#include "sandbox/dockercli.h"

#include <QCoroProcess>
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

QCoro::Task<bool> ImageManager::build(QString image, QString context)
{
    QPointer<ImageManager> self(this);
    m_lastError.clear();
    if (!QFileInfo::exists(context + QStringLiteral("/Dockerfile"))) {
        m_lastError = tr("There is no Dockerfile in %1.").arg(context);
        co_return false;
    }
    QProcess process;
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
    if (!co_await qCoro(process).start(DockerCli::program(),
                                       {QStringLiteral("build"), QStringLiteral("-t"), image, context})) {
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

} // namespace Sandpiper
