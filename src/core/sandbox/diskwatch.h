#pragma once

#include "sandbox/sandboxfolder.h"

#include <QElapsedTimer>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <chrono>

class QSocketNotifier;

namespace Sandpiper {

// Watches how much a conversation's folder holds while its sandbox runs, and says when the
// sandbox took it past its limit or filled the disk. Needs no root and works on any filesystem:
// inotify says when something changed (the folder is then measured, at most every 250 ms), and a
// regular look catches what inotify cannot see (every second while code runs, every 5 s when
// idle); without inotify (no more instances, too many folders to watch) the folder is measured
// every 250 ms while code runs and every second when idle. A slow measurement spaces the next
// ones out, so a folder of a million files cannot take the whole processor. Starting and ending
// an execution measure only when something changed, so a run that writes nothing costs nothing.
//
// Growth is what counts: a folder already past its limit (the files stay for the user) may
// shrink, and may grow again up to the lowest size it had since rebase(), not beyond. Folders
// nested deeper than SandboxFolder measures are not counted; while such a folder exists, a
// nearly full disk stops the execution whether or not the measured part grew.
class DiskWatch : public QObject
{
    Q_OBJECT

public:
    enum class Method { Inotify, Polling };
    enum class Breach {
        FolderLimit,    // the folder holds more than its limit
        DiskAlmostFull, // less than the minimum is free on the disk, and the folder grew
    };
    Q_ENUM(Breach)
    struct Limits {
        qint64 folderBytes = 0;  // 0: no limit
        qint64 minFreeBytes = 0; // 0: the free space is not watched
    };

    // Between measurements while code runs (by polling, or on inotify's changes)...
    static constexpr std::chrono::milliseconds minInterval{250};
    // ...and by polling while none runs.
    static constexpr std::chrono::milliseconds idleInterval{1000};
    // With inotify, the look for what it cannot see, while code runs and while none does.
    static constexpr std::chrono::milliseconds safetyInterval{1000};
    static constexpr std::chrono::milliseconds idleSafetyInterval{5000};

    DiskWatch(SandboxFolder folder, Limits limits, Method method = Method::Inotify, QObject *parent = nullptr);
    ~DiskWatch() override;

    // Starts watching (from the thread the watch lives in) and measures at once.
    void start();
    void stop();
    bool isActive() const { return m_active; }
    // What the watch uses: Polling when inotify was asked for but is not available.
    Method method() const { return m_method; }
    const Limits &limits() const { return m_limits; }
    // A new period starts now (an execution, or the idle time after it): growth is measured
    // from here. The free disk space is watched only while an execution runs, so that the
    // user's own uploads never stop the sandbox.
    void rebase(bool executionRunning);
    // The folder's size at the last measurement.
    qint64 lastUsage() const { return m_lastUsage; }
    // Measures now and reports a breach.
    void check();

Q_SIGNALS:
    // Emitted at the first breach of a period, and again whenever the folder has grown by a
    // further step since (the sandbox keeps writing though it was told to stop).
    void breached(Sandpiper::DiskWatch::Breach breach, qint64 usageBytes);

private:
    void startInotify();
    void stopInotify();
    // Reads what inotify has to say; true when something changed.
    bool drainEvents();
    void readEvents();
    SandboxFolder::Usage measure();
    void scheduleCheck();
    void watchFolder(int folderFd);

    SandboxFolder m_folder;
    Limits m_limits;
    Method m_requested;
    Method m_method;
    bool m_active = false;
    bool m_executionRunning = false;
    bool m_changed = true; // since the last measurement, as far as inotify knows
    int m_inotify = -1;
    QSocketNotifier *m_notifier = nullptr;
    QSet<int> m_watches;
    QTimer m_timer;       // the next measurement
    QTimer m_safetyTimer; // with inotify: the look that catches what it missed
    QElapsedTimer m_sinceCheck;
    std::chrono::milliseconds m_lastWalk{0};
    qint64 m_lastUsage = 0;
    qint64 m_lowest = 0;         // the smallest size since rebase()
    qint64 m_reportedUsage = -1; // the size at the last breach reported in this period
};

} // namespace Sandpiper
