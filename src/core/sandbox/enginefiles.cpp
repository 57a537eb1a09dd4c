#include "sandbox/enginefiles.h"

#include "logging.h"
#include "sandbox/containerfiles.h"
#include "sandbox/sandboxfolder.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QMutex>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

struct Entry {
    QString folder;
    QString name;
    EngineFiles::Kept kept;
    std::optional<EngineFiles::Version> fetched;
};

QMutex registryMutex;
QHash<QString, Entry> &registry()
{
    static QHash<QString, Entry> entries;
    return entries;
}

// The row and the session may spell the folder differently.
QString keyOf(const QString &folder, const QString &name)
{
    return QDir::cleanPath(QFileInfo(folder).absoluteFilePath()) + QLatin1Char('\n') + name;
}

// Large files over a remote connection: minutes, not the seconds of a local copy.
constexpr auto fetchTimeout = std::chrono::minutes(10);

} // namespace

void EngineFiles::keep(const QString &folder, const QString &name, const Kept &kept)
{
    const QMutexLocker lock(&registryMutex);
    registry().insert(keyOf(folder, name), Entry{folder, name, kept, std::nullopt});
}

void EngineFiles::drop(const QString &folder, const QString &name)
{
    const QMutexLocker lock(&registryMutex);
    registry().remove(keyOf(folder, name));
}

void EngineFiles::release(const QString &container)
{
    const QMutexLocker lock(&registryMutex);
    registry().removeIf([&container](const auto &entry) { return entry.value().kept.container.name == container; });
}

std::optional<EngineFiles::Kept> EngineFiles::find(const QString &folder, const QString &name)
{
    const QMutexLocker lock(&registryMutex);
    const auto entry = registry().constFind(keyOf(folder, name));
    if (entry == registry().constEnd())
        return std::nullopt;
    return entry->kept;
}

QStringList EngineFiles::keptIn(const QString &folder, const QString &container, bool fetched)
{
    const QString prefix = keyOf(folder, QString());
    const QMutexLocker lock(&registryMutex);
    QStringList names;
    for (auto entry = registry().cbegin(); entry != registry().cend(); ++entry)
        if (entry.key().startsWith(prefix) && entry->kept.container.name == container &&
            entry->fetched.has_value() == fetched)
            names << entry.key().mid(prefix.size());
    names.sort();
    return names;
}

std::optional<EngineFiles::Version> EngineFiles::fetchedVersion(const QString &folder, const QString &name)
{
    const QMutexLocker lock(&registryMutex);
    const auto entry = registry().constFind(keyOf(folder, name));
    return entry == registry().constEnd() ? std::nullopt : entry->fetched;
}

QList<EngineFiles::Waiting> EngineFiles::notFetched()
{
    QList<Waiting> waiting;
    {
        const QMutexLocker lock(&registryMutex);
        for (const Entry &entry : std::as_const(registry()))
            if (!entry.fetched)
                waiting.append({entry.folder, entry.name, entry.kept.size});
    }
    std::sort(waiting.begin(), waiting.end(), [](const Waiting &a, const Waiting &b) {
        return std::tie(a.folder, a.name) < std::tie(b.folder, b.name);
    });
    return waiting;
}

QCoro::Task<QString> EngineFiles::fetch(QString folder, QString name)
{
    const std::optional<Kept> kept = find(folder, name);
    if (!kept)
        co_return tr("“%1” stayed in the sandbox on the Docker engine, and that sandbox has stopped since: the file "
                     "is gone. Run the code again to make it again.")
            .arg(name);
    const qint64 room = ContainerFiles::room(SandboxFolder(folder), {name}, kept->diskLimit);
    const ContainerFiles::Fetched fetched =
        co_await ContainerFiles::fetch(kept->container, folder, {name}, room, fetchTimeout);
    if (fetched.written.contains(name)) {
        const QFileInfo info(SandboxFolder(folder).hostPath(name));
        const QMutexLocker lock(&registryMutex);
        if (auto entry = registry().find(keyOf(folder, name)); entry != registry().end())
            entry->fetched = Version{info.size(), info.lastModified().toMSecsSinceEpoch()};
        co_return QString();
    }
    QString why = fetched.error;
    if (why.contains(QLatin1String("No such container"))) {
        release(kept->container.name);
        why = tr("the sandbox that kept it is gone.");
    } else if (!fetched.refused.isEmpty()) {
        why = fetched.refused.join(QLatin1Char(' '));
    } else if (why.isEmpty()) {
        why = tr("it is no longer in the sandbox.");
    }
    qCWarning(lcSandbox) << "cannot fetch" << name << "from" << kept->container.name << ":" << why;
    co_return tr("“%1” could not be fetched from the Docker engine: %2").arg(name, why);
}

} // namespace Sandpiper
