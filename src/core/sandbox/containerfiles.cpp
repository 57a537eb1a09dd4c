#include "sandbox/containerfiles.h"

#include "logging.h"
#include "sandbox/dockercli.h"
#include "sandbox/sandboxfolder.h"
#include "sandbox/tarreader.h"
#include "sandbox/tarwriter.h"

#include <QCoroProcess>
#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSet>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

constexpr qint64 chunkBytes = 256 * 1024;
constexpr qint64 maxQueuedBytes = 4 * chunkBytes;
constexpr auto dataFolder = "/mnt/data";

std::chrono::milliseconds left(const QDeadlineTimer &deadline)
{
    return std::max(1ms, std::chrono::milliseconds(deadline.remainingTime()));
}

QString errorText(QProcess &process)
{
    const QString detail = QString::fromUtf8(process.readAllStandardError()).trimmed();
    return detail.section(QLatin1Char('\n'), -3);
}

QStringList inDataFolder(const QStringList &names)
{
    QStringList paths;
    paths.reserve(names.size());
    for (const QString &name : names)
        paths << QLatin1String(dataFolder) + QLatin1Char('/') + name;
    return paths;
}

} // namespace

qint64 ContainerFiles::room(const SandboxFolder &folder, const QStringList &names, qint64 diskLimit)
{
    if (diskLimit <= 0)
        return std::numeric_limits<qint64>::max();
    qint64 replaced = 0;
    for (const QString &name : names)
        replaced += QFileInfo(folder.hostPath(name)).size();
    return std::max<qint64>(0, diskLimit - folder.usage().bytes + replaced);
}

QCoro::Task<ContainerFiles::Listing> ContainerFiles::list(Container container, QStringList names,
                                                          std::chrono::milliseconds timeout)
{
    Listing listing;
    if (names.isEmpty())
        co_return listing;
    // Every path starts with the folder, so none reads as an option or an expression of find.
    const auto result =
        co_await DockerCli::run(QStringList{QStringLiteral("exec"), QStringLiteral("-u"), container.user,
                                            container.name, QStringLiteral("find")} +
                                    inDataFolder(names) +
                                    QStringList{QStringLiteral("-maxdepth"), QStringLiteral("0"),
                                                QStringLiteral("-printf"), QStringLiteral("%y %s %p\\0")},
                                {}, timeout, container.engine);
    // find says 1 when a name is missing, which is no reason to distrust the rest.
    if (!result.started || result.timedOut || (result.exitCode != 0 && result.exitCode != 1)) {
        listing.error = tr("The files in the sandbox could not be listed: %1").arg(result.errorMessage());
        qCWarning(lcSandbox) << "listing in" << container.name << "failed:" << listing.error;
        co_return listing;
    }
    listing.regularFiles = parseListing(result.standardOutput, names);
    co_return listing;
}

ContainerFiles::Sizes ContainerFiles::parseListing(const QByteArray &output, const QStringList &names)
{
    const QString prefix = QLatin1String(dataFolder) + QLatin1Char('/');
    const QSet<QString> asked(names.cbegin(), names.cend());
    Sizes sizes;
    for (const QByteArray &record : output.split('\0')) {
        // "f 1234 /mnt/data/name": the type, the size, the path (which may hold spaces).
        const qsizetype afterType = record.indexOf(' ');
        const qsizetype afterSize = afterType < 0 ? -1 : record.indexOf(' ', afterType + 1);
        if (afterType != 1 || afterSize < 0 || record.at(0) != 'f')
            continue;
        bool ok = false;
        const qint64 size = record.mid(afterType + 1, afterSize - afterType - 1).toLongLong(&ok);
        const QString path = QString::fromUtf8(record.mid(afterSize + 1));
        if (!ok || size < 0 || !path.startsWith(prefix))
            continue;
        if (const QString name = path.mid(prefix.size());
            asked.contains(name) && SandboxFolder::nameProblem(name).isEmpty())
            sizes.insert(name, size);
    }
    return sizes;
}

QCoro::Task<QString> ContainerFiles::remove(Container container, QStringList names, std::chrono::milliseconds timeout)
{
    if (names.isEmpty())
        co_return QString();
    const auto result = co_await DockerCli::run(QStringList{QStringLiteral("exec"), QStringLiteral("-u"),
                                                            container.user, container.name, QStringLiteral("rm"),
                                                            QStringLiteral("-f"), QStringLiteral("--")} +
                                                    inDataFolder(names),
                                                {}, timeout, container.engine);
    if (result.ok())
        co_return QString();
    const QString error = tr("The files could not be removed from the sandbox: %1").arg(result.errorMessage());
    qCWarning(lcSandbox) << "removal in" << container.name << "failed:" << error;
    co_return error;
}

