#include "sandbox/enginelocality.h"

#include "logging.h"
#include "sandbox/dockercli.h"

#include <QFile>
#include <QHash>
#include <QMutex>
#include <QTemporaryDir>
#include <QUuid>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

QMutex cacheMutex;
QHash<QString, EngineLocality::Kind> &cache()
{
    static QHash<QString, EngineLocality::Kind> answers;
    return answers;
}

} // namespace

QString EngineLocality::engineKey(const DockerCli::Engine &engine)
{
    return QStringList{DockerCli::program(), engine.host, engine.context}.join(QLatin1Char('\n'));
}

void EngineLocality::forget()
{
    const QMutexLocker lock(&cacheMutex);
    cache().clear();
}

QCoro::Task<EngineLocality::Kind> EngineLocality::of(QString image, DockerCli::Engine engine)
{
    const QString key = engineKey(engine);
    {
        const QMutexLocker lock(&cacheMutex);
        if (const auto known = cache().constFind(key); known != cache().constEnd())
            co_return *known;
    }
    QTemporaryDir probe;
    const QByteArray marker = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    QFile file(probe.path() + QStringLiteral("/marker"));
    if (!probe.isValid() || !file.open(QIODevice::WriteOnly) || file.write(marker) != marker.size()) {
        qCWarning(lcSandbox) << "cannot write the marker file for the engine probe";
        co_return Kind::Unknown;
    }
    file.close();
    // Readable by whichever user the image runs as.
    QFile::setPermissions(probe.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                            QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
    QFile::setPermissions(file.fileName(), QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther);
    const auto result = co_await DockerCli::run(
        {QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--pull"), QStringLiteral("never"),
         QStringLiteral("--network"), QStringLiteral("none"), QStringLiteral("--read-only"), QStringLiteral("-v"),
         QStringLiteral("%1:/probe:ro").arg(probe.path()), QStringLiteral("--entrypoint"), QStringLiteral("cat"), image,
         QStringLiteral("/probe/marker")},
        {}, 60s, engine);
    Kind kind = Kind::Unknown;
    if (result.ok() && result.standardOutput == marker)
        kind = Kind::Local;
    else if (result.started && !result.timedOut && result.exitCode == 1 &&
             QString::fromUtf8(result.standardError).contains(QLatin1String("No such file")))
        kind = Kind::Remote; // the container ran, and the marker was not there (not merely unreadable)
    if (kind == Kind::Unknown) {
        qCWarning(lcSandbox) << "cannot tell whether the engine is local:" << result.errorMessage();
        co_return kind;
    }
    qCInfo(lcSandbox) << "the Docker engine is" << (kind == Kind::Local ? "local" : "remote");
    const QMutexLocker lock(&cacheMutex);
    cache().insert(key, kind);
    co_return kind;
}

} // namespace Sandpiper
