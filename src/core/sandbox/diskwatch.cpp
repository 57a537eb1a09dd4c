#include "sandbox/diskwatch.h"

#include "logging.h"

#include <QSocketNotifier>

#include <cerrno>
#include <cstring>
#include <optional>

#include <sys/inotify.h>
#include <unistd.h>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// Beyond this many folders the watch measures by polling: inotify watches are a per-user
// resource that other programs need too.
constexpr qsizetype maxWatches = 1000;
constexpr uint32_t watchMask = IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ONLYDIR;

// How much more the folder must grow after a breach before it is reported again.
qint64 escalationStep(qint64 limit)
{
    return std::max<qint64>(qint64(64) << 20, limit / 16);
}

std::chrono::milliseconds since(const QElapsedTimer &timer)
{
    return std::chrono::milliseconds(timer.isValid() ? timer.elapsed() : std::numeric_limits<int>::max());
}

} // namespace

DiskWatch::DiskWatch(SandboxFolder folder, Limits limits, Method method, QObject *parent)
    : QObject(parent)
    , m_folder(std::move(folder))
    , m_limits(limits)
    , m_requested(method)
    , m_method(method)
    , m_timer(this)
    , m_safetyTimer(this)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &DiskWatch::check);
    connect(&m_safetyTimer, &QTimer::timeout, this, &DiskWatch::scheduleCheck);
}

DiskWatch::~DiskWatch()
{
    stopInotify();
}

void DiskWatch::start()
{
    if (m_active)
        return;
    m_active = true;
    m_method = m_requested;
    if (m_method == Method::Inotify)
        startInotify();
    rebase(false);
    check();
}

void DiskWatch::stop()
{
    m_active = false;
    m_timer.stop();
    stopInotify();
}

void DiskWatch::startInotify()
{
    m_inotify = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (m_inotify < 0) {
        qCInfo(lcSandbox) << "no inotify for" << m_folder.root() << "(" << strerror(errno) << "); measuring it every"
                          << minInterval.count() << "ms";
        m_method = Method::Polling;
        return;
    }
    m_notifier = new QSocketNotifier(m_inotify, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &DiskWatch::readEvents);
    m_safetyTimer.start(idleSafetyInterval);
}

void DiskWatch::stopInotify()
{
    m_safetyTimer.stop();
    delete m_notifier;
    m_notifier = nullptr;
    if (m_inotify >= 0)
        ::close(m_inotify);
    m_inotify = -1;
    m_watches.clear();
}

void DiskWatch::readEvents()
{
    if (drainEvents())
        scheduleCheck();
}

bool DiskWatch::drainEvents()
{
    alignas(inotify_event) char buffer[16 * 1024];
    bool changed = false;
    while (m_inotify >= 0) {
        const ssize_t size = ::read(m_inotify, buffer, sizeof buffer);
        if (size <= 0)
            break;
        for (const char *p = buffer; p < buffer + size;) {
            const auto *event = reinterpret_cast<const inotify_event *>(p);
            if (event->mask & IN_IGNORED)
                m_watches.remove(event->wd); // its folder is gone
            else
                changed = true; // a change, or IN_Q_OVERFLOW: either way, measure
            p += sizeof(inotify_event) + event->len;
        }
    }
    m_changed = m_changed || changed;
    return changed;
}

void DiskWatch::scheduleCheck()
{
    if (!m_active || m_timer.isActive())
        return;
    const auto gap = std::max<std::chrono::milliseconds>(minInterval, 4 * m_lastWalk);
    const auto elapsed = since(m_sinceCheck);
    m_timer.start(elapsed >= gap ? 0ms : gap - elapsed);
}

void DiskWatch::watchFolder(int folderFd)
{
    if (m_inotify < 0)
        return;
    // Through the descriptor the walk opened, so the watch is on that very folder, never on
    // whatever a link swapped in under its name points to.
    const QByteArray path = "/proc/self/fd/" + QByteArray::number(folderFd);
    const int watch = m_watches.size() < maxWatches ? ::inotify_add_watch(m_inotify, path.constData(), watchMask) : -1;
    if (watch >= 0) {
        m_watches.insert(watch);
        return;
    }
    qCInfo(lcSandbox) << "cannot watch every folder of" << m_folder.root() << "; measuring it every"
                      << minInterval.count() << "ms";
    stopInotify();
    m_method = Method::Polling;
}

void DiskWatch::rebase(bool executionRunning)
{
    m_executionRunning = executionRunning;
    if (m_safetyTimer.isActive())
        m_safetyTimer.start(executionRunning ? safetyInterval : idleSafetyInterval);
    // Without inotify, or when it saw a change, the size has to be measured; else it is known.
    if (m_inotify >= 0)
        drainEvents();
    if (m_inotify < 0 || m_changed)
        measure();
    m_lowest = m_lastUsage;
    m_reportedUsage = -1;
    if (m_active && m_method == Method::Polling && !m_timer.isActive())
        m_timer.start(executionRunning ? minInterval : idleInterval);
}

SandboxFolder::Usage DiskWatch::measure()
{
    QElapsedTimer walk;
    walk.start();
    m_changed = false;
    const SandboxFolder::Usage usage =
        m_folder.usage(m_inotify >= 0 ? SandboxFolder::FolderVisitor([this](int fd) { watchFolder(fd); })
                                      : SandboxFolder::FolderVisitor());
    m_lastWalk = std::chrono::milliseconds(walk.elapsed());
    m_sinceCheck.start();
    m_lastUsage = usage.bytes;
    return usage;
}

void DiskWatch::check()
{
    if (!m_active)
        return;
    m_timer.stop();
    const SandboxFolder::Usage usage = measure();
    m_lowest = std::min(m_lowest, usage.bytes);
    if (m_method == Method::Polling)
        m_timer.start(std::max(m_executionRunning ? minInterval : idleInterval, 4 * m_lastWalk));

    std::optional<Breach> breach;
    if (m_limits.folderBytes > 0 && usage.bytes > std::max(m_limits.folderBytes, m_lowest)) {
        breach = Breach::FolderLimit;
    } else if (m_executionRunning && m_limits.minFreeBytes > 0 && (usage.bytes > m_lowest || !usage.complete)) {
        const qint64 free = m_folder.freeDiskBytes();
        if (free >= 0 && free < m_limits.minFreeBytes)
            breach = Breach::DiskAlmostFull;
    }
    if (!breach || (m_reportedUsage >= 0 && usage.bytes < m_reportedUsage + escalationStep(m_limits.folderBytes)))
        return;
    m_reportedUsage = usage.bytes;
    qCInfo(lcSandbox) << m_folder.root() << "breach" << *breach << "at" << usage.bytes << "bytes";
    Q_EMIT breached(*breach, usage.bytes);
}

} // namespace Sandpiper