QCoro::Task<ContainerFiles::Fetched> ContainerFiles::fetch(Container container, QString folder, QStringList names,
                                                           qint64 maxBytes, std::chrono::milliseconds timeout)
{
    Fetched fetched;
    if (names.isEmpty())
        co_return fetched;
    const QDeadlineTimer deadline(timeout);
    QProcess process;
    container.engine.applyTo(process);
    const QStringList arguments = QStringList{QStringLiteral("exec"),
                                              QStringLiteral("-u"),
                                              container.user,
                                              container.name,
                                              QStringLiteral("tar"),
                                              QStringLiteral("-c"),
                                              QStringLiteral("-f"),
                                              QStringLiteral("-"),
                                              QStringLiteral("-C"),
                                              QLatin1String(dataFolder),
                                              QStringLiteral("--no-recursion"),
                                              QStringLiteral("--")} +
                                  names;
    if (!co_await qCoro(process).start(DockerCli::program(), arguments)) {
        fetched.error = tr("The files could not be copied from the sandbox: %1").arg(process.errorString());
        co_return fetched;
    }
    // The wait below is for readyRead; the end of tar has to wake it too, at once.
    QObject::connect(&process, &QProcess::finished, &process, [&process] { Q_EMIT process.readyRead(); });
    TarReader reader(folder, maxBytes);
    reader.expectOnly(names);
    bool readable = true;
    while (readable) {
        if (process.bytesAvailable() > 0) {
            readable = reader.feed(process.readAllStandardOutput());
            continue;
        }
        if (process.state() == QProcess::NotRunning)
            break;
        if (deadline.hasExpired()) {
            fetched.error = tr("The files took longer than %1 s to come from the sandbox; the copy was stopped.")
                                .arg(std::chrono::duration_cast<std::chrono::seconds>(timeout).count());
            break;
        }
        co_await qCoro(process).waitForReadyRead(std::min(left(deadline), std::chrono::milliseconds(1s)));
    }
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        co_await qCoro(process).waitForFinished(5s);
    }
    reader.finish();
    fetched.written = reader.written();
    fetched.refused = reader.refused();
    fetched.refusedNames = reader.refusedNames();
    if (fetched.error.isEmpty())
        fetched.error = reader.error();
    // tar says so for names that are missing (they are checked, and refused, afterwards); an exec
    // that could not run at all is an error.
    if (fetched.error.isEmpty() && process.exitCode() != 0 && process.exitCode() != 2)
        fetched.error = tr("The files could not be copied from the sandbox: %1").arg(errorText(process));
    if (!fetched.error.isEmpty())
        qCWarning(lcSandbox) << "copy from" << container.name << "failed:" << fetched.error;
    co_return fetched;
}

QCoro::Task<QString> ContainerFiles::upload(Container container, SandboxFolder folder, QStringList names,
                                            std::chrono::milliseconds timeout)
{
    if (names.isEmpty())
        co_return QString();
    const QDeadlineTimer deadline(timeout);
    QProcess process;
    container.engine.applyTo(process);
    if (!co_await qCoro(process).start(
            DockerCli::program(), {QStringLiteral("exec"), QStringLiteral("-i"), QStringLiteral("-u"), container.user,
                                   container.name, QStringLiteral("tar"), QStringLiteral("-x"), QStringLiteral("-f"),
                                   QStringLiteral("-"), QStringLiteral("-C"), QLatin1String(dataFolder),
                                   QStringLiteral("--no-same-permissions"), QStringLiteral("--no-overwrite-dir")}))
        co_return tr("The files could not be copied into the sandbox: %1").arg(process.errorString());

    QString error;
    for (const QString &name : std::as_const(names)) {
        // Opened without following links; what was opened is what is sent.
        SandboxFolder::Opened opened = folder.open(name, std::numeric_limits<qint64>::max());
        if (!opened) {
            qCWarning(lcSandbox) << "not sent into the sandbox:" << opened.error;
            continue;
        }
        const qint64 mtime = QFileInfo(*opened.file).lastModified().toSecsSinceEpoch();
        process.write(TarWriter::fileHeader(name, opened.size, mtime));
        qint64 sent = 0;
        while (sent < opened.size && process.state() == QProcess::Running) {
            QByteArray chunk = opened.file->read(std::min(chunkBytes, opened.size - sent));
            if (chunk.isEmpty()) // the file shrank since it was opened: the header said more
                chunk = QByteArray(qsizetype(std::min(chunkBytes, opened.size - sent)), '\0');
            sent += chunk.size();
            process.write(chunk);
            while (process.bytesToWrite() > maxQueuedBytes && process.state() == QProcess::Running &&
                   !deadline.hasExpired())
                co_await qCoro(process).waitForBytesWritten(std::min(left(deadline), std::chrono::milliseconds(1s)));
            if (deadline.hasExpired())
                break;
        }
        process.write(TarWriter::padding(opened.size));
        if (deadline.hasExpired() || process.state() != QProcess::Running)
            break;
    }
    process.write(TarWriter::end());
    process.closeWriteChannel();
    // (Waiting for a process that has ended already says false.)
    if (process.state() != QProcess::NotRunning && !co_await qCoro(process).waitForFinished(left(deadline))) {
        process.kill();
        co_await qCoro(process).waitForFinished(5s);
        error = tr("The files took longer than %1 s to reach the sandbox; the copy was stopped.")
                    .arg(std::chrono::duration_cast<std::chrono::seconds>(timeout).count());
    } else if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        error = tr("The files could not be copied into the sandbox: %1").arg(errorText(process));
    }
    if (!error.isEmpty())
        qCWarning(lcSandbox) << "copy into" << container.name << "failed:" << error;
    co_return error;
}

} // namespace Sandpiper
